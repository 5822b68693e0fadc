"""`tf.contrib.compiler.xla.estimator_model_fn`: a model_fn whose TRAIN / EVAL step runs
through `xla.compile` (TensorFlow's own), as TF 1.15's decorator made it.

TRAIN compiles the step "run model_fn, then return its loss after its train_op", and serves
`EstimatorSpec(loss, train_op=identity(loss))`; EVAL compiles "loss and the eval_metrics
tensors" and applies the metric fn outside. A model_fn's `scaffold_fn` (TPUEstimatorSpec) is
called outside the compiled step; `params['use_tpu']` set means the model_fn runs uncompiled.
"""
import sys

from tensorflow.python.compiler.xla import xla
from tensorflow.python.framework import ops
from tensorflow.python.ops import array_ops
from tensorflow.python.platform import tf_logging
from tensorflow.python.util import function_utils, tf_decorator


def _model_fn_lib():
    return sys.modules["tensorflow.python.estimator.model_fn"]


class _Captured:
    """One value set inside the compiled step, read outside it."""

    def __init__(self):
        self.value = None
        self.set = False

    def capture(self, value):
        if self.set:
            raise RuntimeError("InternalError: _CapturedObject can capture only once. "
                               "Please file bug.")
        self.value, self.set = value, True


def _scaffold(captured):
    if not captured.value:
        return None
    scaffold = captured.value()
    if scaffold is None:
        raise ValueError("TPUEstimatorSpec.scaffold_fn returns None, which is not allowed")
    return scaffold


def _check_spec(spec):
    """TF 1.15's checks: no eval_metric_ops (eval_metrics instead), metric args all given."""
    if getattr(spec, "scaffold", None):
        tf_logging.warning("EstimatorSpec.scaffold is ignored with XLA compilation. Please use "
                           "TPUEstimatorSpec.scaffold_fn instead.")
    if getattr(spec, "eval_metric_ops", None):
        raise ValueError("EstimatorSpec.eval_metric_ops is not supported with XLA compilation. "
                         "Please use TPUEstimatorSpec.eval_metrics instead.")
    eval_metrics = getattr(spec, "eval_metrics", None)
    if spec.mode == _model_fn_lib().ModeKeys.EVAL and eval_metrics:
        fn, tensors = eval_metrics
        if isinstance(tensors, dict):
            args = function_utils.fn_args(fn)
            lacking = [a for a in args if a not in tensors]
            extra = [t for t in tensors if t not in args]
            if lacking:
                raise ValueError(
                    "Arguments %s are needed by metric_fn (first element of "
                    "TPUEstimatorSpec.eval_metrics) but they are not provided by evaluation "
                    "tensors (second element of TPUEstimatorSpec.eval_metrics)." % lacking)
            if extra:
                raise ValueError(
                    "Arguments %s are provided by evaluation tensors (second element of "
                    "TPUEstimatorSpec.eval_metrics) but they are not needed by metric_fn "
                    "(first element of TPUEstimatorSpec.eval_metrics)." % extra)
    return spec


class _CompiledModelFn:
    def __init__(self, model_fn):
        self._model_fn = model_fn

    def _call(self, features, labels, mode, params):
        args = function_utils.fn_args(self._model_fn)
        kwargs = {}
        if "labels" in args:
            kwargs["labels"] = labels
        elif labels is not None:
            raise ValueError("model_fn does not take labels, but input_fn returns labels.")
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = params
        return _check_spec(self._model_fn(features=features, **kwargs))

    def __call__(self, features, labels, mode, params):
        lib = _model_fn_lib()
        if params.get("use_tpu"):
            return self._call(features, labels, mode, params)
        scaffold_fn = _Captured()
        if mode == lib.ModeKeys.TRAIN:
            def train_step():
                spec = self._call(features, labels, mode, params)
                scaffold_fn.capture(getattr(spec, "scaffold_fn", None))
                with ops.control_dependencies([spec.train_op]):
                    return array_ops.identity(spec.loss)
            (loss,) = xla.compile(train_step)
            return lib.EstimatorSpec(mode=mode, loss=loss, train_op=array_ops.identity(loss),
                                     scaffold=_scaffold(scaffold_fn))
        if mode == lib.ModeKeys.EVAL:
            metric_fn = _Captured()

            def eval_step():
                spec = self._call(features, labels, mode, params)
                scaffold_fn.capture(getattr(spec, "scaffold_fn", None))
                fn, tensors = (getattr(spec, "eval_metrics", None) or (None, []))
                if isinstance(tensors, dict):
                    tensors = [tensors[a] for a in function_utils.fn_args(fn)]
                metric_fn.capture(fn)
                return tuple([spec.loss] + list(tensors))
            outputs = xla.compile(eval_step)
            metric_ops = metric_fn.value(*outputs[1:]) if metric_fn.value else None
            return lib.EstimatorSpec(mode=mode, loss=outputs[0], eval_metric_ops=metric_ops,
                                     scaffold=_scaffold(scaffold_fn))
        raise NotImplementedError("%s is not implemented, only TRAIN and EVAL are supported"
                                  % mode)


def estimator_model_fn(target_model_fn=None):
    """Decorates a model_fn so that its step is compiled by XLA (`@estimator_model_fn()` or
    `estimator_model_fn(model_fn)`)."""
    def decorate(function):
        return tf_decorator.make_decorator(function, _CompiledModelFn(function))
    return decorate(target_model_fn) if target_model_fn else decorate
