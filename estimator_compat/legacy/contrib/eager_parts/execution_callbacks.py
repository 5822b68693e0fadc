"""TF 1.15's eager execution callbacks (`tfe.add_execution_callback`, `seterr`, `errstate`,
the inf / nan checks) on TensorFlow 2's op callbacks, which TensorFlow 2 kept for
`tf.debugging.enable_check_numerics`.

A callback `f(op_type, inputs, attrs, outputs, op_name)` runs after each eagerly executed op
or function, in the order added; ops built into a graph do not call it (TF 1.15's callbacks
were eager-only). Its return value is ignored. Callbacks belong to the thread that added
them, as TF 1.15's eager context kept them.
"""
import contextlib
import enum
import functools
import logging
import threading

import numpy as np
from tensorflow.python.eager import context
from tensorflow.python.framework import op_callbacks

_THREAD = threading.local()  # .callbacks: this thread's post-execution callbacks, in order


def _callbacks():
    if not hasattr(_THREAD, "callbacks"):
        _THREAD.callbacks = []
    return _THREAD.callbacks


class ExecutionCallback(enum.Enum):
    """What `seterr` / `errstate` do when an op's output holds an inf or a NaN."""

    IGNORE = "ignore"
    PRINT = "print"
    RAISE = "raise"
    WARN = "warn"


_DEFAULT_ACTION = ExecutionCallback.RAISE


class InfOrNanError(Exception):
    """An eagerly executed op's output held an inf or a NaN."""

    def __init__(self, op_type, op_name, output_index, num_outputs, value):
        self.op_type, self.op_name = op_type, op_name
        self.output_index, self.num_outputs, self.value = output_index, num_outputs, value
        infs, nans = np.count_nonzero(np.isinf(value)), np.count_nonzero(np.isnan(value))
        found = (f"{infs} inf(s) and {nans} nan(s)" if infs and nans
                 else f"{infs} inf(s)" if infs else f"{nans} nan(s)")
        name = repr(op_name) if op_name is not None else "None"
        super().__init__(f"Output {output_index + 1} of {num_outputs} of TFE operation "
                         f"{op_type} (name: {name}) contains {found} out of a total of "
                         f"{np.size(value)} element(s). Tensor value: {value}")


def inf_nan_callback(op_type, inputs, attrs, outputs, op_name, check_inf=True, check_nan=True,
                     action=_DEFAULT_ACTION):
    """Checks each output for infs / NaNs; `action` says what a hit does (raise
    InfOrNanError, print, warn)."""
    del inputs, attrs
    action = ExecutionCallback(action)
    for index, output in enumerate(outputs):
        if not (output.dtype.is_floating or output.dtype.is_complex):
            continue  # integers hold neither
        value = output.numpy()
        if not ((check_inf and np.any(np.isinf(value))) or
                (check_nan and np.any(np.isnan(value)))):
            continue
        error = InfOrNanError(op_type, op_name, index, len(outputs), value)
        if action == ExecutionCallback.PRINT:
            print("Warning: %s" % error)
        elif action == ExecutionCallback.WARN:
            logging.getLogger("tensorflow").warning(str(error))
        elif action == ExecutionCallback.RAISE:
            raise error
        else:
            raise ValueError("Invalid action for inf_nan_callback: %s. Valid actions are: "
                             "{PRINT | WARN | RAISE}" % action)


def inf_callback(op_type, inputs, attrs, outputs, op_name, action=_DEFAULT_ACTION):
    """`inf_nan_callback` checking infs only."""
    inf_nan_callback(op_type, inputs, attrs, outputs, op_name, check_inf=True,
                     check_nan=False, action=action)


def nan_callback(op_type, inputs, attrs, outputs, op_name, action=_DEFAULT_ACTION):
    """`inf_nan_callback` checking NaNs only."""
    inf_nan_callback(op_type, inputs, attrs, outputs, op_name, check_inf=False,
                     check_nan=True, action=action)


def _dispatch(op_type, inputs, attrs, outputs, op_name=None, graph=None):
    callbacks = _callbacks()
    if graph is not None or not callbacks:
        return None
    op_type = op_type.decode() if isinstance(op_type, bytes) else op_type
    for callback in list(callbacks):
        callback(op_type, inputs, attrs, outputs, op_name)
    return None


def add_execution_callback(callback):
    """Calls `callback(op_type, inputs, attrs, outputs, op_name)` after each eager op."""
    callbacks = _callbacks()
    if not callbacks:
        op_callbacks.add_op_callback(_dispatch)
    callbacks.append(callback)


def clear_execution_callbacks():
    """Removes every execution callback."""
    callbacks = _callbacks()
    if callbacks:
        del callbacks[:]
        op_callbacks.remove_op_callback(_dispatch)


def _is_inf_nan(callback):
    return callback is inf_nan_callback or (isinstance(callback, functools.partial)
                                            and callback.func is inf_nan_callback)


def seterr(inf_or_nan=None):
    """Sets the action for infs and NaNs in eager ops' outputs (None: unchanged); returns the
    old settings, `{"inf_or_nan": ExecutionCallback}`."""
    inf_or_nan = ExecutionCallback(inf_or_nan) if inf_or_nan is not None else None
    old = {"inf_or_nan": ExecutionCallback.IGNORE}
    for callback in _callbacks():
        if _is_inf_nan(callback):
            old["inf_or_nan"] = (_DEFAULT_ACTION if callback is inf_nan_callback
                                 else callback.keywords.get("action", _DEFAULT_ACTION))
    if inf_or_nan is not None:
        kept = [c for c in _callbacks() if not _is_inf_nan(c)]
        clear_execution_callbacks()
        for callback in kept:
            add_execution_callback(callback)
        if inf_or_nan != ExecutionCallback.IGNORE:
            add_execution_callback(functools.partial(inf_nan_callback, action=inf_or_nan))
    return old


@contextlib.contextmanager
def errstate(inf_or_nan=None):
    """`seterr(inf_or_nan)` for the block (nothing in graph mode)."""
    if not context.executing_eagerly():
        yield
        return
    old = seterr(inf_or_nan=inf_or_nan)
    yield
    seterr(**old)
