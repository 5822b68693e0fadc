"""tensorflow_estimator 2.15's checks of user functions' arguments: `exporter.
_verify_compare_fn_args` (BestExporter's compare_fn), `extenders._verify_metric_fn_args` and
`extenders._call_metric_fn` (add_metrics' metric_fn), with 2.15's errors."""
from estimator_compat.fn_args import fn_args

_METRIC_FN_ARGS = ("features", "labels", "predictions", "config")
_COMPARE_FN_ARGS = ("best_eval_result", "current_eval_result")


def _verify_compare_fn_args(compare_fn):
    """ValueError unless `compare_fn` takes exactly best_eval_result and current_eval_result."""
    args = set(fn_args(compare_fn))
    for needed in _COMPARE_FN_ARGS:
        if needed not in args:
            raise ValueError(f"compare_fn ({compare_fn}) must include {needed} argument.")
    unexpected = list(args - set(_COMPARE_FN_ARGS))
    if unexpected:
        raise ValueError(f"compare_fn ({compare_fn}) has following not expected args: "
                         f"{unexpected}")


def _verify_metric_fn_args(metric_fn):
    """ValueError when `metric_fn` takes an argument other than features, labels,
    predictions, config."""
    unexpected = list(set(fn_args(metric_fn)) - set(_METRIC_FN_ARGS))
    if unexpected:
        raise ValueError(f"metric_fn ({metric_fn}) has following not expected args: "
                         f"{unexpected}")


def _call_metric_fn(metric_fn, features, labels, predictions, config):
    """`metric_fn` called with those of features, labels, predictions, config it takes."""
    args = fn_args(metric_fn)
    given = dict(features=features, labels=labels, predictions=predictions, config=config)
    return metric_fn(**{k: v for k, v in given.items() if k in args})
