"""tf.contrib.kernel_methods' `sparse_multiclass_hinge_loss`: the Crammer & Singer multiclass
hinge loss, max over classes c of (logit_c - logit_label + [c != label]), floored at 0, per
example; then weighted and reduced as `tf.compat.v1.losses` do (added to `loss_collection`)."""
import tensorflow as tf

v1 = tf.compat.v1


def sparse_multiclass_hinge_loss(labels, logits, weights=1.0, scope=None,
                                 loss_collection=v1.GraphKeys.LOSSES,
                                 reduction=v1.losses.Reduction.SUM_BY_NONZERO_WEIGHTS):
    """`labels` [batch] or [batch, 1] int32/int64 class ids, `logits` [batch, classes]."""
    with v1.name_scope(scope, "sparse_multiclass_hinge_loss", (logits, labels)) as scope:
        rank = logits.get_shape().ndims
        if rank != 2:
            raise ValueError("logits should have rank 2 ([batch_size, num_classes]). Given "
                             f"rank is {rank}")
        classes = tf.shape(logits)[1]
        logits = tf.cast(logits, tf.float32)
        if labels.dtype not in (tf.int32, tf.int64):
            raise ValueError(f"Invalid dtype for labels: {labels.dtype}. Acceptable dtypes: "
                             "int32 and int64")
        if labels.get_shape().ndims not in (1, 2):
            raise ValueError("labels should have rank 1 ([batch_size]) or 2 ([batch_size, 1])"
                             f". Given rank is {labels.get_shape().ndims}")
        in_range = v1.assert_less(labels, tf.cast(classes, labels.dtype))
        with tf.control_dependencies([in_range]):
            labels = tf.reshape(labels, [-1])
        weights = tf.convert_to_tensor(weights)
        if weights.get_shape().ndims not in (0, 1, 2):
            raise ValueError("non-scalar weights should have rank 1 ([batch_size]) or 2 "
                             f"([batch_size, 1]). Given rank is {weights.get_shape().ndims}")
        if weights.get_shape().ndims > 0:
            weights = tf.reshape(weights, [-1])
            weights.get_shape().assert_is_compatible_with(labels.get_shape())
        label_logits = tf.gather(logits, labels, axis=1, batch_dims=1)[:, tf.newaxis]
        margins = logits - label_logits + tf.one_hot(labels, classes, on_value=0.0,
                                                     off_value=1.0)
        loss = tf.reduce_max(tf.nn.relu(margins), axis=1)
        return v1.losses.compute_weighted_loss(loss, weights, scope, loss_collection,
                                               reduction=reduction)
