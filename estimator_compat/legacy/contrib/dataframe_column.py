"""tf.contrib.slim's `DataFrameColumn` (TF 1.15's contrib.layers feature column over a
contrib.learn DataFrame `Series`).

contrib.learn's DataFrame was gone before TF 1.15, and TF 1.15's class compared by value but
could not be hashed, so `input_from_feature_columns` and `insert_transformed_feature` raised
TypeError on it. What worked, and works here the same way: its fields, `name`, `key`, `config`
(the series' `required_base_features()`), and the dense conversions `_to_dnn_input_layer` /
`_to_dense_tensor` (any number type to float32, a vector to a column, higher ranks flattened to
`output_rank`, SparseTensors passed through).
"""
import collections

import tensorflow as tf


def _flatten_to_rank(tensor, rank):
    """`tensor` with its dimensions from `rank - 1` on merged into one."""
    shape = tf.shape(tensor)
    with tf.compat.v1.name_scope("InnerFlatten"):
        return tf.reshape(tensor, tf.concat([shape[:rank - 1], [-1]], 0))


class DataFrameColumn(collections.namedtuple("DataFrameColumn", ["column_name", "series"])):
    """A feature column produced from a contrib.learn `DataFrame` (immutable)."""

    def __new__(cls, column_name, series):
        return super().__new__(cls, column_name, series)

    __hash__ = None  # TF 1.15's compared by value and was unhashable

    def __eq__(self, other):
        return type(self) is type(other) and tuple(self) == tuple(other)

    def __ne__(self, other):
        return not self == other

    @property
    def name(self):
        return self.column_name

    @property
    def key(self):
        return self.name

    @property
    def config(self):
        return self.series.required_base_features()

    def insert_transformed_feature(self, columns_to_tensors):
        """Builds the series into `columns_to_tensors[self]` (TypeError, as in TF 1.15: the
        column cannot be a dict key)."""
        columns_to_tensors[self] = self.series.build(columns_to_tensors)

    def _to_dnn_input_layer(self, input_tensor, weight_collections=None, trainable=True,
                            output_rank=2):
        del weight_collections, trainable  # no variables
        if isinstance(input_tensor, (tf.SparseTensor, tf.compat.v1.SparseTensorValue)):
            return input_tensor
        tensor = tf.convert_to_tensor(input_tensor)
        if tensor.dtype != tf.float32:  # float64 too, as TF 1.15
            tensor = tf.cast(tensor, tf.float32)
        rank = tensor.shape.rank
        if rank is None:
            raise ValueError(f"DataFrameColumn {self.name!r}: the input's rank must be known")
        if rank == 1:
            return tf.expand_dims(tensor, -1)
        if rank > output_rank:
            return _flatten_to_rank(tensor, output_rank)
        return tensor

    def _to_dense_tensor(self, input_tensor):
        return self._to_dnn_input_layer(input_tensor)
