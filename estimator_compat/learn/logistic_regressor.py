"""`tf.contrib.learn.LogisticRegressor(model_fn, thresholds)`: a contrib.learn Estimator whose
model_fn returns probabilities of the positive class, evaluated with TF 1.15's logistic
metrics: `loss`, `auc`, `accuracy/baseline_label_mean`, `labels/actual_label_mean`,
`labels/prediction_mean`, and per threshold (0.5 by default)
`accuracy/threshold_<t>_mean`, `precision/positive_threshold_<t>_mean`,
`recall/positive_threshold_<t>_mean` (a prediction above the threshold is positive).
"""
import tensorflow as tf

from estimator_compat.learn import model_fn_ops
from estimator_compat.learn.estimator import Estimator

v1 = tf.compat.v1


def _metrics(predictions, labels, thresholds):
    labels = tf.cast(tf.reshape(labels, tf.shape(predictions)), tf.float32)
    predictions = tf.cast(predictions, tf.float32)
    metrics = {
        "accuracy/baseline_label_mean": v1.metrics.mean(labels),
        "labels/actual_label_mean": v1.metrics.mean(labels),
        "labels/prediction_mean": v1.metrics.mean(predictions),
        "auc": v1.metrics.auc(labels, predictions),
    }
    for threshold in thresholds:
        tag = "%f" % threshold
        positive = tf.cast(tf.greater(predictions, threshold), tf.float32)
        metrics[f"accuracy/threshold_{tag}_mean"] = v1.metrics.mean(
            tf.cast(tf.equal(positive, labels), tf.float32))
        for kind, fn in (("precision", v1.metrics.precision_at_thresholds),
                         ("recall", v1.metrics.recall_at_thresholds)):
            value, update = fn(labels, predictions, [threshold])
            metrics[f"{kind}/positive_threshold_{tag}_mean"] = (tf.squeeze(value, 0),
                                                                 tf.squeeze(update, 0))
    return metrics


def LogisticRegressor(model_fn, thresholds=None, model_dir=None, config=None,  # noqa: N802
                      feature_engineering_fn=None):
    """A contrib.learn Estimator of `model_fn` (probabilities [batch, 1]) with the logistic
    evaluation metrics at `thresholds`."""
    thresholds = list(thresholds) if thresholds else [0.5]

    def logistic_model_fn(features, labels, mode, params, config):
        ops = model_fn_ops.call_model_fn(model_fn, features, labels,
                                         model_fn_ops._TO_CORE[mode], params, config, None)
        if not isinstance(ops, model_fn_ops.ModelFnOps):
            raise ValueError("LogisticRegressor's model_fn returns ModelFnOps or "
                             "(predictions, loss, train_op).")
        if mode == model_fn_ops.ModeKeys.EVAL:
            predictions = ops.predictions
            if isinstance(predictions, dict):
                predictions = predictions.get("probabilities", next(iter(predictions.values())))
            ops = ops._replace(eval_metric_ops=dict(
                _metrics(predictions, labels, thresholds), **ops.eval_metric_ops))
        return ops

    return Estimator(model_fn=logistic_model_fn, model_dir=model_dir, config=config,
                     feature_engineering_fn=feature_engineering_fn)
