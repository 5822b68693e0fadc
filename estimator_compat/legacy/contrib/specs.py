"""`tf.contrib.specs`, served whole: TF 1.15's small language for network specifications,
strings like `net = (Cr(64, [3, 3]) | Mp([2, 2])) ** 2 | Flat | Fs(10)` executed in an
environment of composable layer functions over tf.contrib.layers (slim), plus the parameter
language, and graph summaries. The parts are in `specs_parts/`; as in TF 1.15 the package
holds every public name of its five modules (params_ops, specs, specs_lib, specs_ops,
summaries, star-imported in that order, so `ops` is TensorFlow's framework module), and the
modules are importable by their TF 1.15 paths `tensorflow.contrib.specs.python.<module>`.
"""
import sys

_PREFIX = "tensorflow.contrib.specs"
_PARTS = ("params_ops", "specs", "specs_lib", "specs_ops", "summaries")
_BUILT = []


def _parts():
    from estimator_compat.legacy.contrib.specs_parts import (builder, params_ops, specs_lib,
                                                             specs_ops, summaries)
    return {"params_ops": params_ops, "specs": builder, "specs_lib": specs_lib,
            "specs_ops": specs_ops, "summaries": summaries}


def build():
    """The `tensorflow.contrib.specs` namespace (made once, the part modules registered)."""
    if not _BUILT:
        from estimator_compat.legacy.namespaces import namespace
        parts = _parts()
        served = {}
        for name in _PARTS:
            sys.modules[f"{_PREFIX}.python.{name}"] = parts[name]
            served.update({k: v for k, v in vars(parts[name]).items() if not k.startswith("_")})
        served.update(parts)
        namespace(f"{_PREFIX}.python", "tf.contrib.specs' python package", **served)
        module = namespace(_PREFIX, "tf.contrib.specs (TF 1.15's names; estimator_compat)",
                           __served_whole__=True, **served)
        _BUILT.append(module)
    return _BUILT[0]
