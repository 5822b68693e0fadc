"""`tfe.Iterator`: TF 1.15's eager iterator over a `tf.data.Dataset` (TensorFlow 2's owned
iterator, with the elements copied to the device the iterator was made on when that is not
the CPU, as TF 1.15 prefetched them there)."""
from tensorflow.python.data.experimental.ops import prefetching_ops
from tensorflow.python.data.ops import iterator_ops
from tensorflow.python.eager import context
from tensorflow.python.framework import ops


class Iterator(iterator_ops.OwnedIterator):
    """An iterator producing `tf.Tensor`s from `dataset` (eager execution only: a
    RuntimeError otherwise, as in TF 1.15)."""

    def __init__(self, dataset):
        device_type = context.context().device_spec.device_type
        if device_type and device_type != "CPU":
            with ops.device(None):
                dataset = dataset.apply(prefetching_ops.copy_to_device(
                    context.context().device_name)).prefetch(1)
        super().__init__(dataset)
