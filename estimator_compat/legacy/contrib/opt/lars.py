"""`LARSOptimizer` (You et al. 2017, layer-wise adaptive rate scaling): each variable's
learning rate scaled by `eeta * |w| / (|g| + weight_decay * |w| + epsilon)` (1 where a norm is
0), weight decay added to the gradient, then momentum (slot `<var>/LARSOptimizer`, the kernel
`ApplyMomentum` with the scaled gradient). Variables whose name holds an entry of `skip_list`
keep the plain learning rate and no weight decay."""
import tensorflow as tf

from estimator_compat.legacy.contrib.opt import kernels


class LARSOptimizer(tf.compat.v1.train.Optimizer):

    def __init__(self, learning_rate, momentum=0.9, weight_decay=0.0001, eeta=0.001,
                 epsilon=0.0, name="LARSOptimizer", skip_list=None, use_nesterov=False):
        if momentum < 0.0:
            raise ValueError(f"momentum should be positive: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"weight_decay should be positive: {weight_decay}")
        super().__init__(use_locking=False, name=name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._weight_decay = weight_decay
        self._eeta = eeta
        self._epsilon = epsilon
        self._name = name
        self._skip_list = skip_list
        self._use_nesterov = use_nesterov

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "momentum", self._name)

    def compute_lr(self, grad, var):
        """(the scaled learning rate, the gradient with weight decay) for `var`."""
        scaled_lr = self._learning_rate
        if self._skip_list is None or not any(s in var.name for s in self._skip_list):
            w_norm = tf.norm(var, ord=2)
            g_norm = tf.norm(grad, ord=2)
            trust_ratio = tf.where(
                w_norm > 0,
                tf.where(g_norm > 0,
                         self._eeta * w_norm / (g_norm + self._weight_decay * w_norm
                                                + self._epsilon), 1.0),
                1.0)
            scaled_lr = self._learning_rate * trust_ratio
            grad = grad + self._weight_decay * var
        return scaled_lr, grad

    def _dense(self, grad, var):
        scaled_lr, grad = self.compute_lr(grad, var)
        dtype = var.dtype.base_dtype
        return kernels.apply("Momentum", var, {"accum": self.get_slot(var, "momentum")},
                             use_locking=False, lr=tf.constant(1.0, dtype),
                             grad=tf.cast(grad * scaled_lr, dtype),
                             momentum=tf.constant(self._momentum, dtype),
                             use_nesterov=self._use_nesterov)

    def _apply_dense(self, grad, var):
        return self._dense(grad, var)

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var)

    def _apply_sparse(self, grad, var):
        return self._dense(tf.convert_to_tensor(grad), var)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._dense(tf.math.unsorted_segment_sum(grad, indices, tf.shape(var)[0]), var)
