"""`tf.contrib.feature_column`, served whole: TF 1.15's sequence feature columns in graph mode.

- `sequence_categorical_column_with_{identity,hash_bucket,vocabulary_list,vocabulary_file}`:
  TensorFlow 2.21's `tf.feature_column.sequence_categorical_column_*` (their columns keep the
  TF1 `_SequenceCategoricalColumn` API that `embedding_column` / `indicator_column` read).
- `sequence_numeric_column`: `SequenceNumericColumn` below, TensorFlow 2.21's column given back
  the TF1 column API (`_get_sequence_dense_tensor`...) that TensorFlow 2 dropped from it.
- `sequence_input_layer`: the (input layer [batch, time, width], sequence length [batch]) pair,
  its variables made under `sequence_input_layer/<column>/` as TF 1.15 named them.
"""
import tensorflow as tf
from tensorflow.python.feature_column import feature_column as fc_v1
from tensorflow.python.feature_column import sequence_feature_column as sfc


class _V1Cache:
    """What the TF2 column code reads (`get(key, state_manager)`), on a TF1 `_LazyBuilder`."""

    def __init__(self, builder):
        self._builder = builder

    def get(self, key, state_manager=None):
        return self._builder.get(key)


class SequenceNumericColumn(sfc.SequenceNumericColumn, fc_v1._SequenceDenseColumn):
    """TensorFlow 2.21's sequence numeric column that TF1 code (input layers) can read too."""

    @property
    def _var_scope_name(self):
        return self.name

    @property
    def _parse_example_spec(self):
        return self.parse_example_spec

    def _transform_feature(self, inputs):
        return self.transform_feature(_V1Cache(inputs), None)

    @property
    def _variable_shape(self):
        return self.variable_shape

    def _get_sequence_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        return self.get_sequence_dense_tensor(_V1Cache(inputs), None)


def sequence_numeric_column(key, shape=(1,), default_value=0., dtype=tf.float32,
                            normalizer_fn=None):
    """A sequence of numeric values per example, read from a `tf.SparseTensor` feature."""
    column = tf.feature_column.sequence_numeric_column(
        key, shape=shape, default_value=default_value, dtype=dtype, normalizer_fn=normalizer_fn)
    return SequenceNumericColumn(*column)


def sequence_input_layer(features, feature_columns, weight_collections=None, trainable=True):
    """(input_layer, sequence_length) of sequence dense columns, as TF 1.15 built them.

    input_layer is [batch, max sequence length, sum of the columns' widths] (columns sorted by
    name); sequence_length is each example's length, checked equal across the columns.
    """
    columns = list(feature_columns) if isinstance(feature_columns, (list, tuple)) \
        else [feature_columns]
    if not columns:
        raise ValueError("feature_columns must not be empty: pass sequence dense columns")
    for column in columns:
        if not isinstance(column, fc_v1._SequenceDenseColumn):
            raise ValueError(
                "All feature_columns must be of type _SequenceDenseColumn. You can wrap a "
                "sequence_categorical_column with an embedding_column or indicator_column. "
                f"Given (type {type(column)}): {column}")
    if not isinstance(features, dict):
        raise ValueError(f"features must be a dict of feature name to tensor, got {features!r}")
    builder = fc_v1._LazyBuilder(features)
    with tf.compat.v1.variable_scope(None, default_name="sequence_input_layer",
                                     values=list(features.values())):
        outputs, lengths = [], []
        for column in sorted(columns, key=lambda c: c.name):
            with tf.compat.v1.variable_scope(None, default_name=column._var_scope_name):
                dense, length = column._get_sequence_dense_tensor(
                    builder, weight_collections=weight_collections, trainable=trainable)
                width = column._variable_shape.num_elements()
                shape = tf.shape(dense)
                outputs.append(tf.reshape(dense, [shape[0], shape[1], width]))
                lengths.append(length)
        sequence_length = sfc._assert_all_equal_and_return(lengths)
        return tf.concat(outputs, axis=-1), sequence_length


FUNCTIONS = dict(
    sequence_categorical_column_with_hash_bucket=(
        tf.feature_column.sequence_categorical_column_with_hash_bucket),
    sequence_categorical_column_with_identity=(
        tf.feature_column.sequence_categorical_column_with_identity),
    sequence_categorical_column_with_vocabulary_file=(
        tf.feature_column.sequence_categorical_column_with_vocabulary_file),
    sequence_categorical_column_with_vocabulary_list=(
        tf.feature_column.sequence_categorical_column_with_vocabulary_list),
    sequence_input_layer=sequence_input_layer,
    sequence_numeric_column=sequence_numeric_column)


def build():
    from estimator_compat.legacy.namespaces import namespace
    root = "tensorflow.contrib.feature_column"
    deep = namespace(root + ".python.feature_column.sequence_feature_column",
                     "TF 1.15's contrib sequence feature columns", **FUNCTIONS)
    namespace(root + ".python.feature_column", "TF 1.15's contrib feature columns",
              sequence_feature_column=deep)
    namespace(root + ".python", "TF 1.15's contrib feature columns")
    return namespace(root, "tf.contrib.feature_column", __served_whole__=True, **FUNCTIONS)
