"""SDCA's per-example state (dual, primal loss, dual loss, example weight), kept across steps.

Keyed by the fingerprint of each example's id (`tf.raw_ops.SdcaFprint`, two int64 words) in
`num_table_shards` dense hash tables, the shard chosen by the first word. The tables are made
once per Estimator, outside the trace (the variable store keeps them), and checkpointed under
tf.estimator 2.15's names, `ShardedMutableHashTable-<i>-of-<n>-keys` / `-values`, so either
implementation resumes the other's model_dir.
"""
import tensorflow as tf

from estimator_compat.variables import current_store

STATE_SIZE = 4  # dual, primal loss, dual loss, example weight
# SdcaFprint never gives 0 or 1 as a low word: safe to mark empty and deleted buckets.
_EMPTY_KEY, _DELETED_KEY = [0, 0], [1, 1]


def table_names(num_shards):
    return [f"ShardedMutableHashTable-{i + 1}-of-{num_shards}" for i in range(num_shards)]


def _make_table():
    return tf.lookup.experimental.DenseHashTable(
        key_dtype=tf.int64, value_dtype=tf.float32, default_value=[0.0] * STATE_SIZE,
        empty_key=_EMPTY_KEY, deleted_key=_DELETED_KEY)


class ExampleStateTable:
    """The sharded table, as used inside a model_fn trace."""

    def __init__(self, num_shards):
        store = current_store()
        if store is None:
            raise RuntimeError("ExampleStateTable is made in a trace of a model_fn.")
        self._shards = [store.table(name, _make_table) for name in table_names(num_shards)]

    def _shard_of(self, keys):
        return tf.cast(tf.math.floormod(tf.abs(keys[:, 0]), len(self._shards)), tf.int32)

    def lookup(self, keys):
        """[n, STATE_SIZE] states of the `[n, 2]` keys (zeros for an unseen example)."""
        if len(self._shards) == 1:
            return self._shards[0].lookup(keys)
        shard = self._shard_of(keys)
        n = len(self._shards)
        parts = tf.dynamic_partition(keys, shard, n)
        positions = tf.dynamic_partition(tf.range(tf.shape(keys)[0]), shard, n)
        found = [table.lookup(part) for table, part in zip(self._shards, parts)]
        return tf.dynamic_stitch(positions, found)

    def insert(self, keys, values):
        if len(self._shards) == 1:
            return self._shards[0].insert(keys, values)
        shard = self._shard_of(keys)
        n = len(self._shards)
        return tf.group([table.insert(k, v) for table, k, v in zip(
            self._shards, tf.dynamic_partition(keys, shard, n),
            tf.dynamic_partition(values, shard, n))])

    def size(self):
        return tf.add_n([table.size() for table in self._shards])

    def state_sums(self):
        """The states summed over all examples seen, in float64 (empty buckets hold zeros)."""
        return tf.add_n([tf.reduce_sum(tf.cast(table.export()[1], tf.float64), axis=0)
                         for table in self._shards])
