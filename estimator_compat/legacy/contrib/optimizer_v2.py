"""`tf.contrib.optimizer_v2`, served whole: TF 1.15's OptimizerV2 (optimizer_v2_base.py) and
its six optimizers, whose hyperparameters may be tensors, Python numbers or callables.

Each update is TensorFlow's own training kernel (`ApplyAdam`, `ResourceSparseApplyMomentum`,
...) with the arguments TF 1.15 gave it: slots named as TF 1.15 named them (Adam: `m`, `v` and
the non-slot `beta1_power` / `beta2_power`; Momentum: `momentum`; Adagrad: `accumulator`;
Adadelta: `accum`, `accum_update`; RMSProp: `rms` (started at epsilon), `momentum`, and `mg`
when centered). As in TF 1.15, RMSProp passes its epsilon to the kernel as 0: it is only the
`rms` slot's starting value.
"""
import tensorflow as tf
from tensorflow.python.framework import indexed_slices
from tensorflow.python.ops import gen_training_ops, resource_variable_ops

from estimator_compat.legacy.contrib.optimizer_v2_base import OptimizerV2, _is_resource


def _kernel(optimizer, name, var, slots, before, grad, after=(), indices=None, **attrs):
    """TensorFlow's `[resource_][sparse_]<name>` kernel on `var` and its `slots`: arguments
    (var, *slots, *before, grad, [indices], *after)."""
    resource = _is_resource(var)
    prefix = ("resource_" if resource else "") + ("sparse_" if indices is not None else "")
    states = [v.handle if resource else v for v in [var] + list(slots)]
    args = states + list(before) + [grad] + ([indices] if indices is not None else [])
    out = getattr(gen_training_ops, prefix + name)(*(args + list(after)),
                                                   use_locking=optimizer._use_locking, **attrs)
    return out if resource else out.op


class GradientDescentOptimizer(OptimizerV2):
    """var -= learning_rate * gradient."""

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)

    def _apply_dense(self, grad, var, state):
        lr = state.get_hyper("learning_rate", var.dtype.base_dtype)
        return _kernel(self, "apply_gradient_descent", var, [], [lr], grad)

    _resource_apply_dense = _apply_dense

    def _resource_apply_sparse_duplicate_indices(self, grad, handle, indices, state):
        lr = state.get_hyper("learning_rate", grad.dtype.base_dtype)
        return resource_variable_ops.resource_scatter_add(handle.handle, indices, -grad * lr)

    def _apply_sparse_duplicate_indices(self, grad, var, state):
        lr = state.get_hyper("learning_rate", var.dtype.base_dtype)
        return var.scatter_sub(indexed_slices.IndexedSlices(
            grad.values * lr, grad.indices, grad.dense_shape), use_locking=self._use_locking)


class _OneKernel(OptimizerV2):
    """An optimizer whose one training kernel takes dense and sparse (indexed) gradients, on
    reference and resource variables alike (`_apply_dense(grad, var, state, indices)`)."""

    def _resource_apply_dense(self, grad, var, state):
        return self._apply_dense(grad, var, state)

    def _apply_sparse(self, grad, var, state):
        return self._apply_dense(grad.values, var, state, indices=grad.indices)

    def _resource_apply_sparse(self, grad, var, indices, state):
        return self._apply_dense(grad, var, state, indices=indices)


class MomentumOptimizer(_OneKernel):
    """accum = momentum * accum + gradient; var -= learning_rate * accum (or Nesterov's)."""

    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum",
                 use_nesterov=False):
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("momentum", momentum)
        self._use_nesterov = use_nesterov

    def _create_vars(self, var_list, state):
        for v in var_list:
            state.zeros_slot(v, "momentum")

    def _apply_dense(self, grad, var, state, indices=None):
        dtype = var.dtype.base_dtype
        return _kernel(self, "apply_momentum", var, [state.get_slot(var, "momentum")],
                       [state.get_hyper("learning_rate", dtype)], grad,
                       [state.get_hyper("momentum", dtype)], indices=indices,
                       use_nesterov=self._use_nesterov)


class AdagradOptimizer(_OneKernel):
    """accum += gradient ** 2; var -= learning_rate * gradient / sqrt(accum)."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False,
                 name="Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: %s"
                             % initial_accumulator_value)
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._initial_accumulator_value = initial_accumulator_value

    def _create_vars(self, var_list, state):
        for v in var_list:
            dtype = v.dtype.base_dtype
            if v.get_shape().is_fully_defined():
                init = tf.compat.v1.constant_initializer(self._initial_accumulator_value,
                                                         dtype=dtype)
            else:
                def init(v=v, dtype=dtype):
                    return tf.cast(tf.fill(tf.shape(v), self._initial_accumulator_value), dtype)
            state.create_slot_with_initializer(v, init, v.get_shape(), dtype, "accumulator")

    def _apply_dense(self, grad, var, state, indices=None):
        return _kernel(self, "apply_adagrad", var, [state.get_slot(var, "accumulator")],
                       [state.get_hyper("learning_rate", var.dtype.base_dtype)], grad,
                       indices=indices)


class AdadeltaOptimizer(_OneKernel):
    """Adadelta (Zeiler 2012): running averages of squared gradients and of squared updates."""

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-8, use_locking=False,
                 name="Adadelta"):
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("rho", rho)
        self._set_hyper("epsilon", epsilon)

    def _create_vars(self, var_list, state):
        for v in var_list:
            state.zeros_slot(v, "accum")
            state.zeros_slot(v, "accum_update")

    def _apply_dense(self, grad, var, state, indices=None):
        dtype = var.dtype.base_dtype
        return _kernel(self, "apply_adadelta", var,
                       [state.get_slot(var, "accum"), state.get_slot(var, "accum_update")],
                       [state.get_hyper(h, dtype) for h in ("learning_rate", "rho", "epsilon")],
                       grad, indices=indices)


class RMSPropOptimizer(_OneKernel):
    """RMSProp: a decaying mean of squared gradients (and of gradients, when centered) scales
    each step; momentum on top."""

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, name="RMSProp"):
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("decay", decay)
        self._set_hyper("momentum", momentum)
        self._set_hyper("epsilon", epsilon)
        self._centered = centered

    def _create_vars(self, var_list, state):
        for v in var_list:
            init_rms = state.get_hyper("epsilon", v.dtype.base_dtype) * tf.ones_like(v)
            state.create_slot_with_initializer(v, init_rms, v.get_shape(), v.dtype.base_dtype,
                                               "rms")
            if self._centered:
                state.zeros_slot(v, "mg")
            state.zeros_slot(v, "momentum")

    def _apply_dense(self, grad, var, state, indices=None):
        dtype = var.dtype.base_dtype
        slots = [state.get_slot(var, "rms"), state.get_slot(var, "momentum")]
        name = "apply_rms_prop"
        if self._centered:
            slots.insert(0, state.get_slot(var, "mg"))
            name = "apply_centered_rms_prop"
        hypers = [state.get_hyper(h, dtype) for h in ("learning_rate", "decay", "momentum")]
        return _kernel(self, name, var, slots, hypers + [0], grad, indices=indices)


class AdamOptimizer(OptimizerV2):
    """Adam (Kingma & Ba 2014), with epsilon hat: lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t);
    the sparse update decays the whole of m and v, as the dense one does."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name="Adam"):
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("beta1", beta1)
        self._set_hyper("beta2", beta2)
        self._set_hyper("epsilon", epsilon)

    def _get_beta_accumulators(self, state=None):
        state = state or self._get_per_graph_state()
        return state.get_non_slot("beta1_power"), state.get_non_slot("beta2_power")

    def _create_vars(self, var_list, state):
        state.create_non_slot(initial_value=lambda: state.get_hyper("beta1"),
                              name="beta1_power")
        state.create_non_slot(initial_value=lambda: state.get_hyper("beta2"),
                              name="beta2_power")
        for v in var_list:
            state.zeros_slot(v, "m")
            state.zeros_slot(v, "v")

    def _apply_dense(self, grad, var, state):
        dtype = grad.dtype.base_dtype if _is_resource(var) else var.dtype.base_dtype
        powers = [tf.cast(p, dtype) for p in self._get_beta_accumulators(state)]
        hypers = [state.get_hyper(h, dtype) for h in ("learning_rate", "beta1", "beta2",
                                                      "epsilon")]
        return _kernel(self, "apply_adam", var, [state.get_slot(var, "m"),
                                                 state.get_slot(var, "v")],
                       powers + hypers, grad)

    _resource_apply_dense = _apply_dense

    def _apply_sparse_shared(self, grad, var, indices, scatter_add, state):
        dtype = var.dtype.base_dtype
        beta1_power, beta2_power = [tf.cast(p, dtype)
                                    for p in self._get_beta_accumulators(state)]
        lr_t, beta1_t, beta2_t, epsilon_t = [
            state.get_hyper(h, dtype) for h in ("learning_rate", "beta1", "beta2", "epsilon")]
        lr = lr_t * tf.sqrt(1 - beta2_power) / (1 - beta1_power)
        m = state.get_slot(var, "m")
        m_t = tf.compat.v1.assign(m, m * beta1_t, use_locking=self._use_locking)
        with tf.control_dependencies([m_t]):
            m_t = scatter_add(m, indices, grad * (1 - beta1_t))
        v = state.get_slot(var, "v")
        v_t = tf.compat.v1.assign(v, v * beta2_t, use_locking=self._use_locking)
        with tf.control_dependencies([v_t]):
            v_t = scatter_add(v, indices, (grad * grad) * (1 - beta2_t))
        var_update = tf.compat.v1.assign_sub(var, lr * m_t / (tf.sqrt(v_t) + epsilon_t),
                                             use_locking=self._use_locking)
        return tf.group(*[var_update, m_t, v_t])

    def _apply_sparse(self, grad, var, state):
        return self._apply_sparse_shared(
            grad.values, var, grad.indices,
            lambda x, i, v: tf.compat.v1.scatter_add(x, i, v, use_locking=self._use_locking),
            state)

    def _resource_apply_sparse(self, grad, var, indices, state):
        def scatter_add(x, i, v):
            with tf.control_dependencies([resource_variable_ops.resource_scatter_add(
                    x.handle, i, v)]):
                return x.value()
        return self._apply_sparse_shared(grad, var, indices, scatter_add, state)

    def _finish(self, state):
        beta1_power, beta2_power = self._get_beta_accumulators(state)
        return tf.group(
            beta1_power.assign(beta1_power * state.get_hyper("beta1"),
                               use_locking=self._use_locking),
            beta2_power.assign(beta2_power * state.get_hyper("beta2"),
                               use_locking=self._use_locking))


_FILES = {"adadelta": "AdadeltaOptimizer", "adagrad": "AdagradOptimizer", "adam": "AdamOptimizer",
          "gradient_descent": "GradientDescentOptimizer", "momentum": "MomentumOptimizer",
          "optimizer_v2": "OptimizerV2", "rmsprop": "RMSPropOptimizer"}


def build():
    from estimator_compat.legacy.namespaces import namespace
    for module, name in _FILES.items():  # TF 1.15's files: tensorflow.contrib.optimizer_v2.adam
        namespace("tensorflow.contrib.optimizer_v2." + module, "contrib.optimizer_v2's " + module,
                  **{name: globals()[name]})
    return namespace(
        "tensorflow.contrib.optimizer_v2", __doc__, __served_whole__=True,
        AdadeltaOptimizer=AdadeltaOptimizer, AdagradOptimizer=AdagradOptimizer,
        AdamOptimizer=AdamOptimizer, GradientDescentOptimizer=GradientDescentOptimizer,
        MomentumOptimizer=MomentumOptimizer, OptimizerV2=OptimizerV2,
        RMSPropOptimizer=RMSPropOptimizer)
