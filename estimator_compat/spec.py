"""EstimatorSpec: what a model_fn returns, validated field by field as tf.estimator did."""
import collections

import keras
import tensorflow as tf

from estimator_compat.export.outputs import ExportOutput
from estimator_compat.mode_keys import ModeKeys

_HOOK_TYPES = (tf.compat.v1.train.SessionRunHook, keras.callbacks.Callback)

_FIELDS = [
    "mode", "predictions", "loss", "train_op", "eval_metric_ops", "export_outputs",
    "training_chief_hooks", "training_hooks", "scaffold", "evaluation_hooks", "prediction_hooks",
]


class EstimatorSpec(collections.namedtuple("EstimatorSpec", _FIELDS)):
    """Ops and objects returned from a `model_fn`; invalid fields raise at construction."""

    def __new__(cls, mode, predictions=None, loss=None, train_op=None, eval_metric_ops=None,
                export_outputs=None, training_chief_hooks=None, training_hooks=None,
                scaffold=None, evaluation_hooks=None, prediction_hooks=None):
        if mode not in (ModeKeys.TRAIN, ModeKeys.EVAL, ModeKeys.PREDICT):
            raise ValueError(f"mode={mode!r} unrecognized; use one of tf.estimator.ModeKeys "
                             f"(TRAIN={ModeKeys.TRAIN!r}, EVAL={ModeKeys.EVAL!r}, "
                             f"PREDICT={ModeKeys.PREDICT!r}).")
        if mode in (ModeKeys.TRAIN, ModeKeys.EVAL) and loss is None:
            raise ValueError(f"Missing loss: EstimatorSpec(mode={mode!r}) needs a scalar `loss`.")
        if loss is not None:
            loss = _validate_loss(loss)
        if mode == ModeKeys.TRAIN and train_op is None:
            raise ValueError("Missing train_op: EstimatorSpec(mode='train') needs `train_op`, "
                             "e.g. optimizer.minimize(loss, global_step=...).")
        if train_op is not None and not _is_tensor_or_op(train_op):
            raise TypeError(f"train_op must be Operation or Tensor, given: {train_op!r}")
        if mode == ModeKeys.PREDICT and predictions is None:
            raise ValueError("Missing predictions: EstimatorSpec(mode='infer') needs `predictions` "
                             "(a Tensor or a dict of Tensors).")
        if predictions is not None:
            _validate_predictions(predictions)
        eval_metric_ops = _validate_eval_metric_ops(eval_metric_ops)
        export_outputs = _validate_export_outputs(export_outputs)
        hooks = {}
        for field, value in (("training_chief_hooks", training_chief_hooks),
                             ("training_hooks", training_hooks),
                             ("evaluation_hooks", evaluation_hooks),
                             ("prediction_hooks", prediction_hooks)):
            hooks[field] = tuple(value or ())
            for hook in hooks[field]:
                if not isinstance(hook, _HOOK_TYPES):
                    raise TypeError(f"All hooks must be SessionRunHook instances, given: {hook!r} "
                                    f"(in {field}).")
        if scaffold is None:
            scaffold = tf.compat.v1.train.Scaffold()
        elif not isinstance(scaffold, tf.compat.v1.train.Scaffold):
            raise TypeError(f"scaffold must be tf.train.Scaffold. Given: {scaffold!r}")
        return super().__new__(cls, mode=mode, predictions=predictions, loss=loss,
                               train_op=train_op, eval_metric_ops=eval_metric_ops,
                               export_outputs=export_outputs, scaffold=scaffold, **hooks)

    def _replace(self, **kwds):
        if "mode" in kwds and self.mode != kwds["mode"]:
            raise ValueError("mode of EstimatorSpec cannot be changed.")
        return EstimatorSpec(**{**self._asdict(), **kwds})


def _is_tensor_or_op(x):
    return isinstance(x, (tf.Tensor, tf.Operation, tf.Variable))


def _validate_loss(loss):
    if isinstance(loss, tf.Variable):
        loss = tf.convert_to_tensor(loss)
    if not isinstance(loss, tf.Tensor):
        raise TypeError(f"loss must be Tensor, given: {loss!r}")
    if loss.shape.num_elements() not in (None, 1):
        raise ValueError(f"Loss must be scalar, given: {loss!r} (shape {loss.shape}); "
                         "reduce it, e.g. with tf.reduce_mean.")
    if not loss.shape.is_compatible_with([]):
        loss = tf.reshape(loss, [])
    return loss


def _validate_predictions(predictions):
    if isinstance(predictions, dict):
        for key, value in predictions.items():
            if not isinstance(value, (tf.Tensor, tf.SparseTensor, tf.Variable)):
                raise TypeError(f"predictions[{key}] must be Tensor, given: {value!r}")
    elif not isinstance(predictions, (tf.Tensor, tf.SparseTensor, tf.Variable)):
        raise TypeError(f"predictions must be Tensor or dict of Tensor, given: {predictions!r}")


def _validate_eval_metric_ops(eval_metric_ops):
    if eval_metric_ops is None:
        return {}
    if not isinstance(eval_metric_ops, dict):
        raise TypeError(f"eval_metric_ops must be a dict, given: {eval_metric_ops!r}")
    for key, value in eval_metric_ops.items():
        if isinstance(value, keras.metrics.Metric):
            continue
        if (not isinstance(value, tuple) or len(value) != 2
                or not all(_is_tensor_or_op(v) for v in value)):
            raise TypeError("Values of eval_metric_ops must be (metric_value, update_op) tuples "
                            f"or Keras Metric objects, given: {value!r} for key: {key}")
    return dict(eval_metric_ops)


def _validate_export_outputs(export_outputs):
    if export_outputs is None:
        return None
    if not isinstance(export_outputs, dict):
        raise TypeError(f"export_outputs must be dict, given: {export_outputs!r}")
    for key, value in export_outputs.items():
        if not isinstance(value, ExportOutput):
            raise TypeError("Values in export_outputs must be ExportOutput objects "
                            f"(e.g. tf.estimator.export.PredictOutput). Given: {key}: {value!r}")
    return dict(export_outputs)
