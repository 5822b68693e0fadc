"""A head's eval metrics as a table, built two ways from one definition.

Each row is (key, kind, threshold, inputs): `inputs(ctx)` gives (labels, values, weights) from
the head's tensors. `as_v1_ops` builds compat.v1 metrics (what create_estimator_spec reports:
tf.estimator 2.15's numbers); `make_keras` / `update_keras` serve the Head API's
`metrics()` / `update_metrics()` with Keras metric objects.
"""
import collections

import keras
import tensorflow as tf

from estimator_compat.canned.heads import curve_auc

v1 = tf.compat.v1
Row = collections.namedtuple("Row", "key kind threshold inputs")

# kinds: mean, accuracy (of ids), accuracy_at / precision / recall (of probabilities above a
# threshold), auc, auc_pr, accuracy_baseline (max(mean, 1 - mean) of the labels)


def _above(values, threshold):
    return tf.cast(values > threshold, tf.int64)


def _v1_op(row, labels, values, weights):
    kind, threshold = row.kind, row.threshold
    if kind in ("mean", "accuracy_baseline"):
        return v1.metrics.mean(values, weights)
    if kind == "accuracy":
        return v1.metrics.accuracy(labels, values, weights)
    if kind == "accuracy_at":
        return v1.metrics.accuracy(labels, _above(values, threshold), weights)
    if kind == "precision":
        return v1.metrics.precision(labels, _above(values, threshold), weights)
    if kind == "recall":
        return v1.metrics.recall(labels, _above(values, threshold), weights)
    raise ValueError(f"unknown metric kind {kind!r}")


_CURVES = {"auc": "ROC", "auc_pr": "PR", "auc_pr_trapezoidal": "PR_TRAPEZOIDAL"}


def as_v1_ops(rows, ctx):
    """{key: (value, update_op)} for EstimatorSpec.eval_metric_ops. The ROC and PR AUC of the
    same inputs share one confusion matrix (curve_auc.py)."""
    ops, curves = {}, {}
    for row in rows:
        if row.kind in _CURVES:
            if row.inputs not in curves:
                curves[row.inputs] = curve_auc.auc_pair(*row.inputs(ctx))
            ops[row.key] = curves[row.inputs][_CURVES[row.kind]]
            continue
        op = _v1_op(row, *row.inputs(ctx))
        if row.kind == "accuracy_baseline":
            op = tuple(tf.maximum(t, 1.0 - t) for t in op)
        ops[row.key] = op
    return ops


class AccuracyBaseline(keras.metrics.Mean):
    """The accuracy of always predicting the more frequent label: max(mean, 1 - mean)."""

    def result(self):
        mean = super().result()
        return keras.ops.maximum(mean, 1.0 - mean)


def _keras_metric(row):
    name, threshold = row.key, row.threshold
    return {
        "mean": lambda: keras.metrics.Mean(name=name),
        "accuracy_baseline": lambda: AccuracyBaseline(name=name),
        "accuracy": lambda: keras.metrics.Accuracy(name=name),
        "accuracy_at": lambda: keras.metrics.BinaryAccuracy(name=name, threshold=threshold),
        "precision": lambda: keras.metrics.Precision(name=name, thresholds=threshold),
        "recall": lambda: keras.metrics.Recall(name=name, thresholds=threshold),
        "auc": lambda: keras.metrics.AUC(name=name, curve="ROC"),
        "auc_pr": lambda: keras.metrics.AUC(name=name, curve="PR"),
        "auc_pr_trapezoidal": lambda: keras.metrics.AUC(name=name, curve="PR"),
    }[row.kind]()


def make_keras(rows):
    return {row.key: _keras_metric(row) for row in rows}


def update_keras(rows, metrics, ctx):
    for row in rows:
        if row.key not in metrics:
            raise ValueError(f"eval_metrics lack {row.key!r}: pass what head.metrics() "
                             "returned.")
        labels, values, weights = row.inputs(ctx)
        if row.kind in ("mean", "accuracy_baseline"):
            metrics[row.key].update_state(values, sample_weight=weights)
        else:
            metrics[row.key].update_state(labels, values, sample_weight=weights)
    return metrics
