"""Imports the `tf_slim` package (TF-Slim, where tf.contrib's layers, arg_scope, variable helpers,
learning/evaluation loops and nets live for TensorFlow 2's graph mode) on TensorFlow 2.21.

tf_slim's layers import `tensorflow.python.layers.normalization`, which on TensorFlow 2.16+ only
lazy-loads `tf_keras`; where that fails, tf_slim gets its `BatchNormalization` from
`slim_batch_norm` (TF 1.15's behaviour). tf_slim 1.1 also reads a few names TensorFlow's
private modules have since dropped (`ops.Tensor`, `array_ops.stack`, `control_flow_ops.cond`,
...). So each tf_slim module gets, in place of such a module, a view of it that adds them
(`_EXTRAS`). With resource variables, `moving_averages.assign_moving_average` returns an
unhashable variable object, which tf_slim puts in UPDATE_OPS and later in a set(): its view
returns the updated value as a tensor, as TF 1.15's did, and, for batch_norm's updates made
inside a `tf.function` (the Estimator's model_fn, where TensorFlow 2's tensors are unhashable
too), the update op (`_UPDATE_RESULTS`). `create_train_op` and `optimize_loss` put tensors in
sets and look them up in lists, which in a `tf.function` TensorFlow 2 turns into elementwise
`==`: they run with TF 1.x's identity equality (`_IDENTITY_EQUALITY`), as the k-means graph
does here. TensorFlow's own modules are not changed.
"""
import functools
import importlib
import pkgutil
import types

import tensorflow as tf

_LOADED = []

# names tf_slim reads from TensorFlow's private modules that TensorFlow 2.21 no longer has there
_EXTRAS = {
    "tensorflow.python.framework.ops": {"Tensor": tf.Tensor, "IndexedSlices": tf.IndexedSlices},
    "tensorflow.python.ops.array_ops": {"stack": tf.stack, "unstack": tf.unstack},
    "tensorflow.python.ops.control_flow_ops": {
        "cond": tf.compat.v1.cond, "case": tf.compat.v1.case,
        "while_loop": tf.compat.v1.while_loop, "Assert": tf.debugging.Assert},
    "tensorflow.python.ops.variable_scope": {"variable": tf.compat.v1.Variable},
}


def _as_tensor(function, op_in_functions=False):
    """`function`, its variable results (a resource variable's pending update) as tensors, or
    with `op_in_functions` as the update's op where the graph is a function's."""
    def call(*args, **kwargs):
        result = function(*args, **kwargs)
        if isinstance(result, tf.Variable):
            result = tf.convert_to_tensor(result)
        if op_in_functions and isinstance(result, tf.Tensor) and \
                getattr(result.graph, "building_function", False):
            return result.op
        return result
    call.__name__, call.__doc__ = function.__name__, function.__doc__
    return call


# functions whose results tf_slim hashes or collects: {(tf_slim module or "*", module): names}
_UPDATE_RESULTS = {
    ("*", "tensorflow.python.training.moving_averages"): ("assign_moving_average",),
    ("tf_slim.layers.layers", "tensorflow.python.training.moving_averages"): (
        "assign_moving_average",),
}


# functions that compare or hash tensors as TF 1.x did: {tf_slim module: names}
_IDENTITY_EQUALITY = {"tf_slim.training.training": ("create_train_op",),
                      "tf_slim.learning": ("create_train_op",),
                      "tf_slim.layers.optimizers": ("optimize_loss",)}


def _with_identity_equality(function):
    """`function`, run with TF 1.x's tensor `==` and hash (identity) even inside a tf.function."""
    @functools.wraps(function)
    def call(*args, **kwargs):
        saved = tf.Tensor._USE_EQUALITY  # Variable.__eq__ reads the same flag
        tf.compat.v1.disable_tensor_equality()
        try:
            return function(*args, **kwargs)
        finally:
            tf.Tensor._USE_EQUALITY = saved
    call.__estimator_compat_wrapped__ = True
    return call


class _ModuleView(types.ModuleType):
    """A TensorFlow module as tf_slim sees it: its own names, plus the ones it lost (or whose
    lazy import fails)."""

    def __init__(self, module, extras):
        super().__init__(module.__name__, module.__doc__)
        self.__dict__.update(extras)
        self._module = module

    def __getattr__(self, name):
        return getattr(self.__dict__["_module"], name)


def _patch_module_globals(package):
    """Point every tf_slim module's TensorFlow module globals in `_EXTRAS` at a view."""
    modules = [package]
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if not info.name.endswith("_test") and not info.name.endswith("test_utils"):
            modules.append(importlib.import_module(info.name))
    for module in modules:
        for key, value in list(vars(module).items()):
            name = getattr(value, "__name__", None)
            if not isinstance(value, types.ModuleType) or isinstance(value, _ModuleView):
                continue
            extras = {k: v for k, v in _EXTRAS.get(name, {}).items()
                      if not _has(value, k)}
            exact = _UPDATE_RESULTS.get((module.__name__, name))
            extras.update({k: _as_tensor(getattr(value, k), op_in_functions=exact is not None)
                           for k in exact or _UPDATE_RESULTS.get(("*", name), ())})
            if extras:
                setattr(module, key, _ModuleView(value, extras))
    wrapped = {}
    for module_name, names in _IDENTITY_EQUALITY.items():
        for name in names:
            original = getattr(importlib.import_module(module_name), name)
            wrapped[id(original)] = _with_identity_equality(original)
    for module in modules:  # every reference to them (tf_slim re-exports them)
        for key, value in list(vars(module).items()):
            if id(value) in wrapped:
                setattr(module, key, wrapped[id(value)])


def _has(module, name):
    """hasattr() that also takes a lazy import failing (tf_keras absent) as "no"."""
    try:
        getattr(module, name)
        return True
    except (ImportError, AttributeError):
        return False


def tf_slim():
    """The `tf_slim` module, with TF1's BatchNormalization layer available to it."""
    if not _LOADED:
        try:
            normalization = importlib.import_module("tensorflow.python.layers.normalization")
        except ImportError as error:
            raise ImportError("tf.contrib.layers / tf.contrib.slim need TensorFlow's TF1 layer "
                              f"modules (tensorflow.python.layers): {error}") from error
        if not _has(normalization, "BatchNormalization"):
            from estimator_compat.legacy.contrib import slim_batch_norm
            _EXTRAS[normalization.__name__] = {
                "BatchNormalization": slim_batch_norm.BatchNormalization,
                "BatchNorm": slim_batch_norm.BatchNormalization,
                "batch_normalization": slim_batch_norm.batch_normalization,
                "batch_norm": slim_batch_norm.batch_normalization}
        try:
            package = importlib.import_module("tf_slim")
        except ImportError as error:
            raise ImportError("tf.contrib.layers / tf.contrib.slim are served by the tf_slim "
                              "package: pip install tf-slim") from error
        _patch_module_globals(package)
        _LOADED.append(package)
    return _LOADED[0]


def public(module):
    """{name: value} of a module's public names: its `__all__` and what it defines itself."""
    names = list(getattr(module, "__all__", ()))
    names += [n for n, v in vars(module).items() if not n.startswith("_")
              and getattr(v, "__module__", None) == module.__name__ and n not in names]
    return {n: getattr(module, n) for n in names}


def deep_paths(prefix, modules):
    """Registers `{prefix}.{path}` for each `path: module or {name: value}` in `modules` (the
    TF 1.15 module paths code imported from), each set on its parent package; returns
    {path: namespace}."""
    from estimator_compat.legacy.namespaces import namespace
    made = {}
    for path, source in modules.items():
        attrs = source if isinstance(source, dict) else public(source)
        made[path] = namespace(f"{prefix}.{path}", f"tf.contrib's {path.replace('.', '/')}.py",
                               **attrs)
    for path, module in made.items():  # a package's submodules are its attributes too, where
        parent, _, child = path.rpartition(".")  # TF 1.15's __init__ did not shadow them
        if parent in made and child not in vars(made[parent]):
            setattr(made[parent], child, module)
    return made
