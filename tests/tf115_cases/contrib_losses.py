"""tf.contrib.losses cases: each deprecated loss's value, its op name and the LOSSES
collection it adds to, and tf.contrib.losses.metric_learning's losses on fixed embeddings."""
import numpy as np

P = np.array([[0.2, 0.7], [0.9, 0.1], [0.4, 0.6]], np.float32)
Y = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 0.0]], np.float32)
W = np.array([[1.0], [0.0], [2.0]], np.float32)
LOGITS = np.array([[0.5, 1.5], [2.0, -1.0], [0.1, 0.3]], np.float32)
EMB = np.array([[0.1, 0.9, 0.2], [0.8, 0.1, 0.3], [0.2, 0.8, 0.1], [0.9, 0.2, 0.2],
                [0.4, 0.4, 0.8], [0.3, 0.5, 0.7]], np.float32)
EMB_LABELS = np.array([0, 1, 0, 1, 2, 2], np.int64)


def _names(tf, tensors):
    return [tensors[k].op.name for k in sorted(tensors)]


def case_losses(tf):
    l = tf.contrib.losses
    p, y = tf.constant(P), tf.constant(Y)
    out = {
        "abs": l.absolute_difference(p, y),
        "abs_w": l.absolute_difference(p, y, weights=tf.constant(W)),
        "mse": l.mean_squared_error(p, y, weights=2.0),
        "log": l.log_loss(p, y, weights=tf.constant(W)),
        "cos": l.cosine_distance(tf.nn.l2_normalize(p, 1), tf.nn.l2_normalize(y, 1), axis=1),
        "pairwise": l.mean_pairwise_squared_error(p, y, weights=2.0),
        "sigmoid": l.sigmoid_cross_entropy(tf.constant(LOGITS), y, label_smoothing=0.1),
        "softmax": l.softmax_cross_entropy(tf.constant(LOGITS), y, weights=tf.constant([1.0, 0.0, 2.0]),
                                           label_smoothing=0.2),
        "sparse": l.sparse_softmax_cross_entropy(tf.constant(LOGITS), tf.constant([1, 0, 0])),
        "hinge": l.hinge_loss(tf.constant(LOGITS), y),
        "weighted": l.compute_weighted_loss(tf.constant([[1.0, 2.0], [3.0, 4.0]]),
                                            weights=tf.constant([[1.0], [0.0]])),
    }
    out["names"] = _names(tf, out)
    out["losses"] = [t.op.name for t in l.get_losses()]
    return out


def case_total_and_collections(tf):
    l = tf.contrib.losses
    v = tf.get_variable("v", initializer=tf.constant([1.0, 2.0]),
                        regularizer=lambda x: 0.5 * tf.reduce_sum(x * x))
    with tf.name_scope("tower"):
        mine = l.mean_squared_error(v, tf.constant([0.0, 0.0]))
    l.add_loss(tf.constant(3.0, name="three"))
    l.add_loss(tf.constant(10.0, name="ten"), loss_collection="other")
    return {"total": l.get_total_loss(), "no_reg": l.get_total_loss(False, name="plain"),
            "tower": [t.op.name for t in l.get_losses(scope="tower")],
            "reg": [t.op.name for t in l.get_regularization_losses()],
            "other": [t.op.name for t in l.get_losses(loss_collection="other")],
            "mine": mine}


def case_bad_shapes(tf):
    return {"x": tf.contrib.losses.absolute_difference(tf.constant([1.0, 2.0]),
                                                       tf.constant([1.0, 2.0, 3.0]))}


def case_metric_learning(tf):
    ml = tf.contrib.losses.metric_learning
    emb = tf.nn.l2_normalize(tf.constant(EMB), 1)
    labels = tf.constant(EMB_LABELS)
    anchors, positives = tf.constant(EMB[[0, 1, 4]]), tf.constant(EMB[[2, 3, 5]])
    return {
        "triplet": ml.triplet_semihard_loss(labels, emb, margin=0.5),
        "triplet_default": ml.triplet_semihard_loss(labels, emb),
        "triplet_raw": ml.triplet_semihard_loss(labels, tf.constant(EMB) * 3.0, margin=0.2),
        "contrastive": ml.contrastive_loss(tf.constant([1.0, 0.0, 1.0]),
                                           anchors, positives, margin=0.7),
        "npairs": ml.npairs_loss(tf.constant([0, 1, 2]), anchors, positives, reg_lambda=0.01),
        "lifted": ml.lifted_struct_loss(labels, emb, margin=0.8),
        "lifted_raw": ml.lifted_struct_loss(labels, tf.constant(EMB) * 2.0),
        "contrastive_default": ml.contrastive_loss(tf.constant([0, 1, 0]), anchors, positives),
        "losses": [t.op.name for t in tf.contrib.losses.get_losses()],
    }


case_metric_learning.tolerance = {"rtol": 1e-4, "atol": 1e-5}
