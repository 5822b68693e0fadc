"""`tf.keras.experimental.SequenceFeatures` as a Keras 3 layer over sequence feature columns.

What RNNEstimator feeds its RNN (and what tf.keras users built sequence models on): each
`tf.feature_column.sequence_*` column (or an embedding / indicator of one) gives a
[batch, time, width] tensor and a per-example length; the layer concatenates the tensors
(columns sorted by name, as tf.keras did) and returns `(sequence_input, sequence_length)`.
Column state lives in this layer's Keras 3 weights, named as DenseFeatures names them.
"""
import tensorflow as tf
from tensorflow.python.feature_column import feature_column_v2 as fc
from tensorflow.python.feature_column import sequence_feature_column as sfc

from estimator_compat.keras_bridge.dense_features import ColumnsLayer, scope_name


class SequenceFeatures(ColumnsLayer):
    """(sequence_input [batch, time, width], sequence_length [batch]) from sequence columns."""

    column_type, what = fc.SequenceDenseColumn, "sequence dense columns (from " \
        "tf.feature_column.sequence_numeric_column, or embedding_column / indicator_column of " \
        "a sequence_categorical_column_*)"

    def __init__(self, feature_columns, trainable=True, name=None, **kwargs):
        super().__init__(feature_columns, trainable, name or "sequence_features", **kwargs)

    def call(self, features, training=None):
        cache = self._check_dict(features)
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
