"""`tf.contrib.metrics`, served whole: TF1's streaming metrics, each a (value, update_op) pair
over local variables named as TF 1.15 named them, so `tf.local_variables_initializer()` and
evaluation loops behave.

- `streaming.py`: the `streaming_*` names TF 1.x moved to `tf.metrics` (contrib's argument
  order, predictions first), the rates, the counts and rates at thresholds, `*_at_k`.
- `correlation.py`: `streaming_covariance`, `streaming_pearson_correlation`.
- `curves.py`: `streaming_curve_points`, `precision_at_recall`, `recall_at_precision`,
  `f1_score`, `precision_recall_at_equal_thresholds`, `auc_using_histogram`.
- `concat.py`: `streaming_concat`, `streaming_dynamic_auc`, `auc_with_confidence_intervals`.
- `classification.py`: `accuracy`, `cohen_kappa`, `count`, `confusion_matrix`, `set_*`,
  `streaming_sparse_average_precision_at_top_k`, `aggregate_metrics`, `aggregate_metric_map`.
- `variables.py`: the local metric variables and the counts at thresholds they share.

The deep paths (`tensorflow.contrib.metrics.python.ops.metric_ops`, ...) are registered too.
"""
from estimator_compat.legacy.contrib.metrics import (classification, concat, correlation,
                                                     curves, streaming)

FUNCTIONS = {}
for _module in (streaming, correlation, curves, concat, classification):
    FUNCTIONS.update(_module.FUNCTIONS)

_DEEP = {  # TF 1.15's module under tensorflow.contrib.metrics.python: the names it held
    "ops.metric_ops": [n for n in FUNCTIONS if n not in (
        "accuracy", "f1_score", "auc_using_histogram", "confusion_matrix") and
        not n.startswith("set_")],
    "metrics.classification": ["accuracy", "f1_score"],
    "ops.histogram_ops": ["auc_using_histogram"],
    "ops.confusion_matrix_ops": ["confusion_matrix"],
    "ops.set_ops": ["set_difference", "set_intersection", "set_size", "set_union"],
}


def build():
    from estimator_compat.legacy.namespaces import namespace
    prefix = "tensorflow.contrib.metrics.python"
    parents = {}
    for path, names in _DEEP.items():
        package, module = path.split(".")
        child = namespace(f"{prefix}.{path}", f"tf.contrib.metrics' {module}",
                          **{n: FUNCTIONS[n] for n in names})
        parents.setdefault(package, {})[module] = child
    python = namespace(prefix, "tf.contrib.metrics", **{
        package: namespace(f"{prefix}.{package}", "tf.contrib.metrics", **children)
        for package, children in parents.items()})
    return namespace("tensorflow.contrib.metrics", "tf.contrib.metrics", python=python,
                     __served_whole__=True, **FUNCTIONS)
