"""contrib.framework's tensor helpers (contrib `framework/python/framework/tensor_util.py`):
`assert_scalar_int`, `reduce_sum_n`, `with_shape`, `with_same_shape`,
`remove_squeezable_dimensions` (predictions first, as contrib ordered them)."""
import numpy as np
import tensorflow as tf

v1 = tf.compat.v1


def assert_scalar_int(tensor, name=None):
    """`tensor`, after checking that it is a 0-D int32 / int64 (a ValueError otherwise)."""
    with tf.name_scope(name or "assert_scalar_int"):
        tensor = tf.convert_to_tensor(tensor)
        if not tensor.dtype.base_dtype.is_integer:
            raise ValueError(f"Expected integer type for {tensor.name}, received type: "
                             f"{tensor.dtype}.")
        return v1.assert_scalar(tensor, name=name)


def reduce_sum_n(tensors, name=None):
    """The sum of `tf.reduce_sum` of each tensor (a scalar)."""
    if not tensors:
        raise ValueError("No tensors provided.")
    with tf.name_scope(name or "reduce_sum_n") as scope:
        tensors = [tf.reduce_sum(t, name="reduce/%s" % i) for i, t in enumerate(tensors)]
        if len(tensors) == 1:
            return tensors[0]
        return tf.add_n(tensors, name=scope)


def with_shape(expected_shape, tensor):
    """`tensor`, its static shape checked against `expected_shape` (a ValueError when they
    differ); where the shape is not fully known, with an assert run when it is evaluated."""
    if isinstance(tensor, tf.SparseTensor):
        raise ValueError("SparseTensor not supported.")
    tensor = tf.convert_to_tensor(tensor)
    static = tf.get_static_value(expected_shape) if tf.is_tensor(expected_shape) \
        else np.asarray(expected_shape)
    if static is not None:
        expected = tf.TensorShape([int(d) for d in np.reshape(static, [-1])])
        if not tensor.shape.is_compatible_with(expected):
            raise ValueError(f"Invalid shape for tensor {tensor.name}, expected {expected}, "
                             f"got {tensor.shape}.")
        if tensor.shape.is_fully_defined():
            return tensor
    with tf.name_scope(f"{tensor.op.name}/"):
        expected_t = tf.cast(expected_shape, tf.int32)
        actual_t = tf.shape(tensor, out_type=tf.int32)
        same = tf.cond(tf.equal(tf.size(expected_t), tf.size(actual_t)),
                       lambda: tf.reduce_all(tf.equal(expected_t, actual_t)),
                       lambda: tf.constant(False))
        check = tf.debugging.Assert(same, ["Wrong shape for", tensor.name, "expected",
                                           expected_t, "actual", actual_t], name="is_shape")
        with tf.control_dependencies([check]):
            out = tf.identity(tensor)
    if static is not None:
        out.set_shape(expected)
    return out


def with_same_shape(expected_tensor, tensor):
    """`tensor`, checked to have `expected_tensor`'s shape."""
    expected = expected_tensor.shape
    shape = expected.as_list() if expected.is_fully_defined() else tf.shape(expected_tensor)
    return with_shape(shape, tensor)


def remove_squeezable_dimensions(predictions, labels, name=None):
    """(predictions, labels), the one whose rank is one more squeezed on its last axis."""
    from tensorflow.python.ops import confusion_matrix
    labels, predictions = confusion_matrix.remove_squeezable_dimensions(
        labels, predictions, name=name)
    return predictions, labels
