"""The API's calls run eagerly, whatever mode the caller's thread is in.

A TF 1.x program runs in graph mode on its own thread, as TensorFlow 1.15 ran it (its
`tf.Session`, `tf.gradients` and top-level placeholders need that; see
`legacy/graph_mode.py`). The engine is TensorFlow 2: `tf.function` steps, `tf.distribute`,
eager iterators. So each entry point the program calls (`Estimator.train`, `evaluate`,
`predict`, export, `train_and_evaluate`, ...) switches its thread to eager execution for the
duration of the call, and back. A prediction generator does so at each resumption.
"""
import contextlib
import functools
import threading

from tensorflow.python.eager import context
from tensorflow.python.framework import ops
from tensorflow.python.ops import variable_scope

_CALLS = threading.local()


def in_engine_call():
    """Whether this thread is inside an estimator_compat call (graphs built here are the
    engine's, not the program's)."""
    return getattr(_CALLS, "depth", 0) > 0


def in_program_code():
    """Whether this thread runs the program's own top-level code: not an API call, nor a
    graph an API call builds from the program's functions (`program_graph`)."""
    return not in_engine_call() and not getattr(_CALLS, "program_graph", False)


@contextlib.contextmanager
def eager():
    """Eager execution on this thread for the block (a no-op where it already is, or inside a
    function being traced)."""
    _CALLS.depth = getattr(_CALLS, "depth", 0) + 1
    try:
        if context.executing_eagerly() or ops.get_default_graph().building_function:
            yield
        else:
            # the program's graph keeps a root variable scope made in graph mode (one made
            # by eager code would give its later get_variable calls resource variables)
            variable_scope.get_variable_scope()
            with context.eager_mode():
                yield
    finally:
        _CALLS.depth -= 1


@contextlib.contextmanager
def program_graph():
    """The program's own code building a TF1 graph of its own inside an API call (an input_fn
    run in a session, the train graph of a .meta): it gets the program's variable defaults
    (TF 1.x programs: reference variables), not the engine's."""
    depth, inside = getattr(_CALLS, "depth", 0), getattr(_CALLS, "program_graph", False)
    _CALLS.depth, _CALLS.program_graph = 0, True
    try:
        yield
    finally:
        _CALLS.depth, _CALLS.program_graph = depth, inside


def eager_entry(fn):
    """Decorates an API function or method: it runs under `eager()`."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        with eager():
            return fn(*args, **kwargs)
    return call


def eager_generator(generator, chunked=False):
    """Wraps a generator so that its body runs under `eager()` at each resumption and when it
    is closed (a caller that stops reading a predict loop early). `chunked`: the generator
    yields iterables of items (a call's examples, made by numpy alone), whose items are
    handed out without switching modes per item."""
    while True:
        with eager():
            try:
                item = next(generator)
            except StopIteration:
                return
        try:
            if chunked:
                yield from item
            else:
                yield item
        except GeneratorExit:
            with eager():
                generator.close()
            raise
