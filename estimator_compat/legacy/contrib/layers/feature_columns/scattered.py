"""scattered_embedding_column: a sparse string feature embedded by parameter hashing (TF 1.15's
`_ScatteredEmbeddingColumn`): one flat `[size]` variable `<scope>/<name>_scattered_embedding/
weights` (truncated normal, stddev 0.1, by default), component i of value v's embedding read at
hash(i, v) by `layers.embedding_ops.scattered_embedding_lookup_sparse` with the column's
`hash_key`. A DNN input only: no linear weights, no sequence input, as in TF 1.15."""
import collections

import tensorflow as tf

from estimator_compat.legacy.contrib.layers.feature_columns import columns as fc

v1 = tf.compat.v1


class _ScatteredEmbeddingColumn(fc._Column, collections.namedtuple(
        "_ScatteredEmbeddingColumn", ["column_name", "size", "dimension", "hash_key",
                                      "combiner", "initializer"])):
    """The hashed embedding of the sparse feature `column_name`."""
    @property
    def name(self):
        return f"{self.column_name}_scattered_embedding"

    @property
    def key(self):  # TF 1.15's: the initializer left out
        return (f"_ScatteredEmbeddingColumn(column_name={self.column_name}, size={self.size}, "
                f"dimension={self.dimension}, hash_key={self.hash_key}, "
                f"combiner={self.combiner})")

    @property
    def config(self):
        return {self.column_name: tf.io.VarLenFeature(tf.string)}

    def transform(self, features):  # TF 1.15 passed the input as it was
        return fc._feature(features, self.column_name)

    def to_dnn_input(self, transformed, weight_collections, trainable):
        from estimator_compat.legacy.contrib.layers import embedding_ops
        from estimator_compat.legacy.contrib.layers.feature_columns import ops
        if not isinstance(transformed, (tf.SparseTensor, v1.SparseTensorValue)):
            raise TypeError(f"sparse_values must be SparseTensor: scattered_embedding_column "
                            f"{self.column_name!r} got a {type(transformed).__name__}; feed a "
                            "SparseTensor (e.g. parsed as a VarLenFeature)")
        weights = ops.model_variable("weights", [self.size], self.initializer,
                                     weight_collections, trainable)
        return embedding_ops.scattered_embedding_lookup_sparse(
            weights, transformed, self.dimension, combiner=self.combiner,
            hash_key=self.hash_key, name="lookup")

    linear_weight_name = "weights"

    def linear_weights_shape(self):
        raise NotImplementedError(
            f"scattered_embedding_column {self.column_name!r} has no linear weights (nor had "
            "it in TF 1.15): give weighted_sum_from_feature_columns a "
            "sparse_column_with_hash_bucket of the feature instead")


def scattered_embedding_column(column_name, size, dimension, hash_key, combiner="mean",
                               initializer=None):
    """An embedding of the sparse string feature `column_name` by parameter hashing: `size`
    parameters, component i of value v's `dimension`-wide embedding at hash(i, v)."""
    if dimension < 1:
        raise ValueError(f"scattered_embedding_column {column_name!r}: dimension must be "
                         f"positive, got {dimension}")
    if size < 1:
        raise ValueError(f"scattered_embedding_column {column_name!r}: size must be positive, "
                         f"got {size}")
    fc._check_combiner(combiner, "scattered_embedding_column")
    if initializer is not None and not callable(initializer):
        raise ValueError("scattered_embedding_column: initializer must be callable (e.g. "
                         "tf.constant_initializer(...))")
    if initializer is None:
        initializer = v1.truncated_normal_initializer(mean=0.0, stddev=0.1)
    return _ScatteredEmbeddingColumn(column_name, size, dimension, hash_key, combiner,
                                     initializer)
