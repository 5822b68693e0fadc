"""`tf.config` as TF 1.15 gave it: TensorFlow 2's `tf.compat.v1.config` plus
`experimental_list_devices`, which TensorFlow 2 removed."""
import tensorflow as tf


def experimental_list_devices():
    """The full names of the devices this process runs on, as TF 1.15 listed them
    (`['/job:localhost/replica:0/task:0/device:CPU:0', ...]`); TensorFlow 2:
    `tf.config.list_logical_devices()`."""
    return [device.name if device.name.startswith("/job:")
            else "/job:localhost/replica:0/task:0" + device.name
            for device in tf.config.list_logical_devices()]


OVERRIDES = {"experimental_list_devices": experimental_list_devices}
