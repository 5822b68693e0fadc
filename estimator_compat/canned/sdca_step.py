"""One SDCA training step of a linear model, on TensorFlow's own kernel (SdcaOptimizerV2).

The kernel works on "unshrunk" copies of the model's weights (`<weight>_unshrunk`, zeros at
first) and on each example's dual state (example_state_table.py). After it has run, the model's
weights are set from the unshrunk ones, shrunk by l1 / l2 when there is an l1 term: the step
tf.estimator 2.15 ran as its `_SDCAUpdateWeightsHook`, here in the same compiled step.
"""
import collections
import math

import tensorflow as tf

from estimator_compat.canned.example_state_table import ExampleStateTable

v1 = tf.compat.v1

SparseFeature = collections.namedtuple(
    "SparseFeature", ["example_indices", "feature_indices", "feature_values"])


def sparse_feature(id_tensor, weight_tensor=None):
    """A categorical column's ids as the kernel takes them: negative ids (out of vocabulary)
    dropped, an id repeated within one example kept once with its values summed."""
    examples = id_tensor.indices[:, 0]
    ids = tf.cast(tf.reshape(id_tensor.values, [-1]), tf.int64)
    values = tf.ones_like(ids, tf.float32) if weight_tensor is None else \
        tf.cast(tf.reshape(weight_tensor.values, [-1]), tf.float32)
    valid = ids >= 0
    pairs = tf.stack([tf.boolean_mask(examples, valid), tf.boolean_mask(ids, valid)], axis=1)
    unique, position = tf.raw_ops.UniqueV2(x=pairs, axis=[0])
    summed = tf.math.unsorted_segment_sum(tf.boolean_mask(values, valid), position,
                                          tf.shape(unique)[0])
    return SparseFeature(unique[:, 0], unique[:, 1], summed)


def _unshrunk(var, name):
    """The kernel's copy of `var`, zeros at first, saved as `name`."""
    with v1.variable_scope(v1.VariableScope(reuse=v1.AUTO_REUSE, name="")):
        return v1.get_variable(name, shape=var.shape, dtype=tf.float32,
                               initializer=v1.zeros_initializer())


class SdcaStep:
    """`sparse`: [(SparseFeature, weights variable)], `dense`: [(tensor [batch, d], weights
    variable)] (the bias with a column of ones among them). `unshrunk_name(variable_name)`
    gives the checkpoint name of its unshrunk copy."""

    def __init__(self, settings, loss_type, sparse, dense, example_weights, labels, example_ids,
                 unshrunk_name):
        self._settings, self._loss_type = settings, loss_type
        self._sparse, self._dense = sparse, dense
        self._example_weights, self._labels = example_weights, labels
        self._keys = tf.raw_ops.SdcaFprint(input=example_ids)
        self._variables = [var for _, var in sparse + dense]
        self._unshrunk = [_unshrunk(var, unshrunk_name(var.name.split(":")[0]))
                          for var in self._variables]
        self._table = ExampleStateTable(settings.num_table_shards or 1)
        self._before_update = []  # what reads the state as it was before this step

    def summaries(self):
        """`approximate_duality_gap` (computed only when summaries are written: it reads every
        table bucket) and `examples_seen`, tf.estimator's SDCA training summaries."""
        gap = tf.cond(tf.summary.should_record_summaries(), self._duality_gap,
                      lambda: tf.constant(math.nan, tf.float64))
        seen = self._table.size()
        self._before_update += [gap, seen]
        v1.summary.scalar("approximate_duality_gap", gap)
        v1.summary.scalar("examples_seen", seen)

    def _duality_gap(self):
        sums = self._table.state_sums()
        weights = [tf.cast(tf.reshape(v, [-1]), tf.float64) for v in self._variables]
        l1 = self._settings.symmetric_l1_regularization * tf.add_n(
            [tf.reduce_sum(tf.abs(w)) for w in weights])
        l2 = self._settings.symmetric_l2_regularization * tf.add_n(
            [tf.reduce_sum(tf.square(w)) for w in weights])
        return (sums[1] + sums[2] + l1 + l2) / sums[3]

    def train_op(self, global_step):
        """Runs the kernel once over the batch, updates states and weights, advances
        global_step."""
        settings = self._settings
        n_sparse = len(self._sparse)
        sparse_unshrunk, dense_unshrunk = self._unshrunk[:n_sparse], self._unshrunk[n_sparse:]
        features = [f for f, _ in self._sparse]
        touched = [tf.unique(f.feature_indices)[0] for f in features]
        states = self._table.lookup(self._keys)
        new_states, sparse_deltas, dense_deltas = tf.raw_ops.SdcaOptimizerV2(
            sparse_example_indices=[f.example_indices for f in features],
            sparse_feature_indices=[f.feature_indices for f in features],
            sparse_feature_values=[f.feature_values for f in features],
            dense_features=[tf.cast(x, tf.float32) for x, _ in self._dense],
            example_weights=self._example_weights, example_labels=self._labels,
            sparse_indices=touched,
            sparse_weights=[tf.gather(w, i) for w, i in zip(sparse_unshrunk, touched)],
            dense_weights=[w.read_value() for w in dense_unshrunk],
            example_state_data=states, loss_type=self._loss_type,
            l1=settings.symmetric_l1_regularization, l2=settings.symmetric_l2_regularization,
            num_loss_partitions=settings.num_loss_partitions, num_inner_iterations=1,
            adaptive=settings.adaptive)
        # (explicit: automatic control dependencies do not order a read in a tf.cond)
        with tf.control_dependencies(self._before_update):
            updates = [self._table.insert(self._keys, new_states)]
            updates += [w.scatter_add(tf.IndexedSlices(d, i)) for w, i, d in zip(
                sparse_unshrunk, touched, sparse_deltas)]
            updates += [w.assign_add(d) for w, d in zip(dense_unshrunk, dense_deltas)]
        with tf.control_dependencies(updates):
            copied = [var.assign(self._shrunk(w.read_value()))
                      for var, w in zip(self._variables, self._unshrunk)]
        with tf.control_dependencies(copied):
            return global_step.assign_add(1).op

    def _shrunk(self, value):
        l1 = self._settings.symmetric_l1_regularization
        if l1 <= 0:
            return value
        shrinkage = l1 / self._settings.symmetric_l2_regularization
        return tf.sign(value) * tf.maximum(tf.abs(value) - shrinkage, 0.0)
