"""tf.contrib.estimator's `DNNClassifierWithLayerAnnotations` / `DNNRegressorWithLayerAnnotations`.

Each is a plain Estimator over tf.compat.v1.estimator's DNN (`canned/v1.py`: the same
variables, checkpoints, predictions and metrics) that, while its model_fn builds the input
layer, records in graph collections what Integrated Gradients tools read back from the
exported MetaGraph:

- `layer_annotations/unprocessed_features/keys` / `.../values`: each parsed feature the columns
  use (its key; a `TensorInfo` in a proto `Any`);
- `layer_annotations/feature_columns`: each column, pickled (an embedding column's
  `layer_creator` dropped: a nested function does not pickle);
- `layer_annotatons/processed_features/keys` / `.../values` (TF 1.15's spelling): each column's
  name and its output tensor in the input layer.

As in TF 1.15, the annotations come from the TF1 input layer only: TF 1.15's DNN took the
`DenseFeatures` path, which it did not annotate, when every column was a `tf.feature_column`
(v2) column, so such an estimator records none, there and here.
"""
import contextlib
import pickle
import threading

import tensorflow as tf
from google.protobuf import any_pb2
from tensorflow.python.feature_column import feature_column as _fc_v1
from tensorflow.python.feature_column import feature_column_v2 as _fc_v2

from estimator_compat.canned import v1 as canned_v1
from estimator_compat.engine.model_fn_call import call_model_fn
from estimator_compat.estimator import Estimator

v1 = tf.compat.v1
UNPROCESSED_FEATURES = "layer_annotations/unprocessed_features"
PROCESSED_FEATURES = "layer_annotatons/processed_features"  # sic, TF 1.15's name
FEATURE_COLUMNS = "layer_annotations/feature_columns"
_ORIGINAL_INPUT_LAYER = _fc_v1._internal_input_layer
_ACTIVE = threading.local()


def _tensor_info_any(tensor):
    packed = any_pb2.Any()
    packed.Pack(v1.saved_model.utils.build_tensor_info(tensor))
    return packed


def _pickled(column):
    if "layer_creator" in getattr(column, "_fields", ()):
        column = column._replace(layer_creator=None)
    return pickle.dumps(column)


def _annotated_input_layer(features, feature_columns, weight_collections=None, trainable=True,
                           cols_to_vars=None, scope=None, cols_to_output_tensors=None,
                           from_template=False):
    """TensorFlow's TF1 input layer; inside `_annotating()` its inputs and outputs are also
    recorded in the annotation collections."""
    if not getattr(_ACTIVE, "on", False):
        return _ORIGINAL_INPUT_LAYER(features, feature_columns, weight_collections, trainable,
                                     cols_to_vars, scope, cols_to_output_tensors, from_template)
    feature_columns = _fc_v1._normalize_feature_columns(feature_columns)
    outputs = {}
    net = _ORIGINAL_INPUT_LAYER(features, feature_columns, weight_collections, trainable,
                                cols_to_vars, scope, outputs, from_template)
    if cols_to_output_tensors is not None:
        cols_to_output_tensors.update(outputs)
    for key in _fc_v1.make_parse_example_spec(feature_columns):
        value = features[key]
        if not isinstance(value, (tf.SparseTensor, tf.compat.v1.SparseTensorValue)):
            value = tf.convert_to_tensor(value)
        v1.add_to_collection(UNPROCESSED_FEATURES + "/keys", key)
        v1.add_to_collection(UNPROCESSED_FEATURES + "/values", _tensor_info_any(value))
    for column in feature_columns:
        v1.add_to_collection(FEATURE_COLUMNS, _pickled(column))
    for column, tensor in outputs.items():
        v1.add_to_collection(PROCESSED_FEATURES + "/keys", column.name)
        v1.add_to_collection(PROCESSED_FEATURES + "/values", _tensor_info_any(tensor))
    return net


_fc_v1._internal_input_layer = _annotated_input_layer  # delegates outside _annotating()


@contextlib.contextmanager
def _annotating():
    before = getattr(_ACTIVE, "on", False)
    _ACTIVE.on = True
    try:
        yield
    finally:
        _ACTIVE.on = before


def _with_annotations(original, feature_columns, model_dir, config, warm_start_from):
    """An Estimator running `original`'s model_fn, its TF1 input layer annotated."""
    annotate = not _fc_v2.is_feature_column_v2(list(feature_columns))

    def model_fn(features, labels, mode, config):
        with _annotating() if annotate else contextlib.nullcontext():
            return call_model_fn(original._model_fn, features, labels, mode,
                                 original._params_for_call(mode), config)
    return Estimator(model_fn, model_dir=model_dir, config=config,
                     warm_start_from=warm_start_from)


def DNNClassifierWithLayerAnnotations(  # TF 1.15 made these functions too
        hidden_units, feature_columns, model_dir=None, n_classes=2, weight_column=None,
        label_vocabulary=None, optimizer="Adagrad", activation_fn=tf.nn.relu, dropout=None,
        input_layer_partitioner=None, config=None, warm_start_from=None,
        loss_reduction=v1.losses.Reduction.SUM):
    """tf.compat.v1.estimator.DNNClassifier whose input layer records its annotations."""
    original = canned_v1.DNNClassifier(
        hidden_units, feature_columns, model_dir=model_dir, n_classes=n_classes,
        weight_column=weight_column, label_vocabulary=label_vocabulary, optimizer=optimizer,
        activation_fn=activation_fn, dropout=dropout,
        input_layer_partitioner=input_layer_partitioner, config=config,
        warm_start_from=warm_start_from, loss_reduction=loss_reduction)
    return _with_annotations(original, feature_columns, model_dir, config, warm_start_from)


def DNNRegressorWithLayerAnnotations(  # TF 1.15 made these functions too
        hidden_units, feature_columns, model_dir=None, label_dimension=1, weight_column=None,
        optimizer="Adagrad", activation_fn=tf.nn.relu, dropout=None,
        input_layer_partitioner=None, config=None, warm_start_from=None,
        loss_reduction=v1.losses.Reduction.SUM):
    """tf.compat.v1.estimator.DNNRegressor whose input layer records its annotations."""
    original = canned_v1.DNNRegressor(
        hidden_units, feature_columns, model_dir=model_dir, label_dimension=label_dimension,
        weight_column=weight_column, optimizer=optimizer, activation_fn=activation_fn,
        dropout=dropout, input_layer_partitioner=input_layer_partitioner, config=config,
        warm_start_from=warm_start_from, loss_reduction=loss_reduction)
    return _with_annotations(original, feature_columns, model_dir, config, warm_start_from)
