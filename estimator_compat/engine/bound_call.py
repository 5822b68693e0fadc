"""A compiled step bound to one call's iterator: its concrete function is found once per
iterator type, then called with the iterator's flat inputs.

Calling a `tf.function` hashes its arguments' type spec to find the trace, and an iterator's
spec names every feature: on the canned wide & deep model (22 features) the lookup and the
argument binding took 0.3–0.6 ms a step, a tenth of the step. An iterator's flat inputs (its
resource handle) do not change while it lives, so they are computed once; the concrete
function is kept per (function, iterator spec), since `get_concrete_function` took up to 25 ms,
more than a whole small evaluate call, when asked anew for each call's iterator.
"""
import tensorflow as tf

from estimator_compat.engine import iterator_reaper

_KEPT = 8  # concrete functions kept: a step's one- and several-step functions, a few specs


class BoundCall:
    """`call(fn, iterator, *tensors)`: `fn(iterator, *tensors)`, without the per-call lookup."""

    def __init__(self):
        self._fn = self._iterator = self._concrete = self._flat = None
        self._concretes = {}  # (fn, iterator spec, tensor specs) -> concrete function

    def call(self, fn, iterator, *tensors):
        if fn is not self._fn or iterator is not self._iterator:
            self._bind(fn, iterator, tensors)
        if self._concrete is None:  # not a plain iterator: the tf.function's own call
            return fn(iterator, *tensors)
        return self._concrete._call_flat(self._flat + list(tensors),
                                         self._concrete.captured_inputs)

    def release(self):
        """Ends the call: its iterator is destroyed off-thread now (where this held its last
        reference), not at the next call's bind or at interpreter exit."""
        self._fn = self._concrete = self._flat = None
        iterator_reaper.release(self, "_iterator")

    def concrete(self, fn, iterator, *tensors):
        """`fn`'s concrete function for this iterator's (and tensors') specs, traced on first
        use; None for an iterator that is not a plain tf.data one (e.g. distributed)."""
        if isinstance(iterator, tf.distribute.DistributedIterator) or not isinstance(
                iterator, tf.data.Iterator):
            return None
        key = (fn, tf.type_spec_from_value(iterator),
               tuple(tf.TensorSpec.from_tensor(t) for t in tensors))
        concrete = self._concretes.get(key)
        if concrete is None:
            concrete = fn.get_concrete_function(iterator, *tensors)
            if len(self._concretes) >= _KEPT:
                self._concretes.clear()
            self._concretes[key] = concrete
        return concrete

    def _bind(self, fn, iterator, tensors):
        if iterator is not self._iterator:  # the last call's iterator: destroyed off-thread
            self.release()
        self._fn, self._iterator, self._concrete = fn, iterator, None
        concrete = self.concrete(fn, iterator, *tensors)
        if concrete is None:
            return
        flat = tf.nest.flatten(iterator, expand_composites=True)
        arguments = len(concrete.inputs) - len(concrete.captured_inputs)
        if hasattr(concrete, "_call_flat") and len(flat) + len(tensors) == arguments:
            self._concrete, self._flat = concrete, flat
