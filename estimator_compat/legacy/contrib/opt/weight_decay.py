"""Decoupled weight decay (Loshchilov & Hutter): `DecoupledWeightDecayExtension`,
`extend_with_decoupled_weight_decay`, `AdamWOptimizer`, `MomentumWOptimizer`.

Each update first shrinks the variable by `weight_decay * var` (only the gathered rows for a
sparse gradient), then runs the base optimizer's update on the shrunk variable, as TF 1.15 did;
`minimize` / `apply_gradients` take `decay_var_list` to decay only some variables.
"""
import tensorflow as tf

from estimator_compat.legacy.contrib.opt import kernels

_train = tf.compat.v1.train


class DecoupledWeightDecayExtension:
    """Mixin adding decoupled weight decay to a `tf.compat.v1.train.Optimizer` subclass
    (it must come first in the bases)."""

    def __init__(self, weight_decay, *args, **kwargs):
        self._decay_var_list = None
        self._weight_decay = weight_decay
        self._weight_decay_tensor = None
        super().__init__(*args, **kwargs)

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=1,
                 aggregation_method=None, colocate_gradients_with_ops=False, name=None,
                 grad_loss=None, decay_var_list=None):
        self._decay_var_list = self._ids(decay_var_list)
        return super().minimize(loss, global_step=global_step, var_list=var_list,
                                gate_gradients=gate_gradients,
                                aggregation_method=aggregation_method,
                                colocate_gradients_with_ops=colocate_gradients_with_ops,
                                name=name, grad_loss=grad_loss)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None,
                        decay_var_list=None):
        if decay_var_list is not None or self._decay_var_list is None:
            self._decay_var_list = self._ids(decay_var_list)
        try:
            return super().apply_gradients(grads_and_vars, global_step=global_step, name=name)
        finally:
            self._decay_var_list = None

    @staticmethod
    def _ids(variables):
        return None if not variables else {id(v) for v in variables}

    def _decays(self, var):
        return self._decay_var_list is None or id(var) in self._decay_var_list

    def _prepare(self):
        weight_decay = self._weight_decay
        if callable(weight_decay):
            weight_decay = weight_decay()
        self._weight_decay_tensor = tf.convert_to_tensor(weight_decay, name="weight_decay")
        super()._prepare()

    # The decay waits for the gradient: in a TF1 graph nothing else orders it after the
    # gradients' reads of the variables, and TF 1.15's result depended on the executor's race.
    def _decay_weights_op(self, var, grad):
        if not self._decays(var):
            return tf.no_op()
        decay = tf.cast(self._weight_decay_tensor, var.dtype.base_dtype)
        with tf.control_dependencies([grad]):
            return tf.compat.v1.assign_sub(var, decay * var, use_locking=self._use_locking)

    def _decay_weights_sparse_op(self, var, indices, values):
        if not self._decays(var):
            return tf.no_op()
        decay = tf.cast(self._weight_decay_tensor, var.dtype.base_dtype)
        with tf.control_dependencies([values, indices]):
            return kernels.scatter_add(var, indices, -decay * tf.gather(var, indices),
                                       self._use_locking)

    def _apply_dense(self, grad, var):
        with tf.control_dependencies([self._decay_weights_op(var, grad)]):
            return super()._apply_dense(grad, var)

    def _resource_apply_dense(self, grad, var):
        with tf.control_dependencies([self._decay_weights_op(var, grad)]):
            return super()._resource_apply_dense(grad, var)

    def _apply_sparse(self, grad, var):
        with tf.control_dependencies([self._decay_weights_sparse_op(var, grad.indices,
                                                                    grad.values)]):
            return super()._apply_sparse(grad, var)

    def _resource_apply_sparse(self, grad, var, indices):
        with tf.control_dependencies([self._decay_weights_sparse_op(var, indices, grad)]):
            return super()._resource_apply_sparse(grad, var, indices)


def extend_with_decoupled_weight_decay(base_optimizer):
    """`base_optimizer` (a tf.compat.v1.train.Optimizer class) with decoupled weight decay:
    the class takes `weight_decay` first, then the base's arguments."""
    if not (isinstance(base_optimizer, type) and issubclass(base_optimizer, _train.Optimizer)):
        raise TypeError("extend_with_decoupled_weight_decay takes a tf.compat.v1.train.Optimizer "
                        f"subclass, got {base_optimizer!r}")

    class OptimizerWithDecoupledWeightDecay(DecoupledWeightDecayExtension, base_optimizer):
        """`base_optimizer` with decoupled weight decay (`weight_decay` comes first)."""

        def __init__(self, weight_decay, *args, **kwargs):
            super().__init__(weight_decay, *args, **kwargs)
    return OptimizerWithDecoupledWeightDecay


class MomentumWOptimizer(DecoupledWeightDecayExtension, _train.MomentumOptimizer):
    """Momentum with decoupled weight decay (slot `<var>/MomentumW`)."""

    def __init__(self, weight_decay, learning_rate, momentum, use_locking=False,
                 name="MomentumW", use_nesterov=False):
        super().__init__(weight_decay, learning_rate=learning_rate, momentum=momentum,
                         use_locking=use_locking, name=name, use_nesterov=use_nesterov)


class AdamWOptimizer(DecoupledWeightDecayExtension, _train.AdamOptimizer):
    """Adam with decoupled weight decay (slots `<var>/AdamW`, `<var>/AdamW_1`)."""

    def __init__(self, weight_decay, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name="AdamW"):
        super().__init__(weight_decay, learning_rate=learning_rate, beta1=beta1, beta2=beta2,
                         epsilon=epsilon, use_locking=use_locking, name=name)
