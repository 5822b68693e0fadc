"""tensorflow_estimator 2.15's `export.export` privates: the checks ServingInputReceiver-like
classes ran on feature and receiver tensors (`_check_tensor`, `_check_tensor_key`) and the
placeholders build_raw_serving_input_receiver_fn made (`_placeholder_from_tensor`,
`_placeholders_from_receiver_tensors_dict`), with 2.15's results and errors."""
import tensorflow as tf


def _check_tensor(tensor, name, error_label="feature"):
    """ValueError unless `tensor` is a Tensor, SparseTensor or RaggedTensor (or has a
    `.tensor` and converts to a Tensor: LabeledTensor)."""
    if isinstance(tensor, (tf.Tensor, tf.SparseTensor, tf.RaggedTensor)):
        return
    label = f"{error_label} {name}" if name else error_label
    error = ValueError(f"{label} must be a Tensor, SparseTensor, or RaggedTensor.")
    if not hasattr(tensor, "tensor"):
        raise error
    try:
        tf.convert_to_tensor(tensor)
    except TypeError:
        raise error from None


def _check_tensor_key(name, error_label="feature", allow_ints=False):
    """ValueError unless `name` is a string (or, with allow_ints, an int)."""
    if isinstance(name, str):
        return
    if not allow_ints:
        raise ValueError(f"{error_label} keys must be strings: {name}.")
    if not isinstance(name, int):
        raise ValueError(f"{error_label} keys must be strings or ints: {name}.")


def _placeholder_from_tensor(t, default_batch_size=None):
    """A placeholder of `t`'s dtype and shape, its first dimension `default_batch_size`, named
    as `t`'s op (unnamed for an eager tensor)."""
    shape = tf.TensorShape([default_batch_size]).concatenate(t.get_shape()[1:])
    try:
        name = t.op.name
    except AttributeError:
        name = None
    return tf.compat.v1.placeholder(dtype=t.dtype, shape=shape, name=name)


def _placeholders_from_receiver_tensors_dict(input_vals, default_batch_size=None):
    """{name: _placeholder_from_tensor(tensor)} for each of `input_vals`."""
    return {name: _placeholder_from_tensor(t, default_batch_size)
            for name, t in input_vals.items()}
