"""List every public name TensorFlow 1.15 offered in `tf.contrib.<module>` and `tf.<module>`.

Run in the TF 1.15 side venv (Python 3.7, tensorflow==1.15.5); the output is committed as
`tests/fixtures/tf115_api.json` and drives the coverage test and the README's
coverage table:

    python tools/tf115_census.py > tests/fixtures/tf115_api.json
"""
import inspect
import json
import sys
import types

import tensorflow as tf


def kind(value):
    if isinstance(value, types.ModuleType):
        return "module"
    if inspect.isclass(value):
        return "class"
    if callable(value):
        return "function"
    return "constant"


def public(module):
    names = {}
    for name in sorted(dir(module)):
        if name.startswith("_"):
            continue
        try:
            value = getattr(module, name)
        except Exception:  # a lazy name TF 1.15 itself failed to load
            continue
        names[name] = kind(value)
    return names


def main():
    contrib = {}
    for name, k in public(tf.contrib).items():
        if k != "module":
            continue
        contrib[name] = public(getattr(tf.contrib, name))
    outside = {}
    for name, k in public(tf.compat.v1).items():
        if k == "module" and name not in ("contrib", "compat"):
            outside[name] = public(getattr(tf.compat.v1, name))
    json.dump({"tensorflow": tf.__version__, "contrib": contrib, "tf": outside,
               "tf_top": public(tf.compat.v1)}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
