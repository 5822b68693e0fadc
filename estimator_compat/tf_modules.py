"""Setting attributes on TensorFlow's API modules, through its lazy module wrappers.

`tf.compat.v1` is a wrapper object, and importing `tensorflow.compat.v1` (as
`import tensorflow.compat.v1 as tf` does) makes a second one and puts it in the first one's place;
user code may hold either. Every wrapper seen is remembered, and an attribute is set on all of
them and on the modules they wrap.
"""
import functools
import importlib
import sys

_SEEN = {}  # dotted name -> {id: module object}


def _remember(dotted, import_module=False):
    import tensorflow as tf
    seen = _SEEN.setdefault(dotted, {})
    candidates = [functools.reduce(getattr, dotted.split(".")[1:], tf), sys.modules.get(dotted)]
    if import_module:
        candidates.append(importlib.import_module(dotted))
    for module in candidates:
        for target in (module, getattr(module, "_tfmw_wrapped_module", None)):
            if target is not None:
                seen[id(target)] = target
    return list(seen.values())


def set_attr(dotted, name, value, import_module=False):
    """setattr(<the TF API module `dotted`>, name, value) on all its wrappers seen so far.

    `import_module`: also import it as a module, so `from dotted.name import x` works.
    """
    for target in _remember(dotted, import_module):
        setattr(target, name, value)


_remember("tensorflow.compat.v1")  # the wrapper user code holds before any import of ours
