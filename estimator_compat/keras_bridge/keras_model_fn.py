"""The pieces of model_to_estimator, with tensorflow_estimator 2.15's `keras_lib` names and
signatures, on Keras 3:

- `_clone_and_build_model`: the model's clone (fresh weights), compiled as the model was
  (its optimizer rebuilt from `optimizer_config`) except in PREDICT;
- `_convert_keras_metrics_to_estimator`: the clone's compiled metrics by name (None before
  they are built), renamed by a `metric_names_map` that must name each of them;
- `_create_keras_model_fn`: the model_fn of model_to_estimator (one clone per Estimator,
  starting from the model's weights; loss, metrics, `predictions` keyed by output name,
  `serving_default` plus the `export_outputs` classes applied to their outputs);
- `_save_first_checkpoint`: `<model_dir>/keras/keras_model.ckpt`, the clone's variables at
  step 0, unless that folder holds a checkpoint already.

Keras 3 differences (as model_to_estimator's, model_to_estimator.py): a clone is
not rebuilt on the features' tensors (its `outputs` stay symbolic; model_fn calls it on
them), it is built eagerly outside the model_fn's trace, its variables keep Keras 3's paths
(`sequential/dense/kernel`, `adam/...` slots) in every checkpoint, and checkpoints are
name-based whatever `save_object_ckpt` says (Keras 3 models do not expose their layers to
`tf.train.Checkpoint` as tf.keras did). A model_dir TF 2.15 wrote keeps 2.15's layout,
object-based or name-based (tf215_checkpoints.py).
"""
import logging
import os
import threading

import keras
import tensorflow as tf

from estimator_compat.eager_calls import eager, eager_entry
from estimator_compat.engine import keras_model_fn_slots
from estimator_compat.keras_bridge import tf215_checkpoints
from estimator_compat.export.outputs import PredictOutput
from estimator_compat.keras_bridge.keras_io import (
    _any_weight_initialized,
    _convert_estimator_io_to_keras,
    _extract_sample_weight_tensors,
    standardize_sample_weights,
    uncovered_keys,
)
from estimator_compat.mode_keys import ModeKeys
from estimator_compat.spec import EstimatorSpec
from estimator_compat.variables import adopt, current_store, mark_unsaved, outside_trace

logger = logging.getLogger("tensorflow")
_SERVING_KEY = "serving_default"
_COMPILE_ARGS = ("loss", "loss_weights", "metrics", "weighted_metrics")


def _clone_and_build_model(mode, keras_model, custom_objects, features=None, labels=None,
                           optimizer_config=None):
    """A clone of `keras_model` for `mode`: fresh weights, compiled as the model was (the
    optimizer rebuilt from `optimizer_config`, else from the model's) unless mode is PREDICT.
    `features` / `labels` are checked against the model's inputs / outputs as 2.15 did
    (FormattedKeyError for a missing key); with labels, the compiled metrics are built for
    them. Sample weights ({'features', 'sample_weights'} features) are kept, one per output,
    in the clone's `_estimator_sample_weights`."""
    _, targets, sample_weights = _convert_estimator_io_to_keras(keras_model, features, labels)
    compile_clone = mode != ModeKeys.PREDICT
    if compile_clone and not _compiled(keras_model):
        raise ValueError("Error when cloning model: `compile_clone` was set to True, but the "
                         "original model has not been compiled. Compile it with "
                         "`model.compile()` first.")
    with eager(), outside_trace():
        clone = _clone(keras_model, custom_objects)
        if compile_clone:
            _compile_like(clone, keras_model, optimizer_config)
            if targets is not None:
                _build_metrics(clone, targets)
        elif clone is not keras_model:
            _uncompile(clone)
    if sample_weights is not None:
        clone._estimator_sample_weights = standardize_sample_weights(
            sample_weights, _output_names(clone) or ["output_1"])
    return clone


def _convert_keras_metrics_to_estimator(model, metric_names_map=None):
    """{name: keras Metric} of the model's compiled metrics (not `add_metric`'s), None where
    it has none built; `metric_names_map` renames them and must hold exactly their names."""
    metrics = _named_metrics(getattr(model, "_compile_metrics", None))
    if not metrics:
        return None
    if not metric_names_map:
        return metrics
    given, expected = set(metric_names_map), set(metrics)
    unknown = expected - given
    if unknown:
        raise ValueError("Invalid `metric_names_map`. The following keras model metric names:"
                         f"\"{list(unknown)}\" do not exist in the `metric_names_map` "
                         "dictionary")
    extra = given - expected
    if extra:
        raise ValueError("Invalid `metric_names_map`. There are unexpected keys in the "
                         f"`metric_names_map` dictionary. Expected keys: {list(expected)}, "
                         f"Received: {list(extra)}")
    return {metric_names_map[name]: m for name, m in metrics.items()}


def _named_metrics(compiled):
    """{name: metric} of Keras 3's built compiled metrics, named as Keras reports them (and
    tf.keras 2 named them): `<output>_<metric>` for a model of several outputs, a weighted
    metric named as an unweighted one `weighted_<metric>`, later repeats `<name>_<i>`."""
    if compiled is None or not compiled.built:
        return {}
    named, counts = {}, {}
    for weighted, per_output in ((False, compiled._flat_metrics),
                                 (True, compiled._flat_weighted_metrics)):
        for group in per_output:
            for metric in (group.metrics if group else ()):
                prefix = f"{group.output_name}_" if group.output_name else ""
                name = prefix + metric.name
                if name in counts and weighted:
                    name = f"{prefix}weighted_{metric.name}"
                if name in counts:
                    counts[name] += 1
                    name = f"{name}_{counts[name] - 1}"
                else:
                    counts[name] = 1
                named[name] = metric
    return named


def _create_keras_model_fn(keras_model, custom_objects=None, save_object_ckpt=False,
                           metric_names_map=None, export_outputs=None):
    """model_to_estimator's model_fn for the compiled `keras_model` (one clone per model_fn,
    made on its first call). `save_object_ckpt` is accepted: checkpoints are name-based."""
    del save_object_ckpt  # see the module docstring
    clone = KerasClone(keras_model, custom_objects, from_model_weights=False)
    return _model_fn(clone, metric_names_map, export_outputs)


@eager_entry
def _save_first_checkpoint(keras_model, custom_objects, config, save_object_ckpt):
    """Writes `<config.model_dir>/keras/keras_model.ckpt`: the TRAIN clone's variables, with
    the model's weights, its optimizer's and `global_step` 0, and returns its path; where that
    folder has a checkpoint already, returns that one and writes nothing."""
    del save_object_ckpt  # name-based, see the module docstring
    keras_dir = os.path.join(config.model_dir, "keras")
    latest = tf.train.latest_checkpoint(keras_dir)
    if latest:
        return latest
    tf.io.gfile.makedirs(keras_dir)
    with outside_trace():
        model = _clone_and_build_model(ModeKeys.TRAIN, keras_model, custom_objects,
                                       optimizer_config=_optimizer_config(keras_model))
        if _any_weight_initialized(keras_model):
            _copy_weights(model, keras_model)
        if model.built:
            model.optimizer.build(model.trainable_variables)
        named = _named_variables(model, model.optimizer)
        named["global_step"] = tf.Variable(0, dtype=tf.int64, name="global_step")
        path = os.path.join(keras_dir, "keras_model.ckpt")
        tf.compat.v1.train.Saver(var_list=named, save_relative_paths=True).save(
            None, path, write_meta_graph=False)
    return path


class KerasClone:
    """One Estimator's clone of the model and its optimizer, made on the first model_fn call
    (eagerly, outside the trace). `from_model_weights`: it starts from the model's current
    weights, as model_to_estimator's did (2.15 warm-started it from `_save_first_checkpoint`'s
    file), else from fresh ones (`_create_keras_model_fn`'s own)."""

    def __init__(self, model, custom_objects, from_model_weights=True):
        self._source, self._custom_objects = model, custom_objects
        self._from_model_weights = from_model_weights
        self._optimizer_config = _optimizer_config(model)
        self._lock = threading.Lock()
        self.model = self.optimizer = None
        self.tf215 = self._layout = None
        self._named = {}
        self.input_names = _io_names(model, "inputs")
        self.output_names = _io_names(model, "outputs")

    def get(self, model_dir=None):
        """(model, optimizer), built on the first call; their variables are adopted by the
        model_fn's trace under their Keras paths, or under TF 2.15's names where
        `model_dir`'s newest checkpoint is 2.15's (tf215_checkpoints)."""
        with self._lock:
            if self.model is None:
                with outside_trace():
                    self.model, self.optimizer = self._build()
                    self._choose_layout(model_dir)
            model, optimizer = self.model, self.optimizer
        trainable = {id(v.value) for v in model.trainable_variables}
        adopt(self._named, {n for n, v in self._named.items() if id(v) in trainable})
        if self.tf215 == tf215_checkpoints.SAVER:  # 2.15 saved no `iter`: the global step
            mark_unsaved([self._layout.iterations])
        # 2.15's keras_lib named these `training/<Optimizer>/...`, not as a model_fn's own
        # Keras optimizer (keras_model_fn_slots): they are named here
        keras_model_fn_slots.ignore(optimizer)
        return model, optimizer

    def _choose_layout(self, model_dir):
        """The clone keeps the layout of a model_dir TF 2.15 wrote (tf215_checkpoints), else
        Keras 3's paths."""
        self._named = _named_variables(self.model, self.optimizer)
        self.tf215 = self._layout = None
        try:
            layout = tf215_checkpoints.Layout(self.model, self.optimizer)
        except ValueError:  # an optimizer 2.15 did not have
            return
        if not layout.weights:
            return
        self.tf215, prefix = tf215_checkpoints.detect(model_dir, layout)
        self._layout = layout
        if self.tf215 == tf215_checkpoints.SAVER:
            renamed = layout.saver_names(prefix)
            ids = {id(v) for v in renamed.values()}
            self._named = {n: v for n, v in self._named.items() if id(v) not in ids}
            self._named.update(renamed)
            self._named.update(tf215_checkpoints.hyper_holders(layout, prefix))

    def scaffold(self):
        """The EstimatorSpec's scaffold: for a model_dir 2.15 wrote object-based, one whose
        saver reads and writes its object graph; else None."""
        if self.tf215 != tf215_checkpoints.OBJECT:
            return None
        store = current_store()
        return tf.compat.v1.train.Scaffold(saver=tf215_checkpoints.Tf215ObjectCheckpoint(
            self._layout, store.get("global_step")))

    def iterations_follow_global_step(self, optimizer):
        """Control inputs for the update: 2.15's optimizer counted in the global step."""
        if self.tf215 is None:
            return []
        step = tf.compat.v1.train.get_global_step()
        return [optimizer.iterations.assign(tf.cast(step, optimizer.iterations.dtype))]

    def _build(self):
        model = _clone_and_build_model(ModeKeys.TRAIN, self._source, self._custom_objects,
                                       optimizer_config=self._optimizer_config)
        if self._from_model_weights:
            _copy_weights(model, self._source)
        if model.built:
            model.optimizer.build(model.trainable_variables)
        return model, model.optimizer


def _model_fn(clone, metric_names_map, export_outputs, tf1_metric_names=False):
    """The model_fn over `clone`. `tf1_metric_names`: 'accuracy' reported as 'acc' (TF 1.x's
    Keras) where no metric_names_map is given."""
    def model_fn(features, labels, mode, config=None):
        model, optimizer = clone.get(getattr(config, "model_dir", None))
        scaffold = clone.scaffold()
        features, weights = _extract_sample_weight_tensors(features)
        x = _arrange(features, clone.input_names, "features", "input")
        training = mode == ModeKeys.TRAIN
        if mode == ModeKeys.PREDICT:
            predictions = _by_name(model(x, training=False), clone.output_names)
            return EstimatorSpec(mode, predictions=predictions, export_outputs=_export_outputs(
                export_outputs, predictions, clone.output_names), scaffold=scaffold)
        y = _arrange(labels, clone.output_names, "labels", "output")
        weight = _sample_weight(weights, clone.output_names)
        if training:
            with tf.GradientTape() as tape:
                y_pred = model(x, training=True)
                # under the "loss" name scope, as tf.keras built it: the loss summary the
                # Estimator adds is then `loss_1`, the tag TF 1.15 and 2.15 wrote
                with tf.name_scope("loss"):
                    loss = model.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=weight,
                                              training=True)
            variables = model.trainable_variables
            grads = tape.gradient(loss, [v.value for v in variables])
            with tf.control_dependencies(clone.iterations_follow_global_step(optimizer)):
                update = optimizer.apply_gradients(zip(grads, variables))
            with tf.control_dependencies([update]):
                train_op = tf.compat.v1.train.get_global_step().assign_add(1)
            return EstimatorSpec(mode, loss=loss, train_op=train_op, scaffold=scaffold)
        y_pred = model(x, training=False)
        loss = model.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=weight,
                                  training=False)
        if model._compile_metrics is not None:
            model._compile_metrics.update_state(y, y_pred, sample_weight=weight)
        metrics = _convert_keras_metrics_to_estimator(model, metric_names_map) or {}
        if tf1_metric_names and not metric_names_map:
            metrics = {("acc" if k == "accuracy" else k): m for k, m in metrics.items()}
        return EstimatorSpec(mode, loss=loss, eval_metric_ops=metrics,
                             predictions=_by_name(y_pred, clone.output_names),
                             scaffold=scaffold)
    return model_fn


def _compiled(model):
    return bool(getattr(model, "compiled", False)) and model.optimizer is not None


def _optimizer_config(model):
    """The model's optimizer config, read where the model lives (None without one)."""
    with eager():
        try:
            return model.optimizer.get_config()
        except (NotImplementedError, AttributeError):
            return None


def _clone(source, custom_objects):
    with keras.utils.custom_object_scope(custom_objects or {}):
        try:
            return keras.models.clone_model(source)
        except Exception as e:  # a subclassed model without a usable get_config
            logger.warning("model_to_estimator could not clone %s (%s); the Estimator "
                           "trains the given model itself.", source.name, e)
            return source


def _compile_like(clone, source, optimizer_config):
    optimizer = source.optimizer
    if optimizer_config is not None:
        optimizer = type(optimizer).from_config(optimizer_config)
    elif clone is not source:  # a fresh one of the same configuration
        optimizer = type(optimizer).from_config(optimizer.get_config())
    compiled = source._compile_config.config
    clone.compile(optimizer=optimizer, **{k: compiled[k] for k in _COMPILE_ARGS
                                          if k in compiled})


def _uncompile(clone):
    """Keras 3's clone_model compiles the clone as its source was; 2.15's PREDICT clone was
    not compiled: back to an uncompiled model's state."""
    clone.compiled = False
    clone.optimizer = clone.loss = None
    clone._compile_loss = clone._compile_metrics = clone._loss_tracker = None
    if hasattr(clone, "_compile_config"):
        del clone._compile_config


def _build_metrics(clone, targets):
    """Builds the clone's compiled metrics for labels like `targets` (2.15 built them on its
    target tensors), so `_convert_keras_metrics_to_estimator` finds them."""
    outputs = getattr(clone, "outputs", None) if clone.built else None
    if clone._compile_metrics is None or not outputs or len(outputs) != len(targets):
        return
    y_true = [keras.KerasTensor(t.shape, dtype=t.dtype.name) for t in targets]
    clone._compile_metrics.build(y_true[0] if len(y_true) == 1 else y_true,
                                 outputs[0] if len(outputs) == 1 else list(outputs))


def _copy_weights(clone, source):
    """The source's weights into its clone (building the clone like the source first)."""
    if clone is source or not source.built:
        return
    if not clone.built:
        clone.build_from_config(source.get_build_config())
    clone.set_weights(source.get_weights())


def _named_variables(model, optimizer):
    return {_path(v): v.value for v in model.variables + optimizer.variables}


def _output_names(model):
    return _io_names(model, "outputs")


def _io_names(model, which):
    tensors = getattr(model, which, None) if model.built else None
    if not tensors:
        return None
    struct = getattr(model, "_inputs_struct" if which == "inputs" else "_outputs_struct", None)
    if isinstance(struct, dict):
        return list(struct)
    if which == "outputs" and len(tensors) == 1:
        return [model.layers[-1].name] if model.layers else [tensors[0].name]
    if which == "outputs" and hasattr(model, "output_names"):
        return list(model.output_names)
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


def _sample_weight(weights, output_names):
    """compute_loss's sample_weight from {'features', 'sample_weights'} features."""
    if weights is None:
        return None
    names = output_names or ["output_1"]
    per_output = standardize_sample_weights(weights, names)
    if len(names) == 1:
        return per_output[0]
    return list(per_output)


def _by_name(outputs, names):
    if isinstance(outputs, dict):
        return dict(outputs)
    if not isinstance(outputs, (list, tuple)):
        return {(names or ["output"])[0]: outputs}
    names = names or [f"output_{i}" for i in range(len(outputs))]
    return dict(zip(names, outputs))


def _export_outputs(given, predictions, output_names):
    """`serving_default` (a PredictOutput of every output) plus, for each {output name:
    ExportOutput class} given, that class applied to that output's tensor."""
    made = {_SERVING_KEY: PredictOutput(predictions)}
    if given is None:
        return made
    names = list(output_names or predictions)
    unknown = set(given) - set(names)
    if unknown:
        raise uncovered_keys("list", names, given, given, names, unknown)
    for key, output_class in given.items():
        made[key] = output_class(predictions[key])
    return made
