"""tf.contrib.learn's model_fn contract: ModeKeys, ModelFnOps, ProblemType, MetricSpec.

A contrib.learn model_fn took `features` and `labels` first, by position (any names:
`(features, target, mode)`), and `mode`, `params`, `config`, `model_dir` by name; it returned
a `ModelFnOps` or a `(predictions, loss, train_op)` tuple. `as_spec` turns either into the
EstimatorSpec the engine runs: ModeKeys.INFER is `predict`, `output_alternatives` become
export outputs, `eval_metric_ops` pass through.
"""
import collections

import tensorflow as tf

from estimator_compat.fn_args import fn_args
from estimator_compat.learn import output_alternatives as alternatives
from estimator_compat.mode_keys import ModeKeys as CoreModeKeys
from estimator_compat.spec import EstimatorSpec


class ModeKeys:
    """tf.contrib.learn.ModeKeys (INFER is tf.estimator's PREDICT)."""
    TRAIN = "train"
    EVAL = "eval"
    INFER = "infer"


class ProblemType:
    """tf.contrib.learn's problem types of an output alternative."""
    UNSPECIFIED = 0
    CLASSIFICATION = 1
    LINEAR_REGRESSION = 2
    LOGISTIC_REGRESSION = 3


_TO_CORE = {ModeKeys.TRAIN: CoreModeKeys.TRAIN, ModeKeys.EVAL: CoreModeKeys.EVAL,
            ModeKeys.INFER: CoreModeKeys.PREDICT}
_FROM_CORE = {v: k for k, v in _TO_CORE.items()}
HEAD_LOSS = "loss/contrib_learn_head"  # a ModelFnOps' own `loss` metric, on its way to `loss`


class ModelFnOps(collections.namedtuple("ModelFnOps", [
        "predictions", "loss", "train_op", "eval_metric_ops", "output_alternatives",
        "training_chief_hooks", "training_hooks", "scaffold", "mode"])):
    """What a contrib.learn model_fn returns."""

    def __new__(cls, mode, predictions=None, loss=None, train_op=None, eval_metric_ops=None,
                output_alternatives=None, training_chief_hooks=None, training_hooks=None,
                scaffold=None):
        if mode not in _TO_CORE:
            raise ValueError(f"ModelFnOps mode must be one of {sorted(_TO_CORE)}, given "
                             f"{mode!r}")
        return super().__new__(cls, predictions, loss, train_op, eval_metric_ops or {},
                               output_alternatives, list(training_chief_hooks or []),
                               list(training_hooks or []), scaffold, mode)

    def estimator_spec(self, default_serving_output_alternative_key=None):
        """The tf.estimator EstimatorSpec of these ops."""
        mode = _TO_CORE[self.mode]
        predictions = self.predictions
        if mode == CoreModeKeys.PREDICT and predictions is None:
            raise ValueError("ModelFnOps in INFER mode must have predictions.")
        export_outputs = None
        if mode == CoreModeKeys.PREDICT:
            export_outputs = alternatives.export_outputs(
                self.output_alternatives, predictions, default_serving_output_alternative_key)
        return EstimatorSpec(
            mode, predictions=predictions, loss=self.loss, train_op=self.train_op,
            # contrib.learn's heads report a 'loss' metric (the weighted mean per-example
            # loss), which TF 1.15 reported in place of its own mean of the batches' losses;
            # tf.estimator reserves the name, so it travels as HEAD_LOSS (ContribAPI renames it)
            eval_metric_ops={HEAD_LOSS if k == "loss" else k: v
                             for k, v in self.eval_metric_ops.items()},
            export_outputs=export_outputs,
            training_chief_hooks=self.training_chief_hooks, training_hooks=self.training_hooks,
            scaffold=self.scaffold)


class MetricSpec:
    """tf.contrib.learn.MetricSpec: a metric_fn and which prediction/label/weight it reads."""

    def __init__(self, metric_fn, prediction_key=None, label_key=None, weight_key=None):
        if not callable(metric_fn):
            raise TypeError(f"metric_fn must be callable, given {metric_fn!r}")
        self.metric_fn = metric_fn
        self.prediction_key, self.label_key, self.weight_key = (prediction_key, label_key,
                                                                weight_key)

    def create_metric_ops(self, inputs, labels, predictions):
        """(value, update_op) of the metric on this batch, as compat.v1 metrics return them."""
        if isinstance(predictions, dict):
            if self.prediction_key is None:
                if len(predictions) != 1:
                    raise ValueError(f"MetricSpec needs a prediction_key: the predictions "
                                     f"have keys {sorted(predictions)}")
                predictions = next(iter(predictions.values()))
            else:
                predictions = predictions[self.prediction_key]
        if isinstance(labels, dict):
            labels = labels[self.label_key] if self.label_key else next(iter(labels.values()))
        args = fn_args(self.metric_fn)
        kwargs = {}
        if self.weight_key is not None:
            kwargs["weights"] = inputs[self.weight_key]
        if "labels" in args and "predictions" in args:
            return self.metric_fn(labels=labels, predictions=predictions, **kwargs)
        return self.metric_fn(predictions, labels, **kwargs)


def call_model_fn(model_fn, features, labels, mode, params, config, model_dir):
    """Calls a contrib.learn model_fn as contrib.learn did; returns ModelFnOps."""
    args = fn_args(model_fn)
    kwargs = {}
    for name, value in (("mode", _FROM_CORE[mode]), ("params", params), ("config", config),
                        ("model_dir", model_dir)):
        if name in args:
            kwargs[name] = value
    if set(args[:2]) & set(kwargs):  # standard names in another order: by name
        kwargs.update({n: v for n, v in (("features", features), ("labels", labels))
                       if n in args})
        result = model_fn(**kwargs)
    elif len([a for a in args if a not in kwargs]) >= 2:
        result = model_fn(features, labels, **kwargs)
    else:
        result = model_fn(features, **kwargs)
    if isinstance(result, ModelFnOps):
        return result
    if isinstance(result, EstimatorSpec):
        return result
    if isinstance(result, (tuple, list)) and len(result) == 3:
        predictions, loss, train_op = result
        return ModelFnOps(_FROM_CORE[mode], predictions=predictions, loss=loss,
                          train_op=train_op)
    raise ValueError("A contrib.learn model_fn returns ModelFnOps or (predictions, loss, "
                     f"train_op), given {type(result).__name__}")


def metric_ops(metrics, features, labels, predictions):
    """eval_metric_ops from Estimator.evaluate(metrics={name: MetricSpec or metric_fn, or
    (name, prediction_key): metric_fn})."""
    ops = {}
    for key, metric in (metrics or {}).items():
        name, prediction_key = key if isinstance(key, tuple) else (key, None)
        spec = metric if isinstance(metric, MetricSpec) else MetricSpec(
            metric, prediction_key=prediction_key)
        ops[name] = spec.create_metric_ops(features, labels, predictions)
    return ops



def no_op_train_fn(loss):
    """A train_op_fn that trains nothing (contrib.learn's heads took one): `tf.no_op()`."""
    del loss
    return tf.no_op()
