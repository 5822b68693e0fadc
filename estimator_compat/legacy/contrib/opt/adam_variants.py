"""contrib's Adam family: `LazyAdamOptimizer` (a sparse gradient moves only its rows' moments),
`NadamOptimizer` (Nesterov momentum), `AdaMaxOptimizer` (infinity norm, slot names
`<var>/AdaMax`, `<var>/AdaMax_1`, only `beta1_power`), and `AdamGSOptimizer` /
`LazyAdamGSOptimizer` (the bias corrections read the global step instead of `beta*_power`
variables). Dense updates run TensorFlow's fused kernels (`ApplyAdam`, `ApplyAdaMax`)."""
import tensorflow as tf

from estimator_compat.legacy.contrib.opt import kernels

_train = tf.compat.v1.train


def _cast(value, var):
    return tf.cast(value, var.dtype.base_dtype)


class _AdamMath:
    """Adam's hyper-parameters as tensors of `var`'s dtype, and its powers of the betas."""

    def _hyper(self, var):
        return (_cast(self._lr_t, var), _cast(self._beta1_t, var), _cast(self._beta2_t, var),
                _cast(self._epsilon_t, var))

    def _powers(self, var):
        beta1_power, beta2_power = self._get_beta_accumulators()
        return _cast(beta1_power, var), _cast(beta2_power, var)

    def _lazy_rows(self, values, var, indices):
        """Adam on the rows `indices` only: the other rows' moments and values stay."""
        beta1_power, beta2_power = self._powers(var)
        lr, beta1, beta2, epsilon = self._hyper(var)
        lr = lr * tf.sqrt(1 - beta2_power) / (1 - beta1_power)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_rows = beta1 * tf.gather(m, indices) + (1 - beta1) * values
        m_t = kernels.scatter_update(m, indices, m_rows, self._use_locking)
        v_rows = beta2 * tf.gather(v, indices) + (1 - beta2) * tf.square(values)
        v_t = kernels.scatter_update(v, indices, v_rows, self._use_locking)
        step = lr * m_rows / (tf.sqrt(v_rows) + epsilon)
        with tf.control_dependencies([m_t, v_t]):
            update = kernels.scatter_sub(var, indices, step, self._use_locking)
        return tf.group(update, m_t, v_t)

    def _fused(self, grad, var, use_nesterov=False):
        beta1_power, beta2_power = self._powers(var)
        lr, beta1, beta2, epsilon = self._hyper(var)
        return kernels.apply("Adam", var, {"m": self.get_slot(var, "m"),
                                           "v": self.get_slot(var, "v")},
                             self._use_locking, beta1_power=beta1_power,
                             beta2_power=beta2_power, lr=lr, beta1=beta1, beta2=beta2,
                             epsilon=epsilon, grad=grad, use_nesterov=use_nesterov)


class LazyAdamOptimizer(_AdamMath, _train.AdamOptimizer):
    """Adam whose sparse updates touch only the rows in the gradient (their moments too)."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name="Adam"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)

    def _apply_sparse(self, grad, var):
        return self._lazy_rows(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._lazy_rows(grad, var, indices)


class NadamOptimizer(_AdamMath, _train.AdamOptimizer):
    """Adam with Nesterov momentum (Dozat 2016); slot names as Adam's."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name="Adam"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)

    def _apply_dense(self, grad, var):
        return self._fused(grad, var, use_nesterov=True)

    def _resource_apply_dense(self, grad, var):
        return self._fused(grad, var, use_nesterov=True)

    def _nesterov_rows(self, values, var, indices):
        beta1_power, beta2_power = self._powers(var)
        lr, beta1, beta2, epsilon = self._hyper(var)
        lr = lr * tf.sqrt(1 - beta2_power) / (1 - beta1_power)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_scaled = tf.compat.v1.assign(m, m * beta1, use_locking=self._use_locking)
        with tf.control_dependencies([m_scaled]):
            m_t = kernels.scatter_add(m, indices, values * (1 - beta1), self._use_locking)
            grad_part = tf.scatter_nd(tf.expand_dims(indices, -1), values * (1 - beta1),
                                      tf.shape(m, out_type=indices.dtype))
            m_bar = grad_part + beta1 * m_t
        v_scaled = tf.compat.v1.assign(v, v * beta2, use_locking=self._use_locking)
        with tf.control_dependencies([v_scaled]):
            v_t = kernels.scatter_add(v, indices, tf.square(values) * (1 - beta2),
                                      self._use_locking)
        update = tf.compat.v1.assign_sub(var, lr * m_bar / (tf.sqrt(v_t) + epsilon),
                                         use_locking=self._use_locking)
        return tf.group(update, m_t, v_t)

    def _apply_sparse(self, grad, var):
        return self._nesterov_rows(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._nesterov_rows(grad, var, indices)


class AdaMaxOptimizer(_AdamMath, _train.AdamOptimizer):
    """AdaMax (Kingma & Ba, section 7): the second moment is an exponentially weighted
    infinity norm; one accumulator, `beta1_power`."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name="AdaMax"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)

    def _get_beta_accumulators(self):
        with tf.init_scope():
            graph = None if tf.executing_eagerly() else tf.compat.v1.get_default_graph()
            return self._get_non_slot_variable("beta1_power", graph=graph)

    def _powers(self, var):
        return _cast(self._get_beta_accumulators(), var)

    def _create_slots(self, var_list):
        first_var = min(var_list, key=lambda x: x.name)
        self._create_non_slot_variable(initial_value=self._beta1, name="beta1_power",
                                       colocate_with=first_var)
        for v in var_list:
            self._zeros_slot(v, "m", self._name)
            self._zeros_slot(v, "v", self._name)

    def _dense(self, grad, var):
        lr, beta1, beta2, epsilon = self._hyper(var)
        return kernels.apply("AdaMax", var, {"m": self.get_slot(var, "m"),
                                             "v": self.get_slot(var, "v")},
                             self._use_locking, beta1_power=self._powers(var), lr=lr,
                             beta1=beta1, beta2=beta2, epsilon=epsilon, grad=grad)

    def _apply_dense(self, grad, var):
        return self._dense(grad, var)

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var)

    def _rows(self, values, var, indices):
        lr, beta1, beta2, epsilon = self._hyper(var)
        beta1_power = self._powers(var)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_rows = tf.gather(m, indices) * beta1 + values * (1 - beta1)
        m_t = kernels.scatter_update(m, indices, m_rows, self._use_locking)
        v_rows = tf.maximum(tf.gather(v, indices) * beta2, tf.abs(values))
        v_t = kernels.scatter_update(v, indices, v_rows, self._use_locking)
        step = -lr / (1 - beta1_power) * (m_rows / (v_rows + epsilon))
        with tf.control_dependencies([m_t, v_t]):
            update = kernels.scatter_add(var, indices, step, self._use_locking)
        return tf.group(update, m_t, v_t)

    def _apply_sparse(self, grad, var):
        return self._rows(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._rows(grad, var, indices)

    def _finish(self, update_ops, name_scope):
        with tf.control_dependencies(update_ops):
            beta1_power = self._get_beta_accumulators()
            with tf.compat.v1.colocate_with(beta1_power):
                update_beta1 = tf.compat.v1.assign(beta1_power, beta1_power * self._beta1_t,
                                                   use_locking=self._use_locking)
        return tf.group(*update_ops + [update_beta1], name=name_scope)


class _GlobalStepPowers(_AdamMath):
    """Adam whose bias corrections use `global_step + 1` (no `beta*_power` variables)."""

    def _gs_init(self, global_step):
        self._global_step = global_step

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "m", self._name)
            self._zeros_slot(v, "v", self._name)

    def _powers(self, var):
        step = tf.cast(self._global_step, var.dtype.base_dtype) + 1
        return tf.pow(_cast(self._beta1_t, var), step), tf.pow(_cast(self._beta2_t, var), step)

    def _apply_dense(self, grad, var):
        return self._fused(grad, var)

    def _resource_apply_dense(self, grad, var):
        return self._fused(grad, var)

    def _finish(self, update_ops, name_scope):
        return tf.group(*update_ops, name=name_scope)


class AdamGSOptimizer(_GlobalStepPowers, _train.AdamOptimizer):
    """Adam taking its step count from `global_step` (slot names as Adam's)."""

    def __init__(self, global_step=0, learning_rate=0.001, beta1=0.9, beta2=0.999,
                 epsilon=1e-8, use_locking=False, name="Adam"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)
        self._gs_init(global_step)

    def _apply_sparse(self, grad, var):
        return self._apply_dense(tf.convert_to_tensor(grad), var)

    def _resource_apply_sparse(self, grad, var, indices):
        dense = tf.math.unsorted_segment_sum(grad, indices, tf.shape(var)[0])
        return self._resource_apply_dense(dense, var)


class LazyAdamGSOptimizer(_GlobalStepPowers, _train.AdamOptimizer):
    """LazyAdam taking its step count from `global_step`."""

    def __init__(self, global_step=0, learning_rate=0.001, beta1=0.9, beta2=0.999,
                 epsilon=1e-8, use_locking=False, name="Adam"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)
        self._gs_init(global_step)

    def _apply_sparse(self, grad, var):
        return self._lazy_rows(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._lazy_rows(grad, var, indices)
