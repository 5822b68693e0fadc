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
    "autograph": "estimator_compat.legacy.contrib.autograph",
    "batching": "estimator_compat.legacy.contrib.batching",
    "bayesflow": "estimator_compat.legacy.contrib.bayesflow",
    "checkpoint": "estimator_compat.legacy.contrib.checkpoint",
    "cluster_resolver": "estimator_compat.legacy.contrib.cluster_resolver",
    "cloud": "estimator_compat.legacy.contrib.cloud",
    "compiler": "estimator_compat.legacy.contrib.compiler",
    "constrained_optimization": "estimator_compat.legacy.contrib.constrained_optimization",
    "copy_graph": "estimator_compat.legacy.contrib.copy_graph",
    "crf": "estimator_compat.legacy.contrib.crf",
    "cudnn_rnn": "estimator_compat.legacy.contrib.cudnn_rnn",
    "data": "estimator_compat.legacy.contrib.data",
    "deprecated": "estimator_compat.legacy.contrib.deprecated",
    "distribute": "estimator_compat.legacy.contrib.distribute",
    "distributions": "estimator_compat.legacy.contrib.distributions",
    "eager": "estimator_compat.legacy.contrib.eager",
    "estimator": "estimator_compat.legacy.contrib.estimator",
    "factorization": "estimator_compat.legacy.contrib.factorization",
    "feature_column": "estimator_compat.legacy.contrib.feature_column",
    "ffmpeg": "estimator_compat.legacy.contrib.ffmpeg",
    "framework": "estimator_compat.legacy.contrib.framework",
    "graph_editor": "estimator_compat.legacy.contrib.graph_editor",
    "grid_rnn": "estimator_compat.legacy.contrib.grid_rnn",
    "image": "estimator_compat.legacy.contrib.image",
    "input_pipeline": "estimator_compat.legacy.contrib.input_pipeline",
    "integrate": "estimator_compat.legacy.contrib.integrate",
    "keras": "estimator_compat.legacy.contrib.keras",
    "kernel_methods": "estimator_compat.legacy.contrib.kernel_methods",
    "labeled_tensor": "estimator_compat.legacy.contrib.labeled_tensor",
    "layers": "estimator_compat.legacy.contrib.layers",
    "learn": "estimator_compat.legacy.contrib.learn",
    "legacy_seq2seq": "estimator_compat.legacy.contrib.legacy_seq2seq",
    "linear_optimizer": "estimator_compat.legacy.contrib.linear_optimizer",
    "lookup": "estimator_compat.legacy.contrib.lookup",
    "losses": "estimator_compat.legacy.contrib.losses",
    "memory_stats": "estimator_compat.legacy.contrib.memory_stats",
    "metrics": "estimator_compat.legacy.contrib.metrics",
    "mixed_precision": "estimator_compat.legacy.contrib.mixed_precision",
    "model_pruning": "estimator_compat.legacy.contrib.model_pruning",
    "nn": "estimator_compat.legacy.contrib.nn",
    "opt": "estimator_compat.legacy.contrib.opt",
    "optimizer_v2": "estimator_compat.legacy.contrib.optimizer_v2",
    "periodic_resample": "estimator_compat.legacy.contrib.periodic_resample",
    "predictor": "estimator_compat.legacy.contrib.predictor",
    "proto": "estimator_compat.legacy.contrib.proto",
    "quantization": "estimator_compat.legacy.contrib.quantization",
    "quantize": "estimator_compat.legacy.contrib.quantize",
    "receptive_field": "estimator_compat.legacy.contrib.receptive_field",
    "recurrent": "estimator_compat.legacy.contrib.recurrent",
    "reduce_slice_ops": "estimator_compat.legacy.contrib.reduce_slice_ops",
    "remote_fused_graph": "estimator_compat.legacy.contrib.remote_fused_graph",
    "resampler": "estimator_compat.legacy.contrib.resampler",
    "rnn": "estimator_compat.legacy.contrib.rnn",
    "rpc": "estimator_compat.legacy.contrib.rpc",
    "saved_model": "estimator_compat.legacy.contrib.saved_model",
    "seq2seq": "estimator_compat.legacy.contrib.seq2seq",
    "signal": "estimator_compat.legacy.contrib.signal",
    "slim": "estimator_compat.legacy.contrib.slim",
    "solvers": "estimator_compat.legacy.contrib.solvers",
    "sparsemax": "estimator_compat.legacy.contrib.sparsemax",
    "specs": "estimator_compat.legacy.contrib.specs",
    "staging": "estimator_compat.legacy.contrib.staging",
    "stat_summarizer": "estimator_compat.legacy.contrib.stat_summarizer",
    "stateless": "estimator_compat.legacy.contrib.stateless",
    "summary": "estimator_compat.legacy.contrib.summary",
    "tensorboard": "estimator_compat.legacy.contrib.tensorboard",
    "testing": "estimator_compat.legacy.contrib.testing",
    "tfprof": "estimator_compat.legacy.contrib.tfprof",
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
