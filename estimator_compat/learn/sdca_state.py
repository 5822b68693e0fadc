"""The per-example state table of `tf.contrib.linear_optimizer.SdcaModel` (dual, primal loss,
dual loss, example weight per example id fingerprint), sharded as TF 1.15's
`ShardedMutableDenseHashTable`: `num_shards` dense hash tables, a key's shard chosen by its
first word, checkpointed as `ShardedMutableHashTable-<i>-of-<n>-keys` / `-values`.

Inside an Estimator's model_fn trace the tables are the variable store's (canned/
example_state_table.py: made once, outliving the trace, the same checkpoint names); in a TF 1.x
graph the tables are the graph's own, saved by `tf.train.Saver` as TF 1.15's were.
"""
import tensorflow as tf

from estimator_compat.canned.example_state_table import (
    STATE_SIZE, ExampleStateTable, _DELETED_KEY, _EMPTY_KEY)
from estimator_compat.variables import current_store


def state_table(num_shards):
    """The sharded table, for the current graph (an Estimator's trace or a TF 1.x graph)."""
    if current_store() is not None:
        return ExampleStateTable(num_shards)
    return _GraphTable(num_shards)


class _GraphTable(ExampleStateTable):
    """The same table in a TF 1.x graph: the shards are made here, in its name scope."""

    def __init__(self, num_shards, name="ShardedMutableHashTable"):
        with tf.name_scope(name):
            self._shards = [tf.lookup.experimental.DenseHashTable(
                key_dtype=tf.int64, value_dtype=tf.float32,
                default_value=[0.0] * STATE_SIZE, empty_key=_EMPTY_KEY,
                deleted_key=_DELETED_KEY, name=f"{name}-{i + 1}-of-{num_shards}")
                for i in range(num_shards)]
