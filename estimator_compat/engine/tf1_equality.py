"""While a model_fn is traced, tensors and variables compare and hash by identity, as in the
TF1 graph where TF 1.15 and tf.estimator 2.15 built model_fns.

TF1 code filters variables with `in` and keys dicts by tensors: `[v for v in
tf.trainable_variables() if v not in frozen]`, `assert v in var_list` (TF-GAN), `{w: ...}`.
In a TF1 graph `==` on tensors and variables is `is` and they hash by id. In a `tf.function`
traced from eager code (where estimator_compat builds the steps) TensorFlow 2 makes `==`
element-wise (so `v in list` turns a symbolic tensor into a bool and fails) and tensors
unhashable. `identity_equality()` gives the calling thread TF1's rule for its duration; other
threads keep TensorFlow 2's (the switch TensorFlow itself has, `Tensor._USE_EQUALITY`, is
process-wide).
"""
import contextlib
import threading

from tensorflow.python.framework import tensor as tensor_lib
from tensorflow.python.ops import variables

_state = threading.local()
_IDENTITY = {"__eq__": lambda self, other: self is other,
             "__ne__": lambda self, other: self is not other,
             "__hash__": id}
_patched = []


def _by_identity_here(cls, name):
    original = cls.__dict__[name]

    def method(self, *args):
        if getattr(_state, "depth", 0):
            return _IDENTITY[name](self, *args)
        return original(self, *args)
    method.__name__ = name
    method.__doc__ = original.__doc__
    setattr(cls, name, method)


def _patch():
    if not _patched:
        for cls in (tensor_lib.Tensor, variables.Variable):
            for name in _IDENTITY:
                _by_identity_here(cls, name)
        _patched.append(True)


@contextlib.contextmanager
def identity_equality():
    """TF1's identity `==` / `!=` / hash for tensors and variables on this thread."""
    _patch()
    _state.depth = getattr(_state, "depth", 0) + 1
    try:
        yield
    finally:
        _state.depth -= 1
