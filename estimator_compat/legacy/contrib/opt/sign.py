"""`AddSignOptimizer` and `PowerSignOptimizer` (Bello et al. 2017, Neural Optimizer Search):
the gradient scaled up where its sign agrees with its running average's (slot `<var>/<name>`),
optionally with the agreement term decayed by `sign_decay_fn(global_step)`; TensorFlow's
fused `ApplyAddSign` / `ApplyPowerSign` kernels."""
import math

import tensorflow as tf

from estimator_compat.legacy.contrib.opt import kernels


class _SignOptimizer(tf.compat.v1.train.Optimizer):
    _KERNEL = None

    def __init__(self, learning_rate, beta, sign_decay_fn, use_locking, name):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._beta = beta
        self._sign_decay_fn = sign_decay_fn
        self._global_step = None

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        if self._sign_decay_fn is not None and global_step is None:
            raise ValueError(f"{type(self).__name__} with a sign_decay_fn needs the global_step "
                             "passed to apply_gradients / minimize")
        self._global_step = global_step
        return super().apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def _prepare(self):
        self._lr_t = tf.convert_to_tensor(self._lr, name="learning_rate")
        self._beta_t = tf.convert_to_tensor(self._beta, name="beta")
        self._sign_decay_t = (tf.convert_to_tensor(1.0, name="sign_decay")
                              if self._sign_decay_fn is None else
                              tf.convert_to_tensor(self._sign_decay_fn(self._global_step),
                                                   name="sign_decay"))
        self._prepare_extra()

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "m", self._name)

    def _dense(self, grad, var):
        dtype = var.dtype.base_dtype
        return kernels.apply(self._KERNEL, var, {"m": self.get_slot(var, "m")},
                             self._use_locking, lr=tf.cast(self._lr_t, dtype),
                             sign_decay=tf.cast(self._sign_decay_t, dtype),
                             beta=tf.cast(self._beta_t, dtype), grad=grad,
                             **{k: tf.cast(v, dtype) for k, v in self._extra().items()})

    def _apply_dense(self, grad, var):
        return self._dense(grad, var)

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var)

    def _apply_sparse(self, grad, var):
        return self._dense(tf.convert_to_tensor(grad), var)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._dense(tf.math.unsorted_segment_sum(grad, indices, tf.shape(var)[0]), var)


class AddSignOptimizer(_SignOptimizer):
    """var -= lr * (alpha + sign_decay * sign(g) * sign(m)) * g."""
    _KERNEL = "AddSign"

    def __init__(self, learning_rate=0.1, alpha=1.0, beta=0.9, sign_decay_fn=None,
                 use_locking=False, name="AddSignOptimizer"):
        super().__init__(learning_rate, beta, sign_decay_fn, use_locking, name)
        self._alpha = alpha

    def _prepare_extra(self):
        self._alpha_t = tf.convert_to_tensor(self._alpha, name="alpha")

    def _extra(self):
        return {"alpha": self._alpha_t}


class PowerSignOptimizer(_SignOptimizer):
    """var -= lr * base ** (sign_decay * sign(g) * sign(m)) * g."""
    _KERNEL = "PowerSign"

    def __init__(self, learning_rate=0.1, base=math.e, beta=0.9, sign_decay_fn=None,
                 use_locking=False, name="PowerSignOptimizer"):
        super().__init__(learning_rate, beta, sign_decay_fn, use_locking, name)
        self._logbase = math.log(base)

    def _prepare_extra(self):
        self._logbase_t = tf.convert_to_tensor(self._logbase, name="logbase")

    def _extra(self):
        return {"logbase": self._logbase_t}
