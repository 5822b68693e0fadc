"""TF 1.15's `state_management.ChainingStateManager`, the state manager of state space
regressors: the state after each training (and evaluation) window is cached by chunk of
`state_saving_interval` times, and a later window starting in a cached chunk filters from it
instead of the start state (windows in the series' first chunk always start from the start
state). An evaluation or a training step given `start_tuple` filters from that state instead
(training refuses it).

The cache is one `tf.lookup.experimental.DenseHashTable` per state element and mode, made once
per Estimator outside the step's trace and never checkpointed (TF 1.15's default,
`checkpoint_state=False`, did not save it either). TF 1.15 began each `train` / `evaluate`
call with an empty cache (a new graph); here the cache lives as long as the Estimator."""
import weakref

import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries import feature_keys
from estimator_compat.legacy.contrib.timeseries.ar_model import TRAIN
from estimator_compat.legacy.contrib.timeseries.head import PassthroughStateManager
from estimator_compat.legacy.contrib.timeseries.ts_model import ModelOutputs, replicate_state
from estimator_compat.variables import current_store, outside_trace

v1 = tf.compat.v1
_TABLES = weakref.WeakKeyDictionary()  # VariableStore: {name: table}


def _table(name, size, dtype):
    def make():
        return tf.lookup.experimental.DenseHashTable(
            key_dtype=tf.int64, value_dtype=dtype, default_value=tf.zeros([size], dtype),
            empty_key=-1, deleted_key=-2, name=name)
    store = current_store()
    if store is None:  # a plain TF1 graph (the .meta export): the table lives in it
        return make()
    tables = _TABLES.setdefault(store, {})
    if name not in tables:
        with outside_trace():
            tables[name] = make()
    return tables[name]


class _StateCache:
    """State tuples keyed by int64 chunk numbers; unseen keys give `default_state`."""

    def __init__(self, default_state, name):
        self._default = tf.nest.map_structure(tf.convert_to_tensor, default_state)
        self._tables = [
            _table(f"{name}_{number}", max(element.shape.num_elements(), 1),
                   element.dtype.base_dtype)
            for number, element in enumerate(tf.nest.flatten(self._default))]

    def lookup(self, keys):
        keys = tf.cast(keys, tf.int64)
        flat_keys = tf.reshape(keys, [-1])
        found = []
        for table, default in zip(self._tables, tf.nest.flatten(self._default)):
            values = tf.raw_ops.LookupTableFindV2(
                table_handle=table.resource_handle, keys=flat_keys,
                default_value=tf.reshape(default, [-1]))
            found.append(tf.reshape(values, tf.concat([tf.shape(keys), tf.shape(default)], 0)))
        return tf.nest.pack_sequence_as(self._default, found)

    def insert(self, keys, values):
        flat_keys = tf.reshape(tf.cast(keys, tf.int64), [-1])
        values = [tf.identity(value) for value in tf.nest.flatten(values)]
        with tf.control_dependencies(values):
            return tf.group([
                table.insert(flat_keys, tf.reshape(value, [tf.shape(flat_keys)[0], -1]))
                for table, value in zip(self._tables, values)])


class ChainingStateManager(PassthroughStateManager):
    """Feeds the end state of each chunk of a batch to windows starting there later."""

    def __init__(self, state_saving_interval=20, checkpoint_state=False):
        if checkpoint_state:
            raise NotImplementedError(
                "ChainingStateManager(checkpoint_state=True) is not served by "
                "estimator_compat: leave checkpoint_state=False (the default); the cached "
                "states are then imputed again from the series' start after a restore.")
        super().__init__()
        self._checkpoint_state = checkpoint_state
        self._state_saving_interval = state_saving_interval
        self._start_state = None
        self._cached_states = None

    def initialize_graph(self, model, input_statistics=None):
        super().initialize_graph(model=model, input_statistics=input_statistics)
        self._start_state = model.get_start_state()
        self._cached_states = {}

    def _cache(self, mode):
        """This graph's cache for `mode` (the Estimator's tables, reused across traces)."""
        if mode not in self._cached_states:
            self._cached_states[mode] = _StateCache(self._start_state, f"cached_states_{mode}")
        return self._cached_states[mode]

    def define_loss(self, model, features, mode):
        key = feature_keys.FilteringFeatures.STATE_TUPLE
        if key in features:
            if mode == TRAIN:
                raise ValueError(f"Overriding saved state for training is not supported (but "
                                 f"a value for feature {key} was specified).")
            features = dict(features)
            state = features.pop(key)
            return model.get_batch_loss(features=features, mode=mode, state=state)
        if not self._graph_initialized:
            raise ValueError("ChainingStateManager requires initialize_graph() to be called "
                             "before use.")
        loss, end_state, predictions = self._update_cached_states(model, features, mode)
        last = [value[-1][None] for value in tf.nest.flatten(end_state)]
        predictions["observed"] = features[feature_keys.TrainEvalFeatures.VALUES]
        return ModelOutputs(loss=loss, end_state=tf.nest.pack_sequence_as(end_state, last),
                            predictions=predictions,
                            prediction_times=features[feature_keys.TrainEvalFeatures.TIMES])

    def _chunk(self, time):
        return time // self._state_saving_interval

    def _cached_start_states(self, cache, times):
        chunks = self._chunk(times)
        looked_up = cache.lookup(chunks)
        start_time = (self._input_statistics.start_time if self._input_statistics is not None
                      else 0)
        at_start = tf.equal(chunks, self._chunk(start_time))
        replicated = replicate_state(self._start_state, tf.shape(times)[0])
        return tf.nest.pack_sequence_as(looked_up, [
            v1.where(at_start, start, cached) for start, cached in zip(
                tf.nest.flatten(replicated), tf.nest.flatten(looked_up))])

    def _update_cached_states(self, model, features, mode):
        cache = self._cache(mode)
        times = features[feature_keys.TrainEvalFeatures.TIMES]
        state = self._cached_start_states(cache, times[:, 0])
        loss, states, predictions = model.per_step_batch_loss(features=features, mode=mode,
                                                              state=state)
        first_chunks = self._chunk(times) + 1
        write_chunks = tf.maximum(
            self._chunk(tf.concat([times[:, 1:], times[:, -1:] + 1], axis=1)), first_chunks)
        save = cache.insert(write_chunks, states)
        end_state = tf.nest.pack_sequence_as(
            states, [element[:, -1] for element in tf.nest.flatten(states)])
        with tf.control_dependencies([save]):
            loss = tf.identity(loss)
        return loss, end_state, predictions
