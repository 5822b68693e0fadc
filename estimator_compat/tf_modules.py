"""Setting attributes on TensorFlow's API modules, through its lazy module wrappers.

`tf.compat.v1` is a wrapper object, and importing `tensorflow.compat.v1` (as
`import tensorflow.compat.v1 as tf` does) makes a second one; references to either may be held by
user code. An attribute is set on every such object and on the modules they wrap.
"""
import functools
import importlib
import sys


def set_attr(dotted, name, value, import_module=False):
    """setattr(<the TF API module `dotted`>, name, value) on all its live wrappers.

    `import_module`: also import it as a module, so `from dotted.name import x` works.
    """
    import tensorflow as tf
    parts = dotted.split(".")[1:]
    candidates = [functools.reduce(getattr, parts, tf)]
    if import_module:
        candidates.append(importlib.import_module(dotted))
    candidates.append(sys.modules.get(dotted))
    done = set()
    for module in candidates:
        for target in (module, getattr(module, "_tfmw_wrapped_module", None)):
            if target is not None and id(target) not in done:
                setattr(target, name, value)
                done.add(id(target))
