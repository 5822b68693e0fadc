"""`tf.keras.estimator.model_to_estimator`: an Estimator training a compiled Keras 3 model.

As tf.keras did, the Estimator trains a clone of the model (the given model is left as it is)
that starts from the model's current weights, with a fresh optimizer of the same class and
configuration and the model's compiled loss and metrics. The clone and its optimizer are built
once per Estimator, eagerly under its distribution strategy, on the first trace of model_fn;
their variables are checkpointed in model_dir under their Keras paths
(`sequential/dense/kernel`), next to `global_step`.

Known difference: checkpoints are name-based for both `checkpoint_format`s. Keras 3 models
do not expose their layers to `tf.train.Checkpoint` as tf.keras models did, so an
object-based file would not hold the weights.
"""
import logging
import threading

import keras
import tensorflow as tf

from estimator_compat.eager_calls import eager_entry
from estimator_compat.estimator import Estimator
from estimator_compat.legacy import graph_mode
from estimator_compat.export.outputs import ExportOutput, PredictOutput
from estimator_compat.mode_keys import ModeKeys
from estimator_compat.spec import EstimatorSpec
from estimator_compat.variables import adopt, outside_trace

logger = logging.getLogger("tensorflow")
_FORMATS = ("checkpoint", "saver")


@eager_entry
def model_to_estimator(keras_model=None, keras_model_path=None, custom_objects=None,
                       model_dir=None, config=None, checkpoint_format="checkpoint",
                       metric_names_map=None, export_outputs=None):
    """Constructs an Estimator from a compiled Keras model (or a saved `.keras` file)."""
    if (keras_model is None) == (keras_model_path is None):
        raise ValueError("Exactly one of keras_model and keras_model_path must be given, "
                         f"given keras_model={keras_model!r}, keras_model_path="
                         f"{keras_model_path!r}.")
    if checkpoint_format not in _FORMATS:
        raise ValueError(f"checkpoint_format must be one of {_FORMATS}, given "
                         f"{checkpoint_format!r}.")
    if keras_model is None:
        keras_model = keras.models.load_model(keras_model_path, custom_objects=custom_objects)
    if not isinstance(keras_model, keras.Model):
        raise ValueError(f"keras_model must be a keras.Model, given {type(keras_model)!r}.")
    if not getattr(keras_model, "compiled", False) or keras_model.optimizer is None:
        raise ValueError("The given keras model has not been compiled yet. Please compile the "
                         "model with `model.compile()` before calling model_to_estimator().")
    clone = _KerasClone(keras_model, custom_objects)
    if graph_mode.tf1_behavior():  # TF 1.x's Keras reported metrics=['accuracy'] as 'acc'
        metric_names_map = {"accuracy": "acc", **(metric_names_map or {})}
    model_fn = _model_fn(clone, metric_names_map or {}, export_outputs)
    estimator = Estimator(model_fn, model_dir=model_dir, config=config)
    estimator._meta_graph_buildable = False  # its variables live outside any TF1 graph
    return estimator


class _KerasClone:
    """The Estimator's own copy of the model and optimizer, made on first use."""

    def __init__(self, model, custom_objects):
        self._source, self._custom_objects = model, custom_objects
        self._lock = threading.Lock()
        self.model = self.optimizer = None
        self.input_names = _io_names(model, "inputs")
        self.output_names = _io_names(model, "outputs")

    def get(self):
        """(model, optimizer), building them on the first call (eagerly, inside a trace)."""
        with self._lock:
            if self.model is None:
                with outside_trace():
                    self.model, self.optimizer = self._build()
            model, optimizer = self.model, self.optimizer
        named = {_path(v): v.value for v in model.variables + optimizer.variables}
        adopt(named, {_path(v) for v in model.trainable_variables})
        return model, optimizer

    def _build(self):
        source = self._source
        with keras.utils.custom_object_scope(self._custom_objects or {}):
            try:
                model = keras.models.clone_model(source)
            except Exception as e:  # a subclassed model without a usable get_config
                logger.warning("model_to_estimator could not clone %s (%s); the Estimator "
                               "trains the given model itself.", source.name, e)
                model = source
        if model is not source and source.built:
            if not model.built:
                model.build_from_config(source.get_build_config())
            model.set_weights(source.get_weights())
        optimizer = source.optimizer.__class__.from_config(source.optimizer.get_config())
        compiled = dict(source._compile_config.config)
        compiled.pop("optimizer", None)
        compiled.pop("steps_per_execution", None)
        model.compile(optimizer=optimizer, **{k: v for k, v in compiled.items()
                                                if k in ("loss", "loss_weights", "metrics",
                                                         "weighted_metrics")})
        if model.built:
            optimizer.build(model.trainable_variables)
        return model, optimizer


def _model_fn(clone, metric_names_map, export_outputs):
    def model_fn(features, labels, mode):
        model, optimizer = clone.get()
        x = _arrange(features, clone.input_names, "features", "input")
        training = mode == ModeKeys.TRAIN
        if mode == ModeKeys.PREDICT:
            y_pred = model(x, training=False)
            predictions = _by_name(y_pred, clone.output_names)
            return EstimatorSpec(mode, predictions=predictions,
                                 export_outputs=_export_outputs(export_outputs, predictions))
        y = _arrange(labels, clone.output_names, "labels", "output")
        if training:
            with tf.GradientTape() as tape:
                y_pred = model(x, training=True)
                # under the "loss" name scope, as tf.keras built it: the loss summary the
                # Estimator adds is then `loss_1`, the tag TF 1.15 and 2.15 wrote
                with tf.name_scope("loss"):
                    loss = model.compute_loss(x=x, y=y, y_pred=y_pred, training=True)
            variables = model.trainable_variables
            grads = tape.gradient(loss, [v.value for v in variables])
            update = optimizer.apply_gradients(zip(grads, variables))
            with tf.control_dependencies([update]):
                train_op = tf.compat.v1.train.get_global_step().assign_add(1)
            return EstimatorSpec(mode, loss=loss, train_op=train_op)
        y_pred = model(x, training=False)
        loss = model.compute_loss(x=x, y=y, y_pred=y_pred, training=False)
        compiled = model._compile_metrics
        metrics = {}
        if compiled is not None:
            compiled.update_state(y, y_pred)
            for metric in compiled.metrics:
                metrics[metric_names_map.get(metric.name, metric.name)] = metric
        return EstimatorSpec(mode, loss=loss, eval_metric_ops=metrics)
    return model_fn


def _io_names(model, which):
    tensors = getattr(model, which, None) if model.built else None
    if not tensors:
        return None
    struct = getattr(model, "_inputs_struct" if which == "inputs" else "_outputs_struct", None)
    if isinstance(struct, dict):
        return list(struct)
    if which == "outputs" and len(tensors) == 1:
        return [model.layers[-1].name] if model.layers else [tensors[0].name]
    return [t.name.split(":")[0] for t in tensors]


def _path(variable):
    return getattr(variable, "path", None) or variable.name.split(":")[0]


def _arrange(values, names, what, kind):
    """features/labels as the model takes them: a dict keyed by input (output) names, a bare
    tensor, or, for a single input (output), a one-key dict whatever its key."""
    if not isinstance(values, dict):
        return values
    if names is None or len(names) == 1:
        if len(values) == 1:
            return next(iter(values.values()))
        if names and names[0] in values:
            return values[names[0]]
        raise ValueError(f"The model has one {kind}, but {what} is a dict with keys "
                         f"{sorted(values)}; give a tensor or a one-key dict.")
    missing = [n for n in names if n not in values]
    if missing:
        raise ValueError(f"{what} keys {sorted(values)} do not name the model's {kind}s "
                         f"{names}: missing {missing}. Key {what} by the {kind} names.")
    return {n: values[n] for n in names}


def _by_name(outputs, names):
    if isinstance(outputs, dict):
        return dict(outputs)
    if not isinstance(outputs, (list, tuple)):
        return {(names or ["output"])[0]: outputs}
    names = names or [f"output_{i}" for i in range(len(outputs))]
    return dict(zip(names, outputs))


def _export_outputs(given, predictions):
    if not given:
        return {"serving_default": PredictOutput(predictions)}
    made = {}
    for key, output in given.items():
        if isinstance(output, type) and issubclass(output, ExportOutput):
            output = output(predictions) if output is PredictOutput else \
                output(**{_argument_for(output): next(iter(predictions.values()))})
        made[key] = output
    return made


def _argument_for(output_class):
    return "value" if output_class.__name__ == "RegressionOutput" else "scores"
