"""Sequence inputs from contrib feature columns (TF 1.15's `sequence_input_from_feature_columns`
and `parse_feature_columns_from_sequence_examples`).

`sequence_input_from_feature_columns` is `input_from_feature_columns` at rank 3: each column's
input is `[batch, time, ...]` (a SparseTensor of rank 3 for sparse ids) and its output
`[batch, time, n]`, concatenated on the last axis, under the scope
`sequence_input_from_feature_columns` with the same per-column variable scopes. Only real-valued,
embedding and one-hot columns (not of crossed or bucketized columns) take part, as in TF 1.15.
"""
import tensorflow as tf

from estimator_compat.legacy.contrib.layers.feature_columns import columns as fc
from estimator_compat.legacy.contrib.layers.feature_columns import ops, parsing

v1 = tf.compat.v1


def _check_sequence_columns(columns):
    for column in columns:
        if not isinstance(column, (fc._RealValuedColumn, fc._EmbeddingColumn,
                                   fc._OneHotColumn)):
            raise ValueError(f"FeatureColumn type {type(column).__name__} is not currently "
                             "supported for sequence data: use real_valued_column, "
                             "embedding_column or one_hot_column")
        for base in column.base_columns():
            if isinstance(base, (fc._BucketizedColumn, fc._CrossedColumnBase)):
                raise ValueError(f"Column {column.name} is not supported for sequence data: "
                                 f"it is built on a {type(base).__name__}")


def _real_valued(column, value):
    """[batch, time, n]: a rank-2 input gets a last axis of 1, deeper ones are flattened."""
    value = tf.cast(value, tf.float32)
    rank = value.shape.rank
    if rank is None:
        raise ValueError(f"sequence input {column.name!r}: the input's rank must be known")
    if rank < 3:
        v1.logging.warning(f"Rank of input Tensor ({rank}) should be the same as output_rank (3) "
                        f"for column {column.name}. Will attempt to expand dims.")
        for _ in range(3 - rank):
            value = tf.expand_dims(value, -1)
        return value
    if rank == 3:
        return value
    inner = value.shape[2:].num_elements()
    shape = tf.concat([tf.shape(value)[:2], [-1 if inner is None else inner]], 0)
    return tf.reshape(value, shape)


def _one_hot(column, value):
    ids = column.sparse_id_column.id_tensor(value)
    weights = column.sparse_id_column.weight_tensor(value)
    hot = tf.one_hot(tf.sparse.to_dense(ids, default_value=-1), column.length, on_value=1.0,
                     off_value=0.0)
    if weights is not None:
        hot = hot * tf.expand_dims(tf.sparse.to_dense(weights), -1)
    return tf.reduce_sum(hot, axis=2)


def _sequence_output(column, value, weight_collections, trainable):
    if isinstance(column, fc._RealValuedColumn):
        return _real_valued(column, value)
    if isinstance(column, fc._OneHotColumn):
        return _one_hot(column, value)
    return column.to_dnn_input(value, weight_collections, trainable)  # [batch, time, dim]


def sequence_input_from_feature_columns(columns_to_tensors, feature_columns,
                                        weight_collections=None, trainable=True, scope=None):
    """The [batch, time, n] input of a sequence model: the columns' outputs concatenated."""
    columns = ops._columns(feature_columns, "sequence_input_from_feature_columns")
    _check_sequence_columns(columns)
    with v1.variable_scope(scope, default_name="sequence_input_from_feature_columns",
                           values=list(columns_to_tensors.values())):
        transformed = ops.transform_all(columns_to_tensors, columns)
        outputs = []
        for column in columns:
            with v1.variable_scope(None, default_name=column.name):
                outputs.append(_sequence_output(column, transformed[column],
                                                weight_collections, trainable))
        return tf.concat(outputs, axis=2)


def _sequence_spec(spec):
    """A column's parse spec for a feature list: FixedLenFeature read as a sequence feature."""
    if isinstance(spec, tf.io.FixedLenFeature):
        return tf.io.FixedLenSequenceFeature(spec.shape, spec.dtype)
    return spec


def parse_feature_columns_from_sequence_examples(serialized, context_feature_columns,
                                                 sequence_feature_columns, name=None,
                                                 example_name=None):
    """Parses one serialized tf.SequenceExample for the columns: (context features, sequence
    features), each {feature name: Tensor / SparseTensor} as parsed (not transformed)."""
    context_columns = list(context_feature_columns or [])
    sequence_columns = list(sequence_feature_columns or [])
    ops.check_feature_columns(context_columns)
    ops.check_feature_columns(sequence_columns)
    context_spec = parsing.create_feature_spec_for_parsing(context_columns)
    sequence_spec = {k: _sequence_spec(s) for k, s in
                     parsing.create_feature_spec_for_parsing(sequence_columns).items()}
    return v1.io.parse_single_sequence_example(
        serialized, context_features=context_spec or None,
        sequence_features=sequence_spec or None, example_name=example_name, name=name)
