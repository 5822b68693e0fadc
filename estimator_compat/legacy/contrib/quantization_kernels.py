"""Two kernels of TF 1.15's tf.contrib.quantization written with TF ops: CompareAndBitpack,
which TF 2.21 removed, and QuantizedAvgPool, whose TF 2.21 kernel on x86 (oneDNN's) rounds the
mean to nearest where TF 1.15's truncated it (TF 2.21 without oneDNN still truncates)."""
import collections
import functools
import inspect

import tensorflow as tf
from tensorflow.python.eager import context

_BITPACK_TYPES = (tf.bool, tf.float16, tf.float32, tf.float64, tf.int8, tf.int16, tf.int32,
                  tf.int64)
# each quantized type and the plain integer type with its bits
_AVG_POOL_OUTPUT = collections.namedtuple("QuantizedAvgPool",
                                          ["output", "min_output", "max_output"])
_INTEGERS = {tf.qint8: tf.int8, tf.quint8: tf.uint8, tf.qint16: tf.int16,
             tf.quint16: tf.uint16, tf.qint32: tf.int32}


def _allowed(tensor, types, argument):
    if tensor.dtype not in types:
        raise TypeError(f"Value passed to parameter '{argument}' has DataType "
                        f"{tensor.dtype.name} not in list of allowed values: "
                        + ", ".join(t.name for t in types))


def compare_and_bitpack(input, threshold, name=None):  # noqa: A002 - TF 1.15's argument name
    """uint8 codes of `input > threshold` (a bool `input` is taken as is), eight consecutive
    bits of the innermost dimension (which must be divisible by 8) per byte, the first bit the
    most significant."""
    with tf.name_scope(name or "CompareAndBitpack"):
        input = tf.convert_to_tensor(input, name="input")
        _allowed(input, _BITPACK_TYPES, "input")
        threshold = tf.convert_to_tensor(threshold, dtype=input.dtype, name="threshold")
        if threshold.shape.rank not in (None, 0):
            raise ValueError(f"Shape must be rank 0 but is rank {threshold.shape.rank} for "
                             "CompareAndBitpack's threshold")
        if input.shape.rank == 0:
            raise ValueError("Shape must be at least rank 1 but is rank 0 for "
                             "CompareAndBitpack's input")
        inner = tf.compat.dimension_value(input.shape[-1]) if input.shape.rank else None
        if inner is not None and inner % 8:
            raise ValueError(f"Dimension size must be evenly divisible by 8 but is {inner} "
                             "for CompareAndBitpack's input")
        bits = input if input.dtype == tf.bool else input > threshold
        shape = tf.shape(input)
        grouped = tf.reshape(bits, tf.concat([shape[:-1], [shape[-1] // 8, 8]], 0))
        weights = tf.constant([128, 64, 32, 16, 8, 4, 2, 1], tf.int32)
        packed = tf.reduce_sum(tf.cast(grouped, tf.int32) * weights, axis=-1)
        return tf.cast(packed, tf.uint8)


def quantized_avg_pool(input, min_input, max_input, ksize, strides, padding,  # noqa: A002
                       name=None):
    """The average pool of a quantized NHWC `input`, in its own quantized units: each window's
    mean over its valid (unpadded) entries, rounded down as TF 1.15's kernel did; the range is
    the input's."""
    with tf.name_scope(name or "QuantizedAvgPool"):
        input = tf.convert_to_tensor(input, name="input")
        _allowed(input, tuple(_INTEGERS), "input")
        min_input = tf.convert_to_tensor(min_input, tf.float32, name="min_input")
        max_input = tf.convert_to_tensor(max_input, tf.float32, name="max_input")
        for bound in (min_input, max_input):
            if bound.shape.rank not in (None, 0):
                raise ValueError(f"Shape must be rank 0 but is rank {bound.shape.rank} for "
                                 "QuantizedAvgPool's input range")
        integers = tf.bitcast(input, _INTEGERS[input.dtype])
        # float64 holds every window sum exactly; the epsilon absorbs a reciprocal's rounding
        # (a true fractional part is at least 1 / window size)
        mean = tf.nn.avg_pool2d(tf.cast(integers, tf.float64), ksize, strides, padding)
        pooled = tf.cast(tf.floor(mean + 1e-6), integers.dtype)
        output = tf.bitcast(pooled, input.dtype)
        return _AVG_POOL_OUTPUT(output, tf.identity(min_input), tf.identity(max_input))


OWN = {"QuantizedAvgPool": quantized_avg_pool}


def eager(function):
    """`function`'s TF 1.15 `_eager_fallback` form (`ctx=None` last): run eagerly."""
    signature = inspect.signature(function)
    signature = signature.replace(parameters=list(signature.parameters.values()) + [
        inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)])

    @functools.wraps(function)
    def slow_path(*args, **kwargs):
        arguments = signature.bind(*args, **kwargs).arguments
        arguments.pop("ctx", None)
        with context.eager_mode():
            return function(**arguments)
    slow_path.__signature__ = signature
    return slow_path
