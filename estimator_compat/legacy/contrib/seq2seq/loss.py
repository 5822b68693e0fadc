"""`tf.contrib.seq2seq.sequence_loss`: weighted cross-entropy over [batch, time] logits,
averaged or summed over time and batch as asked (TF 1.15's arithmetic, `div_no_nan` where
all weights are 0)."""
import tensorflow as tf


def sequence_loss(logits, targets, weights, average_across_timesteps=True,
                  average_across_batch=True, sum_over_timesteps=False, sum_over_batch=False,
                  softmax_loss_function=None, name=None):
    """Cross-entropy of `logits` [batch, time, classes] against `targets` [batch, time],
    times `weights` [batch, time]; a scalar, or [time] / [batch] / [batch, time] when an axis
    is neither averaged nor summed. A sum divides by the count of nonzero weights."""
    if len(logits.shape) != 3:
        raise ValueError("Logits must be a [batch_size x sequence_length x logits_num_classes] "
                         "tensor")
    if len(targets.shape) != 2:
        raise ValueError("Targets must be a [batch_size x sequence_length] tensor")
    if len(weights.shape) != 2:
        raise ValueError("Weights must be a [batch_size x sequence_length] tensor")
    if average_across_timesteps and sum_over_timesteps:
        raise ValueError("average_across_timesteps and sum_over_timesteps cannot be set to True "
                         "at same time.")
    if average_across_batch and sum_over_batch:
        raise ValueError("average_across_batch and sum_over_batch cannot be set to True at "
                         "same time.")
    with tf.name_scope(name or "sequence_loss"):
        num_classes = tf.shape(logits)[2]
        logits_flat = tf.reshape(logits, [-1, num_classes])
        targets_flat = tf.reshape(targets, [-1])
        if softmax_loss_function is None:
            crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets_flat,
                                                                      logits=logits_flat)
        else:
            crossent = softmax_loss_function(labels=targets_flat, logits=logits_flat)
        crossent *= tf.reshape(weights, [-1])
        if average_across_timesteps and average_across_batch:
            return tf.math.divide_no_nan(tf.reduce_sum(crossent), tf.reduce_sum(weights))
        if sum_over_timesteps and sum_over_batch:
            count = tf.cast(tf.math.count_nonzero(weights), tf.float32)
            return tf.math.divide_no_nan(tf.reduce_sum(crossent), count)
        crossent = tf.reshape(crossent, tf.shape(logits)[0:2])
        if average_across_timesteps or average_across_batch:
            axis = [0] if average_across_batch else [1]
            return tf.math.divide_no_nan(tf.reduce_sum(crossent, axis=axis),
                                         tf.reduce_sum(weights, axis=axis))
        if sum_over_timesteps or sum_over_batch:
            axis = [0] if sum_over_batch else [1]
            count = tf.cast(tf.math.count_nonzero(weights, axis=axis), tf.float32)
            return tf.math.divide_no_nan(tf.reduce_sum(crossent, axis=axis), count)
        return crossent
