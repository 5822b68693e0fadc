"""`tf.contrib.nn`: contrib's extra neural-net ops.

- `alpha_dropout` (SELU-preserving dropout, Klambauer et al. 2017), `scaled_softplus`
  (alpha * softplus(x / alpha), optionally clipped), on TensorFlow ops.
- `deprecated_flipped_*_cross_entropy_with_logits`: the TF 1.0-era argument order (logits first)
  for `tf.nn`'s cross entropies.
- `conv1d_transpose` (tf.nn's), `nth_element` (the NthElement kernel),
  `sampled_sparse_softmax_loss` (sampled softmax with a single class id per row, the same loss
  as `tf.nn.sampled_softmax_loss` with num_true=1), `rank_sampled_softmax_loss` (TAPAS'
  two-pass sampling: the sampled classes ranked by the log-sum-exp over the batch of their
  logits / temperature, the best `num_resampled` kept for `tf.nn.sampled_softmax_loss`).
"""
import numbers

import tensorflow as tf

_v1 = tf.compat.v1
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def alpha_dropout(x, keep_prob, noise_shape=None, seed=None, name=None):
    """Drop units to SELU's negative saturation value, then rescale so the mean and variance
    of a zero-mean, unit-variance input are kept."""
    with tf.name_scope(name or "alpha_dropout"):
        x = tf.convert_to_tensor(x, name="x")
        if isinstance(keep_prob, numbers.Real) and not 0 < keep_prob <= 1:
            raise ValueError(f"keep_prob must be a scalar tensor or a float in (0, 1], got "
                             f"{keep_prob}")
        keep_prob = tf.convert_to_tensor(keep_prob, dtype=x.dtype, name="keep_prob")
        if tf.get_static_value(keep_prob) == 1:
            return x
        alpha_p = -_SELU_ALPHA * _SELU_SCALE
        noise_shape = tf.shape(x) if noise_shape is None else noise_shape
        random_tensor = keep_prob + _v1.random_uniform(noise_shape, seed=seed, dtype=x.dtype)
        kept = tf.cast(random_tensor >= 1.0, x.dtype)
        a = (keep_prob + alpha_p ** 2 * keep_prob * (1 - keep_prob)) ** -0.5
        b = -a * alpha_p * (1 - keep_prob)
        return a * (x * kept + alpha_p * (1 - kept)) + b


def scaled_softplus(x, alpha, clip=None, name=None):
    """alpha * log(1 + exp(x / alpha)), then min(., clip) where `clip` is given."""
    with tf.name_scope(name or "scaled_softplus"):
        x = tf.convert_to_tensor(x, name="x")
        alpha = tf.convert_to_tensor(alpha, dtype=x.dtype, name="alpha")
        y = alpha * tf.nn.softplus(x / alpha)
        if clip is not None:
            y = tf.minimum(y, tf.convert_to_tensor(clip, dtype=x.dtype, name="clip"))
        return y


def deprecated_flipped_sigmoid_cross_entropy_with_logits(logits, targets, name=None):
    return tf.nn.sigmoid_cross_entropy_with_logits(labels=targets, logits=logits, name=name)


def deprecated_flipped_softmax_cross_entropy_with_logits(logits, labels, dim=-1, name=None):
    return _v1.nn.softmax_cross_entropy_with_logits_v2(
        labels=tf.stop_gradient(labels), logits=logits, axis=dim, name=name)


def deprecated_flipped_sparse_softmax_cross_entropy_with_logits(logits, labels, name=None):
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits,
                                                          name=name)


def nth_element(input, n, reverse=False, name=None):  # noqa: A002 - TF 1.15's argument name
    """The n-th smallest (n-th largest with `reverse`) value along the last dimension."""
    return tf.raw_ops.NthElement(input=input, n=n, reverse=reverse, name=name)


def sampled_sparse_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes,
                                sampled_values=None, remove_accidental_hits=True,
                                partition_strategy="mod", name="sampled_sparse_softmax_loss"):
    """Sampled softmax loss for one class id per row ([batch, 1] or [batch] `labels`)."""
    labels = tf.convert_to_tensor(labels)
    if labels.shape.rank == 1:
        labels = labels[:, tf.newaxis]
    if labels.shape.rank is not None and labels.shape[-1] not in (None, 1):
        raise ValueError(f"sampled_sparse_softmax_loss takes one label per row, got labels of "
                         f"shape {labels.shape}")
    return _v1.nn.sampled_softmax_loss(
        weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
        sampled_values=sampled_values, remove_accidental_hits=remove_accidental_hits,
        partition_strategy=partition_strategy, name=name)


def rank_sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_resampled,
                              num_classes, num_true, sampled_values, resampling_temperature,
                              remove_accidental_hits, partition_strategy, name=None):
    """Sampled softmax over the `num_resampled` of `num_sampled` sampled classes scoring
    highest on the batch (log-sum-exp of logits / `resampling_temperature`)."""
    if num_resampled > num_sampled:
        raise ValueError(f"num_resampled ({num_resampled}) must not exceed num_sampled "
                         f"({num_sampled})")
    if num_sampled > num_classes:
        raise ValueError(f"num_sampled ({num_sampled}) must not exceed num_classes "
                         f"({num_classes})")
    with tf.name_scope(name or "rank_sampled_softmax_loss"):
        labels = tf.convert_to_tensor(labels)
        if sampled_values is None:
            sampled_values = tf.random.learned_unigram_candidate_sampler(
                true_classes=tf.cast(labels, tf.int64), num_true=num_true,
                num_sampled=num_sampled, unique=True, range_max=num_classes)
        sampled, true_expected, sampled_expected = (tf.stop_gradient(t) for t in sampled_values)
        sampled_weights = _v1.nn.embedding_lookup(weights, sampled,
                                                  partition_strategy=partition_strategy)
        sampled_biases = _v1.nn.embedding_lookup(biases, sampled,
                                                 partition_strategy=partition_strategy)
        logits = tf.matmul(inputs, sampled_weights, transpose_b=True) + sampled_biases
        scores = tf.reduce_logsumexp(logits / resampling_temperature, axis=0)
        _, best = tf.nn.top_k(scores, k=num_resampled)
        resampled = (tf.gather(sampled, best), true_expected, tf.gather(sampled_expected, best))
        return _v1.nn.sampled_softmax_loss(
            weights, biases, labels, inputs, num_resampled, num_classes, num_true=num_true,
            sampled_values=resampled, remove_accidental_hits=remove_accidental_hits,
            partition_strategy=partition_strategy)


FUNCTIONS = dict(
    rank_sampled_softmax_loss=rank_sampled_softmax_loss,
    alpha_dropout=alpha_dropout, scaled_softplus=scaled_softplus,
    conv1d_transpose=tf.nn.conv1d_transpose, nth_element=nth_element,
    deprecated_flipped_sigmoid_cross_entropy_with_logits=(
        deprecated_flipped_sigmoid_cross_entropy_with_logits),
    deprecated_flipped_softmax_cross_entropy_with_logits=(
        deprecated_flipped_softmax_cross_entropy_with_logits),
    deprecated_flipped_sparse_softmax_cross_entropy_with_logits=(
        deprecated_flipped_sparse_softmax_cross_entropy_with_logits),
    sampled_sparse_softmax_loss=sampled_sparse_softmax_loss)


def build():
    from estimator_compat.legacy.namespaces import namespace
    return namespace("tensorflow.contrib.nn", "tf.contrib.nn", __served_whole__=True,
                     **FUNCTIONS)
