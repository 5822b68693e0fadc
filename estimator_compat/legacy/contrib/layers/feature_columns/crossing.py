"""crossed_column: the cartesian product of sparse/bucketized columns, hashed as TF 1.15's
removed SparseFeatureCross kernels did.

- `hash_key` given: TF 1.15 used SparseFeatureCrossV2, whose ids TensorFlow 2's
  `tf.sparse.cross_hashed(..., hash_key=)` reproduces.
- `hash_key=None` (the default): TF 1.15 used the first SparseFeatureCross kernel, whose
  hashing no TensorFlow 2 op has: seed 0xDECAFCAFFE, then per crossed value
  `h = h ^ (f + 0x9e3779b97f4a7800 + (h << 10) + (h >> 4))` on 64-bit words (f: the
  Fingerprint64 of a string value, the value itself for integers), id = h mod buckets as
  unsigned. `_v1_hashed_cross` computes that with TF ops, taking the combinations' order from
  `tf.sparse.cross` of the values' positions.
"""
import collections

import tensorflow as tf

from estimator_compat.legacy.contrib.layers.feature_columns import columns as fc

_SEED = 0xDECAFCAFFE
_GOLDEN = 0x9e3779b97f4a7800 - (1 << 64)  # as int64
_INT64_LOW = (1 << 63) - 1
_TWO63 = 1 << 63


def _feature_hashes(values):
    """Each value's 64-bit feature hash as int64 bits."""
    if values.dtype == tf.string:
        return tf.bitcast(tf.fingerprint(values), tf.int64)
    return tf.cast(values, tf.int64)


def _unsigned_mod(h, n):
    """(h as uint64) mod n, for int64 bits h and 0 < n < 2**31."""
    low = tf.bitwise.bitwise_and(h, tf.constant(_INT64_LOW, tf.int64))
    high = tf.cast(tf.less(h, 0), tf.int64) * (_TWO63 % n)
    return tf.math.floormod(tf.math.floormod(low, n) + high, n)


def _v1_hashed_cross(inputs, num_buckets):
    """TF 1.15's SparseFeatureCross(hashed_output=True, num_buckets) of SparseTensors."""
    positions = [tf.SparseTensor(s.indices, tf.range(tf.size(s.values, out_type=tf.int64)),
                                 s.dense_shape) for s in inputs]
    crossed = tf.sparse.cross(positions)
    parts = tf.strings.to_number(
        tf.strings.split(crossed.values, "_X_").to_tensor(), tf.int64)
    h = tf.fill(tf.shape(crossed.values), tf.constant(_SEED, tf.int64))
    for i, s in enumerate(inputs):
        f = tf.gather(_feature_hashes(s.values), parts[:, i])
        mixed = (f + _GOLDEN + tf.bitwise.left_shift(h, tf.constant(10, tf.int64))
                 + tf.bitwise.right_shift(h, tf.constant(4, tf.int64)))
        h = tf.bitwise.bitwise_xor(h, mixed)
    return tf.SparseTensor(crossed.indices, _unsigned_mod(h, num_buckets), crossed.dense_shape)


class _CrossedColumn(fc._CrossedColumnBase, collections.namedtuple("_CrossedColumn", [
        "columns", "hash_bucket_size", "hash_key", "combiner", "ckpt_to_load_from",
        "tensor_name_in_ckpt"])):
    """Hashed ids of the crosses of its columns' values (sparse: raw values; bucketized:
    bucket ids; crossed: their own columns')."""
    @property
    def name(self):
        return "_X_".join(sorted(c.name for c in self.columns))

    @property
    def length(self):
        return self.hash_bucket_size

    @property
    def config(self):
        config = {}
        for column in self.columns:
            config.update(column.config)
        return config

    def base_columns(self):
        return list(self.columns)

    def _leaves(self):
        """The sparse / bucketized columns under this cross: a crossed column's own, in
        place (TF 1.15 crossed a cross of crosses as one cross of all their leaves)."""
        for column in self.columns:
            if isinstance(column, _CrossedColumn):
                yield from column._leaves()
            else:
                yield column

    def transform(self, features):
        inputs = []
        for column in self._leaves():
            if isinstance(column, fc._BucketizedColumn):
                inputs.append(column.to_sparse_ids(column.transform(features)))
            else:
                inputs.append(column.raw(features))
        if self.hash_key:
            return tf.sparse.cross_hashed(inputs, num_buckets=self.hash_bucket_size,
                                          hash_key=self.hash_key)
        return _v1_hashed_cross(inputs, self.hash_bucket_size)

    def id_tensor(self, transformed):
        return transformed

    def weight_tensor(self, transformed):
        return None

    linear_weight_name = "weights"

    def linear_weights_shape(self):
        return [self.hash_bucket_size]


def crossed_column(columns, hash_bucket_size, combiner="sum", ckpt_to_load_from=None,
                   tensor_name_in_ckpt=None, hash_key=None):
    """The crosses of sparse_column_* / bucketized_column values, hashed into
    `hash_bucket_size` ids (TF 1.15's ids, for the same `hash_key`)."""
    columns = list(columns)
    if len(columns) < 2:
        raise ValueError("crossed_column: give at least two columns to cross")
    for column in columns:
        if not isinstance(column, (fc._SparseColumn, fc._BucketizedColumn, _CrossedColumn)):
            raise TypeError("crossed_column: columns must be sparse_column_*, "
                            f"bucketized_column or crossed_column, got {type(column).__name__}")
    if not 1 < hash_bucket_size < (1 << 31):
        raise ValueError("crossed_column: hash_bucket_size must be in [2, 2**31), got "
                         f"{hash_bucket_size}")
    fc._check_combiner(combiner, "crossed_column")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("crossed_column: give both ckpt_to_load_from and tensor_name_in_ckpt, "
                         "or neither")
    columns = tuple(sorted(columns, key=lambda c: c.name))  # (TF 1.15 kept repeats)
    return _CrossedColumn(columns, hash_bucket_size, hash_key, combiner, ckpt_to_load_from,
                          tensor_name_in_ckpt)
