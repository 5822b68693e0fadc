"""The boosted trees model_fn: TensorFlow's layer-by-layer gradient boosting, step by step.

A train step first learns the numeric columns' quantile boundaries (those steps leave
global_step alone, as tf.estimator's did), then, per batch: the logits of the ensemble so far
(from each example's cached node when training in memory), the head's gradients and hessians
with respect to them, and the gradient / hessian sums per node, feature and bucket. The host
(host.py) centers the bias, then grows a layer every `n_batches_per_layer` batches; the step
assigns what it returns. Evaluation and prediction walk the dense arrays only.
"""
import collections

import numpy as np
import tensorflow as tf

from estimator_compat.canned.boosted_trees import columns, explain, state, traversal
from estimator_compat.canned.boosted_trees.host import Host
from estimator_compat.canned.boosted_trees.state import ARRAY_NAMES
from estimator_compat.hooks import SessionRunArgs, SessionRunHook
from estimator_compat.mode_keys import ModeKeys

v1 = tf.compat.v1
DUMMY_NODE_ID = -1
TreeHParams = collections.namedtuple("TreeHParams", [
    "n_trees", "max_depth", "learning_rate", "l1", "l2", "tree_complexity", "min_node_weight",
    "center_bias", "pruning_mode", "quantile_sketch_epsilon"])


class StopAtAttemptsHook(SessionRunHook):
    """Ends training once n_trees trees are finalized (or too many layers were attempted)."""

    def __init__(self, states, max_trees, max_depth):
        self._states, self._max_trees, self._max_depth = states, max_trees, max_depth

    def before_run(self, run_context):
        return SessionRunArgs(self._states)

    def after_run(self, run_context, run_values):
        finalized, attempted = int(run_values.results[1]), int(run_values.results[2])
        if finalized >= self._max_trees or \
                attempted > 2 * self._max_trees * self._max_depth:
            run_context.request_stop()


class _ResetHost(SessionRunHook):
    """Each train call starts with empty accumulators, as each tf.estimator session did."""

    def __init__(self, host):
        self._host = host

    def begin(self):
        self._host.reset()


def _stats(node_ids, gradients, hessians, feature, max_splits, num_buckets):
    """[max_splits, dims, num_buckets + 1, logits + hessians]: sums per node and bucket (-1,
    a missing value, in the last bucket), in float64 as the kernel summed."""
    dims = tf.shape(feature)[1]
    bucket = tf.where(tf.equal(feature, -1), num_buckets, tf.clip_by_value(feature, 0,
                                                                            num_buckets))
    node = tf.broadcast_to(node_ids[:, None], tf.shape(feature))
    inside = node < max_splits
    index = (node * dims + tf.range(dims)[None, :]) * (num_buckets + 1) + bucket
    index = tf.where(inside, index, max_splits * dims * (num_buckets + 1))
    values = tf.cast(tf.concat([gradients, hessians], axis=1), tf.float64)
    values = tf.broadcast_to(values[:, None, :], tf.concat([tf.shape(feature),
                                                           tf.shape(values)[1:]], 0))
    sums = tf.math.unsorted_segment_sum(values, index, max_splits * dims * (num_buckets + 1) + 1)
    return tf.cast(tf.reshape(sums[:-1], tf.stack(
        [max_splits, dims, num_buckets + 1, tf.shape(values)[2]])), tf.float32)


def _full_hessian(gradients, logits, dimension):
    rows = [tf.compat.v1.gradients(g, logits)[0] for g in tf.unstack(gradients, dimension, 1)]
    return tf.reshape(tf.stack(rows, axis=1), [-1, dimension * dimension])


def _assign(variables, values):
    return tf.group([v.assign(x, read_value=False) for v, x in zip(variables, values)])


class ModelFn:
    """The model_fn of one BoostedTrees estimator (it holds the host's accumulators)."""

    def __init__(self, head, feature_columns, hparams, n_batches_per_layer, train_in_memory,
                 closed_form=None, weight_column=None):
        self.head, self.hparams = head, hparams
        self.logits = head.logits_dimension
        self.layout = columns.Layout(feature_columns,
                                     int(1.0 / hparams.quantile_sketch_epsilon))
        self.n_batches_per_layer, self.train_in_memory = n_batches_per_layer, train_in_memory
        self.closed_form, self.weight_column = closed_form, weight_column
        self.host = Host(self.layout, hparams, n_batches_per_layer, self.logits)

    def __call__(self, features, labels, mode, config):
        with tf.name_scope("boosted_trees"):
            v1.train.get_or_create_global_step()
            arrays = state.ensemble_arrays(self.logits)
            boundaries = state.boundary_variables(self.layout.num_streams)
            read = {n: v.read_value() for n, v in arrays.items()}
            bucketized = self.layout.transform(features, [b.read_value() for b in boundaries])
            if mode != ModeKeys.TRAIN:
                logits = traversal.predict(read, bucketized, self.logits)
                return self.head.create_estimator_spec(features, mode, logits, labels=labels,
                                                       train_op_fn=lambda loss: tf.no_op())
            self._check_config(config)
            return self._train_spec(features, labels, arrays, read, boundaries, bucketized)

    def explanation_spec(self, features):
        """The PREDICT spec with each example's path for directional feature contributions."""
        with tf.name_scope("boosted_trees"):
            read = {n: v.read_value() for n, v in state.ensemble_arrays(self.logits).items()}
            boundaries = state.boundary_variables(self.layout.num_streams)
            bucketized = self.layout.transform(features, [b.read_value() for b in boundaries])
            logits = traversal.predict(read, bucketized, self.logits)
            spec = self.head.create_estimator_spec(features, ModeKeys.PREDICT, logits)
            predictions = dict(spec.predictions, **explain.debug_predictions(read, bucketized))
            return spec._replace(predictions=predictions)

    def _check_config(self, config):
        if config.num_worker_replicas > 1 or config.num_ps_replicas > 0:
            raise ValueError(
                "Boosted trees train on one machine here (tf.estimator's accumulators on "
                "parameter servers are not provided); run without a multi-worker TF_CONFIG.")
        if self.train_in_memory and self.n_batches_per_layer != 1:
            raise ValueError("When train_in_memory is enabled, input_fn should return the "
                             "entire dataset as a single batch, and n_batches_per_layer should "
                             "be set as 1.")

    def _caches(self, labels):
        """(cached tree ids, node ids, logits, insert(trees, nodes, logits)) of in-memory
        training; no cache otherwise (every step walks all trees)."""
        batch = tf.shape(labels)[0]
        fresh = (tf.zeros([batch], tf.int32), tf.fill([batch], DUMMY_NODE_ID),
                 tf.zeros([batch, self.logits]))
        if not self.train_in_memory:
            return fresh + (None,)
        state.flag("are_features_cached", False)
        for i in range(self.layout.num_features):  # tf.estimator's names, left empty
            v1.Variable(np.zeros([0, 1], np.int32), name=f"cached_feature_{i}",
                        trainable=False, validate_shape=False, shape=[None, None])
        caches = [v1.Variable(np.zeros([0] + [self.logits] * k, dtype), name=name,
                              trainable=False, validate_shape=False, shape=[None] * (k + 1))
                  for name, dtype, k in (("tree_ids_cache", np.int32, 0),
                                         ("node_ids_cache", np.int32, 0),
                                         ("logits_cache", np.float32, 1))]
        values = [c.read_value() for c in caches]
        usable = tf.equal(tf.shape(values[0])[0], batch)
        cached = tuple(tf.cond(usable, lambda v=v: v, lambda f=f: f) for v, f in zip(values, fresh))
        return cached + (lambda *new: _assign(caches, new),)

    def _train_spec(self, features, labels, arrays, read, boundaries, bucketized):
        h = self.hparams
        ready = state.flag("are_boundaries_ready", not self.layout.numeric)
        centering = state.flag("center_bias_needed", h.center_bias)
        serialized, stamp = state.proto_variables()
        cached_trees, cached_nodes, cached_logits, insert = self._caches(labels)
        partial, tree_ids, node_ids = traversal.training_predict(
            read, bucketized, cached_trees, cached_nodes, self.logits)
        logits = cached_logits + partial
        states = read["states"]
        for i, key in enumerate(("num_trees", "num_finalized_trees", "num_attempted_layers")):
            v1.summary.scalar(f"ensemble/{key}", states[i])
        step = self._step(features, labels, logits, node_ids, tree_ids, bucketized, arrays,
                          boundaries, ready, centering, serialized, stamp, insert)
        spec = self.head.create_estimator_spec(features, ModeKeys.TRAIN, logits, labels=labels,
                                               train_op_fn=step)
        with tf.control_dependencies([spec.train_op]):
            after = arrays["states"].read_value()
        return spec._replace(training_hooks=tuple(spec.training_hooks) + (
            StopAtAttemptsHook(after, h.n_trees, h.max_depth), _ResetHost(self.host)))

    def _step(self, features, labels, logits, node_ids, tree_ids, bucketized, arrays,
              boundaries, ready, centering, serialized, stamp, insert):
        centering_now = centering.read_value()

        def train_op_fn(loss):
            def sketch():
                weights = columns.example_weights(features, self.weight_column)
                out = tf.numpy_function(self.host.add_sketch,
                                        [weights] + self.layout.numeric_values(features),
                                        [tf.bool] + [tf.float32] * self.layout.num_streams)
                done = out[0]

                def store():
                    return tf.group(_assign(boundaries, out[1:]), ready.assign(True))
                with tf.control_dependencies([tf.cond(done, store, tf.no_op)]):
                    return tf.constant(0)

            def grow():
                gradients, hessians = self._gradients(loss, logits, labels)
                stats = [_stats(node_ids, gradients, hessians, f, self.host.max_splits, size)
                         for f, size in zip(bucketized, self._bucket_sizes())]
                out = tf.numpy_function(
                    self.host.step, [centering_now, serialized.read_value(), stamp.read_value(),
                                     tf.reduce_mean(gradients, 0), tf.reduce_mean(hessians, 0)]
                    + stats, [tf.bool, tf.string, tf.int64, tf.bool] +
                    [arrays[n].dtype for n in ARRAY_NAMES])
                changed = out[0]

                def store():
                    return tf.group(serialized.assign(out[1]), stamp.assign(out[2]),
                                    centering.assign(out[3]),
                                    _assign([arrays[n] for n in ARRAY_NAMES], out[4:]))
                updates = [tf.cond(changed, store, tf.no_op)]
                if insert is not None:  # cached once the bias is centered
                    updates.append(tf.cond(centering_now, tf.no_op,
                                           lambda: insert(tree_ids, node_ids, logits)))
                with tf.control_dependencies(updates):
                    advanced = v1.assign_add(v1.train.get_global_step(), 1)
                with tf.control_dependencies([advanced]):
                    return tf.constant(0)
            if not self.layout.numeric:
                return grow().op
            return tf.cond(ready.read_value(), grow, sketch).op
        return train_op_fn

    def _bucket_sizes(self):
        size = {}
        for bucket, ids in zip(self.layout.bucket_sizes, self.layout.feature_ids):
            size.update({i: bucket for i in ids})
        return [size[i] for i in range(self.layout.num_features)]

    def _gradients(self, loss, logits, labels):
        if self.logits == 1 and self.closed_form is not None:
            return self.closed_form(logits, labels)
        gradients = tf.compat.v1.gradients(loss, logits)[0]
        if self.logits == 1:
            return gradients, tf.compat.v1.gradients(gradients, logits)[0]
        return gradients, _full_hessian(gradients, logits, self.logits)
