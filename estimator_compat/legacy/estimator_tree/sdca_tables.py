"""tensorflow_estimator 2.15's SDCA building blocks under `canned.linear_optimizer.python.utils`,
which code copying its SDCA solver imported:

- `sharded_mutable_dense_hashtable._MutableDenseHashTable`: TensorFlow's dense hash table
  (`tf.lookup.experimental.DenseHashTable`, the same kernel and checkpoint entries
  `<name>-keys` / `<name>-values`), with 2.15's `shared_name` argument;
- `sharded_mutable_dense_hashtable._ShardedMutableDenseHashTable`: `num_shards` of them named
  `<name>-<i>-of-<n>`, a key going to shard |key| mod n (a [n, 2] key by its first column);
  lookup, insert, size, export_sharded;
- `sdca_ops._SparseFeatureColumn`: a sparse feature as the SDCA kernel takes it (example
  indices, feature indices, optional values, as int64 / int64 / float32 tensors).

estimator_compat's LinearSDCA keeps its example state with these semantics in
canned/example_state_table.py.
"""
import tensorflow as tf
from tensorflow.python.ops import lookup_ops


class _MutableDenseHashTable(lookup_ops.DenseHashTable):
    """A mutable hash table on dense arrays of keys (`empty_key` and `deleted_key` mark
    free buckets); `shared_name` shares it between sessions (default: by its node name when
    it is checkpointed)."""

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key,
                 initial_num_buckets=None, shared_name=None, name="MutableDenseHashTable",
                 checkpoint=True):
        self._given_shared_name = shared_name
        super().__init__(key_dtype, value_dtype, default_value, empty_key, deleted_key,
                         initial_num_buckets=initial_num_buckets, name=name,
                         checkpoint=checkpoint)

    def _create_resource(self):
        if getattr(self, "_given_shared_name", None) is not None:
            self._shared_name = self._given_shared_name
        return super()._create_resource()


class _ShardedMutableDenseHashTable:
    """`num_shards` _MutableDenseHashTables as one table (keys a vector, or a matrix sharded
    by its first column)."""

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key,
                 num_shards=1, checkpoint=True, name="ShardedMutableHashTable"):
        self._key_dtype, self._value_dtype = key_dtype, value_dtype
        with tf.compat.v1.name_scope(name, "sharded_mutable_hash_table") as scope:
            self._table_name = scope
            self._table_shards = [
                _MutableDenseHashTable(key_dtype=key_dtype, value_dtype=value_dtype,
                                       default_value=default_value, empty_key=empty_key,
                                       deleted_key=deleted_key, checkpoint=checkpoint,
                                       name=f"{name}-{i + 1}-of-{num_shards}")
                for i in range(num_shards)]
            self._value_shape = self._table_shards[0]._value_shape

    @property
    def name(self):
        return self._table_name

    @property
    def _num_shards(self):
        return len(self._table_shards)

    @property
    def table_shards(self):
        return self._table_shards

    def size(self, name=None):
        with tf.compat.v1.name_scope(name, "sharded_mutable_hash_table_size"):
            return tf.math.add_n([shard.size() for shard in self._table_shards])

    def _shard_indices(self, keys):
        if keys.get_shape().ndims > 1:
            keys = tf.reshape(tf.slice(keys, [0, 0], [-1, 1]), [-1])
        return tf.cast(tf.math.floormod(tf.math.abs(keys), self._num_shards), tf.int32)

    def _check_keys(self, keys):
        if keys.get_shape().ndims not in (1, 2):
            raise ValueError(f"Expected a vector or matrix for keys, got {keys.get_shape()}.")

    def lookup(self, keys, name=None):
        """The values of `keys` (the default value for absent ones)."""
        if keys.dtype.base_dtype != self._key_dtype:
            raise TypeError(f"Signature mismatch. Keys must be dtype {self._key_dtype}, got "
                            f"{keys.dtype}.")
        self._check_keys(keys)
        n = self._num_shards
        if n == 1:
            return self._table_shards[0].lookup(keys, name=name)
        shards = self._shard_indices(keys)
        found = [table.lookup(part, name=name) for table, part in
                 zip(self._table_shards, tf.dynamic_partition(keys, shards, n))]
        positions = tf.dynamic_partition(tf.range(tf.compat.v1.shape(keys)[0]), shards, n)
        return tf.dynamic_stitch(positions, found)

    def insert(self, keys, values, name=None):
        """Inserts (or overwrites) `keys` with `values`."""
        self._check_keys(keys)
        n = self._num_shards
        if n == 1:
            return self._table_shards[0].insert(keys, values, name=name)
        shards = self._shard_indices(keys)
        return tf.group(*[table.insert(k, v, name=name) for table, k, v in zip(
            self._table_shards, tf.dynamic_partition(keys, shards, n),
            tf.dynamic_partition(values, shards, n))])

    def export_sharded(self, name=None):
        """([each shard's keys], [each shard's values]), empty buckets included."""
        exported = [table.export(name=name) for table in self._table_shards]
        return [k for k, _ in exported], [v for _, v in exported]


class _SparseFeatureColumn:
    """One sparse feature of a batch for the SDCA kernel: `example_indices` and
    `feature_indices` (int64 [N]) and `feature_values` (float32 [N], or None for ones)."""

    def __init__(self, example_indices, feature_indices, feature_values):
        with tf.compat.v1.name_scope(None, "SparseFeatureColumn",
                                     [example_indices, feature_indices]):
            self._example_indices = tf.convert_to_tensor(example_indices, tf.int64,
                                                         name="example_indices")
            self._feature_indices = tf.convert_to_tensor(feature_indices, tf.int64,
                                                         name="feature_indices")
        self._feature_values = None
        if feature_values is not None:
            with tf.compat.v1.name_scope(None, "SparseFeatureColumn", [feature_values]):
                self._feature_values = tf.convert_to_tensor(feature_values, tf.float32,
                                                            name="feature_values")

    @property
    def example_indices(self):
        return self._example_indices

    @property
    def feature_indices(self):
        return self._feature_indices

    @property
    def feature_values(self):
        return self._feature_values
