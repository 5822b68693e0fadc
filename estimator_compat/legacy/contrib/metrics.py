"""`tf.contrib.metrics.streaming_*`: TF1's metric functions, with contrib's argument order.

contrib's streaming metrics took `(predictions, labels, ...)`, where `tf.metrics` takes
`(labels, predictions, ...)`; each name here calls the `tf.compat.v1.metrics` function it became.
"""
import tensorflow as tf

_metrics = tf.compat.v1.metrics

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
}


def _swapped(v1_name):
    target = getattr(_metrics, v1_name)

    def metric(predictions, labels, *args, **kwargs):
        return target(labels, predictions, *args, **kwargs)
    metric.__doc__ = f"contrib's argument order (predictions, labels) for tf.metrics.{v1_name}."
    return metric


FUNCTIONS = {name: _swapped(v1_name) for name, v1_name in _PAIRED.items()}
FUNCTIONS.update(streaming_mean=_metrics.mean, streaming_mean_tensor=_metrics.mean_tensor)


def aggregate_metrics(*value_update_tuples):
    """[(value, update), ...] → (values, updates)."""
    if not value_update_tuples:
        raise ValueError("Expected at least one value_tensor/update_op pair")
    values, updates = zip(*value_update_tuples)
    return list(values), list(updates)


def aggregate_metric_map(names_to_tuples):
    """{name: (value, update)} → ({name: value}, {name: update})."""
    return ({k: v[0] for k, v in names_to_tuples.items()},
            {k: v[1] for k, v in names_to_tuples.items()})


FUNCTIONS.update(aggregate_metrics=aggregate_metrics, aggregate_metric_map=aggregate_metric_map)


def build():
    from estimator_compat.legacy.namespaces import namespace
    return namespace("tensorflow.contrib.metrics", "tf.contrib.metrics", **FUNCTIONS)
