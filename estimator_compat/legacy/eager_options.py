"""The options of TF 1.15's `tf.enable_eager_execution(config, device_policy, execution_mode)`.

TF 1.15 built its one eager context from them at program startup. Here the context already runs
the engine, so each is checked with TF 1.15's errors and applied where TensorFlow 2.21 can still
change it: the device policy (the context's), soft placement, device-placement logging, GPU
memory growth, hidden GPUs (`device_count={'GPU': 0}`) and the thread pools' sizes, the last
three only before TensorFlow has initialized its devices (otherwise logged, not applied).
`execution_mode=ASYNC` would make the engine's own ops asynchronous on this thread, so it is
logged and not applied.
"""
import logging

import tensorflow as tf
from tensorflow.core.protobuf import config_pb2
from tensorflow.python.eager import context

logger = logging.getLogger("tensorflow")
_POLICIES = (None, context.DEVICE_PLACEMENT_EXPLICIT, context.DEVICE_PLACEMENT_WARN,
             context.DEVICE_PLACEMENT_SILENT, context.DEVICE_PLACEMENT_SILENT_FOR_INT32)


def apply(config=None, device_policy=None, execution_mode=None):
    """Checks the three options as TF 1.15 did and applies what can be."""
    if config is not None and not isinstance(config, config_pb2.ConfigProto):
        raise TypeError("config must be a tf.ConfigProto, but got %s" % type(config))
    if device_policy not in _POLICIES:
        raise ValueError("device_policy must be one of None, "
                         "tf.contrib.eager.DEVICE_PLACEMENT_*")
    if execution_mode not in (None, context.SYNC, context.ASYNC):
        raise ValueError("execution_mode must be one of None, tf.contrib.eager.SYNC, "
                         "tf.contrib.eager.ASYNC")
    if device_policy is not None:
        context.context().device_policy = device_policy
    if execution_mode == context.ASYNC:
        logger.info("estimator_compat: enable_eager_execution(execution_mode=ASYNC) is not "
                    "applied: eager ops stay synchronous (the Estimator engine shares them).")
    if config is not None:
        _apply_config(config)


def _apply_config(config):
    if config.allow_soft_placement:
        tf.config.set_soft_device_placement(True)
    if config.log_device_placement:
        tf.debugging.set_log_device_placement(True)
    late = []
    if config.intra_op_parallelism_threads:
        _try(late, "intra_op_parallelism_threads", tf.config.threading.
             set_intra_op_parallelism_threads, config.intra_op_parallelism_threads)
    if config.inter_op_parallelism_threads:
        _try(late, "inter_op_parallelism_threads", tf.config.threading.
             set_inter_op_parallelism_threads, config.inter_op_parallelism_threads)
    gpus = tf.config.list_physical_devices("GPU")
    if config.device_count.get("GPU", None) == 0 and gpus:
        _try(late, "device_count={'GPU': 0}", tf.config.set_visible_devices, [], "GPU")
    elif config.gpu_options.allow_growth:
        for gpu in gpus:
            _try(late, "gpu_options.allow_growth", tf.config.experimental.set_memory_growth,
                 gpu, True)
    if late:
        logger.info("estimator_compat: enable_eager_execution(config=...) came after "
                    "TensorFlow initialized its devices; not applied: %s", ", ".join(late))


def _try(late, what, setter, *args):
    try:
        setter(*args)
    except RuntimeError:  # "... cannot be modified after initialization"
        late.append(what)
