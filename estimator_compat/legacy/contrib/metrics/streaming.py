"""contrib's `streaming_*` names that TF 1.x moved into `tf.metrics`, with contrib's argument
order (predictions, labels), and the rates and counts at thresholds contrib kept for itself."""
import tensorflow as tf

from estimator_compat.legacy.contrib.metrics import variables as mv

_metrics = tf.compat.v1.metrics
_v1 = tf.compat.v1

_PAIRED = {  # contrib name: tf.compat.v1.metrics name; both take predictions and labels
    "streaming_accuracy": "accuracy", "streaming_auc": "auc",
    "streaming_precision": "precision", "streaming_recall": "recall",
    "streaming_mean_absolute_error": "mean_absolute_error",
    "streaming_mean_squared_error": "mean_squared_error",
    "streaming_root_mean_squared_error": "root_mean_squared_error",
    "streaming_mean_relative_error": "mean_relative_error",
    "streaming_true_positives": "true_positives", "streaming_false_positives": "false_positives",
    "streaming_true_negatives": "true_negatives", "streaming_false_negatives": "false_negatives",
    "streaming_mean_iou": "mean_iou", "streaming_mean_cosine_distance": "mean_cosine_distance",
    "streaming_precision_at_thresholds": "precision_at_thresholds",
    "streaming_recall_at_thresholds": "recall_at_thresholds",
    "streaming_sensitivity_at_specificity": "sensitivity_at_specificity",
    "streaming_specificity_at_sensitivity": "specificity_at_sensitivity",
    "streaming_sparse_precision_at_k": "precision_at_k",
    "streaming_sparse_recall_at_k": "recall_at_k",
    "streaming_sparse_average_precision_at_k": "average_precision_at_k",
}


def _swapped(contrib_name, v1_name):
    target = getattr(_metrics, v1_name)

    def metric(predictions, labels, *args, **kwargs):
        return target(labels, predictions, *args, **kwargs)
    metric.__name__ = contrib_name
    metric.__doc__ = f"tf.metrics.{v1_name} with contrib's argument order (predictions, labels)."
    return metric


FUNCTIONS = {name: _swapped(name, v1_name) for name, v1_name in _PAIRED.items()}


def streaming_mean(values, weights=None, metrics_collections=None, updates_collections=None,
                   name=None):
    return _metrics.mean(values, weights, metrics_collections, updates_collections, name)


def streaming_mean_tensor(values, weights=None, metrics_collections=None,
                          updates_collections=None, name=None):
    return _metrics.mean_tensor(values, weights, metrics_collections, updates_collections, name)


def streaming_percentage_less(values, threshold, weights=None, metrics_collections=None,
                              updates_collections=None, name=None):
    """The (weighted) fraction of `values` below `threshold` (tf.metrics.percentage_below)."""
    return _metrics.percentage_below(values, threshold, weights, metrics_collections,
                                     updates_collections, name)


def streaming_recall_at_k(predictions, labels, k, weights=None, metrics_collections=None,
                          updates_collections=None, name=None):
    """The fraction of rows whose label is among the `k` highest predictions."""
    in_top_k = tf.cast(_v1.nn.in_top_k(predictions, labels, k), tf.float32)
    return _metrics.mean(in_top_k, weights, metrics_collections, updates_collections,
                         name or f"recall_at_{k}")


def sparse_recall_at_top_k(labels, top_k_predictions, class_id=None, weights=None,
                           metrics_collections=None, updates_collections=None, name=None):
    return _metrics.recall_at_top_k(labels, top_k_predictions, class_id=class_id,
                                    weights=weights, metrics_collections=metrics_collections,
                                    updates_collections=updates_collections, name=name)


def streaming_sparse_precision_at_top_k(top_k_predictions, labels, class_id=None, weights=None,
                                        metrics_collections=None, updates_collections=None,
                                        name=None):
    """Precision of the given top-k class ids against the label ids (variables `..._at_k`)."""
    return _metrics.precision_at_top_k(labels, top_k_predictions, class_id=class_id,
                                       weights=weights, metrics_collections=metrics_collections,
                                       updates_collections=updates_collections, name=name)


def _rate(counts, default_name, keys, predictions, labels, weights,
          metrics_collections, updates_collections, name):
    with _v1.variable_scope(name, default_name, (predictions, labels, weights)):
        predictions = tf.cast(predictions, tf.bool)
        num_v, num_u = counts[0](labels, predictions, weights, name=keys[0])
        oth_v, oth_u = counts[1](labels, predictions, weights, name=keys[1])
        value = mv.safe_div(num_v, num_v + oth_v, "value")
        update = mv.safe_div(num_u, num_u + oth_u, "update_op")
        mv.add_to_collections(metrics_collections, value)
        mv.add_to_collections(updates_collections, update)
        return value, update


def streaming_false_positive_rate(predictions, labels, weights=None, metrics_collections=None,
                                  updates_collections=None, name=None):
    """fp / (fp + tn) over the stream (variables `false_positives`, `true_negatives`)."""
    return _rate((_metrics.false_positives, _metrics.true_negatives),
                 "false_positive_rate", ("false_positives", "true_negatives"), predictions,
                 labels, weights, metrics_collections, updates_collections, name)


def streaming_false_negative_rate(predictions, labels, weights=None, metrics_collections=None,
                                  updates_collections=None, name=None):
    """fn / (fn + tp) over the stream (variables `false_negatives`, `true_positives`)."""
    return _rate((_metrics.false_negatives, _metrics.true_positives),
                 "false_negative_rate", ("false_negatives", "true_positives"), predictions,
                 labels, weights, metrics_collections, updates_collections, name)


def _count_at_thresholds(key):
    def metric(predictions, labels, thresholds, weights=None):
        values, updates = mv.confusion_at_thresholds(labels, predictions, thresholds, weights,
                                                     includes=(key,))
        return values[key], updates[key]
    return metric


def _rate_at_thresholds(numerator, other, default_name, prefix):
    def metric(predictions, labels, thresholds, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        with _v1.variable_scope(name, default_name, (predictions, labels, weights)):
            values, updates = mv.confusion_at_thresholds(labels, predictions, thresholds,
                                                         weights, includes=(numerator, other))

            def rate(c, name):
                return tf.math.divide(c[numerator], mv.EPSILON + c[numerator] + c[other],
                                      name=name)
            value, update = rate(values, f"{prefix}_value"), rate(updates, f"{prefix}_update_op")
            mv.add_to_collections(metrics_collections, value)
            mv.add_to_collections(updates_collections, update)
            return value, update
    metric.__doc__ = f"{prefix} at each threshold over the stream."
    return metric


FUNCTIONS.update(
    streaming_mean=streaming_mean, streaming_mean_tensor=streaming_mean_tensor,
    streaming_percentage_less=streaming_percentage_less,
    streaming_recall_at_k=streaming_recall_at_k,
    streaming_sparse_precision_at_top_k=streaming_sparse_precision_at_top_k, sparse_recall_at_top_k=sparse_recall_at_top_k,
    streaming_false_positive_rate=streaming_false_positive_rate,
    streaming_false_negative_rate=streaming_false_negative_rate,
    streaming_true_positives_at_thresholds=_count_at_thresholds("tp"),
    streaming_false_negatives_at_thresholds=_count_at_thresholds("fn"),
    streaming_true_negatives_at_thresholds=_count_at_thresholds("tn"),
    streaming_false_positives_at_thresholds=_count_at_thresholds("fp"),
    streaming_false_positive_rate_at_thresholds=_rate_at_thresholds(
        "fp", "tn", "false_positive_rate_at_thresholds", "fpr"),
    streaming_false_negative_rate_at_thresholds=_rate_at_thresholds(
        "fn", "tp", "false_negative_rate_at_thresholds", "fnr"),
)
for _name, _f in FUNCTIONS.items():
    _f.__name__ = _name
