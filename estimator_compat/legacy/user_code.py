"""Gives the TF 1.x view to the user's code only: the script and its own modules.

Python resolves `import` through the `__import__` of the importing module's builtins. The user's
modules (the script, and any module whose source lies outside the Python installation,
site-/dist-packages and estimator_compat: the script's directory, PYTHONPATH, a directory the
script puts on sys.path, an editable install of the user's own package) are executed with
builtins whose `__import__` answers `tensorflow` and `tensorflow.<x>` from `tf1_view`; every
other module, TensorFlow's and Keras' included, keeps the real `tensorflow`. Their source is
compiled with `dimension_value`'s rewrite and never cached as .pyc (a later plain `python` run
must not pick up the rewritten code).
"""
import builtins
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import site
import sys
import sysconfig
import types

from estimator_compat.legacy import dimension_value, graph_mode, tf1_view

_REAL_SUBPACKAGES = {"python", "core", "lite", "tools", "compiler", "dtensor", "tsl", "_api",
                     "security", "include", "libtensorflow_framework"}


def _walk(module, parts, dotted):
    for i, part in enumerate(parts):
        try:
            module = getattr(module, part)
        except AttributeError as e:
            registered = sys.modules.get(".".join(["tensorflow", *parts[:i + 1]]))
            if registered is None:
                raise ModuleNotFoundError(f"No module named {dotted!r} in TensorFlow 1.x's API "
                                          f"as estimator_compat serves it: {e}",
                                          name=dotted) from None
            module = registered
    return module


def tf1_import(name, globals=None, locals=None, fromlist=(), level=0):
    """`__import__` for user code: `tensorflow[.x]` from the TF 1.x view, all else as usual."""
    if level or not (name == "tensorflow" or name.startswith("tensorflow.")):
        return builtins.__import__(name, globals, locals, fromlist, level)
    parts = name.split(".")[1:]
    if parts and parts[0] in _REAL_SUBPACKAGES:
        return builtins.__import__(name, globals, locals, fromlist, level)
    view = tf1_view.build()
    target = _walk(view, parts, name)
    if fromlist:
        _check_names(target, name, fromlist)
    return target if fromlist else view


def _check_names(module, dotted, names):
    """`from <dotted> import <names>`: a name the view lacks raises ImportError with the
    view's reason (the replacement of a declined tf.contrib name), which Python's own
    "cannot import name" would drop."""
    for name in names:
        if name == "*" or sys.modules.get(f"{dotted}.{name}") is not None:
            continue
        try:
            getattr(module, name)
        except AttributeError as e:
            raise ImportError(f"cannot import name {name!r} from {dotted!r}: {e}",
                              name=dotted) from None


def user_builtins():
    """The builtins user modules run with."""
    namespace = dict(builtins.__dict__)
    namespace["__import__"] = tf1_import
    namespace[dimension_value.NAME] = dimension_value.dimension_value
    return namespace


def _installation_dirs():
    dirs = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))}
    dirs.update(sysconfig.get_paths().values())
    dirs.update(getattr(site, "getsitepackages", lambda: [])())
    return [os.path.realpath(d) for d in dirs if d]


def _inside(path, directory):
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


class _UserLoader(importlib.machinery.SourceFileLoader):
    def __init__(self, fullname, path, namespace):
        super().__init__(fullname, path)
        self._namespace = namespace

    def get_code(self, fullname):
        return dimension_value.compile_source(self.get_data(self.path), self.path)

    def exec_module(self, module):
        module.__dict__["__builtins__"] = self._namespace
        super().exec_module(module)


class UserCodeFinder(importlib.abc.MetaPathFinder):
    """Finds the user's own modules first and loads them with the TF 1.x builtins."""

    def __init__(self, namespace):
        self._excluded = _installation_dirs()
        self._namespace = namespace

    def owns(self, path):
        path = os.path.realpath(path)
        parts = set(path.split(os.sep))
        if "site-packages" in parts or "dist-packages" in parts:
            return False
        return not any(_inside(path, d) for d in self._excluded)

    def find_spec(self, fullname, path=None, target=None):
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if (spec is None or type(spec.loader) is not importlib.machinery.SourceFileLoader
                or not self.owns(spec.origin)):
            return None
        spec.loader = _UserLoader(fullname, spec.origin, self._namespace)
        return spec


def module_file(name):
    """The source file of module `name` (`-m package.module`, or a package's `__main__.py`),
    found on sys.path without importing its package (which must load with the TF 1.x view)."""
    parts = name.split(".")
    for entry in sys.path:
        base = os.path.join(entry or os.getcwd(), *parts)
        for path in (base + ".py", os.path.join(base, "__main__.py")):
            if os.path.isfile(path):
                return path
    raise SystemExit(f"estimator-compat: no module named {name!r} with Python source (looked "
                     f"for {os.path.join(*parts)}.py under {sys.path[0]} and the rest of "
                     "sys.path)")


def run_script(script, argv, module=None):
    """Runs `script` as `__main__` with `argv`, it and its own modules seeing TF 1.x's API, its
    thread in TF 1.x's graph mode. `module`: the script is that module of a package, run as
    `python -m module` runs it (its package imported first, relative imports working)."""
    script = os.path.abspath(script)
    namespace = user_builtins()
    sys.meta_path.insert(0, UserCodeFinder(namespace))
    sys.argv = [script] + list(argv)
    package, spec = None, None
    if module is None:
        sys.path.insert(0, os.path.dirname(script))
    else:
        if os.path.basename(script) == "__main__.py":  # `-m package`
            module += ".__main__"
        package = module.rpartition(".")[0] or None
        if package:
            importlib.import_module(package)  # with the TF 1.x view, through the finder
        spec = importlib.util.find_spec(module)
    with open(script, "rb") as f:
        code = dimension_value.compile_source(f.read(), script)
    main = types.ModuleType("__main__")
    main.__dict__.update(__file__=script, __builtins__=namespace, __cached__=None,
                         __loader__=None, __package__=package, __spec__=spec)
    sys.modules["__main__"] = main
    graph_mode.tf1_thread()  # as TF 1.15 ran the program (the engine's calls run eagerly)
    try:
        exec(code, main.__dict__)
    finally:
        graph_mode.tf2_thread()
