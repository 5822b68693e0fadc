"""tensorflow_estimator 2.15's `keras_lib` helpers that do not build model_to_estimator's
model_fn, on Keras 3: `FormattedKeyError`, `_cast_tensor_to_floatx`, `_convert_tensor`,
`_any_weight_initialized`, `_extract_sample_weight_tensors`, `standardize_sample_weights`,
`_assert_valid_model`, `_get_file_from_google_storage`, `_convert_estimator_io_to_keras`,
with 2.15's results and errors. Keras 3 names a model's inputs and outputs differently from
tf.keras (no `input_names`, no `_is_graph_network`): a functional model's (or a built
Sequential's) input names are its Input layers' names, its output names its output layers'
names, as tf.keras gave them.
(model_to_estimator itself is model_to_estimator.py, its model_fn keras_model_fn.py.)"""
import collections.abc
import os

import keras
import tensorflow as tf


def uncovered_keys(kind, container, requested, expected, have, missed):
    """2.15's FormattedKeyError for a `kind` ("dictionary", "list") named `container` that
    lacks some `requested` keys of the keras model."""
    return FormattedKeyError(
        f"The {kind} passed into {container} does not cover requested {requested} keys "
        f"defined in the keras model.\n\tExpected keys: {set(expected)}\n\t{container} "
        f"keys: {set(have)}\n\tMissed keys: {missed}")


class FormattedKeyError(KeyError):
    """A KeyError whose str() is its message as written (newlines kept)."""

    def __init__(self, message):
        self.message = message

    def __str__(self):
        return self.message


def _cast_tensor_to_floatx(x):
    """`x`, cast to Keras' floatx unless it has that dtype."""
    if x.dtype == keras.backend.floatx():
        return x
    return tf.cast(x, keras.backend.floatx())


def _convert_tensor(x):
    """`x` when it is a tensor, else converted (a Tensor, or a SparseTensor from its value)."""
    if tf.is_tensor(x):
        return x
    return tf.compat.v1.convert_to_tensor_or_sparse_tensor(x)


def _any_weight_initialized(keras_model):
    """Whether a Keras model's weights may hold values already: False for None; True when
    executing eagerly outside functions (TensorFlow 2's default), else whether a layer's weight
    was marked `_keras_initialized`."""
    if keras_model is None:
        return False
    if tf.compat.v1.executing_eagerly_outside_functions():
        return True
    return any(hasattr(w, "_keras_initialized")
               for layer in keras_model.layers for w in layer.weights)


def _extract_sample_weight_tensors(features):
    """(features, sample weights): a dict of exactly 'features' and 'sample_weights' split,
    anything else returned with None."""
    if isinstance(features, dict) and set(features) == {"features", "sample_weights"}:
        return features["features"], features["sample_weights"]
    return features, None


def standardize_sample_weights(x_weight, output_names):
    """`sample_weight` / `class_weight` as one entry per output of `output_names`: None (or an
    empty list) gives Nones; one output takes a one-item list, its dict entry or the value;
    several take a list of as many (ValueError otherwise) or a dict of known names (ValueError
    for others, missing ones None); TypeError for anything else."""
    if x_weight is None or (isinstance(x_weight, (list, tuple)) and not x_weight):
        return [None for _ in output_names]
    if len(output_names) == 1:
        if isinstance(x_weight, (list, tuple)) and len(x_weight) == 1:
            return x_weight
        if isinstance(x_weight, dict) and output_names[0] in x_weight:
            return [x_weight[output_names[0]]]
        return [x_weight]
    if isinstance(x_weight, (list, tuple)):
        if len(x_weight) != len(output_names):
            raise ValueError(f"Provided `sample_weights` was a list of {len(x_weight)} "
                             f"elements, but the model has {len(output_names)} outputs. You "
                             "should provide one `sample_weights`array per model output.")
        return x_weight
    if isinstance(x_weight, collections.abc.Mapping):
        unknown = set(x_weight).difference(output_names)
        if unknown:
            raise ValueError(f"Unknown entries in sample_weights dictionary: {list(unknown)}. "
                             f"Only expected following keys: {output_names}")
        return [x_weight.get(name) for name in output_names]
    raise TypeError("The model has multiple outputs, so `sample_weights` should be either a "
                    "list or a dict. Provided `sample_weights` type not understood: "
                    f"{x_weight}")


def _assert_valid_model(model, custom_objects=None):
    """ValueError for a subclassed Model (neither functional nor Sequential) that cannot be
    rebuilt from its config (get_config / from_config raise NotImplementedError)."""
    if isinstance(model, (keras.Sequential, keras.src.models.functional.Functional)):
        return
    try:
        with keras.utils.custom_object_scope(custom_objects or {}):
            type(model).from_config(model.get_config())
    except NotImplementedError:
        raise ValueError("Subclassed `Model`s passed to `model_to_estimator` must implement "
                         "`Model.get_config` and `Model.from_config`.") from None


def _get_file_from_google_storage(keras_model_path, model_dir):
    """Downloads the Keras model `gs://<bucket>/<object>` to `<model_dir>/keras/keras_model.h5`
    and returns that path (google-cloud-storage needed: TypeError without it; ValueError when
    the download fails)."""
    try:
        from google.cloud import storage
    except ImportError:
        raise TypeError("Could not save model to Google cloud storage; please install "
                        "`google-cloud-storage` via `pip install google-cloud-storage`.") \
            from None
    client = storage.Client()
    path, blob_name = os.path.split(keras_model_path)
    bucket_name = os.path.split(path)[1]
    keras_dir = os.path.join(model_dir, "keras")
    if not tf.io.gfile.exists(keras_dir):
        tf.io.gfile.makedirs(keras_dir)
    file_name = os.path.join(keras_dir, "keras_model.h5")
    try:
        client.get_bucket(bucket_name).blob(blob_name).download_to_filename(file_name)
    except Exception:
        raise ValueError("Failed to download keras model, please check environment variable "
                         "GOOGLE_APPLICATION_CREDENTIALS and model path "
                         "storage.googleapis.com/{bucket}/{object}.") from None
    tf.compat.v1.logging.info(f"Saving model to {file_name}")
    return file_name


def _io_names(model):
    """(input names, output names) of a functional model or a built Sequential, else None."""
    if isinstance(model, keras.Sequential):
        if not model.built or not getattr(model, "inputs", None):
            return None
        return [t.name for t in model.inputs], [model.layers[-1].name]
    if isinstance(model, keras.src.models.functional.Functional):
        return [t.name for t in model.inputs], list(model.output_names)
    return None


def _to_ordered_tensor_list(obj, key_order, obj_name, order_name):
    if obj is None:
        return None
    if isinstance(obj, (list, tuple)):
        return [_convert_tensor(x) for x in obj]
    if isinstance(obj, dict):
        missing = set(key_order) - set(obj)
        if missing:
            raise uncovered_keys("dictionary", obj_name, order_name, key_order, obj, missing)
        return [_convert_tensor(obj[key]) for key in key_order]
    return [_convert_tensor(obj)]


def _convert_estimator_io_to_keras(keras_model, features, labels):
    """(input tensors, target tensors, sample weight tensors) for `keras_model` from an
    Estimator's features and labels: dicts ordered by the model's input / output names
    (FormattedKeyError for a missing one; `input_<i>` / `output_<i>` for a subclassed model,
    whose features pass as a dict while it has no inputs), a lone tensor as a one-item list, sample
    weights split out of {'features', 'sample_weights'}; tensors converted where needed."""
    features, sample_weights = _extract_sample_weight_tensors(features)
    names = _io_names(keras_model)
    input_names = output_names = None
    if isinstance(features, dict):
        input_names = names[0] if names else [f"input_{i}" for i in range(1, len(features) + 1)]
    if isinstance(labels, dict):
        output_names = names[1] if names else [f"output_{i}" for i in range(1, len(labels) + 1)]
    model_inputs = getattr(keras_model, "inputs", None) if keras_model.built else None
    if model_inputs is None and isinstance(features, dict):
        inputs = {k: _convert_tensor(v) for k, v in features.items()}
    else:
        inputs = _to_ordered_tensor_list(features, input_names, "features", "inputs")
    targets = _to_ordered_tensor_list(labels, output_names, "labels", "outputs")
    return inputs, targets, sample_weights
