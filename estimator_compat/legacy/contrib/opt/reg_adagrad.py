"""`RegAdagradOptimizer`: Adagrad (slot `<var>/RegAdagrad`) whose updates made inside
`with opt.avoid_updating_slots():` leave the accumulators as they are (for regularization
losses applied as separate updates); the kernels' `update_slots` attribute."""
import contextlib

import tensorflow as tf

from estimator_compat.legacy.contrib.opt import kernels


class RegAdagradOptimizer(tf.compat.v1.train.AdagradOptimizer):

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False,
                 name="RegAdagrad"):
        super().__init__(learning_rate, initial_accumulator_value=initial_accumulator_value,
                         use_locking=use_locking, name=name)
        self._should_update_slots = True

    @contextlib.contextmanager
    def avoid_updating_slots(self):
        """Updates built inside leave the accumulators unchanged."""
        previous = self._should_update_slots
        self._should_update_slots = False
        try:
            yield
        finally:
            self._should_update_slots = previous

    def _lr(self, var):
        return tf.cast(self._learning_rate_tensor, var.dtype.base_dtype)

    def _dense(self, grad, var):
        return kernels.apply("Adagrad", var, {"accum": self.get_slot(var, "accumulator")},
                             self._use_locking, lr=self._lr(var), grad=grad,
                             update_slots=self._should_update_slots)

    def _apply_dense(self, grad, var):
        return self._dense(grad, var)

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var)

    def _sparse(self, values, var, indices):
        return kernels.sparse_apply("Adagrad", var,
                                    {"accum": self.get_slot(var, "accumulator")},
                                    self._use_locking, lr=self._lr(var), grad=values,
                                    indices=indices, update_slots=self._should_update_slots)

    def _apply_sparse(self, grad, var):
        return self._sparse(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._sparse(grad, var, indices)
