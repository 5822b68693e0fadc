"""List tensorflow_estimator 2.15's module tree and the classes and functions each module defined.

Run in the TF 2.15 side venv (tensorflow-cpu==2.15.1, tensorflow-estimator==2.15.0); the output
is committed as `tests/fixtures/tf_estimator_215_tree.json` and drives the module-tree coverage
test (`tests/test_estimator_module_tree.py`):

    python tools/tf_estimator_census.py > tests/fixtures/tf_estimator_215_tree.json
"""
import importlib
import inspect
import json
import os
import pkgutil
import sys

import tensorflow_estimator

PREFIX = "tensorflow_estimator.python.estimator"


def defined(module):
    """{name: kind} of the classes and functions `module` defines itself (private ones too:
    libraries subclass `canned.head._Head`), not those it imports."""
    out = {}
    for name, value in vars(module).items():
        if name.startswith("__") or not (inspect.isclass(value) or inspect.isfunction(value)):
            continue
        if getattr(value, "__module__", None) == module.__name__:
            out[name] = "class" if inspect.isclass(value) else "function"
    return out


def exported(module):
    """{name: kind} of a generated API module (`api._v1.estimator`): the public names it
    re-exports, modules left out."""
    out = {}
    for name, value in vars(module).items():
        if name.startswith("_") or inspect.ismodule(value):
            continue
        out[name] = ("class" if inspect.isclass(value) else
                     "function" if callable(value) else "constant")
    return out


def main():
    root = os.path.join(os.path.dirname(tensorflow_estimator.__file__), "python", "estimator")
    tree = {}
    for info in pkgutil.walk_packages([root], PREFIX + "."):
        name = info.name
        if name.endswith("_test") or "testing" in name.split(".")[-1]:
            continue
        try:
            module = importlib.import_module(name)
        except Exception as error:  # noqa: BLE001 - a module 2.15 itself failed to import
            sys.stderr.write("%s: %s\n" % (name, error))
            continue
        path = name[len(PREFIX) + 1:]
        tree[path] = exported(module) if path.startswith("api") else defined(module)
    json.dump({"tensorflow_estimator": "2.15.0", "modules": tree}, sys.stdout, indent=1,
              sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
