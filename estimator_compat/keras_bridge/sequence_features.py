"""`tf.keras.experimental.SequenceFeatures` as a Keras 3 layer over sequence feature columns.

What RNNEstimator feeds its RNN (and what tf.keras users built sequence models on): each
`tf.feature_column.sequence_*` column (or an embedding / indicator of one) gives a
[batch, time, width] tensor and a per-example length; the layer concatenates the tensors
(columns sorted by name, as tf.keras did) and returns `(sequence_input, sequence_length)`.
Column state lives in this layer's Keras 3 weights, named as DenseFeatures names them.
"""
import keras
import tensorflow as tf
from tensorflow.python.feature_column import feature_column_v2 as fc
from tensorflow.python.feature_column import sequence_feature_column as sfc

from estimator_compat.keras_bridge.dense_features import LayerStateManager, scope_name


class SequenceFeatures(keras.layers.Layer):
    """(sequence_input [batch, time, width], sequence_length [batch]) from sequence columns."""

    def __init__(self, feature_columns, trainable=True, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name or "sequence_features", **kwargs)
        columns = list(feature_columns) if isinstance(feature_columns, (list, tuple)) \
            else [feature_columns]
        if not columns:
            raise ValueError("SequenceFeatures needs at least one sequence feature column.")
        for column in columns:
            if not isinstance(column, fc.SequenceDenseColumn):
                raise ValueError(
                    f"All feature_columns must be sequence dense columns (from "
                    f"tf.feature_column.sequence_numeric_column, or embedding_column / "
                    f"indicator_column of a sequence_categorical_column_*), given "
                    f"{type(column).__name__} {getattr(column, 'name', '')!r}.")
        self._feature_columns = sorted(columns, key=lambda c: c.name)
        self._state_manager = LayerStateManager(self, trainable)
        self._state_made = False

    def _make_state(self):
        if not self._state_made:
            for column in self._feature_columns:
                column.create_state(self._state_manager)
            self._state_made = True

    def build(self, input_shape=None):
        self._make_state()
        self.built = True

    def call(self, features, training=None):
        if not isinstance(features, dict):
            raise ValueError(f"SequenceFeatures expects a dict of features, given {features!r}.")
        self._make_state()
        cache = fc.FeatureTransformationCache(features)
        outputs, lengths = [], []
        for column in self._feature_columns:
            with tf.name_scope(scope_name(column)):
                dense, length = column.get_sequence_dense_tensor(cache, self._state_manager)
                shape = tf.shape(dense)
                outputs.append(tf.reshape(
                    dense, [shape[0], shape[1], column.variable_shape.num_elements()]))
                lengths.append(length)
        sequence_length = sfc._assert_all_equal_and_return(lengths)
        return tf.concat(outputs, axis=-1), sequence_length


concatenate_context_input = sfc.concatenate_context_input
