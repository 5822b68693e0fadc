"""Keras 3 optimizers inside a model_fn: `apply_gradients` gives a tensor `tf.group` takes.

Keras 3's `apply_gradients` returns the optimizer's `iterations` variable, which `tf.group`
and `EstimatorSpec(train_op=...)` reject; tf.keras (Keras 2) returned an op there. In a trace
of a model_fn the result becomes the read of `iterations` after the update (so the updates run
before anything that waits on it); elsewhere Keras' own result is returned unchanged.
"""
import functools

import tensorflow as tf
from keras.src.optimizers.base_optimizer import BaseOptimizer

from estimator_compat.variables import current_store

_PATCHED = []


def patch():
    """Wraps BaseOptimizer.apply_gradients once per process (idempotent)."""
    if _PATCHED:
        return
    original = BaseOptimizer.apply_gradients

    @functools.wraps(original)
    def apply_gradients(self, grads_and_vars, *args, **kwargs):
        result = original(self, grads_and_vars, *args, **kwargs)
        if current_store() is not None and not tf.executing_eagerly():
            variable = getattr(result, "value", result)
            if isinstance(variable, tf.Variable):
                return variable.read_value()
        return result

    BaseOptimizer.apply_gradients = apply_gradients
    _PATCHED.append(original)
