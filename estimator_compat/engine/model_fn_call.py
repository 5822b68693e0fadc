"""Calling a user's model_fn with the subset of (features, labels, mode, params, config) it takes."""
import logging

from estimator_compat.fn_args import accepted_kwargs, fn_args
from estimator_compat.spec import EstimatorSpec

logger = logging.getLogger("tensorflow")
_VALID = {"features", "labels", "mode", "params", "self", "config"}


def verify_model_fn(model_fn, params):
    """Raises the tf.estimator errors for a model_fn whose signature cannot be called."""
    if not callable(model_fn):
        raise ValueError(f"model_fn must be provided to Estimator and be callable, given: {model_fn!r}")
    args = set(fn_args(model_fn))
    name = getattr(model_fn, "__name__", repr(model_fn))
    if "features" not in args:
        raise ValueError(f"model_fn ({name}) must include features argument; its signature is "
                         "model_fn(features, labels, mode, params, config) or a subset of it.")
    if params is not None and "params" not in args:
        raise ValueError(f"model_fn ({name}) does not include params argument, but params "
                         f"({params!r}) is passed to Estimator.")
    unexpected = sorted(args - _VALID)
    if unexpected:
        raise ValueError(f"model_fn ({name}) has following not expected args: {unexpected}. "
                         "Allowed: features, labels, mode, params, config.")


def call_model_fn(model_fn, features, labels, mode, params, config, announce=True):
    """Calls model_fn and checks that it returned an EstimatorSpec for `mode`; `announce`:
    between tf.estimator's `Calling model_fn.` / `Done calling model_fn.` lines."""
    kwargs = accepted_kwargs(model_fn, labels=labels, mode=mode, params=params, config=config)
    if "labels" not in kwargs and labels is not None:
        raise ValueError("model_fn does not take labels, but input_fn returns labels.")
    if announce:
        logger.info("Calling model_fn.")
    spec = model_fn(features=features, **kwargs)
    if announce:
        logger.info("Done calling model_fn.")
    to_spec = getattr(spec, "as_estimator_spec", None)
    if to_spec is not None and not isinstance(spec, EstimatorSpec):
        spec = to_spec()
    if not isinstance(spec, EstimatorSpec):
        raise ValueError(f"model_fn should return an EstimatorSpec, given: {type(spec).__name__} "
                         f"({spec!r}).")
    if spec.mode != mode:
        raise ValueError(f"model_fn returned an EstimatorSpec for mode={spec.mode!r} when called "
                         f"with mode={mode!r}.")
    return spec
