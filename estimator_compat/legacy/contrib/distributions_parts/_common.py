"""What the scalar and meta distributions of `tf.contrib.distributions` share: TF 2.21's own
`Distribution` base class (TF 1.15's, kept in `tensorflow.python.ops.distributions`), and the
few graph helpers their constructors repeat (parameters made in the distribution's name scope,
checked first when `validate_args`)."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.distributions import distribution
from tensorflow.python.ops.distributions import util

from estimator_compat.legacy.contrib.distributions_parts.bijectors._checks import checked

Distribution = distribution.Distribution
FULLY_REPARAMETERIZED = distribution.FULLY_REPARAMETERIZED
NOT_REPARAMETERIZED = distribution.NOT_REPARAMETERIZED

_v1 = tf.compat.v1


def scope(name, values):
    """A TF1 name scope (`name_scope(name, values=...)`), as TF 1.15's constructors opened."""
    return _v1.name_scope(name, values=[v for v in values if v is not None])


def named(values, names, checks):
    """`values` as tensors called `names` (identity ops), made after `checks` (a list of
    assert ops, empty unless validate_args)."""
    with tf.control_dependencies(checks):
        return [tf.identity(v, name=n) for v, n in zip(values, names)]


def positive(x, validate_args):
    return [tf.debugging.assert_positive(x)] if validate_args else []


def same_float_dtype(tensors):
    return _v1.assert_same_float_dtype(tensors)


def shape_param(sample_shape, *names):
    """`_param_shapes`: each parameter has the sample shape."""
    shape = tf.convert_to_tensor(sample_shape, dtype=tf.int32)
    return {n: shape for n in names}


def broadcast_shape_tensor(*tensors):
    shape = tf.shape(tensors[0])
    for t in tensors[1:]:
        shape = tf.broadcast_dynamic_shape(shape, tf.shape(t))
    return shape


def broadcast_shape(*tensors):
    shape = tensors[0].shape
    for t in tensors[1:]:
        shape = tf.broadcast_static_shape(shape, t.shape)
    return shape


def scalar_event_tensor():
    return tf.constant([], dtype=tf.int32)


def nan_fill(dist):
    """NaNs of `dist`'s batch shape: the value of an undefined moment (allow_nan_stats)."""
    return tf.fill(dist.batch_shape_tensor(), np.array(np.nan, dtype=dist.dtype.as_numpy_dtype))


def tiny(dtype):
    return np.finfo(dtype.as_numpy_dtype).tiny


def integer_counts(x, validate_args):
    """A count argument: checked non-negative and whole when validate_args."""
    if validate_args:
        return util.embed_check_nonnegative_integer_form(x)
    return x


def with_checks(checks, x):
    """`x` after `checks` (assert ops; none without validate_args)."""
    return checked(x, *checks)


def params(local_names):
    """A constructor's `parameters` (its arguments, from `locals()`), without the `__class__`
    cell that zero-argument `super()` adds to them."""
    out = dict(local_names)
    out.pop("__class__", None)
    return out
