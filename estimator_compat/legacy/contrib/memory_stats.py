"""`tf.contrib.memory_stats`, served whole: `BytesInUse`, `BytesLimit`, `MaxBytesInUse`.

TF 1.15's ops (int64 scalars) had GPU kernels only: they read the GPU allocator's figures of
the device they ran on, and on a machine without a GPU running them failed with
InvalidArgumentError ("No OpKernel was registered ..."). TF 2.21 keeps those figures in
`tf.config.experimental.get_memory_info` (the same process-wide allocator sessions use), so
each op here is a host call reading them for the device it was placed on (GPU:0 by default),
and raises the same error where there is no GPU.
"""
import numpy as np
import tensorflow as tf

_KEYS = {"BytesInUse": "current", "MaxBytesInUse": "peak"}
_LIMITS = {}


def _device_of(op):
    """The GPU the op was asked to run on (TF 1.15 placed it on GPU:0 by default), or None
    where it was asked to run elsewhere (TF 1.15 had no kernel there)."""
    spec = tf.DeviceSpec.from_string(op.device or "")
    if spec.device_type not in (None, "GPU"):
        return None
    return "GPU:%d" % (spec.device_index or 0)


def _figure(op_type, device):
    if device is None or not tf.config.list_physical_devices("GPU"):
        # a ValueError in a host call is the op's InvalidArgumentError
        raise ValueError(
            "No OpKernel was registered to support Op '%s' with these attrs: []\n"
            "Registered devices: [CPU]\nRegistered kernels:\n  device='GPU'" % op_type)
    if op_type == "BytesLimit":
        return _limits()[device]
    return tf.config.experimental.get_memory_info(device)[_KEYS[op_type]]


def _limits():
    """{"GPU:i": the allocator's byte limit} (TF 2.21 reports it as the device's memory_limit)."""
    if not _LIMITS:
        from tensorflow.python.client import device_lib
        for device in device_lib.list_local_devices():
            if device.device_type == "GPU":
                _LIMITS[device.name.split("device:")[-1]] = device.memory_limit
    return _LIMITS


def _stat_op(op_type):
    placed = []

    def read():
        return np.int64(_figure(op_type, placed[0]))
    value = tf.numpy_function(read, [], tf.int64, stateful=True, name=op_type)
    value.set_shape([])
    placed.append(_device_of(value.op))
    value.op._set_device("/device:CPU:0")  # pylint: disable=protected-access - the host call
    return value


def BytesInUse():  # noqa: N802 - TF 1.15's name
    """The bytes the device's allocator has in use now."""
    return _stat_op("BytesInUse")


def BytesLimit():  # noqa: N802 - TF 1.15's name
    """The bytes the device's allocator may hand out in all."""
    return _stat_op("BytesLimit")


def MaxBytesInUse():  # noqa: N802 - TF 1.15's name
    """The most bytes the device's allocator has had in use at once."""
    return _stat_op("MaxBytesInUse")


def build():
    from estimator_compat.legacy.namespaces import namespace
    names = dict(BytesInUse=BytesInUse, BytesLimit=BytesLimit, MaxBytesInUse=MaxBytesInUse)
    stats_ops = namespace("tensorflow.contrib.memory_stats.python.ops.memory_stats_ops",
                          "memory_stats_ops", **names)
    ops = namespace("tensorflow.contrib.memory_stats.python.ops", "ops",
                    memory_stats_ops=stats_ops)
    namespace("tensorflow.contrib.memory_stats.python", "python", ops=ops)
    return namespace("tensorflow.contrib.memory_stats", __doc__, __served_whole__=True, **names)
