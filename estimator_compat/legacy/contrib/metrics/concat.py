"""Metrics that keep every value seen: `streaming_concat` (variables `array` and `size`), and
the exact AUCs computed on the concatenated stream, `streaming_dynamic_auc` and
`auc_with_confidence_intervals` (DeLong's variance, optionally on the logit scale)."""
import collections

import tensorflow as tf

from estimator_compat.legacy.contrib.metrics import variables as mv

_v1 = tf.compat.v1


def streaming_concat(values, axis=0, max_size=None, metrics_collections=None,
                     updates_collections=None, name=None):
    """Every `values` seen, concatenated along `axis` (the first `max_size` when given)."""
    with _v1.variable_scope(name, "streaming_concat", (values,)):
        values = tf.convert_to_tensor(values)
        if values.shape.rank is None:
            raise ValueError("streaming_concat needs values of known rank")
        if axis < 0:
            axis += values.shape.rank
        if not 0 <= axis < values.shape.rank:
            raise ValueError(f"axis {axis} is out of range for values of rank "
                             f"{values.shape.rank}")
        others = values.shape.as_list()
        if any(d is None for i, d in enumerate(others) if i != axis):
            raise ValueError("streaming_concat needs every dimension but `axis` known, got "
                             f"shape {values.shape}")
        empty = list(others)
        empty[axis] = 0
        shape = list(others)
        shape[axis] = None
        array = mv.metric_variable(empty, values.dtype, "array", validate_shape=False)
        size = mv.metric_variable([], tf.int32, "size")
        joined = tf.concat([tf.identity(array), values], axis)
        if max_size is not None:
            kept = tf.minimum(max_size, tf.shape(joined)[axis])
            joined = tf.slice(joined, [0] * values.shape.rank,
                              [kept if i == axis else -1 for i in range(len(others))])
        assign = _v1.assign(array, joined, validate_shape=False)
        with tf.control_dependencies([assign]):
            update = _v1.assign(size, tf.shape(joined)[axis])
        value = tf.identity(array)
        value.set_shape(shape)
        mv.add_to_collections(metrics_collections, value)
        mv.add_to_collections(updates_collections, update)
        return value, update


def _flat_stream(labels, predictions, weights, need_weights):
    labels, predictions = mv.squeeze_pair(tf.convert_to_tensor(labels),
                                          tf.convert_to_tensor(predictions))
    predictions.shape.assert_is_compatible_with(labels.shape)
    labels = tf.reshape(tf.cast(labels, tf.int64), [-1])
    checks = [_v1.assert_less_equal(labels, tf.constant(1, tf.int64),
                                    message="labels must be 0 or 1"),
              _v1.assert_greater_equal(labels, tf.constant(0, tf.int64),
                                       message="labels must be 0 or 1")]
    with tf.control_dependencies(checks):
        labels = tf.identity(labels)
    preds = tf.reshape(tf.cast(predictions, tf.float32), [-1])
    parts = [streaming_concat(preds, name="concat_preds"),
             streaming_concat(labels, name="concat_labels")]
    if need_weights or weights is not None:
        parts.append(streaming_concat(mv.flat_weights(weights, preds), name="concat_weights"))
    return parts


def _dynamic_auc(labels, predictions, weights, curve):
    """The exact (trapezoid) AUC of the stream, 0 when every label is the same."""
    labels = tf.cast(labels, tf.float64)
    weights = tf.ones_like(labels) if weights is None else tf.cast(weights, tf.float64)
    positives = tf.reduce_sum(labels * weights)

    def area():
        ordered, order = tf.nn.top_k(predictions, k=tf.size(predictions))
        y, w = tf.gather(labels, order), tf.gather(weights, order)
        _, _, counts = tf.unique_with_counts(ordered)
        splits = tf.pad(tf.cumsum(counts), [[1, 0]])  # end of each distinct score's run

        def at_splits(t):
            return tf.gather(tf.pad(tf.cumsum(t), [[1, 0]]), splits)
        tp = at_splits(y * w)
        if curve == "ROC":
            fp = at_splits((1.0 - y) * w)
            x_axis, y_axis = fp / fp[-1], tp / tp[-1]
        else:
            called = at_splits(w)
            x_axis = tp / tp[-1]
            y_axis = tf.where(splits > 0, tf.math.divide_no_nan(tp, called), tf.ones_like(tp))
        heights = (y_axis[1:] + y_axis[:-1]) / 2.0
        return tf.reduce_sum(heights * tf.abs(x_axis[1:] - x_axis[:-1]))
    degenerate = tf.logical_or(tf.equal(positives, 0.0),
                               tf.equal(positives, tf.reduce_sum(weights)))
    return tf.cond(degenerate, lambda: tf.constant(0.0, tf.float64), area)


def streaming_dynamic_auc(labels, predictions, curve="ROC", metrics_collections=(),
                          updates_collections=(), name=None, weights=None):
    """The exact ROC or PR AUC of everything streamed (float64), on the concatenated stream."""
    if curve not in ("ROC", "PR"):
        raise ValueError(f'curve must be "ROC" or "PR", got {curve!r}')
    with _v1.variable_scope(name, "dynamic_auc", (labels, predictions, weights)):
        parts = _flat_stream(labels, predictions, weights, need_weights=False)
        all_preds, all_labels = parts[0][0], parts[1][0]
        all_weights = parts[2][0] if len(parts) > 2 else None
        value = _dynamic_auc(all_labels, all_preds, all_weights, curve)
        update = tf.group(*[u for _, u in parts])
        mv.add_to_collections(metrics_collections, value)
        mv.add_to_collections(updates_collections, update)
        return value, update


AucData = collections.namedtuple("AucData", ["auc", "lower", "upper"])


def _delong(labels, predictions, weights, alpha, logit_transformation):
    """AUC and its confidence interval (DeLong et al. 1988; weighted midrank comparisons)."""
    labels = tf.cast(labels, tf.bool)
    x = tf.cast(tf.boolean_mask(predictions, labels), tf.float64)
    y = tf.cast(tf.boolean_mask(predictions, ~labels), tf.float64)
    wx = tf.cast(tf.boolean_mask(weights, labels), tf.float64)
    wy = tf.cast(tf.boolean_mask(weights, ~labels), tf.float64)
    psi = (tf.cast(x[:, None] > y[None, :], tf.float64)
           + 0.5 * tf.cast(tf.equal(x[:, None], y[None, :]), tf.float64))
    total_x, total_y = tf.reduce_sum(wx), tf.reduce_sum(wy)
    v10 = tf.reduce_sum(psi * wy[None, :], 1) / total_y
    v01 = tf.reduce_sum(psi * wx[:, None], 0) / total_x
    auc = tf.reduce_sum(v10 * wx) / total_x
    s10 = tf.reduce_sum(wx * tf.square(v10 - auc)) / (total_x - 1.0)
    s01 = tf.reduce_sum(wy * tf.square(v01 - auc)) / (total_y - 1.0)
    std = tf.sqrt(s10 / total_x + s01 / total_y)
    z = tf.math.ndtri(tf.constant((1.0 + alpha) / 2.0, tf.float64))
    if logit_transformation:
        logit = tf.math.log(auc / (1.0 - auc))
        spread = z * std / (auc * (1.0 - auc))
        lower, upper = tf.sigmoid(logit - spread), tf.sigmoid(logit + spread)
    else:
        lower, upper = auc - z * std, auc + z * std
    return [tf.cast(t, tf.float32) for t in (auc, lower, upper)]


def auc_with_confidence_intervals(labels, predictions, weights=None, alpha=0.95,
                                  logit_transformation=True, metrics_collections=(),
                                  updates_collections=(), name=None):
    """(AucData(auc, lower, upper), update): the exact ROC AUC of the stream with its
    `alpha` confidence interval by DeLong's method."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    with _v1.variable_scope(name, "auc_with_confidence_intervals",
                            (labels, predictions, weights)):
        parts = _flat_stream(labels, predictions, weights, need_weights=True)
        all_preds, all_labels, all_weights = (p[0] for p in parts)
        with tf.control_dependencies([u for _, u in parts]):
            update = tf.constant(True, name="update_op")
        positives = tf.reduce_sum(all_labels)
        degenerate = tf.logical_or(tf.equal(positives, 0),
                                   tf.equal(positives, tf.size(all_labels, out_type=tf.int64)))
        zeros = [tf.constant(0.0)] * 3
        value = AucData(*tf.cond(degenerate, lambda: zeros, lambda: _delong(
            all_labels, all_preds, all_weights, alpha, logit_transformation)))
        for tensor in value:
            mv.add_to_collections(metrics_collections, tensor)
        mv.add_to_collections(updates_collections, update)
        return value, update


FUNCTIONS = dict(streaming_concat=streaming_concat, streaming_dynamic_auc=streaming_dynamic_auc,
                 auc_with_confidence_intervals=auc_with_confidence_intervals)
