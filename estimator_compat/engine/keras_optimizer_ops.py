"""Keras 3 optimizers inside a model_fn: `apply_gradients` gives a tensor `tf.group` takes.

Keras 3's `apply_gradients` returns the optimizer's `iterations` variable, which `tf.group`
and `EstimatorSpec(train_op=...)` reject; tf.keras (Keras 2) returned an op there. In a trace
of a model_fn the result becomes the read of `iterations` after the update (so the updates run
before anything that waits on it); elsewhere Keras' own result is returned unchanged.

The TF 2.0-2.10 model_fn idiom (the migration guide's) is served too:
`optimizer.iterations = tf.compat.v1.train.get_or_create_global_step()` makes the optimizer
count its steps in global_step (Keras 3's `iterations` has no setter), and
`optimizer.get_updates(loss, params)` / `get_gradients(loss, params)` (gone from Keras 3) give
`[apply_gradients op]` / `tf.gradients` in a graph or a model_fn's trace.
"""
import functools

import keras
import tensorflow as tf
from keras.src.optimizers.base_optimizer import BaseOptimizer

from estimator_compat.engine import keras_model_fn_slots
from estimator_compat.variables import current_store

_PATCHED = []


def patch():
    """Wraps BaseOptimizer.apply_gradients once per process (idempotent)."""
    if _PATCHED:
        return
    original = BaseOptimizer.apply_gradients

    @functools.wraps(original)
    def apply_gradients(self, grads_and_vars, *args, **kwargs):
        if current_store() is None or tf.executing_eagerly():
            return original(self, grads_and_vars, *args, **kwargs)
        graph = tf.compat.v1.get_default_graph()
        first = len(graph.get_operations())
        result = original(self, grads_and_vars, *args, **kwargs)
        keras_model_fn_slots.note(self)  # its checkpoint names: 2.15's (Keras 2)
        variable = result.value if isinstance(result, keras.Variable) else result
        if not isinstance(variable, tf.Variable):
            return result
        # after the updates explicitly: the train_op then needs them (unneeded_writes.py keeps
        # a global_step increment only where it does; step_reads.py leaves such a read alone)
        with tf.control_dependencies([op for op in graph.get_operations()[first:]
                                      if op._is_stateful]):
            return variable.read_value()

    BaseOptimizer.apply_gradients = apply_gradients
    BaseOptimizer.iterations = BaseOptimizer.iterations.setter(_set_iterations)
    BaseOptimizer.get_gradients = _get_gradients
    BaseOptimizer.get_updates = _get_updates
    _PATCHED.append(original)


def _set_iterations(self, variable):
    """`optimizer.iterations = global_step`: the step counter apply_gradients increments."""
    variable = variable.value if isinstance(variable, keras.Variable) else variable
    if not isinstance(variable, tf.Variable) or not variable.dtype.is_integer:
        raise TypeError(f"{type(self).__name__}.iterations can only be set to an integer "
                        f"variable, such as tf.compat.v1.train.get_or_create_global_step(); "
                        f"got {variable!r}.")
    object.__setattr__(self, "_iterations", variable)  # not tracked: the model_fn's variable


def _get_gradients(self, loss, params):
    """Keras 2's `get_gradients`: tf.gradients of `loss` for `params` (graph mode only)."""
    if tf.executing_eagerly():
        raise RuntimeError(f"{type(self).__name__}.get_gradients needs a graph (a model_fn, or "
                           "tf.function); in eager code use tf.GradientTape and "
                           "apply_gradients.")
    tensors = [p.value if isinstance(p, keras.Variable) else p for p in params]
    grads = tf.gradients(loss, tensors)
    missing = [getattr(p, "name", str(p)) for p, g in zip(params, grads) if g is None]
    if missing:
        raise ValueError(f"Variables {missing} have no gradient for this loss: every op between "
                         "them and the loss must be differentiable (argmax, round and casts "
                         "to integers are not); pass only the variables the loss depends on.")
    return grads


def _get_updates(self, loss, params):
    """Keras 2's `get_updates`: `[the op applying loss's gradients to params]`."""
    return [self.apply_gradients(zip(self.get_gradients(loss, params), params))]
