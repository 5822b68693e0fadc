"""Gradients of reductions over int64 axes, which TensorFlow 2.21 broke in graphs.

`tf.reduce_sum(x, axis=np.arange(1, 3))` gives int64 axes (numpy's default integer). TF 1.15
and TensorFlow 2.15 differentiated it; TensorFlow 2.21's `math_ops.reduced_shape`, which the
Sum / Mean / Prod gradients call, stitches the shape with int64 indices where its shape is not
fully known, and `DynamicStitch` takes int32 only: "Tensors in list passed to 'indices' of
'DynamicStitch' Op have types [int64, int64]". A TF 1.x VAE (`Independent(...).log_prob` on a
fed batch) or any model_fn summing over numpy axes stopped there. `use()` (run by `install()`)
gives `reduced_shape` int32 axes, as TensorFlow 2.15's did; nothing else changes.
"""
import tensorflow as tf
from tensorflow.python.ops import math_ops

_ORIGINAL = math_ops.reduced_shape


def reduced_shape(input_shape, axes):
    """TensorFlow's `reduced_shape`, its axes cast to int32 first."""
    dtype = getattr(axes, "dtype", None)
    if dtype is not None and tf.as_dtype(dtype) == tf.int64:
        axes = tf.cast(axes, tf.int32)
    return _ORIGINAL(input_shape, axes)


def use():
    if math_ops.reduced_shape is _ORIGINAL:
        math_ops.reduced_shape = reduced_shape
