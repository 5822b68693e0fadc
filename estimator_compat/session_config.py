"""`RunConfig(session_config=tf.ConfigProto(...))`: the TF1 session options TF 2 still has.

TF 1.x applied a ConfigProto when it created a session; TF 2 has one runtime per process whose
options are set through `tf.config` before it starts. The options with a TF 2 equivalent are
applied when the Estimator is built; one that can no longer be applied (the runtime already
started, or no equivalent) is named in a warning, never silently dropped.
"""
import logging

import tensorflow as tf

logger = logging.getLogger("tensorflow")
_APPLIED = set()


def _threads(proto):
    if proto.intra_op_parallelism_threads:
        tf.config.threading.set_intra_op_parallelism_threads(proto.intra_op_parallelism_threads)
    if proto.inter_op_parallelism_threads:
        tf.config.threading.set_inter_op_parallelism_threads(proto.inter_op_parallelism_threads)


def _devices(proto):
    gpus = tf.config.list_physical_devices("GPU")
    visible = proto.gpu_options.visible_device_list
    if visible:
        chosen = [gpus[int(i)] for i in visible.split(",") if int(i) < len(gpus)]
    elif "GPU" in proto.device_count:
        chosen = gpus[:proto.device_count["GPU"]]
    else:
        chosen = gpus
    if len(chosen) != len(gpus):
        tf.config.set_visible_devices(chosen, "GPU")
    if proto.gpu_options.allow_growth:
        for gpu in chosen:
            tf.config.experimental.set_memory_growth(gpu, True)


def _placement(proto):
    if proto.log_device_placement:  # (allow_soft_placement: TF 2 places softly already)
        tf.debugging.set_log_device_placement(True)


_STEPS = (("intra/inter_op_parallelism_threads", _threads),
          ("device_count / gpu_options.visible_device_list / gpu_options.allow_growth", _devices),
          ("log_device_placement", _placement))


def apply(proto):
    """Applies `proto` (a tf.compat.v1.ConfigProto or None) to the process, once per content."""
    if proto is None:
        return
    if not isinstance(proto, tf.compat.v1.ConfigProto):
        raise TypeError(f"session_config must be a tf.compat.v1.ConfigProto, given "
                        f"{type(proto).__name__}.")
    key = proto.SerializeToString(deterministic=True)
    if key in _APPLIED:
        return
    _APPLIED.add(key)
    for what, step in _STEPS:
        try:
            step(proto)
        except (RuntimeError, ValueError) as e:
            logger.warning("session_config: %s could not be applied (%s); set it before "
                           "TensorFlow's first operation in the process.", what, e)
    if proto.gpu_options.per_process_gpu_memory_fraction:
        logger.warning("session_config: gpu_options.per_process_gpu_memory_fraction has no "
                       "TensorFlow 2 equivalent and is ignored; use "
                       "tf.config.set_logical_device_configuration(gpu, "
                       "[tf.config.LogicalDeviceConfiguration(memory_limit=MB)]).")
