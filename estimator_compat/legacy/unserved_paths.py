"""Imports of legacy module paths that estimator_compat does not serve fail with an error that
says so and names the replacement, in every import form.

The legacy namespaces (`tensorflow.contrib`, `tensorflow.python.estimator`,
`tensorflow_estimator`) are packages (`legacy/namespaces.py` gives them `__path__`), so Python
asks the finders on `sys.meta_path` for a child that is not in `sys.modules`; this finder, last
on that list, answers for those prefixes with a `ModuleNotFoundError` carrying the text. Without
it, `import tensorflow.python.estimator.canned.head` said "'...canned' is not a package" and
`from tensorflow.contrib import slim` Python's bare "cannot import name 'slim' ... (unknown
location)", and the hint was lost.
"""
import importlib.abc
import sys

PREFIXES = ("tensorflow.contrib.", "tensorflow.python.estimator.", "tensorflow_estimator.")


def message(fullname):
    """Why `fullname` does not import, and what to use instead."""
    if fullname.startswith("tensorflow.contrib."):
        from estimator_compat.legacy.contrib import missing
        return missing.message(fullname[len("tensorflow.contrib."):])
    return (f"No module named {fullname!r}: estimator_compat does not serve this module of "
            "tensorflow_estimator (TensorFlow 2.16 removed tf.estimator). Its public API is "
            "served as tf.estimator and tf.compat.v1.estimator (import estimator_compat; "
            "estimator_compat.install()), the module paths code imported most under "
            "tensorflow_estimator.python.estimator and tensorflow.python.estimator.")


class UnservedPathFinder(importlib.abc.MetaPathFinder):
    """Raises the clear error for a child of a legacy namespace that is not registered."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(PREFIXES) or fullname in sys.modules:
            return None
        # name=None: `from package import child` re-raises it instead of Python's generic text
        raise ModuleNotFoundError(message(fullname), name=None)


def install():
    """Appends the finder to sys.meta_path (once): every other finder is asked first."""
    if not any(isinstance(f, UnservedPathFinder) for f in sys.meta_path):
        sys.meta_path.append(UnservedPathFinder())
