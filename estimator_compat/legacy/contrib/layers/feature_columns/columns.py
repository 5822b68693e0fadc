"""contrib.layers' feature columns (TF 1.15's `_RealValuedColumn`, `_SparseColumn*`, ...): named
tuples with TF 1.15's fields, so `key` (their repr) sorts them as TF 1.15 did, which fixes the
order of outputs and variables in `input_from_feature_columns` / `weighted_sum_from_...`.

Each column knows its parse spec (`config`), how it transforms its input
(`transform(features)`), its dense DNN input (`to_dnn_input`) and its linear weights
(`linear_weights_shape` + `to_linear_ids`); the variables are made in `ops.py`.
"""
import collections
import math

import tensorflow as tf

v1 = tf.compat.v1


def _sparse(value, name):
    """`value` as a SparseTensor; dense inputs drop '' (strings) / -1 (integers), as TF 1.15."""
    if isinstance(value, (tf.SparseTensor, v1.SparseTensorValue)):
        return tf.SparseTensor.from_value(value)
    value = tf.convert_to_tensor(value)
    if value.shape.rank == 1:
        value = tf.expand_dims(value, -1)
    ignore = "" if value.dtype == tf.string else tf.constant(-1, value.dtype)
    where = tf.where(tf.not_equal(value, ignore))
    return tf.SparseTensor(where, tf.gather_nd(value, where),
                           tf.shape(value, out_type=tf.int64))


def _feature(features, name):
    if name not in features:
        raise ValueError(f"feature column {name!r}: no such key in the features "
                         f"(keys: {sorted(str(k) for k in features)}); add it to the input dict")
    return features[name]


class _Column:
    """What all contrib feature columns share."""

    @property
    def key(self):
        return repr(self)

    def base_columns(self):
        return [self]

    def transform(self, features):
        raise NotImplementedError

    def to_dnn_input(self, transformed, weight_collections, trainable):
        raise ValueError(
            f"column {self.name!r} ({type(self).__name__}) cannot be a DNN input: wrap it in "
            "embedding_column(...) or one_hot_column(...)")


class _RealValuedColumn(_Column, collections.namedtuple(
        "_RealValuedColumn", ["column_name", "dimension", "default_value", "dtype",
                              "normalizer"])):
    """real_valued_column: a dense float input of `dimension` values."""
    @property
    def name(self):
        return self.column_name

    @property
    def key(self):
        return (f"_RealValuedColumn(column_name={self.column_name}, dimension={self.dimension}, "
                f"default_value={self.default_value}, dtype={self.dtype})")

    @property
    def config(self):
        default = None if self.default_value is None else list(self.default_value)
        return {self.column_name: tf.io.FixedLenFeature([self.dimension], self.dtype, default)}

    def transform(self, features):
        value = _feature(features, self.column_name)
        if isinstance(value, tf.SparseTensor):
            raise ValueError(f"real_valued_column {self.name!r} got a SparseTensor: feed a "
                             "dense Tensor of shape [batch, dimension]")
        value = tf.convert_to_tensor(value)
        if self.normalizer is not None:
            value = self.normalizer(value)
        return value

    def _dense(self, transformed):
        return tf.reshape(tf.cast(transformed, tf.float32), [-1, self.dimension])

    def to_dnn_input(self, transformed, weight_collections, trainable):
        return self._dense(transformed)

    linear_weight_name = "weight"

    def linear_weights_shape(self):
        return [self.dimension]


def real_valued_column(column_name, dimension=1, default_value=None, dtype=tf.float32,
                       normalizer=None):
    """A dense input feature (TF 1.15's contrib.layers.real_valued_column). A variable-length
    one (dimension=None) was TF 1.15's TypeError too (its private _real_valued_var_len_column
    made those)."""
    if dimension is None:
        raise TypeError("dimension must be an integer. Use the _real_valued_var_len_column for "
                        f"variable length features.dimension: {dimension}, column_name: "
                        f"{column_name}")
    if not isinstance(dimension, int):
        raise TypeError(f"dimension must be an integer. dimension: {dimension}, column_name: "
                        f"{column_name}")
    if dimension < 1:
        raise ValueError(f"dimension must be greater than 0. dimension: {dimension}, "
                         f"column_name: {column_name}")
    dtype = tf.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer):
        raise ValueError(f"real_valued_column {column_name!r}: dtype must be a float or int "
                         f"type, got {dtype.name}")
    if default_value is not None:
        default_value = ([default_value] * dimension if isinstance(default_value, (int, float))
                         else list(default_value))
        if len(default_value) != dimension:
            raise ValueError(f"real_valued_column {column_name!r}: default_value has "
                             f"{len(default_value)} values for dimension {dimension}")
        default_value = tuple(float(v) if dtype.is_floating else int(v) for v in default_value)
    return _RealValuedColumn(column_name, dimension, default_value, dtype, normalizer)


_SparseIdLookupConfig = collections.namedtuple(
    "_SparseIdLookupConfig",
    ["vocabulary_file", "keys", "num_oov_buckets", "vocab_size", "default_value"])
_SPARSE_FIELDS = ["column_name", "is_integerized", "bucket_size", "lookup_config", "combiner",
                  "dtype"]


class _SparseColumn(_Column):
    """A categorical input whose transform is a SparseTensor of int64 ids."""
    @property
    def name(self):
        return self.column_name

    @property
    def length(self):
        return self.bucket_size if self.lookup_config is None else (
            self.lookup_config.vocab_size + self.lookup_config.num_oov_buckets)

    @property
    def config(self):
        return {self.column_name: tf.io.VarLenFeature(self.dtype)}

    def raw(self, features):
        return _sparse(_feature(features, self.column_name), self.column_name)

    def transform(self, features):
        raw = self.raw(features)
        return tf.SparseTensor(raw.indices, self._ids(raw.values), raw.dense_shape)

    def id_tensor(self, transformed):
        return transformed

    def weight_tensor(self, transformed):
        return None

    linear_weight_name = "weights"

    def linear_weights_shape(self):
        return [self.length]


class _SparseColumnHashed(_SparseColumn, collections.namedtuple("_SparseColumnHashed",
                                                                _SPARSE_FIELDS)):
    """Hashed ids; with `hash_keys` (an attribute, not a field: TF 1.15's key and equality
    leave it out) one keyed hash per key pair for each value, the pairs' ids side by side."""
    hash_keys = None

    def _ids(self, values):
        return tf.strings.to_hash_bucket_fast(_strings(values), self.bucket_size)

    def transform(self, features):
        if not self.hash_keys:
            return super().transform(features)
        raw = self.raw(features)
        values = _strings(raw.values)
        return tf.sparse.concat(1, [
            tf.SparseTensor(raw.indices, tf.strings.to_hash_bucket_strong(
                values, self.bucket_size, key), raw.dense_shape)
            for key in self.hash_keys], name="lookup")


def _strings(values):
    return values if values.dtype == tf.string else tf.strings.as_string(values)


class _SparseColumnIntegerized(_SparseColumn, collections.namedtuple(
        "_SparseColumnIntegerized", _SPARSE_FIELDS)):
    def _ids(self, values):
        return tf.math.floormod(tf.cast(values, tf.int64), self.bucket_size)


class _SparseColumnKeys(_SparseColumn, collections.namedtuple("_SparseColumnKeys",
                                                              _SPARSE_FIELDS)):
    def _ids(self, values):
        keys = tf.constant(list(self.lookup_config.keys), dtype=self.dtype)
        table = v1.lookup.StaticHashTable(
            v1.lookup.KeyValueTensorInitializer(
                keys, tf.range(len(self.lookup_config.keys), dtype=tf.int64)),
            default_value=tf.constant(self.lookup_config.default_value, tf.int64))
        return table.lookup(values)


class _SparseColumnVocabulary(_SparseColumn, collections.namedtuple(
        "_SparseColumnVocabulary", _SPARSE_FIELDS)):
    def _ids(self, values):
        cfg = self.lookup_config
        lines = v1.lookup.TextFileInitializer(
            cfg.vocabulary_file, self.dtype, v1.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
            v1.lookup.TextFileIndex.LINE_NUMBER, vocab_size=cfg.vocab_size)
        if cfg.num_oov_buckets:  # out-of-vocabulary: vocab_size + Fingerprint64 % buckets
            table = v1.lookup.StaticVocabularyTable(lines, cfg.num_oov_buckets)
        else:
            table = v1.lookup.StaticHashTable(lines, tf.constant(cfg.default_value, tf.int64))
        return table.lookup(values)


_COMBINERS = ("sum", "mean", "sqrtn")


def _check_combiner(combiner, what):
    if combiner not in _COMBINERS:
        raise ValueError(f"{what}: combiner must be one of {_COMBINERS}, got {combiner!r}")


def sparse_column_with_hash_bucket(column_name, hash_bucket_size, combiner="sum",
                                   dtype=tf.string, hash_keys=None):
    """Ids = fingerprint hash of the value mod hash_bucket_size (as TF 1.15); with `hash_keys`
    ([[k0, k1], ...]), one keyed (strong) hash per pair, fewer collisions."""
    if hash_keys is not None:
        if not isinstance(hash_keys, list) or not hash_keys:
            raise ValueError("hash_keys must be a non-empty list.")
        if any(not isinstance(pair, list) or len(pair) != 2 or
               not all(isinstance(k, int) for k in pair) for pair in hash_keys):
            raise ValueError("Each element of hash_keys must be a pair of integers.")
    if hash_bucket_size < 2:
        raise ValueError(f"sparse_column_with_hash_bucket {column_name!r}: hash_bucket_size "
                         f"must be at least 2, got {hash_bucket_size}")
    _check_combiner(combiner, column_name)
    dtype = tf.as_dtype(dtype)
    if not (dtype == tf.string or dtype.is_integer):
        raise ValueError(f"sparse_column_with_hash_bucket {column_name!r}: dtype must be "
                         f"string or integer, got {dtype.name}")
    column = _SparseColumnHashed(column_name, False, hash_bucket_size, None, combiner, dtype)
    column.hash_keys = hash_keys
    return column


def sparse_column_with_integerized_feature(column_name, bucket_size, combiner="sum",
                                           dtype=tf.int64):
    """Ids = the integer value mod bucket_size."""
    if bucket_size < 1:
        raise ValueError(f"sparse_column_with_integerized_feature {column_name!r}: "
                         f"bucket_size must be at least 1, got {bucket_size}")
    _check_combiner(combiner, column_name)
    if not tf.as_dtype(dtype).is_integer:
        raise ValueError(f"sparse_column_with_integerized_feature {column_name!r}: dtype "
                         f"must be an integer type, got {tf.as_dtype(dtype).name}")
    return _SparseColumnIntegerized(column_name, True, bucket_size, None, combiner,
                                    tf.as_dtype(dtype))


def sparse_column_with_keys(column_name, keys, default_value=-1, combiner="sum",
                            dtype=tf.string):
    """Ids = the position of the value in `keys` (`default_value`, -1: dropped, if absent)."""
    _check_combiner(combiner, column_name)
    keys = tuple(keys)
    config = _SparseIdLookupConfig(None, keys, 0, len(keys), default_value)
    return _SparseColumnKeys(column_name, False, None, config, combiner, tf.as_dtype(dtype))


def sparse_column_with_vocabulary_file(column_name, vocabulary_file, num_oov_buckets=0,
                                       vocab_size=None, default_value=-1, combiner="sum",
                                       dtype=tf.string):
    """Ids = the line number of the value in `vocabulary_file` (OOV: hashed buckets after)."""
    _check_combiner(combiner, column_name)
    if vocab_size is None:
        raise ValueError(f"sparse_column_with_vocabulary_file {column_name!r}: give "
                         "vocab_size (the number of lines of the vocabulary file)")
    if num_oov_buckets and default_value != -1:
        raise ValueError(f"sparse_column_with_vocabulary_file {column_name!r}: give either "
                         "num_oov_buckets or default_value, not both")
    config = _SparseIdLookupConfig(vocabulary_file, None, num_oov_buckets, vocab_size,
                                   default_value)
    return _SparseColumnVocabulary(column_name, False, None, config, combiner,
                                   tf.as_dtype(dtype))


class _WeightedSparseColumn(_Column, collections.namedtuple(
        "_WeightedSparseColumn", ["sparse_id_column", "weight_column_name", "dtype"])):
    """A sparse id column whose ids carry the weights of another feature."""
    @property
    def name(self):
        return f"{self.sparse_id_column.name}_weighted_by_{self.weight_column_name}"

    @property
    def length(self):
        return self.sparse_id_column.length

    @property
    def combiner(self):
        return self.sparse_id_column.combiner

    def base_columns(self):
        return [self.sparse_id_column]

    @property
    def config(self):
        config = dict(self.sparse_id_column.config)
        config[self.weight_column_name] = tf.io.VarLenFeature(self.dtype)
        return config

    def transform(self, features):
        weights = _sparse(_feature(features, self.weight_column_name), self.weight_column_name)
        if self.dtype.is_floating:
            weights = tf.SparseTensor(weights.indices, tf.cast(weights.values, tf.float32),
                                      weights.dense_shape)
        return self.sparse_id_column.transform(features), weights

    def id_tensor(self, transformed):
        return transformed[0]

    def weight_tensor(self, transformed):
        return transformed[1]

    linear_weight_name = "weights"

    def linear_weights_shape(self):
        return [self.length]


def weighted_sparse_column(sparse_id_column, weight_column_name, dtype=tf.float32):
    """`sparse_id_column` whose ids are weighted by the feature `weight_column_name`."""
    if not isinstance(sparse_id_column, _SparseColumn):
        raise ValueError("weighted_sparse_column: sparse_id_column must be a sparse_column_*, "
                         f"got {type(sparse_id_column).__name__}")
    dtype = tf.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer):
        raise ValueError(f"weighted_sparse_column: dtype must be numeric, got {dtype.name}")
    return _WeightedSparseColumn(sparse_id_column, weight_column_name, dtype)


class _OneHotColumn(_Column, collections.namedtuple("_OneHotColumn", ["sparse_id_column"])):
    """A sparse id column as a multi-hot dense vector (ids summed per row)."""
    @property
    def name(self):
        return f"{self.sparse_id_column.name}_one_hot"

    @property
    def length(self):
        return self.sparse_id_column.length

    @property
    def config(self):
        return self.sparse_id_column.config

    def base_columns(self):
        return [self.sparse_id_column]

    def transform(self, features):
        return self.sparse_id_column.transform(features)

    def to_dnn_input(self, transformed, weight_collections, trainable):
        ids = self.sparse_id_column.id_tensor(transformed)
        weights = self.sparse_id_column.weight_tensor(transformed)
        dense = tf.sparse.to_dense(ids, default_value=-1)
        hot = tf.one_hot(dense, self.length, on_value=1.0, off_value=0.0)
        if weights is not None:
            hot = hot * tf.expand_dims(tf.sparse.to_dense(weights), -1)
        return tf.reduce_sum(hot, axis=1)


def one_hot_column(sparse_id_column):
    """The multi-hot DNN input of a sparse id column."""
    if not isinstance(sparse_id_column, (_SparseColumn, _WeightedSparseColumn)):
        raise ValueError("one_hot_column: give a sparse_column_* or weighted_sparse_column, "
                         f"got {type(sparse_id_column).__name__}")
    return _OneHotColumn(sparse_id_column)


class _EmbeddingColumn(_Column, collections.namedtuple("_EmbeddingColumn", [
        "sparse_id_column", "dimension", "combiner", "initializer", "ckpt_to_load_from",
        "tensor_name_in_ckpt", "shared_embedding_name", "shared_vocab_size", "max_norm",
        "trainable"])):
    """A sparse id column looked up in a [length, dimension] table, combined per row."""
    @property
    def name(self):
        suffix = "_shared_embedding" if self.shared_embedding_name else "_embedding"
        return self.sparse_id_column.name + suffix

    @property
    def length(self):
        return self.sparse_id_column.length

    @property
    def config(self):
        return self.sparse_id_column.config

    def base_columns(self):
        return [self.sparse_id_column]

    def transform(self, features):
        return self.sparse_id_column.transform(features)

    @property
    def key(self):  # TF 1.15's: the initializer left out
        return (f"_EmbeddingColumn(sparse_id_column={self.sparse_id_column!r}, "
                f"dimension={self.dimension}, combiner={self.combiner}, "
                f"ckpt_to_load_from={self.ckpt_to_load_from}, "
                f"tensor_name_in_ckpt={self.tensor_name_in_ckpt}, "
                f"shared_embedding_name={self.shared_embedding_name}, "
                f"shared_vocab_size={self.shared_vocab_size}, max_norm={self.max_norm}, "
                f"trainable={self.trainable})")

    def _weights(self, weight_collections, trainable):
        from estimator_compat.legacy.contrib.layers.feature_columns import ops
        if self.shared_embedding_name is None:
            weights = ops.model_variable(
                "weights", [self.length, self.dimension], self.initializer,
                weight_collections, trainable and self.trainable)
        else:  # made once per graph, in the scope of the first column that uses it
            shared = v1.get_collection(_SHARED_COLLECTION + self.shared_embedding_name)
            if shared:
                return shared[0]
            weights = ops.model_variable(
                self.shared_embedding_name, [self.shared_vocab_size, self.dimension],
                self.initializer, weight_collections, trainable and self.trainable)
            v1.add_to_collection(_SHARED_COLLECTION + self.shared_embedding_name, weights)
        ops.init_from_checkpoint(self.ckpt_to_load_from, self.tensor_name_in_ckpt, weights)
        return weights

    def to_dnn_input(self, transformed, weight_collections, trainable):
        weights = self._weights(weight_collections, trainable)
        return v1.nn.safe_embedding_lookup_sparse(
            weights, self.sparse_id_column.id_tensor(transformed),
            sparse_weights=self.sparse_id_column.weight_tensor(transformed),
            combiner=self.combiner, max_norm=self.max_norm, name=self.name + "_weights")


def embedding_column(sparse_id_column, dimension, combiner="mean", initializer=None,
                     ckpt_to_load_from=None, tensor_name_in_ckpt=None, max_norm=None,
                     trainable=True):
    """A dense embedding of a sparse id column (default init: truncated normal, stddev
    1/sqrt(dimension))."""
    if not isinstance(sparse_id_column, (_SparseColumn, _WeightedSparseColumn,
                                         _CrossedColumnBase)):
        raise ValueError("embedding_column: give a sparse_column_*, weighted_sparse_column or "
                         f"crossed_column, got {type(sparse_id_column).__name__}")
    _check_combiner(combiner, "embedding_column")
    if initializer is not None and not callable(initializer):
        raise ValueError("embedding_column: initializer must be callable (e.g. "
                         "tf.constant_initializer(...))")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("embedding_column: give both ckpt_to_load_from and "
                         "tensor_name_in_ckpt, or neither")
    if initializer is None:
        initializer = v1.truncated_normal_initializer(mean=0.0,
                                                      stddev=1.0 / math.sqrt(dimension))
    return _EmbeddingColumn(sparse_id_column, dimension, combiner, initializer,
                            ckpt_to_load_from, tensor_name_in_ckpt, None, None, max_norm,
                            trainable)


_SHARED_COLLECTION = "estimator_compat_contrib_shared_embedding/"


def shared_embedding_columns(sparse_id_columns, dimension, combiner="mean",
                             shared_embedding_name=None, initializer=None,
                             ckpt_to_load_from=None, tensor_name_in_ckpt=None, max_norm=None,
                             trainable=True):
    """Embedding columns of compatible sparse columns sharing one table, named
    `shared_embedding_name` (default: the sorted column names joined, + "_shared_embedding")."""
    columns = list(sparse_id_columns)
    if not columns:
        raise ValueError("shared_embedding_columns: give at least one sparse column")
    if len(set(columns)) != len(columns):
        raise ValueError("shared_embedding_columns: the sparse_id_columns must be distinct")
    first = columns[0]
    for column in columns:
        if not isinstance(column, (_SparseColumn, _WeightedSparseColumn)):
            raise TypeError("shared_embedding_columns: give sparse_column_* or "
                            f"weighted_sparse_column, got {type(column).__name__}")
        if type(column) is not type(first) or column.length != first.length:
            raise ValueError("The input sparse id columns are not compatible: they must be "
                             "of one kind with one bucket size / vocabulary size")
    if shared_embedding_name is None:
        shared_embedding_name = "_".join(sorted(c.name for c in columns)) + "_shared_embedding"
    made = [embedding_column(c, dimension, combiner, initializer, ckpt_to_load_from,
                             tensor_name_in_ckpt, max_norm, trainable) for c in columns]
    return tuple(c._replace(shared_embedding_name=shared_embedding_name,
                            shared_vocab_size=first.length) for c in made)


class _BucketizedColumn(_Column, collections.namedtuple("_BucketizedColumn",
                                                        ["source_column", "boundaries"])):
    """A real-valued column cut into len(boundaries) + 1 buckets per dimension."""
    @property
    def name(self):
        return f"{self.source_column.name}_bucketized"

    @property
    def length(self):
        return len(self.boundaries) + 1

    @property
    def config(self):
        return self.source_column.config

    def base_columns(self):
        return [self.source_column]

    def transform(self, features):
        value = tf.cast(self.source_column.transform(features), tf.float32)
        return tf.raw_ops.Bucketize(input=value, boundaries=list(self.boundaries))

    def to_dnn_input(self, transformed, weight_collections, trainable):
        buckets = tf.reshape(transformed, [-1, self.source_column.dimension])
        hot = tf.one_hot(buckets, self.length, on_value=1.0, off_value=0.0)
        return tf.reshape(hot, [-1, self.length * self.source_column.dimension])

    def to_sparse_ids(self, transformed):
        """Bucket ids offset by `dimension index * length`, one per dimension, as sparse."""
        dim = self.source_column.dimension
        buckets = tf.cast(tf.reshape(transformed, [-1, dim]), tf.int64)
        ids = buckets + tf.range(dim, dtype=tf.int64) * self.length
        where = tf.where(tf.ones_like(ids, tf.bool))
        return tf.SparseTensor(where, tf.gather_nd(ids, where),
                               tf.shape(ids, out_type=tf.int64))

    id_tensor = to_sparse_ids

    def weight_tensor(self, transformed):
        return None

    combiner = "sum"
    linear_weight_name = "weights"

    def linear_weights_shape(self):
        return [self.length * self.source_column.dimension]


def bucketized_column(source_column, boundaries):
    """`source_column`'s values as bucket ids (boundaries sorted, strictly increasing)."""
    if not isinstance(source_column, _RealValuedColumn):
        raise TypeError("bucketized_column: source_column must be a real_valued_column, got "
                        f"{type(source_column).__name__}")
    if not isinstance(boundaries, (list, tuple)) or not boundaries:
        raise ValueError("bucketized_column: boundaries must be a non-empty list of floats")
    boundaries = tuple(float(b) for b in boundaries)
    if any(b > a for b, a in zip(boundaries[:-1], boundaries[1:])):
        raise ValueError(f"bucketized_column: boundaries must be sorted, got {boundaries}")
    boundaries = tuple(sorted(set(boundaries)))
    return _BucketizedColumn(source_column, boundaries)


class _CrossedColumnBase(_Column):
    """Marker so embedding_column accepts crossed columns (defined in crossing.py)."""
