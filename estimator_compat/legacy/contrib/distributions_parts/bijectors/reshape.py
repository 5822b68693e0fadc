"""`Reshape`: the rightmost dims of shape `event_shape_in` reshaped to `event_shape_out`
(sample and batch dims kept; at most one -1 in each shape)."""
import numpy as np
import tensorflow as tf
from tensorflow.python.framework import tensor_util

from ._checks import Bijector, checked, _v1


def _shape_checks(shape, validate_args):
    """Static errors for a malformed shape vector; run-time checks for one not known yet."""
    if not shape.dtype.is_integer:
        raise TypeError("{} dtype ({}) should be `int`-like.".format(shape, shape.dtype.name))
    checks = []
    rank = tf.rank(shape)
    rank_ = tensor_util.constant_value(rank)
    if rank_ is not None and rank_ > 1:
        raise ValueError("`{}` rank ({}) should be <= 1.".format(shape, rank_))
    if rank_ is None and validate_args:
        checks.append(_v1.assert_less_equal(rank, 1,
                                            message="`{}` rank should be <= 1.".format(shape)))
    known = tensor_util.constant_value_as_shape(shape)
    if known.is_fully_defined():
        sizes = np.int32(known.as_list())
        if np.sum(sizes == -1) > 1:
            raise ValueError("`{}` must have at most one `-1` (given {})".format(shape, sizes))
        if np.any(sizes < -1):
            raise ValueError("`{}` elements must be either positive integers or `-1`"
                             "(given {}).".format(shape, sizes))
    elif validate_args:
        checks += [
            _v1.assert_less_equal(
                tf.reduce_sum(tf.cast(tf.equal(shape, -1), tf.int32)), 1,
                message="`{}` elements must have at most one `-1`.".format(shape)),
            _v1.assert_greater_equal(
                shape, -1,
                message="`{}` elements must be either positive integers or `-1`.".format(shape)),
        ]
    return checks


class Reshape(Bijector):
    """Reshapes the event part of a `Tensor`: `event_shape_in` (default `(-1,)`, the last
    dim) to `event_shape_out`. Volume preserving."""

    def __init__(self, event_shape_out, event_shape_in=(-1,), validate_args=False, name=None):
        with _v1.name_scope(name, "reshape", values=[event_shape_out, event_shape_in]):
            event_shape_out = tf.convert_to_tensor(event_shape_out, name="event_shape_out",
                                                   dtype_hint=tf.int32)
            event_shape_in = tf.convert_to_tensor(event_shape_in, name="event_shape_in",
                                                  dtype_hint=tf.int32)
            self._assertions = (_shape_checks(event_shape_out, validate_args)
                                + _shape_checks(event_shape_in, validate_args))
            self._event_shape_in = event_shape_in
            self._event_shape_out = event_shape_out
            super().__init__(forward_min_event_ndims=0, is_constant_jacobian=True,
                             validate_args=validate_args, name=name or "reshape")

    def _reshape(self, x, shape_in, shape_out):
        ndims_in_ = tf.compat.dimension_value(shape_in.shape.with_rank_at_least(1)[0])
        ndims_in = tf.shape(shape_in)[0]
        x_ndims_ = x.shape.ndims
        if (ndims_in_ is not None and x_ndims_ is not None
                and x.shape.with_rank_at_least(ndims_in_)[x_ndims_ - ndims_in_:]
                .is_fully_defined()):
            x_event_ = np.int32(x.shape[x_ndims_ - ndims_in_:])
            x_event = x_event_
        else:
            x_event_ = None
            x_event = tf.shape(x)[tf.rank(x) - ndims_in:]
        shape_in_ = tensor_util.constant_value(shape_in)
        if x_event_ is not None and shape_in_ is not None:
            given = shape_in_ >= 0
            if not np.equal(x_event_[given], shape_in_[given]).all():
                raise ValueError("Input `event_shape` does not match `event_shape_in` "
                                 "({} vs {}).".format(x_event_, shape_in_))
        elif self.validate_args:
            given = tf.reshape(shape_in >= 0, [-1])
            x = checked(x, _v1.assert_equal(
                tf.boolean_mask(x_event, given), tf.boolean_mask(shape_in, given),
                message="Input `event_shape` does not match `event_shape_in`."))
        if ndims_in_ is not None and x_ndims_ is not None and ndims_in_ == x_ndims_:
            new_shape = shape_out
        else:
            ndims = x_ndims_ if x_ndims_ is not None else tf.rank(x)
            outer = tf.shape(x)[:ndims - tf.abs(ndims_in)]
            new_shape = tf.concat([outer, shape_out], axis=0)
        return tf.reshape(x, new_shape)

    def _forward(self, x):
        with tf.control_dependencies(self._assertions):
            return self._reshape(x, self._event_shape_in, self._event_shape_out)

    def _inverse(self, y):
        with tf.control_dependencies(self._assertions):
            return self._reshape(y, self._event_shape_out, self._event_shape_in)

    def _inverse_log_det_jacobian(self, y):
        with tf.control_dependencies(self._assertions):
            return tf.constant(0., dtype=y.dtype)

    def _forward_log_det_jacobian(self, x):
        with tf.control_dependencies(self._assertions):
            return tf.constant(0., dtype=x.dtype)

    # event shapes: what the reshape of a zeros tensor of that shape gives
    def _forward_event_shape(self, input_shape):
        with tf.control_dependencies(self._assertions):
            return self.forward(tf.zeros(input_shape, tf.float32)).shape

    def _inverse_event_shape(self, output_shape):
        with tf.control_dependencies(self._assertions):
            return self.inverse(tf.zeros(output_shape, tf.float32)).shape

    def _forward_event_shape_tensor(self, input_shape):
        with tf.control_dependencies(self._assertions):
            return tf.shape(self.forward(tf.zeros(input_shape, tf.float32)))

    def _inverse_event_shape_tensor(self, output_shape):
        with tf.control_dependencies(self._assertions):
            return tf.shape(self.inverse(tf.zeros(output_shape, tf.float32)))
