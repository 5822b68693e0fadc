"""tensorflow_estimator 2.15's `model_fn` privates: the per-field checks EstimatorSpec-like
classes (TPUEstimatorSpec look-alikes of vendors' estimators) ran on what a model_fn returned.

Each takes a field and the mode, and returns the field as the spec stores it or raises what
2.15 raised: `_validate_estimator_spec_train_op` / `_loss` / `_predictions` / `_export_outputs`
/ `_hooks`, `_validate_eval_metric_ops` (plus `_update_variable_collection`),
`_validate_scaffold`, `_check_is_tensor`, `_check_is_tensor_or_operation`. Tensors must come
from the default graph unless executing eagerly, as there.

`_TPUEstimatorSpec` (the TPU spec built on these checks) comes with them.

One difference Keras 3 forces: a Keras Metric in eval_metric_ops has no `updates` list to check
or to turn into `(result, update_op)`, so it is kept as the Metric (as estimator_compat's
EstimatorSpec keeps it; the engine updates it), its variables added to LOCAL_VARIABLES and
METRIC_VARIABLES as 2.15 added them.
"""
import collections

import keras
import tensorflow as tf
from tensorflow.python.saved_model.model_utils import export_utils

from estimator_compat.legacy.estimator_tree.reasons import instances_of
from estimator_compat.mode_keys import ModeKeys

v1 = tf.compat.v1
_TENSOR = tf.__internal__.types.Tensor

_NOT_DEFAULT_GRAPH = (
    '{0} with "{1}" must be from the default graph. Possible causes of this error include: '
    '\n\n1) {0} was created outside the context of the default graph.\n\n2) The object '
    'passed through to EstimatorSpec was not created in the most recent call to "model_fn".')


def _in_default_graph(value):
    return tf.executing_eagerly() or value.graph is v1.get_default_graph()


def _check_is_tensor(x, tensor_name):
    """`x` when it is a Tensor (a resource variable counts), else TypeError naming it."""
    if not isinstance(x, _TENSOR):
        raise TypeError(f"{tensor_name} must be Tensor, given: {x}")
    return x


def _check_is_tensor_or_operation(x, name):
    """TypeError naming `name` unless `x` is an Operation or a Tensor."""
    if not isinstance(x, (tf.Operation, _TENSOR)):
        raise TypeError(f"{name} must be Operation or Tensor, given: {x}")


def _validate_estimator_spec_train_op(train_op, mode):
    """The train_op (a variable's op for a variable): ValueError when missing in TRAIN or not
    from the default graph, TypeError when not a Tensor or Operation."""
    if train_op is None:
        if mode == ModeKeys.TRAIN:
            raise ValueError("Missing train_op.")
        return None
    _check_is_tensor_or_operation(train_op, "train_op")
    if isinstance(train_op, tf.Variable):
        train_op = train_op.op
    if not _in_default_graph(train_op):
        raise ValueError(_NOT_DEFAULT_GRAPH.format("train_op", train_op.name))
    return train_op


def _validate_estimator_spec_loss(loss, mode):
    """The loss as a scalar (a [1]-shaped loss reshaped): ValueError when missing in TRAIN or
    EVAL, when it has more than one element or is not from the default graph; TypeError when
    not a Tensor."""
    if loss is None:
        if mode in (ModeKeys.TRAIN, ModeKeys.EVAL):
            raise ValueError("Missing loss.")
        return None
    loss = _check_is_tensor(loss, "loss")
    shape = loss.get_shape()
    if shape.num_elements() not in (None, 1):
        raise ValueError(f"Loss must be scalar, given: {loss}")
    if not shape.is_compatible_with(tf.TensorShape([])):
        loss = tf.reshape(loss, [])
    if not _in_default_graph(loss):
        raise ValueError(_NOT_DEFAULT_GRAPH.format("loss", loss.name))
    return loss


def _validate_estimator_spec_predictions(predictions, mode):
    """The predictions ({} when None outside PREDICT): ValueError when missing in PREDICT or
    not from the default graph, TypeError for a non-Tensor (or a dict with one)."""
    if predictions is None:
        if mode == ModeKeys.PREDICT:
            raise ValueError("Missing predictions.")
        return {}
    if isinstance(predictions, dict):
        predictions = {k: _check_is_tensor(v, f"predictions[{k}]")
                       for k, v in predictions.items()}
        for key, value in predictions.items():
            if not _in_default_graph(value):
                raise ValueError(_NOT_DEFAULT_GRAPH.format("prediction values",
                                                           f"{key}: {value.name}"))
        return predictions
    predictions = _check_is_tensor(predictions, "predictions")
    if not _in_default_graph(predictions):
        raise ValueError(_NOT_DEFAULT_GRAPH.format("prediction values", predictions.name))
    return predictions


def _validate_estimator_spec_export_outputs(export_outputs, predictions, mode):
    """In PREDICT, the export outputs checked (a dict of ExportOutput, TypeError otherwise)
    with the default serving signature added (a PredictOutput of `predictions` when none are
    given); in other modes `export_outputs` unchanged."""
    if mode == ModeKeys.PREDICT:
        return export_utils.get_export_outputs(export_outputs, predictions)
    return export_outputs


def _validate_estimator_spec_hooks(hooks):
    """`hooks` as a tuple of SessionRunHooks (TypeError for anything else)."""
    return instances_of(v1.train.SessionRunHook, hooks,
                        "All hooks must be SessionRunHook instances", tuple)


def _validate_eval_metric_ops(eval_metric_ops):
    """`eval_metric_ops` ({} for None): TypeError unless a dict whose values are Keras Metrics
    or 2-tuples, ValueError for a tensor not from the default graph. The dict given is
    returned (the same object, as in 2.15)."""
    if eval_metric_ops is None:
        eval_metric_ops = {}
    elif not isinstance(eval_metric_ops, dict):
        raise TypeError(f"eval_metric_ops must be a dict, given: {eval_metric_ops}")
    for key, value in eval_metric_ops.items():
        if not isinstance(value, keras.metrics.Metric) and (
                not isinstance(value, tuple) or len(value) != 2):
            raise TypeError("Values of eval_metric_ops must be (metric_value, update_op) "
                            f"tuples, given: {value} for key: {key}")
    metric_variables = []
    for key, value in eval_metric_ops.items():
        if isinstance(value, keras.metrics.Metric):
            metric_variables.extend(value.variables)
            continue
        for item in tf.nest.flatten(value):
            if not _in_default_graph(item):
                raise ValueError(_NOT_DEFAULT_GRAPH.format("eval_metric_ops",
                                                           f"{key}: {item.name}"))
    _update_variable_collection(v1.GraphKeys.LOCAL_VARIABLES, metric_variables)
    _update_variable_collection(v1.GraphKeys.METRIC_VARIABLES, metric_variables)
    return eval_metric_ops


def _update_variable_collection(collection_name, vars_to_add):
    """Adds each of `vars_to_add` not yet in the default graph's collection to it."""
    present = {id(v) for v in v1.get_collection(collection_name)}
    for variable in vars_to_add:
        if id(variable) not in present:
            present.add(id(variable))
            v1.add_to_collection(collection_name, variable)


def _validate_scaffold(scaffold):
    """`scaffold`, a new Scaffold when None; TypeError when not a tf.train.Scaffold."""
    scaffold = scaffold or v1.train.Scaffold()
    if not isinstance(scaffold, v1.train.Scaffold):
        raise TypeError(f"scaffold must be tf.train.Scaffold. Given: {scaffold}")
    return scaffold


class _TPUEstimatorSpec(collections.namedtuple("TPUEstimatorSpec", [
        "mode", "predictions", "loss", "train_op", "eval_metrics", "export_outputs",
        "scaffold_fn", "host_call", "training_hooks", "evaluation_hooks", "prediction_hooks"])):
    """model_fn's internal TPU spec: the fields checked as above (eval_metrics, scaffold_fn
    and host_call as given); `as_estimator_spec()` is the EstimatorSpec run off TPU, its
    eval_metric_ops `metric_fn(**tensors)` of eval_metrics."""

    def __new__(cls, mode, predictions=None, loss=None, train_op=None, eval_metrics=None,
                export_outputs=None, scaffold_fn=None, host_call=None, training_hooks=None,
                evaluation_hooks=None, prediction_hooks=None):
        train_op = _validate_estimator_spec_train_op(train_op, mode)
        loss = _validate_estimator_spec_loss(loss, mode)
        predictions = _validate_estimator_spec_predictions(predictions, mode)
        export_outputs = _validate_estimator_spec_export_outputs(export_outputs, predictions,
                                                                 mode)
        return super().__new__(
            cls, mode=mode, predictions=predictions, loss=loss, train_op=train_op,
            eval_metrics=eval_metrics, export_outputs=export_outputs, scaffold_fn=scaffold_fn,
            host_call=host_call, training_hooks=_validate_estimator_spec_hooks(training_hooks),
            evaluation_hooks=_validate_estimator_spec_hooks(evaluation_hooks),
            prediction_hooks=_validate_estimator_spec_hooks(prediction_hooks))

    def as_estimator_spec(self):
        from estimator_compat.spec import EstimatorSpec
        eval_metric_ops = None
        if self.eval_metrics:
            metric_fn, tensors = self.eval_metrics
            eval_metric_ops = metric_fn(**tensors)
        return EstimatorSpec(
            mode=self.mode, predictions=self.predictions, loss=self.loss,
            train_op=self.train_op, eval_metric_ops=eval_metric_ops,
            export_outputs=self.export_outputs, training_hooks=self.training_hooks,
            evaluation_hooks=self.evaluation_hooks, prediction_hooks=self.prediction_hooks)
