"""Optimizers that wrap another: `MovingAverageOptimizer` (an exponential moving average of the
trained variables, `<var>/ExponentialMovingAverage`, and a saver that swaps them in),
`DropStaleGradientOptimizer` (skips gradients computed `staleness` steps ago, counting them in
`stale_counter`), `MultitaskOptimizerWrapper` (an all-zero gradient leaves the variable and its
slots alone), `VariableClippingOptimizer` (clips variables' norms after each update), and
`clip_gradients_by_global_norm`."""
import contextlib

import tensorflow as tf

from estimator_compat.legacy.contrib.opt.graph_cond import tf1_control_flow

_v1 = tf.compat.v1
_train = _v1.train


class MovingAverageOptimizer(_train.Optimizer):
    """`opt`, plus an ExponentialMovingAverage of the variables it updates."""

    def __init__(self, opt, average_decay=0.9999, num_updates=None, sequential_update=True):
        super().__init__(use_locking=False, name="MovingAverageOptimizer")
        self._optimizer = opt
        self._ema = _train.ExponentialMovingAverage(average_decay, num_updates=num_updates)
        self._swapped_variable_name_map = None
        self._sequential_update = sequential_update

    def compute_gradients(self, *args, **kwargs):
        return self._optimizer.compute_gradients(*args, **kwargs)

    def get_slot(self, *args, **kwargs):
        return self._optimizer.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._optimizer.get_slot_names(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        grads_and_vars = list(grads_and_vars)
        train_op = self._optimizer.apply_gradients(grads_and_vars, global_step=global_step,
                                                   name=name)
        var_list = [v for g, v in grads_and_vars if g is not None]
        self._swapped_variable_name_map = {}
        with tf1_control_flow(), tf.control_dependencies(
                [train_op] if self._sequential_update else []):
            ma_op = self._ema.apply(var_list)
        for v in var_list:
            average = self._ema.average(v)
            self._swapped_variable_name_map[v.op.name] = average.op.name
            self._swapped_variable_name_map[average.op.name] = v.op.name
        return tf.group(train_op, ma_op, name="train_with_avg")

    def _find_swapped_variable(self, v_name_to_tensor, v_name, tensor):
        swapped = self._swapped_variable_name_map.get(v_name)
        if swapped is None:
            return tensor
        found = v_name_to_tensor.get(swapped)
        if found is None:
            raise ValueError(f"{swapped} (the moving average swapped with {v_name}) is not in "
                             "the saver's var_list")
        return found

    def swapping_saver(self, var_list=None, name="swapping_saver", **kwargs):
        """A Saver writing each averaged variable's average under the variable's name (and the
        variable under the average's), so a restore loads the averages into the model."""
        if self._swapped_variable_name_map is None:
            raise RuntimeError("Must call apply_gradients or minimize before calling "
                               "swapping_saver()")
        if var_list is None:
            var_list = _v1.global_variables()
        if not isinstance(var_list, dict):
            var_list = {v.op.name: v for v in var_list}
        swapped = {name_: self._find_swapped_variable(var_list, name_, tensor)
                   for name_, tensor in var_list.items()}
        return _train.Saver(swapped, name=name, **kwargs)


class DropStaleGradientOptimizer(_train.Optimizer):
    """`opt`, skipping gradients computed when the global step was more than `staleness`
    steps behind the step they are applied at (the count of those is `stale_counter`)."""

    def __init__(self, opt, staleness, use_locking=False, name="DropStaleGradient"):
        super().__init__(use_locking, name)
        self._opt = opt
        self._staleness = staleness
        self._local_step = None

    def compute_gradients(self, loss, *args, **kwargs):
        global_step = _train.get_global_step()
        if global_step is None:
            raise ValueError("DropStaleGradientOptimizer needs a global step "
                             "(tf.train.get_or_create_global_step())")
        self._local_step = tf.identity(global_step)
        with tf.control_dependencies([self._local_step]):
            loss = tf.identity(loss)
            return self._opt.compute_gradients(loss, *args, **kwargs)

    def get_slot(self, *args, **kwargs):
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._opt.get_slot_names(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        if global_step is None:
            raise ValueError("DropStaleGradientOptimizer.apply_gradients needs global_step")
        if self._local_step is None:
            raise ValueError("DropStaleGradientOptimizer: call compute_gradients (or minimize) "
                             "before apply_gradients")
        grads_and_vars = list(grads_and_vars)
        with _v1.colocate_with(global_step):
            stale_counter = _v1.get_variable("stale_counter", [], initializer=tf.zeros_initializer(),
                                             trainable=False)
        gradients = [g if isinstance(g, tf.Tensor) else g.op
                     for g, _ in grads_and_vars if g is not None]

        def accept():
            with tf.control_dependencies([self._opt.apply_gradients(
                    grads_and_vars, global_step=global_step, name=name)]):
                return tf.identity(tf.constant(0.0))

        def drop():
            return tf.constant(1.0)
        with tf.control_dependencies(gradients), _v1.colocate_with(global_step):
            staleness = tf.reshape(global_step - self._local_step, [])
        with tf1_control_flow():
            dropped = _v1.cond(staleness <= self._staleness, accept, drop)
        _v1.summary.scalar("Gradient_staleness_percentage",
                           stale_counter / tf.cast(global_step + 1, tf.float32))
        return _v1.assign_add(stale_counter, dropped)


def _all_zeros(grad):
    values = grad.values if isinstance(grad, tf.IndexedSlices) else grad
    return tf.equal(tf.math.count_nonzero(values), 0)


def _skip_if_zeros(apply_fn):
    def wrapped(grad, *args):
        with tf1_control_flow():
            return _v1.cond(_all_zeros(grad), tf.no_op, lambda: tf.group(apply_fn(grad, *args)))
    return wrapped


class MultitaskOptimizerWrapper:
    """`opt` whose update of a variable is skipped when its gradient is all zeros, so a task
    that does not touch a variable leaves its slots (momentum, Adam moments) alone."""

    def __init__(self, opt):
        if not isinstance(opt, _train.Optimizer):
            raise TypeError(f"MultitaskOptimizerWrapper wraps a tf.compat.v1.train.Optimizer, "
                            f"got {opt!r}")
        self._opt = opt
        for method in ("_apply_dense", "_resource_apply_dense", "_apply_sparse",
                       "_resource_apply_sparse"):
            setattr(opt, method, _skip_if_zeros(getattr(opt, method)))

    def __getattr__(self, name):
        return getattr(self._opt, name)


def clip_gradients_by_global_norm(gradients_variables, clip_norm=20.0):
    """(the (gradient, variable) pairs with gradients clipped to `clip_norm` global norm,
    the global norm before clipping)."""
    gradients, variables = zip(*gradients_variables)
    clipped, norm = tf.clip_by_global_norm(list(gradients), clip_norm)
    return list(zip(clipped, variables)), norm


class VariableClippingOptimizer(_train.Optimizer):
    """`opt`, then each variable of `vars_to_clip_dims` ({variable: [dims]}) clipped to
    `max_norm` along those dims (only the updated rows for a sparse gradient)."""

    def __init__(self, opt, vars_to_clip_dims, max_norm, use_locking=False,
                 colocate_clip_ops_with_vars=False, name="VariableClipping"):
        super().__init__(use_locking, name)
        self._opt = opt
        self._vars_to_clip_dims = {id(v): (v, dims) for v, dims in vars_to_clip_dims.items()}
        self._max_norm = max_norm
        self._colocate_clip_ops_with_vars = colocate_clip_ops_with_vars

    def compute_gradients(self, *args, **kwargs):
        return self._opt.compute_gradients(*args, **kwargs)

    def get_slot(self, *args, **kwargs):
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._opt.get_slot_names(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        grads_and_vars = list(grads_and_vars)
        with tf.name_scope(name or self._name):
            update_op = self._opt.apply_gradients(grads_and_vars, global_step=global_step)
            clip_ops = []
            with tf.control_dependencies([update_op]):
                for grad, var in grads_and_vars:
                    if grad is None or id(var) not in self._vars_to_clip_dims:
                        continue
                    with tf.name_scope("clip_" + var.op.name):
                        if isinstance(grad, tf.Tensor):
                            clip_ops.append(self._clip_dense(var))
                        else:
                            clip_ops.append(self._clip_sparse(grad, var))
            return tf.group(update_op, *clip_ops)

    def _clip_dense(self, var):
        dims = self._vars_to_clip_dims[id(var)][1]
        with self._maybe_colocate_with(var):
            normalized = tf.clip_by_norm(var, self._max_norm, axes=dims)
            delta = var - normalized
        with _v1.colocate_with(var):
            return _v1.assign_sub(var, delta, use_locking=self._use_locking)

    def _clip_sparse(self, grad, var):
        dims = self._vars_to_clip_dims[id(var)][1]
        if 0 in dims:
            raise ValueError("VariableClippingOptimizer cannot clip a sparsely updated variable "
                             "along dimension 0 (its rows)")
        with self._maybe_colocate_with(var):
            indices, _ = tf.unique(grad.indices)
            rows = tf.gather(var, indices)
            normalized = tf.clip_by_norm(rows, self._max_norm, axes=dims)
            delta = tf.IndexedSlices(rows - normalized, indices)
        with _v1.colocate_with(var):
            return _v1.scatter_sub(var, delta.indices, delta.values,
                                   use_locking=self._use_locking)

    def _maybe_colocate_with(self, var):
        if self._colocate_clip_ops_with_vars:
            return _v1.colocate_with(var)
        return contextlib.nullcontext()
