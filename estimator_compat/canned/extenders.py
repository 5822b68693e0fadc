"""add_metrics: an Estimator with more eval metrics, computed by `metric_fn`."""
from estimator_compat.estimator import Estimator
from estimator_compat.fn_args import accepted_kwargs, fn_args


def add_metrics(estimator, metric_fn):
    """A new Estimator (same model_dir and config) whose evaluation also reports the metrics
    `metric_fn` returns; metric_fn takes any of (labels, predictions, features, config)."""
    allowed = {"labels", "predictions", "features", "config"}
    args = set(fn_args(metric_fn))
    if not args <= allowed or "predictions" not in args:
        raise ValueError(f"metric_fn must take predictions and any of {sorted(allowed)}; "
                         f"given args: {sorted(args)}")

    def model_fn(features, labels, mode, config):
        from estimator_compat.engine.model_fn_call import call_model_fn
        spec = call_model_fn(estimator._model_fn, features, labels, mode,
                             estimator._params_for_call(mode), config)
        if mode != "eval":
            return spec
        extra = metric_fn(**accepted_kwargs(metric_fn, labels=labels, predictions=spec.predictions,
                                            features=features, config=config))
        clash = sorted(set(extra) & set(spec.eval_metric_ops))
        if clash:
            raise ValueError(f"metric_fn returns metrics the model already has: {clash}")
        return spec._replace(eval_metric_ops=dict(spec.eval_metric_ops, **extra))
    return Estimator(model_fn, model_dir=estimator.model_dir, config=estimator.config)
