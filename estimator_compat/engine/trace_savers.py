"""`tf.compat.v1.train.Saver(...)` made while a model_fn is traced: kept, but not built.

TF 1.x code builds Savers as it builds its graph: tensorflow_hub's `hub.Module` makes one over
its variables (for `module.export`), model_fns one for their Scaffold. Built in a traced step,
its SaveV2 / RestoreV2 ops would run at every step (tf.function runs every stateful op it
holds; RestoreV2 then reads a checkpoint named "model" and the step fails). The Estimator's
checkpoints are the engine's (`checkpoints.py`), so in a trace graph of the variable store
(`VariableStore.trace_scope` installs this) the Saver is left as `defer_build=True` leaves it:
an object with its settings and no ops. Everywhere else (a TF1 graph: export, `.meta` files,
`hub.LatestModuleExporter`'s graph; eager code) it builds as TensorFlow's does.
"""
import tensorflow as tf
from tensorflow.python.training import saver as saver_lib

_ORIGINAL_BUILD = saver_lib.Saver.build


def _build(self):
    graph = tf.compat.v1.get_default_graph()
    if graph.building_function and getattr(graph, "_estimator_compat_store", None) is not None:
        return  # a model_fn's trace: no save / restore ops in the step
    return _ORIGINAL_BUILD(self)


def patch():
    """Installs `_build` above on TensorFlow's Saver (idempotent)."""
    saver_lib.Saver.build = _build
