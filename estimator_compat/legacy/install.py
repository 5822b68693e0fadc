"""`install()`: legacy imports of tf.estimator, tf.contrib and the TF1 layers resolve here.

Idempotent; replaces nothing TensorFlow 2 still provides working. What maps where is listed in
the package docstring (`estimator_compat.legacy`).
"""
import sys

from estimator_compat.tf_modules import set_attr

_INSTALLED = []


def install():
    """Registers the aliases; returns the `estimator_compat` package (as `tf.estimator`)."""
    import tensorflow as tf

    import estimator_compat as api
    from estimator_compat import experimental, export, inputs, keras_bridge, tpu
    from estimator_compat.legacy import (contrib, graph_mode, keras_legacy,
                                         keras_tf1_optimizers, module_paths, python_compat,
                                         reduction_gradients, rnn_cells, unserved_paths)
    from estimator_compat.legacy import estimator_v1 as compat_v1
    from estimator_compat.legacy import layers as compat_layers
    from estimator_compat.legacy.namespaces import namespace
    from estimator_compat.hooks.builtin import LoggingTensorHook, ProfilerHook
    from estimator_compat.hooks.input_checkpoint import CheckpointInputPipelineHook
    from estimator_compat.tpu.cluster_resolver import TPUClusterResolver
    from estimator_compat.tpu.embedding_config import PARAMETER_CLASSES

    if _INSTALLED:
        return api
    by_owner = {"tensorflow": api, "tensorflow.compat.v1": compat_v1,
                "tensorflow.compat.v2": api}
    for owner, module in by_owner.items():
        set_attr(owner, "estimator", module, import_module=True)
    compat_layers.use()  # after the imports above, which make new tf.compat.v1 wrappers
    keras_legacy.use()
    keras_tf1_optimizers.use()
    keras_bridge.use()
    rnn_cells.use()
    python_compat.use()  # inspect.getargspec, gone from Python 3.11
    reduction_gradients.use()  # int64 reduction axes differentiable again, as in TF 2.15
    for prefix, module in by_owner.items():
        sys.modules[prefix + ".estimator"] = module
        for sub, sub_module in (("export", export), ("experimental", experimental),
                                ("inputs", inputs), ("tpu", tpu)):
            sys.modules[f"{prefix}.estimator.{sub}"] = sub_module
    v1_namespace = namespace("tensorflow_estimator.compat.v1",
                             "tf.compat.v1 of tensorflow_estimator", estimator=compat_v1)
    sys.modules["tensorflow_estimator.compat.v1.estimator"] = compat_v1
    namespace("tensorflow_estimator.compat", "compat of tensorflow_estimator", v1=v1_namespace)
    namespace("tensorflow_estimator", "tensorflow_estimator, served by estimator_compat",
              estimator=api, compat=sys.modules["tensorflow_estimator.compat"],
              __version__="2.15.0+estimator_compat")
    sys.modules["tensorflow_estimator.estimator"] = api
    if "tensorflow_estimator.python" in sys.modules:  # module_paths ran first (tf.contrib's)
        sys.modules["tensorflow_estimator"].python = sys.modules["tensorflow_estimator.python"]
    if not hasattr(tf, "contrib") or getattr(tf.contrib, "__estimator_compat__", False):
        contrib_module = contrib.build()
        for owner in ("tensorflow", "tensorflow.compat.v1"):
            set_attr(owner, "contrib", contrib_module)
    for owner in ("tensorflow.data.experimental", "tensorflow.compat.v1.data.experimental"):
        set_attr(owner, "CheckpointInputPipelineHook", CheckpointInputPipelineHook)
    set_attr("tensorflow.compat.v1.train", "ProfilerHook", ProfilerHook)
    set_attr("tensorflow.compat.v1.train", "LoggingTensorHook", LoggingTensorHook)
    for owner in ("tensorflow.distribute.cluster_resolver",
                  "tensorflow.compat.v1.distribute.cluster_resolver"):
        set_attr(owner, "TPUClusterResolver", TPUClusterResolver)
    graph_mode.use()
    for name, switch in graph_mode.SWITCHES.items():  # per thread: the engine stays eager
        set_attr("tensorflow.compat.v1", name, switch)
    # `tf.compat.v2.compat.v1` is another module object than `tf.compat.v1` (AdaNet reads it)
    for name, value in dict(graph_mode.SWITCHES, estimator=compat_v1,
                            layers=compat_layers.use()).items():
        set_attr("tensorflow.compat.v2.compat.v1", name, value)
    for name, cls in PARAMETER_CLASSES.items():  # TPU embedding optimizers, gone in TF 2.21
        if not hasattr(tf.compat.v1.tpu.experimental, name):
            set_attr("tensorflow.compat.v1.tpu.experimental", name, cls)
    module_paths.install()
    unserved_paths.install()
    _INSTALLED.append(True)
    return api
