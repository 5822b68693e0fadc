"""`tf.contrib.mixed_precision`, served whole: TF 1.15's graph-mode loss scaling.

- `LossScaleOptimizer(opt, loss_scale_manager)`: a TF1 optimizer wrapper; `compute_gradients`
  scales the loss by the manager's loss scale and unscales the gradients, `apply_gradients`
  applies them only when all are finite (else the step, global step included, is skipped) and
  lets the manager update its scale either way.
- `LossScaleManager` (the interface), `FixedLossScaleManager` (a constant scale) and
  `ExponentialUpdateLossScaleManager` (scale x incr_ratio after `incr_every_n_steps` finite
  steps, x decr_ratio -- never below 1 -- after `decr_every_n_nan_or_inf` non-finite ones),
  whose state is TF 1.15's non-trainable variables `loss_scale`, `good_steps`, `bad_steps`.

TensorFlow 2's `tf.keras.mixed_precision.LossScaleOptimizer` wraps Keras optimizers only, and
the `tf.compat.v1.mixed_precision` one needs TF2 loss-scale objects and names its variables
differently, so these are built here on TF1 graph ops.
"""
import abc

import tensorflow as tf

from estimator_compat.legacy.contrib.opt.graph_cond import tf1_control_flow

v1 = tf.compat.v1


class LossScaleManager(abc.ABC):
    """Decides the loss scale: `get_loss_scale()` and `update_loss_scale(finite_grads)`."""

    @abc.abstractmethod
    def update_loss_scale(self, finite_grads):
        """An op updating the scale from a bool tensor: were all gradients finite?"""

    @abc.abstractmethod
    def get_loss_scale(self):
        """The loss scale, a float32 scalar tensor."""


class FixedLossScaleManager(LossScaleManager):
    """A loss scale that never changes."""

    def __init__(self, loss_scale):
        if loss_scale < 1:
            raise ValueError("loss scale must be at least 1.")
        self._loss_scale = v1.convert_to_tensor(loss_scale, dtype=tf.float32)

    def update_loss_scale(self, finite_grads):
        del finite_grads
        return tf.no_op()

    def get_loss_scale(self):
        return self._loss_scale


class ExponentialUpdateLossScaleManager(LossScaleManager):
    """A loss scale that grows after runs of finite steps and shrinks after non-finite ones."""

    def __init__(self, init_loss_scale, incr_every_n_steps, decr_every_n_nan_or_inf=2,
                 incr_ratio=2, decr_ratio=0.8):
        for name, value in (("incr_every_n_steps", incr_every_n_steps),
                            ("decr_every_n_nan_or_inf", decr_every_n_nan_or_inf)):
            if int(value) != value or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        self._incr_every_n_steps = incr_every_n_steps
        self._decr_every_n_nan_or_inf = decr_every_n_nan_or_inf
        self._incr_ratio = incr_ratio
        self._decr_ratio = decr_ratio
        self._loss_scale = v1.Variable(tf.constant(init_loss_scale, tf.float32),
                                       name="loss_scale", trainable=False)
        self._good_steps = v1.Variable(0, dtype=tf.int32, name="good_steps", trainable=False)
        self._bad_steps = v1.Variable(0, dtype=tf.int32, name="bad_steps", trainable=False)

    def _reset_stats(self):
        return tf.group(v1.assign(self._good_steps, 0), v1.assign(self._bad_steps, 0))

    def update_loss_scale(self, finite_grads):
        """An op: count the step, and grow or shrink the scale when its run is long enough."""
        scale, good, bad = self._loss_scale, self._good_steps, self._bad_steps

        def finite():
            def grow():
                grown = scale * self._incr_ratio
                kept = tf.where(tf.math.is_finite(grown), grown, scale)
                return tf.group(v1.assign(scale, kept), self._reset_stats())

            def count():  # as TF 1.15: a finite step leaves the non-finite count as it is
                return tf.group(v1.assign_add(good, 1))
            return v1.cond(good + 1 >= self._incr_every_n_steps, grow, count)

        def not_finite():
            def shrink():
                return tf.group(v1.assign(scale, tf.maximum(1., scale * self._decr_ratio)),
                                self._reset_stats())

            def count():
                return tf.group(v1.assign_add(bad, 1), v1.assign(good, 0))
            return v1.cond(bad + 1 >= self._decr_every_n_nan_or_inf, shrink, count)

        with tf1_control_flow():  # TF1 reference variables are updated in the branches
            return v1.cond(finite_grads, finite, not_finite)

    def get_loss_scale(self):
        return self._loss_scale


class LossScaleOptimizer(v1.train.Optimizer):
    """A TF1 optimizer that trains on a scaled loss and skips steps with non-finite gradients."""

    def __init__(self, opt, loss_scale_manager):
        if not isinstance(opt, v1.train.Optimizer):
            raise TypeError(f"opt must be a tf.train.Optimizer (TF1), got {type(opt).__name__}")
        if not all(callable(getattr(loss_scale_manager, m, None))
                   for m in ("get_loss_scale", "update_loss_scale")):
            raise TypeError("loss_scale_manager must be a tf.contrib.mixed_precision."
                            "LossScaleManager (FixedLossScaleManager or "
                            f"ExponentialUpdateLossScaleManager), got {loss_scale_manager!r}")
        super().__init__(use_locking=False, name="LossScaleOptimizer")
        self._opt = opt
        self._loss_scale_manager = loss_scale_manager

    def compute_gradients(self, loss, var_list=None, gate_gradients=v1.train.Optimizer.GATE_OP,
                          aggregation_method=None, colocate_gradients_with_ops=False,
                          grad_loss=None):
        """The wrapped optimizer's gradients of loss x scale, divided back by the scale."""
        loss_scale = self._loss_scale_manager.get_loss_scale()
        scaled_loss = (lambda: loss() * loss_scale) if callable(loss) else loss * loss_scale
        grads_and_vars = self._opt.compute_gradients(
            scaled_loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
        inverse = tf.math.reciprocal(loss_scale)
        return [(self._unscale(g, inverse), v) for g, v in grads_and_vars]

    @staticmethod
    def _unscale(grad, inverse):
        if grad is None:
            return None
        if isinstance(grad, tf.IndexedSlices):
            return tf.IndexedSlices(grad.values * tf.cast(inverse, grad.values.dtype),
                                    grad.indices, grad.dense_shape)
        return grad * tf.cast(inverse, grad.dtype)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """The wrapped update where every gradient is finite (else none), and the scale's."""
        grads_and_vars = list(grads_and_vars)
        checks = [tf.reduce_all(tf.math.is_finite(
            g.values if isinstance(g, tf.IndexedSlices) else g))
            for g, _ in grads_and_vars if g is not None]
        is_finite = tf.reduce_all(tf.stack(checks)) if checks else tf.constant(True)

        def apply():
            return tf.group(self._opt.apply_gradients(grads_and_vars, global_step, name))

        with tf1_control_flow():  # TF1 reference variables are updated in the branch
            update = v1.cond(is_finite, apply, tf.no_op)
        return tf.group(update, self._loss_scale_manager.update_loss_scale(is_finite))

    def get_slot(self, var, name):
        return self._opt.get_slot(var, name)

    def get_slot_names(self):
        return self._opt.get_slot_names()

    def variables(self):
        return self._opt.variables()

    def _apply_dense(self, grad, var):  # the wrapped optimizer applies; kept for the interface
        raise NotImplementedError("LossScaleOptimizer applies through the wrapped optimizer")

    _apply_sparse = _resource_apply_dense = _resource_apply_sparse = _apply_dense


CLASSES = dict(LossScaleOptimizer=LossScaleOptimizer, LossScaleManager=LossScaleManager,
               FixedLossScaleManager=FixedLossScaleManager,
               ExponentialUpdateLossScaleManager=ExponentialUpdateLossScaleManager)


def build():
    from estimator_compat.legacy.namespaces import namespace
    root = "tensorflow.contrib.mixed_precision"
    namespace(root + ".python.loss_scale_manager", "TF 1.15's loss scale managers",
              **{k: v for k, v in CLASSES.items() if k != "LossScaleOptimizer"})
    namespace(root + ".python.loss_scale_optimizer", "TF 1.15's LossScaleOptimizer",
              LossScaleOptimizer=LossScaleOptimizer)
    namespace(root + ".python", "TF 1.15's contrib mixed precision")
    return namespace(root, "tf.contrib.mixed_precision", __served_whole__=True, **CLASSES)
