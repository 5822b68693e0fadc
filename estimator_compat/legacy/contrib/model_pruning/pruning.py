"""Magnitude pruning as TF 1.15's `model_pruning.python.pruning` did it.

`apply_mask(w)` gives `mask * w` with `mask` / `threshold` variables beside `w`, each put once
in the `masks` / `thresholds` / `masked_weights` / `kernel` collections. `Pruning(hparams)`
then builds, for every mask, the op that sets it: the weights whose magnitude is under the
k-th largest (k = size * (1 - sparsity), the threshold smoothed by `threshold_decay`) are
masked out, per element or per block (`block_height` x `block_width`, pooled by AVG or MAX).
The sparsity follows a polynomial schedule from `initial_sparsity` to `target_sparsity`
between the sparsity function's begin and end steps; `conditional_mask_update_op` updates the
masks every `pruning_frequency` steps between `begin_pruning_step` and `end_pruning_step`.
"""
import re

import tensorflow as tf
from tensorflow.python.ops.variables import PartitionedVariable

from estimator_compat.legacy.contrib.model_pruning import pruning_utils
from estimator_compat.legacy.contrib.opt.graph_cond import tf1_control_flow

v1 = tf.compat.v1

MASK_COLLECTION = "masks"
THRESHOLD_COLLECTION = "thresholds"
MASKED_WEIGHT_COLLECTION = "masked_weights"
WEIGHT_COLLECTION = "kernel"
MASKED_WEIGHT_NAME = "weights/masked_weight"


def add_to_pruning_collections(mask, threshold, masked_weights, weights):
    """The four collections, once per mask (a mask a cell reuses is not added again)."""
    if any(m is mask for m in v1.get_collection_ref(MASK_COLLECTION)):
        return
    v1.add_to_collection(THRESHOLD_COLLECTION, threshold)
    v1.add_to_collection(MASK_COLLECTION, mask)
    v1.add_to_collection(MASKED_WEIGHT_COLLECTION, masked_weights)
    v1.add_to_collection(WEIGHT_COLLECTION, weights)


def apply_mask(x, scope=""):
    """`mask * x` (named `weights/masked_weight`), its variables in variable scope `scope`."""
    mask = pruning_utils.weight_mask_variable(x, scope)
    threshold = pruning_utils.weight_threshold_variable(x, scope)
    masked_weights = tf.multiply(mask, x, MASKED_WEIGHT_NAME)
    add_to_pruning_collections(mask, threshold, masked_weights, x)
    return masked_weights


def get_masked_weights():
    return v1.get_collection(MASKED_WEIGHT_COLLECTION)


def get_masks():
    return v1.get_collection(MASK_COLLECTION)


def get_thresholds():
    return v1.get_collection(THRESHOLD_COLLECTION)


def get_weights():
    return v1.get_collection(WEIGHT_COLLECTION)


def get_weight_sparsity():
    """The fraction of zeros of each mask."""
    return [tf.math.zero_fraction(mask) for mask in get_masks()]


def get_pruning_hparams():
    """The pruning hyperparameters (an HParams) with TF 1.15's defaults."""
    from estimator_compat.learn import HParams
    return HParams(
        name="model_pruning", begin_pruning_step=0, end_pruning_step=-1,
        weight_sparsity_map=[""], block_dims_map=[""], threshold_decay=0.0,
        pruning_frequency=10, nbins=256, block_height=1, block_width=1,
        block_pooling_function="AVG", initial_sparsity=0.0, target_sparsity=0.5,
        sparsity_function_begin_step=0, sparsity_function_end_step=100,
        sparsity_function_exponent=3.0, use_tpu=False)


def _validate(spec):
    if spec.begin_pruning_step < 0:
        raise ValueError("Illegal value for begin_pruning_step")
    if spec.begin_pruning_step >= spec.end_pruning_step != -1:
        raise ValueError(
            "Pruning must begin before it can end. begin_step=%d, end_step=%d.Set "
            "end_pruning_step to -1 if pruning is required till trainingstops"
            % (spec.begin_pruning_step, spec.end_pruning_step))
    if spec.sparsity_function_begin_step < 0:
        raise ValueError("Illegal value for sparsity_function_begin_step")
    if spec.sparsity_function_begin_step >= spec.sparsity_function_end_step:
        raise ValueError("Sparsity function requires begin_step < end_step")
    for name in ("threshold_decay", "initial_sparsity", "target_sparsity"):
        if not 0.0 <= getattr(spec, name) < 1.0:
            raise ValueError(f"{name} must be in range [0,1)")


def _parse_map(values, what):
    """{compiled regex: value} of 'name:value' entries (empty entries skipped)."""
    parsed = {}
    for entry in (v for v in values if v):
        name, value = entry.split(":")
        parsed[re.compile(name)] = what(name, value)
    return parsed


def _block_dims(name, text):
    dims = text.split("x")
    if len(dims) != 2:
        raise ValueError("Expected 2 values for block dim for %s, got %s" % (name, dims))
    return [int(dims[0]), int(dims[1])]


def _sparsity_value(name, text):
    if float(text) >= 1.0:
        raise ValueError("Weight sparsity can not exceed 1.0")
    return float(text)


def _lookup(mapping, weight_name, what):
    found = [value for regex, value in mapping.items() if regex.search(weight_name)]
    if len(found) > 1:
        raise ValueError(f"Multiple matches in {what} for weight {weight_name}")
    return found[0] if found else None


class Pruning:
    """The mask-update ops of a pruning spec (`get_pruning_hparams()`); `sparsity` (a scalar
    tensor) replaces the spec's schedule; `global_step` defaults to the graph's."""

    def __init__(self, spec=None, global_step=None, sparsity=None):
        self._spec = spec if spec else get_pruning_hparams()
        _validate(self._spec)
        if global_step is None:
            global_step = v1.train.get_global_step()
        self._global_step = tf.cast(global_step, tf.int32)
        self._sparsity = sparsity if sparsity is not None else self._setup_sparsity()
        self._assign_ops = []
        self._last_update_step = self._setup_last_update_step()
        self._block_dims = [self._spec.block_height, self._spec.block_width]
        self._block_pooling_function = self._spec.block_pooling_function
        self._block_dims_map = _parse_map(self._spec.block_dims_map, _block_dims)
        self._weight_sparsity_map = _parse_map(self._spec.weight_sparsity_map, _sparsity_value)

    def _setup_sparsity(self):
        """target + (initial - target) * (1 - p)^exponent, p the clipped schedule progress."""
        spec = self._spec
        begin, end = spec.sparsity_function_begin_step, spec.sparsity_function_end_step
        with tf.name_scope(spec.name):
            progress = tf.minimum(1.0, tf.maximum(0.0, v1.div(
                tf.cast(self._global_step - begin, tf.float32), end - begin)))
            return tf.add(tf.multiply(spec.initial_sparsity - spec.target_sparsity,
                                      tf.pow(1 - progress, spec.sparsity_function_exponent)),
                          spec.target_sparsity, name="sparsity")

    def _setup_last_update_step(self):
        with v1.variable_scope(self._spec.name, use_resource=self._spec.use_tpu) as scope:
            try:
                return v1.get_variable("last_mask_update_step", [],
                                       initializer=v1.zeros_initializer(), trainable=False,
                                       dtype=tf.int32)
            except ValueError:
                scope.reuse_variables()
                return v1.get_variable("last_mask_update_step", dtype=tf.int32)

    def _get_block_dims(self, weight_name):
        found = _lookup(self._block_dims_map, weight_name, "block_dims_map")
        return list(found if found is not None else self._block_dims)

    def _get_sparsity(self, weight_name):
        found = _lookup(self._weight_sparsity_map, weight_name, "weight_sparsity_map")
        if found is None:
            return self._sparsity
        # as TF 1.15: the schedule scaled to this weight's target (exact for initial 0)
        return tf.multiply(self._sparsity, v1.div(found, self._spec.target_sparsity))

    def _update_mask(self, weights, threshold):
        """(new threshold, new mask): the magnitude under which the sparsity's fraction of
        `weights` falls, smoothed with `threshold`, and the 0/1 mask it keeps."""
        if self._sparsity is None:
            raise ValueError("Sparsity variable undefined")
        sparsity = self._get_sparsity(weights.op.name)
        with tf.name_scope(weights.op.name + "_pruning_ops"):
            abs_weights = tf.abs(weights)
            size = tf.size(abs_weights)
            k = tf.cast(tf.round(tf.cast(size, tf.float32) * (1 - sparsity)), tf.int32)
            values, _ = tf.nn.top_k(tf.reshape(abs_weights, [-1]), k=size)
            current = tf.gather(values, k - 1)
            decay = self._spec.threshold_decay
            smoothed = tf.add_n([tf.multiply(current, 1 - decay), tf.multiply(threshold, decay)])
            new_mask = tf.cast(tf.greater_equal(abs_weights, smoothed), tf.float32)
        return smoothed, new_mask

    def _maybe_update_block_mask(self, weights, threshold):
        """As `_update_mask`, per block of a (squeezed) 2-D weight when the block is not 1x1."""
        block_dims = self._get_block_dims(weights.op.name)
        squeezed = tf.squeeze(weights)
        if squeezed.get_shape().ndims != 2 or block_dims == [1, 1]:
            return self._update_mask(weights, threshold)
        for i in range(2):
            if block_dims[i] == -1:
                block_dims[i] = squeezed.get_shape()[i]
        if self._block_pooling_function not in ("AVG", "MAX"):
            raise ValueError("Unknown pooling function for block sparsity: %s"
                             % self._block_pooling_function)
        with tf.name_scope(weights.op.name + "_pruning_ops"):
            abs_weights = tf.abs(squeezed)
            height, width = abs_weights.get_shape()
            pool_args = dict(window_shape=block_dims, pooling_type=self._block_pooling_function,
                             strides=block_dims, padding="SAME", name=weights.op.name + "_pooled")
            if self._spec.use_tpu:
                pooled = pruning_utils.factorized_pool(abs_weights, **pool_args)
            else:
                pooled = v1.nn.pool(tf.reshape(abs_weights, [1, height, width, 1]), **pool_args)
            if pooled.get_shape().ndims != 2:
                pooled = tf.squeeze(pooled, axis=[0, 3])
            smoothed, new_mask = self._update_mask(pooled, threshold)
            expanded = pruning_utils.expand_tensor(new_mask, block_dims)
            sliced = tf.slice(expanded, [0, 0], [height, width])
        return smoothed, tf.reshape(sliced, tf.shape(weights))

    def _get_mask_assign_ops(self):
        if self._assign_ops:
            raise ValueError("Assign op list not empty. _get_mask_assign_ops() called twice?")
        masks, weights, thresholds = get_masks(), get_weights(), get_thresholds()
        if len(masks) != len(thresholds):
            raise ValueError("Number of masks %s and number of thresholds %s mismatch"
                             % (len(masks), len(thresholds)))
        for mask, threshold, weight in zip(masks, thresholds, weights):
            partitioned = isinstance(weight, PartitionedVariable)
            if partitioned:
                weight = weight.as_tensor()
            new_threshold, new_mask = self._maybe_update_block_mask(weight, threshold)
            self._assign_ops.append(pruning_utils.variable_assign(threshold, new_threshold))
            self._assign_ops.append(
                pruning_utils.partitioned_variable_assign(mask, new_mask) if partitioned
                else pruning_utils.variable_assign(mask, new_mask))

    def mask_update_op(self):
        """The op that sets every mask and threshold and `last_mask_update_step`."""
        with tf.name_scope(self._spec.name):
            if not self._assign_ops:
                self._get_mask_assign_ops()
            with tf.control_dependencies([v1.assign(self._last_update_step, self._global_step,
                                                    name="last_mask_update_step_assign")]):
                with tf.control_dependencies(self._assign_ops):
                    tf.get_logger().info("Updating masks.")
                    return tf.no_op("mask_update")

    def conditional_mask_update_op(self):
        """`mask_update_op` on the steps in [begin, end] (end -1: no end) at least
        `pruning_frequency` steps after the last update; a no-op on the others."""
        spec = self._spec

        def due():
            with tf.name_scope(spec.name):
                in_range = tf.logical_and(
                    tf.greater_equal(self._global_step, spec.begin_pruning_step),
                    tf.logical_or(tf.less_equal(self._global_step, spec.end_pruning_step),
                                  tf.less(spec.end_pruning_step, 0)))
                frequent = tf.less_equal(
                    tf.add(self._last_update_step, spec.pruning_frequency), self._global_step)
                return tf.logical_and(in_range, frequent)

        with tf1_control_flow():  # TF1's cond in a session graph: its branch assigns masks
            return v1.cond(due(), self.mask_update_op, tf.no_op)

    def add_pruning_summaries(self):
        """Scalar summaries: the sparsity, the last update step, each mask's sparsity and each
        threshold (under `<name>_summaries/`)."""
        with tf.name_scope(self._spec.name + "_summaries"):
            v1.summary.scalar("sparsity", self._sparsity)
            v1.summary.scalar("last_mask_update_step", self._last_update_step)
            for mask, threshold in zip(get_masks(), get_thresholds()):
                v1.summary.scalar(mask.op.name + "/sparsity", tf.math.zero_fraction(mask))
                v1.summary.scalar(threshold.op.name + "/threshold", threshold)

    def print_hparams(self):
        tf.get_logger().info(self._spec.to_json())
