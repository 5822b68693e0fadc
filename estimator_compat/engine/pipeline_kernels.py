"""While a call builds its input pipeline, tf.data's ops run as plain eager kernels.

TensorFlow runs each eager op as a one-op function and caches that function's instantiation
per op signature (the eager kernel cache), except tf.data's dataset ops, which it never caches
(one given a traced function would have a new key each time). So every `from_tensor_slices`,
`batch`, `prefetch`, `with_options` an input_fn makes, call after call, instantiates and
optimises a function anew: 0.4-0.6 ms an op, 3.7 ms of a 35 ms MLP predict whose input_fn
slices numpy arrays. Run as plain kernels (TensorFlow's path before ops ran as functions,
still behind `TFE_ContextSetRunEagerOpAsFunction`) the same ops take 50 us and build the same
datasets. Keras pays the 0.5 ms for each dataset op it makes.

Only primitive ops take the switch (a tf.function call runs as a function either way). It is
TensorFlow's context-wide setting, so it is held while any thread builds a pipeline and put
back when the last one is done (TensorFlow's Python always runs ops as functions). Where the
switch is not there (another TensorFlow), pipelines are built the usual way.
"""
import contextlib
import threading

import tensorflow as tf

try:  # private TensorFlow modules
    from tensorflow.python import pywrap_tfe
    from tensorflow.python.eager import context as eager_context
    _switch = pywrap_tfe.TFE_ContextSetRunEagerOpAsFunction
except (ImportError, AttributeError):  # pragma: no cover
    _switch = None

_lock = threading.Lock()
_holders = 0  # threads building a pipeline now


@contextlib.contextmanager
def building():
    """Dataset ops made inside run as plain kernels (see the module docstring)."""
    global _holders
    if _switch is None or not tf.executing_eagerly():
        yield
        return
    with _lock:
        _holders += 1
        if _holders == 1:
            _set(as_function=False)
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0:
                _set(as_function=True)


def _set(as_function):
    global _switch
    if _switch is None:
        return
    try:
        ctx = eager_context.context()
        ctx.ensure_initialized()
        _switch(ctx._handle, as_function)
    except (AttributeError, TypeError):  # another TensorFlow's context: the usual way
        _switch = None
