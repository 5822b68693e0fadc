"""CrossShardOptimizer: averages gradients across TPU shards; off TPU a pass-through."""
import tensorflow as tf


class CrossShardOptimizer(tf.compat.v1.train.Optimizer):
    """Wraps a compat.v1 optimizer. Across replicas the engine's strategy (and the compat.v1
    optimizer's own cross-replica handling) aggregates gradients, so here it only delegates."""

    def __init__(self, opt, reduction=tf.compat.v1.losses.Reduction.MEAN,
                 name="CrossShardOptimizer", group_assignment=None):
        if reduction not in (tf.compat.v1.losses.Reduction.SUM,
                             tf.compat.v1.losses.Reduction.MEAN):
            raise ValueError(f"Unsupported reduction: {reduction}.")
        super().__init__(use_locking=False, name=name)
        self._opt = opt
        self._reduction = reduction

    def compute_gradients(self, loss, var_list=None, **kwargs):
        return self._opt.compute_gradients(loss, var_list=var_list, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        return self._opt.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def get_slot(self, *args, **kwargs):
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._opt.get_slot_names(*args, **kwargs)

    def variables(self):
        return self._opt.variables()
