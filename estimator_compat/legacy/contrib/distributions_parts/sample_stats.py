"""Sample statistics of tf.contrib.distributions gone from TensorFlow 2: `auto_correlation`
(by FFT, along one axis) and `percentile` (by sorting, with TF 1.15's lower / higher / nearest
interpolation)."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.distributions import util

_v1 = tf.compat.v1


def auto_correlation(x, axis=-1, max_lags=None, center=True, normalize=True,
                     name="auto_correlation"):
    """R[m] = mean_n x[n] x[n + m] (x centered if `center`) for lags m = 0..max_lags along
    `axis`, divided by R[0] if `normalize`. Computed with a zero-padded FFT."""
    with _v1.name_scope(name, values=[x]):
        x = tf.convert_to_tensor(x, name="x")
        rank = util.prefer_static_rank(x)
        if axis < 0:
            axis = rank + axis
        shift = rank - 1 - axis
        moved = util.rotate_transpose(x, shift)  # `axis` last
        if center:
            moved -= tf.reduce_mean(moved, axis=-1, keepdims=True)
        length = util.prefer_static_shape(moved)[-1]
        length_64 = tf.cast(length, np.float64)
        # padded to a power of two at least twice as long: no circular wrap-around
        padded_length = tf.pow(np.float64(2.),
                               tf.math.ceil(tf.math.log(length_64 * 2) / np.log(2.)))
        padded = util.pad(moved, axis=-1, back=True,
                          count=tf.cast(padded_length - length_64, np.int32))
        dtype = x.dtype
        if not dtype.is_complex:
            if not dtype.is_floating:
                raise TypeError("Argument x must have either float or complex dtype"
                                " found: {}".format(dtype))
            padded = tf.complex(padded, dtype.real_dtype.as_numpy_dtype(0.))
        spectrum = tf.signal.fft(padded)
        products = tf.cast(tf.signal.ifft(spectrum * tf.math.conj(spectrum)), dtype)
        static_shape = moved.shape.is_fully_defined()
        if max_lags is None:
            max_lags = length - 1
        else:
            max_lags = tf.convert_to_tensor(max_lags, name="max_lags")
            static_lags = tf.get_static_value(max_lags)
            if static_lags is None or not static_shape:
                static_shape = False
                max_lags = tf.minimum(length - 1, max_lags)
            else:
                max_lags = min(length - 1, static_lags)
        chopped = products[..., :max_lags + 1]
        if static_shape:
            shape = moved.shape.as_list()
            shape[-1] = min(length, max_lags + 1)
            chopped.set_shape(shape)
        counts = (tf.cast(length, dtype.real_dtype)
                  - tf.range(0., tf.cast(max_lags, dtype.real_dtype) + 1.))
        result = chopped / tf.cast(counts, dtype)
        if normalize:
            result /= result[..., :1]
        return util.rotate_transpose(result, -shift)


def _static_ndims(x, expect_static=False, expect_ndims=None, expect_ndims_no_more_than=None,
                  expect_ndims_at_least=None):
    ndims = x.shape.ndims
    if ndims is None:
        shape = tf.get_static_value(tf.shape(x))
        if shape is not None:
            ndims = shape.ndim
    if ndims is None:
        if expect_static:
            raise ValueError("Expected argument 'x' to have statically defined 'ndims'.  "
                             "Found: %s" % x)
        return None
    if expect_ndims is not None and ndims != expect_ndims:
        raise ValueError("Expected argument 'x' to have ndims %s.  Found tensor %s"
                         % (expect_ndims, x))
    if expect_ndims_at_least is not None and ndims < expect_ndims_at_least:
        raise ValueError("Expected argument 'x' to have ndims >= %d.  Found tensor %s"
                         % (expect_ndims_at_least, x))
    if expect_ndims_no_more_than is not None and ndims > expect_ndims_no_more_than:
        raise ValueError("Expected argument 'x' to have ndims <= %d.  Found tensor %s"
                         % (expect_ndims_no_more_than, x))
    return ndims


def _non_negative_axes(axis, ndims):
    out = []
    for d in axis:
        if d >= 0:
            if d >= ndims:
                raise ValueError("dim %d not in the interval [0, %d]." % (d, ndims - 1))
            out.append(d)
        else:
            if d < -1 * ndims:
                raise ValueError("Negatively indexed dim %d not in the interval [-%d, -1]"
                                 % (d, ndims))
            out.append(ndims + d)
    return out


def _flatten_axes_to_end(x, axis, ndims):
    """x with the `axis` dimensions moved to the end and flattened into one."""
    front = sorted(set(range(ndims)).difference(axis))
    moved = tf.transpose(x, perm=front + list(axis))
    if x.shape.is_fully_defined():
        dims = x.shape.as_list()
        shape = [dims[i] for i in front] + [int(np.prod([dims[i] for i in axis]))]
    else:
        shape = tf.concat([tf.shape(moved)[:ndims - len(axis)], [-1]], axis=0)
    return tf.reshape(moved, shape=shape)


def percentile(x, q, axis=None, interpolation=None, keep_dims=False, validate_args=False,
               name=None):
    """The `q`-th percentile of `x` over `axis` (all of x by default): the sorted values'
    entry at (d - 1)(1 - q / 100) from the top, rounded per `interpolation` ("nearest"
    default, "lower", "higher")."""
    name = name or "percentile"
    allowed = {"lower", "higher", "nearest"}
    if interpolation is None:
        interpolation = "nearest"
    elif interpolation not in allowed:
        raise ValueError("Argument 'interpolation' must be in %s.  Found %s"
                         % (allowed, interpolation))
    with _v1.name_scope(name, values=[x, q]):
        x = tf.convert_to_tensor(x, name="x")
        q = tf.cast(q, tf.float64, name="q")
        _static_ndims(q, expect_ndims=0)
        if validate_args:
            with tf.control_dependencies([
                    tf.debugging.assert_rank(q, 0),
                    tf.debugging.assert_greater_equal(q, tf.cast(0., tf.float64)),
                    tf.debugging.assert_less_equal(q, tf.cast(100., tf.float64))]):
                q = tf.identity(q)
        if axis is None:
            y = tf.reshape(x, [-1])
        else:
            axis = tf.convert_to_tensor(axis, name="axis")
            _v1.assert_integer(axis)
            axis_ndims = _static_ndims(axis, expect_static=True, expect_ndims_no_more_than=1)
            axis_value = tf.get_static_value(axis)
            if axis_value is None:
                raise ValueError("Expected argument 'axis' to be statically available.  "
                                 "Found: %s" % axis)
            axis = [axis_value] if axis_ndims == 0 else axis_value
            axis = [int(a) for a in axis]
            x_ndims = _static_ndims(x, expect_static=True, expect_ndims_at_least=1)
            axis = _non_negative_axes(axis, x_ndims)
            y = _flatten_axes_to_end(x, axis, x_ndims)
        above = 1. - q / 100.
        d = tf.cast(tf.shape(y)[-1], tf.float64)
        rounding = {"lower": tf.math.ceil, "higher": tf.floor, "nearest": tf.round}
        index = rounding[interpolation]((d - 1) * above)
        index = tf.clip_by_value(tf.cast(index, tf.int32), 0, tf.shape(y)[-1] - 1)
        descending, _ = tf.nn.top_k(y, k=tf.shape(y)[-1])
        result = descending[..., index]
        result.set_shape(y.shape[:-1])
        if keep_dims:
            if axis is None:
                ndims = _static_ndims(x)
                ones = tf.ones(shape=[ndims if ndims is not None else tf.rank(x)],
                               dtype=tf.int32)
                result *= tf.ones(ones, dtype=x.dtype)
            else:
                for i in sorted(axis):
                    result = tf.expand_dims(result, axis=i)
        return result
