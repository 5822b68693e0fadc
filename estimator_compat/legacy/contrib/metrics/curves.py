"""Metrics read off the tp/fn/tn/fp counts at evenly spaced thresholds: `streaming_curve_points`,
`precision_at_recall`, `recall_at_precision`, `f1_score`, and the bucketed
`precision_recall_at_equal_thresholds` and `auc_using_histogram`."""
import collections

import tensorflow as tf

from estimator_compat.legacy.contrib.metrics import variables as mv

_v1 = tf.compat.v1
_EPS = 1e-6  # the epsilon TF1's ROC / PR points used


def _curve(c, curve):
    if curve == "ROC":
        return tf.stack([tf.math.divide(c["fp"], c["fp"] + c["tn"] + _EPS),
                         tf.math.divide(c["tp"] + _EPS, c["tp"] + c["fn"] + _EPS)], axis=1)
    return tf.stack([tf.math.divide(c["tp"] + _EPS, c["tp"] + c["fn"] + _EPS),
                     tf.math.divide(c["tp"] + _EPS, c["tp"] + c["fp"] + _EPS)], axis=1)


def streaming_curve_points(labels=None, predictions=None, weights=None, num_thresholds=200,
                           metrics_collections=None, updates_collections=None, curve="ROC",
                           name=None):
    """The ROC (false positive rate, recall) or PR (recall, precision) points at
    `num_thresholds` thresholds, shape [num_thresholds, 2]."""
    if curve not in ("ROC", "PR"):
        raise ValueError(f'curve must be "ROC" or "PR", got {curve!r}')
    with _v1.variable_scope(name, "curve_points", (labels, predictions, weights)):
        values, updates = mv.confusion_at_thresholds(
            labels, predictions, mv.auc_thresholds(num_thresholds), weights)
        points = _curve(values, curve)
        mv.add_to_collections(metrics_collections, points)
        update = tf.group(*updates.values())
        mv.add_to_collections(updates_collections, update)
        return points, update


def _at_thresholds(default_name, pick, labels, predictions, weights, num_thresholds,
                   metrics_collections, updates_collections, name):
    if not isinstance(num_thresholds, int) or num_thresholds < 1:
        raise ValueError(f"num_thresholds must be a positive int, got {num_thresholds!r}")
    with _v1.variable_scope(name, default_name, (predictions, labels, weights)):
        values, updates = mv.confusion_at_thresholds(
            labels, predictions, mv.auc_thresholds(num_thresholds), weights)
        value = pick(values, "value")
        update = pick(updates, "update_op")
        mv.add_to_collections(metrics_collections, value)
        mv.add_to_collections(updates_collections, update)
        return value, update


def precision_at_recall(labels, predictions, target_recall, weights=None, num_thresholds=200,
                        metrics_collections=None, updates_collections=None, name=None):
    """The precision at the threshold whose recall is nearest `target_recall`."""
    if not 0 <= target_recall <= 1:
        raise ValueError(f"target_recall must be in [0, 1], got {target_recall}")

    def pick(c, name):
        recalls = tf.math.divide(c["tp"], c["tp"] + c["fn"] + mv.EPSILON)
        i = tf.argmin(tf.abs(recalls - target_recall), 0, output_type=tf.int32)
        return tf.math.divide(c["tp"][i], c["tp"][i] + c["fp"][i] + mv.EPSILON, name=name)
    return _at_thresholds("precision_at_recall", pick, labels, predictions, weights,
                          num_thresholds, metrics_collections, updates_collections, name)


def recall_at_precision(labels, predictions, precision, weights=None, num_thresholds=200,
                        metrics_collections=None, updates_collections=None, name=None,
                        strict_mode=False):
    """The recall at the threshold whose precision is nearest `precision`; with
    `strict_mode`, the best recall among thresholds whose precision reaches it (0 if none)."""
    if not 0 <= precision <= 1:
        raise ValueError(f"precision must be in [0, 1], got {precision}")

    def pick(c, name):
        precisions = tf.math.divide(c["tp"], c["tp"] + c["fp"] + mv.EPSILON)
        recalls = tf.math.divide(c["tp"], c["tp"] + c["fn"] + mv.EPSILON)
        if not strict_mode:
            i = tf.argmin(tf.abs(precisions - precision), 0, output_type=tf.int32)
            return tf.identity(recalls[i], name=name)
        reaching = precisions >= precision
        best = tf.reduce_max(tf.where(reaching, recalls, tf.zeros_like(recalls)))
        return tf.where(tf.reduce_any(reaching), best, 0.0, name=name)
    return _at_thresholds("recall_at_precision", pick, labels, predictions, weights,
                          num_thresholds, metrics_collections, updates_collections, name)


def f1_score(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None,
             updates_collections=None, name=None):
    """The best F1 score over `num_thresholds` thresholds (variables `f1/true_positives`, ...)."""
    with _v1.variable_scope(name, "f1", (labels, predictions, weights)):
        values, updates = mv.confusion_at_thresholds(
            labels, predictions, mv.auc_thresholds(num_thresholds), weights,
            includes=("tp", "fn", "fp"))

        def best_f1(c):
            precision = tf.math.divide(c["tp"], c["tp"] + c["fp"] + mv.EPSILON)
            recall = tf.math.divide(c["tp"], c["tp"] + c["fn"] + mv.EPSILON)
            return tf.reduce_max(2.0 * precision * recall / (precision + recall + mv.EPSILON))
        value, update = best_f1(values), best_f1(updates)
        mv.add_to_collections(metrics_collections, value)
        mv.add_to_collections(updates_collections, update)
        return value, update


PrecisionRecallData = collections.namedtuple(
    "PrecisionRecallData", ["tp", "fp", "tn", "fn", "precision", "recall", "thresholds"])


def precision_recall_at_equal_thresholds(labels, predictions, weights=None,
                                         num_thresholds=None, use_locking=None, name=None):
    """tp, fp, tn, fn, precision and recall at `num_thresholds` (201) equally spaced
    thresholds in [0, 1], counted in one bucket per threshold (a scatter-add per batch)."""
    num_thresholds = 201 if num_thresholds is None else num_thresholds
    if num_thresholds < 2:
        raise ValueError(f"num_thresholds must be at least 2, got {num_thresholds}")
    use_locking = True if use_locking is None else use_locking
    with _v1.variable_scope(name, "precision_recall_at_equal_thresholds",
                            (labels, predictions, weights)):
        labels = tf.convert_to_tensor(labels)
        if labels.dtype != tf.bool:
            raise ValueError(f"labels must be bool, got {labels.dtype.name}")
        predictions = tf.convert_to_tensor(predictions)
        predictions.shape.assert_is_compatible_with(labels.shape)
        dtype = predictions.dtype
        preds = tf.reshape(predictions, [-1])
        is_true = tf.cast(tf.reshape(labels, [-1]), tf.float64)
        w = tf.cast(tf.reshape(mv.flat_weights(weights, preds), [-1]), tf.float64)
        with _v1.variable_scope("variables"):
            tp_buckets = mv.metric_variable([num_thresholds], tf.float64, "tp_buckets")
            fp_buckets = mv.metric_variable([num_thresholds], tf.float64, "fp_buckets")
        bucket = tf.cast(tf.floor(tf.cast(preds, tf.float64) * (num_thresholds - 1)), tf.int32)
        bucket = tf.clip_by_value(bucket, 0, num_thresholds - 1)
        with tf.name_scope("update_op"):
            update = tf.group(
                _v1.scatter_add(tp_buckets, bucket, is_true * w, use_locking=use_locking),
                _v1.scatter_add(fp_buckets, bucket, (1.0 - is_true) * w,
                                use_locking=use_locking))

        tp = tf.cumsum(tp_buckets, reverse=True)
        fp = tf.cumsum(fp_buckets, reverse=True)
        tn = fp[0] - fp
        fn = tp[0] - tp
        precision = tp / tf.maximum(tp + fp, mv.EPSILON)
        recall = tp / tf.maximum(tp + fn, mv.EPSILON)
        data = PrecisionRecallData(
            *[tf.cast(t, dtype) for t in (tp, fp, tn, fn, precision, recall)],
            thresholds=tf.cast(tf.linspace(0.0, 1.0, num_thresholds), dtype))
        return data, update


def auc_using_histogram(boolean_labels, scores, score_range, nbins=100, collections=None,
                        check_shape=True, name=None):
    """The ROC AUC approximated by `nbins` histogram bins of the scores of each class,
    accumulated over the stream in `hist_accumulate/hist_true_acc` and `hist_false_acc`."""
    with tf.name_scope(name or "auc_using_histogram"):
        boolean_labels = tf.convert_to_tensor(boolean_labels)
        scores = tf.convert_to_tensor(scores)
        if boolean_labels.dtype != tf.bool:
            raise ValueError(f"boolean_labels must be bool, got {boolean_labels.dtype.name}")
        if check_shape:
            scores.shape.assert_is_compatible_with(boolean_labels.shape)
        score_range = tf.convert_to_tensor(score_range, scores.dtype)
        collections = [_v1.GraphKeys.LOCAL_VARIABLES] if collections is None else collections
        hist_true = tf.histogram_fixed_width(tf.boolean_mask(scores, boolean_labels),
                                             score_range, nbins=nbins, dtype=tf.int64)
        hist_false = tf.histogram_fixed_width(tf.boolean_mask(scores, ~boolean_labels),
                                              score_range, nbins=nbins, dtype=tf.int64)
        with _v1.variable_scope(None, "hist_accumulate"):
            true_acc = mv.metric_variable([nbins], tf.int64, "hist_true_acc",
                                          collections=collections)
            false_acc = mv.metric_variable([nbins], tf.int64, "hist_false_acc",
                                           collections=collections)
            update = tf.group(_v1.assign_add(true_acc, hist_true),
                              _v1.assign_add(false_acc, hist_false), name="update_op")
        # bins from the highest score down: the rates at each bin's lower edge
        tp = tf.cast(tf.cumsum(true_acc, reverse=True), tf.float64)
        fp = tf.cast(tf.cumsum(false_acc, reverse=True), tf.float64)
        tpr = tf.concat([tp / tf.maximum(tp[0], 1.0), [0.0]], 0)
        fpr = tf.concat([fp / tf.maximum(fp[0], 1.0), [0.0]], 0)
        area = tf.reduce_sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2.0)
        return tf.cast(area, tf.float32, name="auc"), update


FUNCTIONS = dict(streaming_curve_points=streaming_curve_points,
                 precision_at_recall=precision_at_recall,
                 recall_at_precision=recall_at_precision, f1_score=f1_score,
                 precision_recall_at_equal_thresholds=precision_recall_at_equal_thresholds,
                 auc_using_histogram=auc_using_histogram)
