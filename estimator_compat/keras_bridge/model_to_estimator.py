"""`tf.keras.estimator.model_to_estimator`: an Estimator training a compiled Keras 3 model.

As tf.keras did, the Estimator trains a clone of the model (the given model is left as it is)
that starts from the model's current weights, with a fresh optimizer of the same class and
configuration and the model's compiled loss and metrics. The clone and its optimizer are built
once per Estimator, eagerly under its distribution strategy, on the first trace of model_fn;
their variables are checkpointed in model_dir under their Keras paths
(`sequential/dense/kernel`), next to `global_step`. As 2.15's, it writes the model's weights
to `<model_dir>/keras/keras_model.ckpt` first (a Sequential or functional model).

It is made of tensorflow_estimator 2.15's keras_lib pieces (keras_model_fn.py,
served as the estimator tree's `keras_lib`): `_create_keras_model_fn`'s model_fn over a
`_clone_and_build_model` clone, metrics by `_convert_keras_metrics_to_estimator`.

Known difference: checkpoints are name-based for both `checkpoint_format`s. Keras 3 models
do not expose their layers to `tf.train.Checkpoint` as tf.keras models did, so an
object-based file would not hold the weights.
A model_dir that TF 2.15 wrote (either format) is continued in its own layout
(tf215_checkpoints.py).
"""
import keras

from estimator_compat.eager_calls import eager_entry
from estimator_compat.estimator import Estimator
from estimator_compat.keras_bridge.keras_model_fn import (KerasClone, _model_fn,
                                                          _save_first_checkpoint)
from estimator_compat.legacy import graph_mode

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
    clone = KerasClone(keras_model, custom_objects)
    # TF 1.x's Keras reported metrics=['accuracy'] as 'acc'
    model_fn = _model_fn(clone, metric_names_map, export_outputs,
                         tf1_metric_names=graph_mode.tf1_behavior())
    estimator = Estimator(model_fn, model_dir=model_dir, config=config)
    estimator._meta_graph_buildable = False  # its variables live outside any TF1 graph
    if _is_graph_network(keras_model) and estimator.config.is_chief:  # as 2.15 wrote it
        _save_first_checkpoint(keras_model, custom_objects, estimator.config,
                               checkpoint_format == "checkpoint")
    return estimator


def _is_graph_network(model):
    """A Sequential or functional model (2.15 wrote their first checkpoint, not a subclassed
    model's)."""
    return isinstance(model, (keras.Sequential, keras.src.models.functional.Functional))
