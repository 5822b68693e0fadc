"""numpy_input_fn: an input_fn over numpy arrays (a dict of arrays, or one array)."""
import numpy as np
import tensorflow as tf


def _check_lengths(named_arrays):
    lengths = {name: len(array) for name, array in named_arrays.items()}
    if len(set(lengths.values())) > 1:
        raise ValueError(f"Length of tensors in x and y is mismatched. All elements in x and y "
                         f"must have the same length: {lengths}")


def numpy_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None, queue_capacity=1000,
                   num_threads=1):
    """Returns an input_fn yielding (features, targets) batches of `x` and `y`.

    `num_epochs=None` repeats forever; `shuffle` must be given explicitly, as in tf.estimator.
    `queue_capacity` is the shuffle buffer; `num_threads` is accepted (tf.data parallelises).
    """
    if not isinstance(shuffle, bool):
        raise ValueError(f"shuffle must be provided explicitly as a bool, given: {shuffle!r}")
    if batch_size is None or batch_size <= 0:
        raise ValueError(f"batch_size must be a positive integer, given: {batch_size!r}")
    if num_epochs is not None and num_epochs <= 0:
        raise ValueError(f"num_epochs must be None or positive, given: {num_epochs!r}")
    features = dict(x) if isinstance(x, dict) else np.asarray(x)
    targets = None if y is None else (dict(y) if isinstance(y, dict) else np.asarray(y))
    if isinstance(features, dict) and isinstance(targets, dict):
        shared = sorted(set(features) & set(targets))
        if shared:
            raise ValueError(f"{shared} duplicate keys are found in both x and y: keys in x and "
                             "y must be unique.")
    arrays = dict(features) if isinstance(features, dict) else {"x": features}
    if targets is not None:
        arrays.update(targets if isinstance(targets, dict) else {"y": targets})
    _check_lengths(arrays)

    def input_fn():
        element = features if targets is None else (features, targets)
        ds = tf.data.Dataset.from_tensor_slices(element)
        if shuffle:
            ds = ds.shuffle(queue_capacity)
        ds = ds.repeat(num_epochs)
        return ds.batch(batch_size)
    return input_fn
