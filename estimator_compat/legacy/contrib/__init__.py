"""`tf.contrib`, served module by module (TensorFlow 2 removed the whole package).

Each `tf.contrib.<module>` is built by the module of ours that `MODULES` names: its `build()`
returns the namespace (`legacy.namespaces.namespace`, registered in `sys.modules` with its deep
TF 1.15 import paths), with the names TF 1.15 had there. A namespace that sets
`__served_whole__` claims every public name TF 1.15 had in that module (the coverage test holds
it to that: `tools/contrib_coverage.py`, `tests/test_contrib_coverage.py`). Any other
`tf.contrib.<name>` raises an error naming its TensorFlow 2 replacement (see `missing`).
"""
import importlib

# tf.contrib.<name>: the module of ours whose build() makes it (one module per contrib part)
MODULES = {
    "cluster_resolver": "estimator_compat.legacy.contrib.cluster_resolver",
    "data": "estimator_compat.legacy.contrib.data",
    "estimator": "estimator_compat.legacy.contrib.estimator",
    "framework": "estimator_compat.legacy.contrib.framework",
    "layers": "estimator_compat.legacy.contrib.layers",
    "learn": "estimator_compat.legacy.contrib.learn",
    "lookup": "estimator_compat.legacy.contrib.lookup",
    "metrics": "estimator_compat.legacy.contrib.metrics",
    "rnn": "estimator_compat.legacy.contrib.rnn",
    "tpu": "estimator_compat.legacy.contrib.tpu",
    "training": "estimator_compat.legacy.contrib.training",
}

_BUILT = []


def build():
    """The `tensorflow.contrib` module (made once, its submodules in sys.modules)."""
    if _BUILT:
        return _BUILT[0]
    from estimator_compat.legacy.namespaces import namespace

    contrib = namespace("tensorflow.contrib", "tf.contrib, as far as estimator_compat serves it")
    for name, path in sorted(MODULES.items()):
        setattr(contrib, name, importlib.import_module(path).build())
    _BUILT.append(contrib)
    return contrib
