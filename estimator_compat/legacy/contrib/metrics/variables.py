"""The pieces TF1's metrics shared: local metric variables, the `value`/`update_op` pair's
collections, and the tp/fn/tn/fp counts at thresholds (the contrib functions named their
variables `true_positives`, ... in the caller's scope, so they are made here, not borrowed from
`tf.compat.v1.metrics`, whose scopes differ)."""
import tensorflow as tf

_v1 = tf.compat.v1
EPSILON = 1e-7
_COUNT_NAMES = (("tp", "true_positives"), ("fn", "false_negatives"),
                ("tn", "true_negatives"), ("fp", "false_positives"))


def metric_variable(shape, dtype, name, validate_shape=True, collections=None):
    """A zero-initialized local variable (LOCAL_VARIABLES and METRIC_VARIABLES, as TF1's);
    without `validate_shape`, one whose shape changes (its static shape unknown)."""
    if collections is None:
        collections = [_v1.GraphKeys.LOCAL_VARIABLES, _v1.GraphKeys.METRIC_VARIABLES]
    kwargs = {} if validate_shape else {"shape": tf.TensorShape(None)}
    return _v1.Variable(lambda: tf.zeros(shape, dtype), trainable=False, name=name,
                        collections=collections, validate_shape=validate_shape, **kwargs)


def add_to_collections(collections, value):
    for key in collections or ():
        _v1.add_to_collection(key, value)


def flat_weights(weights, like):
    """`weights` broadcast to `like`'s shape, flattened (float32); ones when None."""
    ones = tf.ones_like(like, tf.float32)
    if weights is None:
        return tf.reshape(ones, [-1])
    return tf.reshape(tf.cast(weights, tf.float32) * ones, [-1])


def squeeze_pair(labels, predictions):
    """Drop a trailing size-1 dimension that one of the pair has and the other lacks."""
    lr, pr = labels.shape.rank, predictions.shape.rank
    if lr is not None and pr is not None:
        if lr == pr + 1 and labels.shape[-1] == 1:
            labels = tf.squeeze(labels, [-1])
        elif pr == lr + 1 and predictions.shape[-1] == 1:
            predictions = tf.squeeze(predictions, [-1])
    return labels, predictions


def auc_thresholds(num_thresholds):
    """TF1's evenly spaced thresholds, just below 0 and just above 1 at the ends."""
    if num_thresholds < 2:
        raise ValueError(f"num_thresholds must be at least 2, got {num_thresholds}")
    inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - EPSILON] + inner + [1.0 + EPSILON]


def confusion_at_thresholds(labels, predictions, thresholds, weights=None,
                            includes=("tp", "fn", "tn", "fp")):
    """({key: count variable}, {key: its update}) of the counts at each threshold, keys in
    `includes` (variables made in the current scope, in TF1's order tp, fn, tn, fp)."""
    for key in includes:
        if key not in dict(_COUNT_NAMES):
            raise ValueError(f"includes has {key!r}: expected some of tp, fn, tn, fp")
    labels, predictions = squeeze_pair(tf.convert_to_tensor(labels),
                                       tf.convert_to_tensor(predictions))
    predictions = tf.cast(predictions, tf.float32)
    predictions.shape.assert_is_compatible_with(labels.shape)
    checks = [_v1.assert_greater_equal(predictions, 0.0, message="predictions must be in [0, 1]"),
              _v1.assert_less_equal(predictions, 1.0, message="predictions must be in [0, 1]")]
    with tf.control_dependencies(checks):
        preds = tf.reshape(predictions, [-1, 1])
    is_true = tf.reshape(tf.cast(labels, tf.bool), [-1, 1])
    w = tf.reshape(flat_weights(weights, predictions), [-1, 1])
    above = preds > tf.constant([thresholds], tf.float32)
    cells = {"tp": above & is_true, "fn": ~above & is_true,
             "tn": ~above & ~is_true, "fp": above & ~is_true}
    values, updates = {}, {}
    for key, name in _COUNT_NAMES:
        if key in includes:
            values[key] = metric_variable([len(thresholds)], tf.float32, name)
            updates[key] = _v1.assign_add(values[key], tf.reduce_sum(
                tf.cast(cells[key], tf.float32) * w, 0))
    return values, updates


def safe_div(numerator, denominator, name):
    """numerator / denominator, 0 where the denominator is 0 (TF1's `_safe_div`)."""
    return tf.where(denominator > 0, tf.math.divide_no_nan(numerator, denominator),
                    tf.zeros_like(numerator), name=name)
