"""TPUEstimatorSpec: what a TPUEstimator model_fn returns (eval_metrics as a metric_fn)."""
import collections

import tensorflow as tf

from estimator_compat.spec import EstimatorSpec

_FIELDS = ["mode", "predictions", "loss", "train_op", "eval_metrics", "export_outputs",
           "scaffold_fn", "host_call", "training_hooks", "evaluation_hooks", "prediction_hooks"]


def _call(fn_and_tensors, what):
    fn, tensors = fn_and_tensors
    if not callable(fn):
        raise TypeError(f"{what}[0] must be callable, given: {fn!r}")
    return fn(**tensors) if isinstance(tensors, dict) else fn(*tensors)


class TPUEstimatorSpec(collections.namedtuple("TPUEstimatorSpec", _FIELDS)):
    """Like EstimatorSpec, with `eval_metrics=(metric_fn, tensors)`, `scaffold_fn` and
    `host_call=(fn, tensors)`; `as_estimator_spec()` gives the EstimatorSpec the engine runs."""

    def __new__(cls, mode, predictions=None, loss=None, train_op=None, eval_metrics=None,
                export_outputs=None, scaffold_fn=None, host_call=None, training_hooks=None,
                evaluation_hooks=None, prediction_hooks=None):
        for name, value in (("eval_metrics", eval_metrics), ("host_call", host_call)):
            if value is not None and (not isinstance(value, (tuple, list)) or len(value) != 2):
                raise ValueError(f"{name} should be a tuple (fn, tensors), given: {value!r}")
        if scaffold_fn is not None and not callable(scaffold_fn):
            raise TypeError(f"scaffold_fn must be callable, given: {scaffold_fn!r}")
        return super().__new__(cls, mode, predictions, loss, train_op, eval_metrics,
                               export_outputs, scaffold_fn, host_call, training_hooks,
                               evaluation_hooks, prediction_hooks)

    def as_estimator_spec(self):
        """Runs scaffold_fn, metric_fn and host_call (in the trace) and returns an EstimatorSpec."""
        scaffold = self.scaffold_fn() if self.scaffold_fn is not None else None
        eval_metric_ops = _call(self.eval_metrics, "eval_metrics") if self.eval_metrics else None
        train_op = self.train_op
        if self.host_call is not None and self.mode == "train":
            host_ops = _call(self.host_call, "host_call")
            with tf.control_dependencies([train_op]):
                train_op = tf.group(train_op, *tf.nest.flatten(host_ops or []))
        return EstimatorSpec(
            mode=self.mode, predictions=self.predictions, loss=self.loss, train_op=train_op,
            eval_metric_ops=eval_metric_ops, export_outputs=self.export_outputs,
            scaffold=scaffold, training_hooks=self.training_hooks,
            evaluation_hooks=self.evaluation_hooks, prediction_hooks=self.prediction_hooks)
