"""Module objects for legacy namespaces that TensorFlow 2 no longer has (`tf.contrib.tpu`,
`tensorflow_estimator`): registered in sys.modules, so both attribute access and `import` work,
and a missing name is an error that says what replaced it."""
import sys
import types


class Namespace(types.ModuleType):
    """A legacy namespace: what it lacks is named in a clear error, not a bare AttributeError."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        from estimator_compat.legacy.contrib import missing
        dotted = f"{self.__name__}.{name}"
        if dotted.startswith("tensorflow.contrib."):
            raise AttributeError(missing.message(dotted[len("tensorflow.contrib."):]))
        raise AttributeError(f"{dotted.replace('tensorflow.', 'tf.')} is not provided by "
                             "TensorFlow 2 nor by estimator_compat: this TF1 API is not supported.")


def namespace(name, doc, **attrs):
    """The module `name` (made once, registered in sys.modules), with `attrs` set on it."""
    module = sys.modules.get(name)
    if module is None or not getattr(module, "__estimator_compat__", False):
        module = Namespace(name, doc)
        module.__estimator_compat__ = True
        module.__path__ = []  # a package: its unregistered children reach unserved_paths.py
        sys.modules[name] = module
    for key, value in attrs.items():
        setattr(module, key, value)
    return module
