"""The private helpers of tensorflow_estimator's v1 `canned.head` that `_Head` subclasses
(tf.contrib.estimator's multi-label head, libraries' heads) called: the tf.compat.v1 metric
builders ((value, update_op) pairs, weights broadcast to the values), the label range check and
`_append_update_ops`. The shape / loss / export helpers they shared with `head.base_head` are
canned/head_helpers.py's."""
import tensorflow as tf

v1 = tf.compat.v1


def _broadcast(weights, values):
    if weights is None:
        return None
    return tf.broadcast_to(tf.cast(weights, tf.float32), tf.shape(values))


def _predictions_mean(predictions, weights=None, name=None):
    with v1.name_scope(name, "predictions_mean", (predictions, weights)) as scope:
        predictions = tf.cast(predictions, tf.float32)
        return v1.metrics.mean(predictions, _broadcast(weights, predictions), name=scope)


def _indicator_labels_mean(labels, weights=None, name=None):
    with v1.name_scope(name, "labels_mean", (labels, weights)) as scope:
        labels = tf.cast(labels, tf.float32)
        return v1.metrics.mean(labels, _broadcast(weights, labels), name=scope)


def _accuracy_baseline(labels_mean):
    """(value, update_op): max(label mean, 1 - label mean) from `_indicator_labels_mean`."""
    with v1.name_scope(None, "accuracy_baseline", labels_mean):
        value, update = labels_mean
        return tf.maximum(value, 1. - value, name="value"), \
            tf.maximum(update, 1. - update, name="update_op")


def _accuracy_at_threshold(labels, predictions, weights, threshold, name=None):
    with v1.name_scope(name, "accuracy_at_%s" % threshold,
                       (predictions, labels, weights, threshold)) as scope:
        above = tf.cast(tf.greater_equal(predictions, threshold), tf.float32)
        return v1.metrics.accuracy(labels, above, weights, name=scope)


def _at_threshold(metric, default_name, labels, predictions, weights, threshold, name):
    with v1.name_scope(name, default_name, (predictions, labels, weights, threshold)) as scope:
        value, update = metric(labels, predictions, thresholds=(threshold,), weights=weights,
                               name=scope)
        return tf.squeeze(value), tf.squeeze(update)


def _precision_at_threshold(labels, predictions, weights, threshold, name=None):
    return _at_threshold(v1.metrics.precision_at_thresholds, "precision_at_%s" % threshold,
                         labels, predictions, weights, threshold, name)


def _recall_at_threshold(labels, predictions, weights, threshold, name=None):
    return _at_threshold(v1.metrics.recall_at_thresholds, "recall_at_%s" % threshold,
                         labels, predictions, weights, threshold, name)


def _auc(labels, predictions, weights=None, curve="ROC", name=None):
    """tf.compat.v1.metrics.auc (trapezoidal) of boolean labels."""
    with v1.name_scope(name, "auc", (predictions, labels, weights)) as scope:
        predictions = tf.cast(predictions, tf.float32)
        if labels.dtype.base_dtype != tf.bool:
            labels = tf.cast(labels, tf.bool)
        return v1.metrics.auc(labels, predictions, _broadcast(weights, predictions),
                              curve=curve, name=scope)


def _assert_range(labels, n_classes, message=None):
    """`labels` after a run-time check that they lie in [0, n_classes)."""
    with v1.name_scope(None, "assert_range", (labels,)):
        upper = tf.debugging.assert_less_equal(
            labels, tf.cast(n_classes - 1, labels.dtype),
            message=message or "Labels must <= n_classes - 1")
        lower = tf.debugging.assert_non_negative(labels, message=message or "Labels must >= 0")
        with tf.control_dependencies([upper, lower]):
            return tf.identity(labels)


def _append_update_ops(train_op):
    """train_op grouped with the UPDATE_OPS collection (batch norm's moving averages)."""
    update_ops = v1.get_collection(v1.GraphKeys.UPDATE_OPS)
    if update_ops:
        return tf.group(train_op, *update_ops)
    return train_op
