"""`tf.contrib.linear_optimizer.SdcaModel` and `SparseFeatureColumn`: the graph-level API of
stochastic dual coordinate ascent for linear models, on TensorFlow's own kernels (`SdcaFprint`,
`SdcaOptimizerV2`, which TF 2.21 still has).

As TF 1.15's: each weight variable gets an "unshrinked" copy (`<weight>_unshrinked/
SDCAOptimizer`, a trainable zeros variable made in the current name scope) that `minimize()`
updates with the kernel's deltas and the example states (learn/sdca_state.py); `update_weights
(train_op)` then sets each weight to its copy shrunk by l1 / max(l2, 1) (what `SdcaShrinkL1`
did in place, written with ops so that resource variables take it too). A weight may be a list
of variables (or a PartitionedVariable): its parts are taken as one vector cut along the first
axis. Losses: 'logistic_loss', 'squared_loss', 'hinge_loss', 'smooth_hinge_loss',
'poisson_loss'. The kernel visits the examples in a random order (adaptive or not), so runs
agree only as they converge.

Beyond TF 1.15: a SparseFeatureColumn without `feature_values` (values 1.0 to the kernel)
also works in `predictions()` and the losses (TF 1.15's failed there), and example ids may
have any shape (they are flattened).
"""
import tensorflow as tf

from estimator_compat.learn.sdca_state import state_table
from estimator_compat.legacy.estimator_tree.sdca_model import _check_lists
# TF 1.15's contrib class is the one tensorflow_estimator 2.15 kept as sdca_ops' private
from estimator_compat.legacy.estimator_tree.sdca_tables import (  # noqa: F401
    _SparseFeatureColumn as SparseFeatureColumn)
from estimator_compat.variables import current_store

v1 = tf.compat.v1

LOSSES = ("logistic_loss", "squared_loss", "hinge_loss", "smooth_hinge_loss", "poisson_loss")
_NAMES = ("sparse_features_weights", "dense_features_weights")


def _parts(var):
    """A weight's variables: the parts of a partitioned one, else [var]."""
    if isinstance(var, (list, tuple)):
        return list(var)
    if hasattr(var, "_get_variable_list"):
        return list(var._get_variable_list())
    return [var]


def _whole(var):
    """A weight as one tensor (parts concatenated along the first axis)."""
    parts = _parts(var)
    return tf.convert_to_tensor(parts[0]) if len(parts) == 1 else tf.concat(parts, 0)


def _require(items, given):
    for key in items:
        if given[key] is None:
            raise ValueError(f"{key} must be specified.")


def _slot(var):
    """The unshrinked copy of one variable, zeros."""
    name = var.name.split(":")[0] + "_unshrinked/SDCAOptimizer"
    shape = var.shape
    if shape.is_fully_defined():
        return v1.Variable(lambda: tf.zeros(shape, tf.float32), name=name)
    return v1.Variable(tf.zeros_like(var.initialized_value(), tf.float32), name=name)


class SdcaModel:
    """Stochastic dual coordinate ascent for a linear model over `examples` (sparse_features:
    [SparseFeatureColumn], dense_features: [[batch, d] float32], example_labels,
    example_weights, example_ids: [batch] strings) with `variables` (sparse_features_weights,
    dense_features_weights: lists) and `options` (loss_type, symmetric_l1_regularization,
    symmetric_l2_regularization; optional num_loss_partitions, num_table_shards, adaptive).
    Run `update_weights(minimize())` each step."""

    def __init__(self, examples, variables, options):
        if not examples or not variables or not options:
            raise ValueError("examples, variables and options must all be specified.")
        if options["loss_type"] not in LOSSES:
            raise ValueError("Unsupported loss_type: ", options["loss_type"])
        _require(["example_labels", "example_weights", "example_ids", "sparse_features",
                  "dense_features"], examples)
        _check_lists(["sparse_features", "dense_features"], examples)
        _require(_NAMES, variables)
        _check_lists(_NAMES, variables)
        _require(["loss_type", "symmetric_l2_regularization", "symmetric_l1_regularization"],
                 options)
        for name in ("symmetric_l1_regularization", "symmetric_l2_regularization"):
            if options[name] < 0.0:
                raise ValueError("%s should be non-negative. Found (%f)" % (name, options[name]))
        self._examples, self._variables, self._options = examples, variables, options
        self._slots = {name: [[_slot(v) for v in _parts(var)] for var in variables[name]]
                       for name in _NAMES}
        self._table = state_table(self._num_table_shards())
        self._before_update = []  # what reads the states as they were before a step
        self._summaries()

    # -- options, as TF 1.15 read them ------------------------------------------------------
    def _l1(self):
        return self._options["symmetric_l1_regularization"]

    def _l2(self):
        """The solver's l2: at least 1.0 (its algorithmic requirement)."""
        return max(self._options["symmetric_l2_regularization"], 1.0)

    def _num_table_shards(self):
        shards = self._options.get("num_table_shards")
        return 1 if shards is None else shards

    def _summaries(self):
        gap = self.approximate_duality_gap
        if current_store() is not None:
            # in an Estimator's step: read every table bucket only when summaries are written
            computed = tf.cond(tf.summary.should_record_summaries(), gap,
                               lambda: tf.constant(float("nan"), tf.float64))
            seen = self._table.size()
            self._before_update += [computed, seen]
        else:
            computed, seen = gap(), self._table.size()
        v1.summary.scalar("approximate_duality_gap", computed)
        v1.summary.scalar("examples_seen", seen)

    # -- the model ---------------------------------------------------------------------------
    def _weights(self):
        return [w for name in _NAMES for var in self._variables[name] for w in _parts(var)]

    def _l1_loss(self):
        with tf.name_scope("sdca/l1_loss"):
            sums = [tf.reduce_sum(tf.abs(tf.cast(w, tf.float64))) for w in self._weights()]
            return self._l1() * tf.add_n(sums)

    def _l2_loss(self, l2):
        with tf.name_scope("sdca/l2_loss"):
            sums = [tf.reduce_sum(tf.square(tf.cast(w, tf.float64))) for w in self._weights()]
            return l2 * tf.add_n(sums) / 2.0

    def _linear_predictions(self, examples):
        with tf.name_scope("sdca/prediction"):
            sparse = 0.0
            for column, var in zip(examples["sparse_features"],
                                   self._variables["sparse_features_weights"]):
                gathered = tf.gather(_whole(var), column.feature_indices)
                if column.feature_values is not None:
                    gathered = gathered * column.feature_values
                sparse += tf.math.segment_sum(gathered, column.example_indices)
            dense = 0.0
            for x, var in zip(examples["dense_features"],
                              self._variables["dense_features_weights"]):
                dense += tf.matmul(tf.convert_to_tensor(x), tf.expand_dims(_whole(var), -1))
        return tf.reshape(dense, [-1]) + sparse

    def predictions(self, examples):
        """w.x per example: the sigmoid of it for logistic loss, exp of it for poisson loss."""
        _require(["example_weights", "sparse_features", "dense_features"], examples)
        _check_lists(["sparse_features", "dense_features"], examples)
        result = self._linear_predictions(examples)
        if self._options["loss_type"] == "logistic_loss":
            with tf.name_scope("sdca/logistic_prediction"):
                result = tf.sigmoid(result)
        elif self._options["loss_type"] == "poisson_loss":
            with tf.name_scope("sdca/poisson_prediction"):
                result = tf.exp(result)
        return result

    # -- training ----------------------------------------------------------------------------
    def minimize(self, global_step=None, name=None):
        """One pass of the kernel over the batch: updates the unshrinked weights and the
        example states (and adds 1 to `global_step` when given)."""
        with tf.name_scope(name or "sdca/minimize"):
            columns = self._examples["sparse_features"]
            ids = tf.reshape(tf.convert_to_tensor(self._examples["example_ids"]), [-1])
            keys = tf.raw_ops.SdcaFprint(input=ids)
            states = self._table.lookup(keys)
            touched = [tf.unique(c.feature_indices)[0] for c in columns]
            sparse_weights = [_PartGather(parts, idx) for parts, idx in zip(
                self._slots["sparse_features_weights"], touched)]
            new_states, sparse_deltas, dense_deltas = tf.raw_ops.SdcaOptimizerV2(
                sparse_example_indices=[c.example_indices for c in columns],
                sparse_feature_indices=[c.feature_indices for c in columns],
                sparse_feature_values=[c.feature_values for c in columns
                                       if c.feature_values is not None],
                dense_features=[tf.convert_to_tensor(x)
                                for x in self._examples["dense_features"]],
                example_weights=tf.convert_to_tensor(self._examples["example_weights"]),
                example_labels=tf.convert_to_tensor(self._examples["example_labels"]),
                sparse_indices=touched,
                sparse_weights=[g.gathered for g in sparse_weights],
                dense_weights=[_whole(parts)
                               for parts in self._slots["dense_features_weights"]],
                example_state_data=states, loss_type=self._options["loss_type"],
                l1=self._l1(), l2=self._l2(),
                num_loss_partitions=self._options.get("num_loss_partitions", 1),
                num_inner_iterations=1, adaptive=self._options.get("adaptive", True))
            # (explicit: automatic control dependencies do not order a read in a tf.cond)
            with tf.control_dependencies([new_states] + self._before_update):
                updates = [self._table.insert(keys, new_states)]
                for gather, delta in zip(sparse_weights, sparse_deltas):
                    updates += gather.scatter_add(delta)
                for parts, delta in zip(self._slots["dense_features_weights"], dense_deltas):
                    pieces = [delta] if len(parts) == 1 else tf.split(
                        delta, [p.shape[0] for p in parts])
                    updates += [v1.assign_add(p, d) for p, d in zip(parts, pieces)]
            if global_step is None:
                return tf.group(*updates)
            with tf.control_dependencies(updates):
                return v1.assign_add(global_step, 1).op

    def update_weights(self, train_op):
        """After `train_op`: each weight set to its unshrinked copy, shrunk by l1 / l2."""
        shrinkage = self._l1() / self._l2()
        with tf.control_dependencies([train_op]):
            updates = []
            for name in _NAMES:
                for var, slots in zip(self._variables[name], self._slots[name]):
                    for part, slot in zip(_parts(var), slots):
                        value = tf.convert_to_tensor(slot)
                        if shrinkage > 0:
                            value = tf.sign(value) * tf.maximum(tf.abs(value) - shrinkage, 0.0)
                        updates.append(v1.assign(part, value))
        return tf.group(*updates)

    # -- losses ------------------------------------------------------------------------------
    def approximate_duality_gap(self):
        """(primal loss + dual loss + l1 + l2 terms) / the example weights, over every example
        seen (NaN before any)."""
        with tf.name_scope("sdca/approximate_duality_gap"):
            sums = self._table.state_sums()
            return (sums[1] + sums[2] + self._l1_loss()
                    + 2.0 * self._l2_loss(self._l2())) / sums[3]

    def unregularized_loss(self, examples):
        """The weighted mean loss of `examples` (squared loss halved, as the solver's)."""
        _require(["example_labels", "example_weights", "sparse_features", "dense_features"],
                 examples)
        _check_lists(["sparse_features", "dense_features"], examples)
        with tf.name_scope("sdca/unregularized_loss"):
            logits = tf.cast(self._linear_predictions(examples), tf.float64)
            labels = tf.cast(tf.convert_to_tensor(examples["example_labels"]), tf.float64)
            weights = tf.cast(tf.convert_to_tensor(examples["example_weights"]), tf.float64)
            total = tf.reduce_sum(weights)
            loss = self._options["loss_type"]
            if loss == "logistic_loss":
                per_example = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels,
                                                                      logits=logits)
            elif loss == "poisson_loss":
                per_example = tf.exp(logits) - labels * logits
            elif loss in ("hinge_loss", "smooth_hinge_loss"):
                # both measured as the hinge loss, labels 0/1 taken as -1/1
                per_example = tf.nn.relu(1.0 - (2.0 * labels - 1.0) * logits)
            else:
                return tf.reduce_sum(tf.square(labels - logits) * weights) / (2.0 * total)
            return tf.reduce_sum(per_example * weights) / total

    def regularized_loss(self, examples):
        """unregularized_loss plus the l1 and l2 terms (the l2 as given, not raised to 1)
        over the examples' weight."""
        _require(["example_labels", "example_weights", "sparse_features", "dense_features"],
                 examples)
        _check_lists(["sparse_features", "dense_features"], examples)
        with tf.name_scope("sdca/regularized_loss"):
            weights = tf.convert_to_tensor(examples["example_weights"])
            penalty = self._l1_loss() + self._l2_loss(
                self._options["symmetric_l2_regularization"])
            return (penalty / tf.reduce_sum(tf.cast(weights, tf.float64))
                    + self.unregularized_loss(examples))


class _PartGather:
    """The unshrinked weights at `ids` of a (maybe partitioned) weight, and the scatter of
    the kernel's deltas back into its parts."""

    def __init__(self, parts, ids):
        self._parts, self._ids = parts, ids
        if len(parts) == 1:
            self.gathered = tf.gather(parts[0], ids)
            return
        sizes = [p.shape[0] if p.shape[0] is not None else tf.shape(p, tf.int64)[0]
                 for p in parts]
        ends = tf.cumsum(tf.cast(tf.stack(sizes), tf.int64))
        self._which = tf.cast(tf.searchsorted(ends, ids, side="right"), tf.int32)
        starts = tf.concat([[0], ends[:-1]], 0)
        local = ids - tf.gather(starts, self._which)
        self._local = tf.dynamic_partition(local, self._which, len(parts))
        positions = tf.dynamic_partition(tf.range(tf.shape(ids)[0]), self._which, len(parts))
        self.gathered = tf.dynamic_stitch(positions, [tf.gather(p, i) for p, i in zip(
            parts, self._local)])

    def scatter_add(self, delta):
        if len(self._parts) == 1:
            return [v1.scatter_add(self._parts[0], self._ids, delta)]
        pieces = tf.dynamic_partition(delta, self._which, len(self._parts))
        return [v1.scatter_add(p, i, d) for p, i, d in zip(self._parts, self._local, pieces)]
