"""tensorflow_estimator 2.15's `python/estimator/` module tree, mapped onto estimator_compat:
`modules()` gives {module path: {name: object}} for legacy/module_paths.py to register under
`tensorflow_estimator.python.estimator.` and `tensorflow.python.estimator.`.

One file per area (api, canned, heads, hooks, export, inputs, tpu, core); each has `modules()`
and a `DECLINED` table {path: {name: reason}} of the names it deliberately leaves out (private
internals nobody imports, or features estimator_compat does not serve): asking a module for
one of them is the clear AttributeError every legacy namespace gives.
"""
from estimator_compat.legacy.estimator_tree import (api, canned, core, export, heads, hooks,
                                                    inputs, tpu)

AREAS = (api, canned, core, export, heads, hooks, inputs, tpu)


def modules():
    """{path under python/estimator/: {name: object}}, every area merged."""
    out = {}
    for area in AREAS:
        for path, names in area.modules().items():
            out.setdefault(path, {}).update(names)
    return out


def declined():
    """{path: {name: reason}} of the names left out on purpose."""
    out = {}
    for area in AREAS:
        for path, names in getattr(area, "DECLINED", {}).items():
            out.setdefault(path, {}).update(names)
    return out
