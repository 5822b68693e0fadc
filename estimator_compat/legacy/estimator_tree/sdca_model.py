"""tensorflow_estimator 2.15's SDCA solver object, `canned.linear_optimizer.python.utils.
sdca_ops._SDCAModel` (TF 1.x's tf.contrib.linear_optimizer.SdcaModel), and
`canned.linear._SDCAUpdateWeightsHook`, for code that drove the solver itself (copies of the
SDCA estimator, custom model_fns) in a TF1 graph.

`_SDCAModel(examples, variables, options)`: `examples` has `sparse_features` (a list of
_SparseFeatureColumn), `dense_features` (a list of [batch, d] tensors), `example_labels`,
`example_weights` and `example_ids` (strings); `variables` the weights of each
(`sparse_features_weights`, `dense_features_weights`: variables, or lists / partitioned
variables of parts); `options` `loss_type` (logistic, squared, hinge, smooth hinge, poisson),
`symmetric_l1_regularization`, `symmetric_l2_regularization` (> 0), and optionally
`num_loss_partitions`, `num_table_shards`, `adaptive`. `minimize()` runs TensorFlow's SDCA
kernel (`SdcaOptimizerV2`) on `<var>_unshrunk` copies of the weights and on each example's
dual state in a sharded hash table (`ShardedMutableHashTable-<i>-of-<n>`); `update_weights`
copies them back, shrunk by l1 / l2 where there is an l1 term. estimator_compat's LinearSDCA
runs the same step inside its compiled train step (canned/sdca_step.py).
"""
import collections

import tensorflow as tf

from estimator_compat.legacy.estimator_tree.sdca_tables import _ShardedMutableDenseHashTable

v1 = tf.compat.v1
LOSSES = ("logistic_loss", "squared_loss", "hinge_loss", "smooth_hinge_loss", "poisson_loss")
WEIGHTS = ("sparse_features_weights", "dense_features_weights")


def _parts(var):
    """A variable's parts: itself, or the parts of a list / PartitionedVariable."""
    if isinstance(var, list) or hasattr(var, "_get_variable_list"):
        return list(var)
    return [var]


def _whole(var):
    """The full tensor of a variable or of its parts (concatenated along the first axis)."""
    parts = _parts(var)
    return tf.concat(parts, axis=0) if len(parts) > 1 or isinstance(var, list) \
        else tf.convert_to_tensor(parts[0])


def _check_given(names, given):
    for name in names:
        if given[name] is None:  # 2.15 failed here with a TypeError too (None + str)
            raise TypeError(f"{name} must be specified.")


def _check_lists(names, given):
    for name in names:
        if not isinstance(given[name], list):
            raise ValueError(name + " must be a list.")


def _unshrunk_copy(var):
    """A zero float32 variable `<var>_unshrunk` of `var`'s shape, beside it."""
    initial = tf.cond(v1.is_variable_initialized(var), var.read_value,
                      lambda: var.initial_value)
    with tf.device(var.device):
        return tf.Variable(tf.zeros_like(initial, tf.float32),
                           name=var.op.name + "_unshrunk")


class _SDCAModel:
    """Stochastic dual coordinate ascent for a linear model (see the module docstring)."""

    def __init__(self, examples, variables, options):
        if not examples or not variables or not options:
            raise ValueError("examples, variables and options must all be specified.")
        if options["loss_type"] not in LOSSES:
            raise ValueError("Unsupported loss_type: ", options["loss_type"])
        _check_given(["example_labels", "example_weights", "example_ids", "sparse_features",
                      "dense_features"], examples)
        _check_lists(["sparse_features", "dense_features"], examples)
        _check_given(WEIGHTS, variables)
        _check_lists(WEIGHTS, variables)
        _check_given(["loss_type", "symmetric_l2_regularization",
                      "symmetric_l1_regularization"], options)
        if options["symmetric_l2_regularization"] <= 0.0:
            raise ValueError("symmetric_l2_regularization should be positive.")
        if options["symmetric_l2_regularization"] <= 1.0:
            v1.logging.warn("symmetric_l2_regularization for SDCA should typically be larger "
                            "than for online optimization methods. Recommended value is of "
                            "the order of the average L2 norm of the training examples.")
        if options["symmetric_l1_regularization"] < 0.0:
            raise ValueError("symmetric_l1_regularization should be non-negative.")
        self._examples, self._variables, self._options = examples, variables, options
        self._slots = collections.defaultdict(list)
        for name in WEIGHTS:
            for var in variables[name]:
                copies = [_unshrunk_copy(part) for part in _parts(var)]
                self._slots["unshrunk_" + name].append(
                    copies if len(_parts(var)) > 1 or isinstance(var, list) else copies[0])
        self._hashtable = _ShardedMutableDenseHashTable(
            key_dtype=tf.int64, value_dtype=tf.float32, num_shards=self._num_table_shards(),
            default_value=[0.0, 0.0, 0.0, 0.0], empty_key=[0, 0], deleted_key=[1, 1])
        v1.summary.scalar("approximate_duality_gap", self.approximate_duality_gap())
        v1.summary.scalar("examples_seen", self._hashtable.size())

    # --- options ------------------------------------------------------------------------
    def _symmetric_l1_regularization(self):
        return self._options["symmetric_l1_regularization"]

    def _symmetric_l2_regularization(self):
        return self._options["symmetric_l2_regularization"]

    def _num_loss_partitions(self):
        return self._options.get("num_loss_partitions", 1)

    def _adaptive(self):
        return self._options.get("adaptive", True)

    def _num_table_shards(self):
        shards = self._options.get("num_table_shards")
        return 1 if shards is None else shards

    # --- losses and predictions ---------------------------------------------------------
    def _all_weights(self):
        return [part for name in WEIGHTS for var in self._variables[name]
                for part in _parts(var)]

    def _l1_loss(self):
        with tf.name_scope("sdca/l1_loss"):
            return self._symmetric_l1_regularization() * tf.math.add_n(
                [tf.reduce_sum(tf.abs(tf.cast(tf.convert_to_tensor(w), tf.float64)))
                 for w in self._all_weights()])

    def _l2_loss(self):
        with tf.name_scope("sdca/l2_loss"):
            return self._symmetric_l2_regularization() * tf.math.add_n(
                [tf.reduce_sum(tf.square(tf.cast(tf.convert_to_tensor(w), tf.float64)))
                 for w in self._all_weights()]) / 2.0

    def _linear_predictions(self, examples):
        with tf.name_scope("sdca/prediction"):
            batch_size = tf.shape(examples["example_ids"])[0]
            predictions = tf.zeros([batch_size])
            for column, var in zip(examples["sparse_features"],
                                   self._variables["sparse_features_weights"]):
                products = tf.gather(_whole(var), column.feature_indices)
                if column.feature_values is not None:
                    products = products * column.feature_values
                summed = tf.math.segment_sum(products, column.example_indices)
                predictions += tf.pad(summed, [[0, batch_size - tf.shape(summed)[0]]])
            for x, var in zip(examples["dense_features"],
                              self._variables["dense_features_weights"]):
                predictions += tf.squeeze(tf.matmul(_whole(x) if isinstance(x, list) else x,
                                                    tf.expand_dims(_whole(var), -1)))
        return predictions

    def predictions(self, examples):
        """The model's predictions for `examples`: a probability (logistic loss), a rate
        (poisson loss), else the linear score."""
        _check_given(["example_weights", "sparse_features", "dense_features"], examples)
        _check_lists(["sparse_features", "dense_features"], examples)
        result = self._linear_predictions(examples)
        if self._options["loss_type"] == "logistic_loss":
            with tf.name_scope("sdca/logistic_prediction"):
                result = tf.sigmoid(result)
        elif self._options["loss_type"] == "poisson_loss":
            with tf.name_scope("sdca/poisson_prediction"):
                result = tf.exp(result)
        return result

    def unregularized_loss(self, examples):
        """The weighted mean loss of `examples` (float64)."""
        _check_given(["example_labels", "example_weights", "sparse_features",
                      "dense_features"], examples)
        _check_lists(["sparse_features", "dense_features"], examples)
        with tf.name_scope("sdca/unregularized_loss"):
            scores = tf.cast(self._linear_predictions(examples), tf.float64)
            labels = tf.cast(tf.convert_to_tensor(examples["example_labels"]), tf.float64)
            weights = tf.cast(tf.convert_to_tensor(examples["example_weights"]), tf.float64)
            loss_type = self._options["loss_type"]
            if loss_type == "logistic_loss":
                losses = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=scores)
            elif loss_type == "poisson_loss":
                losses = tf.nn.log_poisson_loss(targets=labels, log_input=scores)
            elif loss_type in ("hinge_loss", "smooth_hinge_loss"):
                losses = tf.nn.relu(1.0 - (2 * labels - 1.0) * scores)
            else:
                return tf.reduce_sum(tf.square(labels - scores) * weights) / (
                    2.0 * tf.reduce_sum(weights))
            return tf.reduce_sum(losses * weights) / tf.reduce_sum(weights)

    def regularized_loss(self, examples):
        """unregularized_loss plus (l1 + l2 terms) / the examples' total weight."""
        _check_given(["example_labels", "example_weights", "sparse_features",
                      "dense_features"], examples)
        _check_lists(["sparse_features", "dense_features"], examples)
        with tf.name_scope("sdca/regularized_loss"):
            weights = tf.convert_to_tensor(examples["example_weights"])
            return (self._l1_loss() + self._l2_loss()) / tf.reduce_sum(
                tf.cast(weights, tf.float64)) + self.unregularized_loss(examples)

    def approximate_duality_gap(self):
        """(primal loss + dual loss + l1 + 2 l2) / example weight, over the examples seen."""
        with tf.name_scope("sdca/approximate_duality_gap"):
            _, shard_values = self._hashtable.export_sharded()
            sums = tf.math.add_n([tf.reduce_sum(tf.cast(values, tf.float64), 0)
                                  for values in shard_values])
            return (sums[1] + sums[2] + self._l1_loss() + 2.0 * self._l2_loss()) / sums[3]

    # --- training -----------------------------------------------------------------------
    @staticmethod
    def _row_split(parts, ids):
        """(part of each id, its row within that part) for ids into concatenated `parts`."""
        sizes = [tf.shape(p, out_type=tf.int64)[0] for p in parts]
        ends = tf.cumsum(tf.stack(sizes))
        part = tf.cast(tf.searchsorted(ends, ids, side="right"), tf.int32)
        starts = tf.concat([[0], ends[:-1]], axis=0)
        return part, ids - tf.gather(starts, part)

    def minimize(self, global_step=None, name=None):
        """One SDCA pass over the examples: the kernel's new example states and weight
        deltas applied to the table and the unshrunk weights (then `global_step` + 1)."""
        with v1.name_scope(name, "sdca/minimize"):
            columns = self._examples["sparse_features"]
            keys = tf.raw_ops.SdcaFprint(input=tf.convert_to_tensor(
                self._examples["example_ids"]))
            states = self._hashtable.lookup(keys)
            touched, gathered = [], []
            for slot, column in zip(self._slots["unshrunk_sparse_features_weights"], columns):
                ids = tf.cast(tf.unique(tf.cast(column.feature_indices, tf.int32))[0],
                              tf.int64)
                touched.append(ids)
                gathered.append(tf.gather(_whole(slot), ids))
            dense = self._slots["unshrunk_dense_features_weights"]
            new_states, sparse_deltas, dense_deltas = tf.raw_ops.SdcaOptimizerV2(
                sparse_example_indices=[c.example_indices for c in columns],
                sparse_feature_indices=[c.feature_indices for c in columns],
                sparse_feature_values=[c.feature_values for c in columns
                                       if c.feature_values is not None],
                dense_features=[_whole(x) if isinstance(x, list) else tf.convert_to_tensor(x)
                                for x in self._examples["dense_features"]],
                example_weights=tf.convert_to_tensor(self._examples["example_weights"]),
                example_labels=tf.convert_to_tensor(self._examples["example_labels"]),
                sparse_indices=touched, sparse_weights=gathered,
                dense_weights=[_whole(w) for w in dense], example_state_data=states,
                loss_type=self._options["loss_type"], l1=self._symmetric_l1_regularization(),
                l2=self._symmetric_l2_regularization(),
                num_loss_partitions=self._num_loss_partitions(), num_inner_iterations=1,
                adaptive=self._adaptive())
            with tf.control_dependencies([new_states]):
                updates = [self._hashtable.insert(keys, new_states)]
                for slot, ids, delta in zip(self._slots["unshrunk_sparse_features_weights"],
                                            touched, sparse_deltas):
                    updates += self._scatter_add(slot, ids, delta)
                for slot, delta in zip(dense, dense_deltas):
                    parts = _parts(slot)
                    if len(parts) == 1 and not isinstance(slot, list):
                        updates.append(v1.assign_add(slot, delta))
                        continue
                    sizes = [p.shape.as_list()[0] for p in parts]
                    updates += [v1.assign_add(p, d)
                                for p, d in zip(parts, tf.split(delta, sizes))]
            if global_step is None:
                return tf.group(*updates)
            with tf.control_dependencies(updates):
                return v1.assign_add(global_step, 1, name=name).op

    def _scatter_add(self, slot, ids, delta):
        parts = _parts(slot)
        if len(parts) == 1 and not isinstance(slot, list):
            return [v1.scatter_add(slot, ids, delta)]
        part, rows = self._row_split(parts, ids)
        n = len(parts)
        return [v1.scatter_add(p, r, d) for p, r, d in zip(
            parts, tf.dynamic_partition(rows, part, n), tf.dynamic_partition(delta, part, n))]

    def update_weights(self, train_op):
        """After `train_op`, the weights set from their unshrunk copies (shrunk by
        l1 / l2 towards zero when l1 > 0)."""
        with tf.control_dependencies([train_op]):
            updates = [var.assign(copy) for name in WEIGHTS
                       for whole, slot in zip(self._variables[name], self._slots["unshrunk_" +
                                                                                 name])
                       for var, copy in zip(_parts(whole), _parts(slot))]
        l1 = self._symmetric_l1_regularization()
        if l1 <= 0:
            return tf.group(*updates)
        shrinkage = l1 / self._symmetric_l2_regularization()
        with tf.control_dependencies(updates):
            return tf.group(*[var.assign(tf.sign(var) * tf.maximum(0.0, tf.abs(var) -
                                                                   shrinkage))
                              for var in self._all_weights()])


class _SDCAUpdateWeightsHook(v1.train.SessionRunHook):
    """Runs `sdca_model.update_weights(train_op)` with every step (made in `begin`)."""

    def __init__(self, sdca_model, train_op):
        self._sdca_model, self._train_op = sdca_model, train_op

    def begin(self):
        self._update_op = self._sdca_model.update_weights(self._train_op)

    def before_run(self, run_context):
        return v1.train.SessionRunArgs(self._update_op)
