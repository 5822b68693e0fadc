"""Keras optimizers for the canned estimators and heads, as compat.v1 optimizers.

tf.estimator 2.15's V2 canned estimators took Keras optimizers; on TensorFlow 2.21 those are
Keras 3 optimizers, which cannot update the TF1-named variables of a canned model inside its
compiled step. As 2.15 converted new Keras optimizers to legacy ones, a Keras optimizer here
becomes the compat.v1 optimizer with the same update rule and hyperparameters: its
learning-rate schedule is evaluated at `global_step`; clipnorm / clipvalue / global_clipnorm
clip the gradients.
"""
import contextlib

import keras
import tensorflow as tf
from tensorflow.python.eager import context

from estimator_compat.variables import mark_unsaved

v1 = tf.compat.v1
_UNSUPPORTED_OPTIONS = ("weight_decay", "use_ema", "gradient_accumulation_steps",
                        "loss_scale_factor")


def _sgd(lr, c):
    if not c["momentum"]:
        return v1.train.GradientDescentOptimizer(lr)
    return v1.train.MomentumOptimizer(lr, c["momentum"], use_nesterov=c["nesterov"])


def _adam(lr, c):
    if c.get("amsgrad"):
        raise ValueError("Adam(amsgrad=True) has no compat.v1 equivalent in estimator_compat's "
                         "canned estimators; use amsgrad=False.")
    return v1.train.AdamOptimizer(lr, c["beta_1"], c["beta_2"], c["epsilon"])


_FROM_KERAS = {
    keras.optimizers.SGD: _sgd,
    keras.optimizers.Adam: _adam,
    keras.optimizers.Adagrad: lambda lr, c: v1.train.AdagradOptimizer(
        lr, c["initial_accumulator_value"]),
    keras.optimizers.Ftrl: lambda lr, c: v1.train.FtrlOptimizer(
        lr, c["learning_rate_power"], c["initial_accumulator_value"],
        c["l1_regularization_strength"], c["l2_regularization_strength"],
        l2_shrinkage_regularization_strength=c["l2_shrinkage_regularization_strength"],
        beta=c["beta"]),
    keras.optimizers.RMSprop: lambda lr, c: v1.train.RMSPropOptimizer(
        lr, c["rho"], c["momentum"], c["epsilon"], centered=c["centered"]),
    keras.optimizers.Adadelta: lambda lr, c: v1.train.AdadeltaOptimizer(
        lr, c["rho"], c["epsilon"]),
}


class ClippedOptimizer(v1.train.Optimizer):
    """A compat.v1 optimizer whose gradients are clipped as the Keras optimizer's would be."""

    def __init__(self, optimizer, clipnorm=None, clipvalue=None, global_clipnorm=None):
        super().__init__(use_locking=False, name=optimizer.get_name())
        self._inner = optimizer
        self._clipnorm, self._clipvalue, self._global_clipnorm = clipnorm, clipvalue, \
            global_clipnorm

    def compute_gradients(self, *args, **kwargs):
        pairs = [(g, v) for g, v in self._inner.compute_gradients(*args, **kwargs)]
        grads = [g for g, _ in pairs]
        if self._clipvalue is not None:
            grads = [None if g is None else tf.clip_by_value(g, -self._clipvalue,
                                                             self._clipvalue) for g in grads]
        if self._clipnorm is not None:
            grads = [None if g is None else tf.clip_by_norm(g, self._clipnorm) for g in grads]
        if self._global_clipnorm is not None:
            present = [g for g in grads if g is not None]
            clipped, _ = tf.clip_by_global_norm(present, self._global_clipnorm)
            it = iter(clipped)
            grads = [None if g is None else next(it) for g in grads]
        return list(zip(grads, [v for _, v in pairs]))

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        return self._inner.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def get_slot(self, var, name):
        return self._inner.get_slot(var, name)

    def get_slot_names(self):
        return self._inner.get_slot_names()

    def variables(self):
        return self._inner.variables()


def _learning_rate(optimizer):
    tensor = getattr(optimizer, "_estimator_compat_tensor_rate", None)  # legacy optimizers
    if tensor is not None:
        return tensor
    rate = optimizer._learning_rate  # the schedule or callable as given, else a variable
    if isinstance(rate, keras.optimizers.schedules.LearningRateSchedule):
        return lambda: rate(v1.train.get_or_create_global_step())
    if callable(rate) and not isinstance(rate, (tf.Variable, keras.Variable)):
        return rate
    return float(keras.ops.convert_to_numpy(rate))


def _eager_reads():
    """Eager execution where init_scope left a TF1 graph (a .meta or TF1 export graph built
    from the model_fn): a Keras 3 optimizer's variables are eager, read with .numpy()."""
    return contextlib.nullcontext() if tf.executing_eagerly() else context.eager_mode()


def from_keras(optimizer):
    """The compat.v1 optimizer that updates as the given Keras optimizer would."""
    mark_unsaved(optimizer.variables)  # made in model_fn: not part of the model
    with tf.init_scope(), _eager_reads():  # reads the variables' values: eager, also inside
        config = optimizer.get_config()  # the step's trace and a TF1 graph (the .meta's)
        rate = _learning_rate(optimizer)
    if callable(rate):  # a schedule of global_step: read in the trace (FtrlOptimizer, for one,
        rate = rate()  # takes no callable)
    cls = getattr(type(optimizer), "_estimator_compat_base", type(optimizer))  # legacy.<Name>
    make = _FROM_KERAS.get(cls)
    if make is None:
        raise ValueError(
            f"Keras optimizer {type(optimizer).__name__} is not supported by estimator_compat's "
            f"canned estimators and heads. Use one of "
            f"{sorted(c.__name__ for c in _FROM_KERAS)}, or a tf.compat.v1.train optimizer.")
    for option in _UNSUPPORTED_OPTIONS:
        if config.get(option):
            raise ValueError(f"{type(optimizer).__name__}({option}={config[option]!r}) is not "
                             "supported by estimator_compat's canned estimators; leave it unset.")
    converted = make(rate, config)
    clips = {k: config.get(k) for k in ("clipnorm", "clipvalue", "global_clipnorm")}
    if any(v is not None for v in clips.values()):
        converted = ClippedOptimizer(converted, **clips)
    return converted
