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
    "checkpoint": "estimator_compat.legacy.contrib.checkpoint",
    "cluster_resolver": "estimator_compat.legacy.contrib.cluster_resolver",
    "crf": "estimator_compat.legacy.contrib.crf",
    "cudnn_rnn": "estimator_compat.legacy.contrib.cudnn_rnn",
    "data": "estimator_compat.legacy.contrib.data",
    "deprecated": "estimator_compat.legacy.contrib.deprecated",
    "distribute": "estimator_compat.legacy.contrib.distribute",
    "estimator": "estimator_compat.legacy.contrib.estimator",
    "factorization": "estimator_compat.legacy.contrib.factorization",
    "feature_column": "estimator_compat.legacy.contrib.feature_column",
    "framework": "estimator_compat.legacy.contrib.framework",
    "image": "estimator_compat.legacy.contrib.image",
    "keras": "estimator_compat.legacy.contrib.keras",
    "layers": "estimator_compat.legacy.contrib.layers",
    "learn": "estimator_compat.legacy.contrib.learn",
    "legacy_seq2seq": "estimator_compat.legacy.contrib.legacy_seq2seq",
    "lookup": "estimator_compat.legacy.contrib.lookup",
    "losses": "estimator_compat.legacy.contrib.losses",
    "metrics": "estimator_compat.legacy.contrib.metrics",
    "mixed_precision": "estimator_compat.legacy.contrib.mixed_precision",
    "nn": "estimator_compat.legacy.contrib.nn",
    "opt": "estimator_compat.legacy.contrib.opt",
    "predictor": "estimator_compat.legacy.contrib.predictor",
    "rnn": "estimator_compat.legacy.contrib.rnn",
    "saved_model": "estimator_compat.legacy.contrib.saved_model",
    "seq2seq": "estimator_compat.legacy.contrib.seq2seq",
    "signal": "estimator_compat.legacy.contrib.signal",
    "slim": "estimator_compat.legacy.contrib.slim",
    "sparsemax": "estimator_compat.legacy.contrib.sparsemax",
    "stateless": "estimator_compat.legacy.contrib.stateless",
    "summary": "estimator_compat.legacy.contrib.summary",
    "timeseries": "estimator_compat.legacy.contrib.timeseries",
    "tpu": "estimator_compat.legacy.contrib.tpu",
    "training": "estimator_compat.legacy.contrib.training",
    "util": "estimator_compat.legacy.contrib.util",
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
