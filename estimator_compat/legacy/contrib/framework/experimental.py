"""contrib.framework's `experimental` decorator (`tf.contrib.slim.experimental`): the function
works as before; its docstring says it is experimental and its first call logs a warning."""
import functools

import tensorflow as tf


def experimental(func):
    """Marks `func` experimental: a note in its docstring, a warning logged at its first call."""
    warned = []

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if not warned:
            warned.append(True)
            tf.compat.v1.logging.warning(
                "%s (from %s) is experimental and may change or be removed at any time, and "
                "without warning.", func.__name__, func.__module__)
        return func(*args, **kwargs)
    wrapper.__doc__ = (f"{func.__doc__ or ''}\n\nTHIS FUNCTION IS EXPERIMENTAL. It may change or "
                       "be removed at any time, and without warning.")
    return wrapper
