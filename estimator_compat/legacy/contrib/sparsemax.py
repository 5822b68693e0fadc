"""`tf.contrib.sparsemax`, served whole: sparsemax (Martins & Astudillo 2016), the Euclidean
projection of the logits onto the probability simplex, and its loss.

sparsemax(z)_i = max(z_i - tau(z), 0), with tau chosen so the outputs sum to 1: with z sorted
descending, k(z) = max{k : 1 + k z_(k) > sum_{j<=k} z_(j)} and tau = (sum_{j<=k(z)} z_(j) - 1) / k(z).
A row with a +inf logit or only -inf logits gives NaN, as TF 1.15's did (the logits are not
shifted by their mean, which would turn a -inf into NaN).
"""
import tensorflow as tf

_v1 = tf.compat.v1


def sparsemax(logits, name=None):
    """Sparsemax probabilities of a [batch, classes] `logits`."""
    with tf.name_scope(name or "sparsemax"):
        logits = tf.convert_to_tensor(logits, name="logits")
        if logits.shape.rank is not None and logits.shape.rank != 2:
            raise ValueError(f"sparsemax takes [batch, classes] logits, got shape {logits.shape}")
        rows = tf.shape(logits)[0]
        classes = tf.shape(logits)[1]
        z = logits
        z_sorted, _ = tf.nn.top_k(z, k=classes)
        z_cumsum = tf.cumsum(z_sorted, axis=1)
        k = tf.range(1, tf.cast(classes, logits.dtype) + 1, dtype=logits.dtype)
        in_support = 1 + k * z_sorted > z_cumsum
        k_z = tf.reduce_sum(tf.cast(in_support, tf.int32), axis=1)
        # an infinite logit leaves no support; k_z = 1 keeps the gather valid, NaN is set below
        k_z_safe = tf.maximum(k_z, 1)
        tau_sum = tf.gather_nd(z_cumsum, tf.stack([tf.range(rows), k_z_safe - 1], axis=1))
        tau = (tau_sum - 1) / tf.cast(k_z_safe, logits.dtype)
        p = tf.maximum(tf.cast(0, logits.dtype), z - tau[:, tf.newaxis])
        invalid = tf.logical_or(tf.equal(k_z, 0), tf.math.is_nan(z_cumsum[:, -1]))
        return _v1.where(tf.broadcast_to(invalid[:, tf.newaxis], tf.shape(p)),
                         tf.fill(tf.shape(p), tf.cast(float("nan"), logits.dtype)), p)


def sparsemax_loss(logits, sparsemax, labels, name=None):
    """The sparsemax loss of each row: -z_k + 1/2 sum_{j in S}(z_j^2 - tau^2) + 1/2, written
    with the sparsemax output `sparsemax` (= p) and the target distribution `labels` (= q):
    sum_j p_j (z_j - p_j / 2) [support only] + q_j (q_j / 2 - z_j)."""
    with tf.name_scope(name or "sparsemax_loss"):
        logits = tf.convert_to_tensor(logits, name="logits")
        sparsemax = tf.convert_to_tensor(sparsemax, name="sparsemax")
        labels = tf.convert_to_tensor(labels, name="labels")
        z = logits - tf.reduce_mean(logits, axis=1, keepdims=True)
        support = tf.cast(sparsemax > 0, logits.dtype)
        support_part = support * sparsemax * (z - 0.5 * sparsemax)
        label_part = labels * (0.5 * labels - z)
        # a zero label on a -inf logit contributes 0, not 0 * inf
        label_part = _v1.where(tf.logical_and(tf.equal(labels, 0), tf.math.is_inf(z)),
                               tf.zeros_like(z), label_part)
        return tf.reduce_sum(support_part + label_part, axis=1)


def build():
    from estimator_compat.legacy.namespaces import namespace
    return namespace("tensorflow.contrib.sparsemax", "tf.contrib.sparsemax",
                     __served_whole__=True, sparsemax=sparsemax, sparsemax_loss=sparsemax_loss)
