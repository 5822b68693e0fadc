"""`AffineScalar`: Y = scale * X + shift with scalar (batch) `scale` and `shift`."""
import tensorflow as tf

from ._checks import Bijector, checked, start_scope, _v1


class AffineScalar(Bijector):
    """Compute `Y = g(X; shift, scale) = scale * X + shift` elementwise; a `None` scale acts
    as 1 and a `None` shift as 0."""

    def __init__(self, shift=None, scale=None, validate_args=False, name="affine_scalar"):
        start_scope(self, name, validate_args)
        with self._name_scope("init", values=[scale, shift]):
            self._shift = None if shift is None else tf.convert_to_tensor(shift, name="shift")
            self._scale = None if scale is None else tf.convert_to_tensor(scale, name="scale")
            if self._scale is not None and validate_args:
                self._scale = checked(self._scale, _v1.assert_none_equal(
                    self._scale, tf.zeros([], self._scale.dtype)))
            super().__init__(forward_min_event_ndims=0, is_constant_jacobian=True,
                             validate_args=validate_args, name=name)

    @property
    def shift(self):
        return self._shift

    @property
    def scale(self):
        return self._scale

    def _forward(self, x):
        y = tf.identity(x)
        if self._scale is not None:
            y *= self._scale
        if self._shift is not None:
            y += self._shift
        return y

    def _inverse(self, y):
        x = tf.identity(y)
        if self._shift is not None:
            x -= self._shift
        if self._scale is not None:
            x /= self._scale
        return x

    def _forward_log_det_jacobian(self, x):
        if self._scale is None:
            return tf.constant(0., dtype=x.dtype.base_dtype)
        return tf.math.log(tf.abs(self._scale))
