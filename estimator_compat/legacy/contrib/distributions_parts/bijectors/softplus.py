"""`Softplus`: Y = c * log(1 + exp(X / c)), with an optional nonzero `hinge_softness` c."""
import tensorflow as tf
from tensorflow.python.ops.distributions import util

from ._checks import Bijector, checked, _v1


class Softplus(Bijector):
    """Compute `Y = g(X) = c * Log[1 + exp(X / c)]` (c = `hinge_softness`, 1 when None)."""

    def __init__(self, hinge_softness=None, validate_args=False, name="softplus"):
        with _v1.name_scope(name, values=[hinge_softness]):
            self._hinge_softness = None if hinge_softness is None else tf.convert_to_tensor(
                hinge_softness, name="hinge_softness")
            if validate_args and self._hinge_softness is not None:
                self._hinge_softness = checked(self._hinge_softness, _v1.assert_none_equal(
                    tf.zeros([], self._hinge_softness.dtype), self._hinge_softness,
                    message="hinge_softness must be non-zero"))
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args, name=name)

    @property
    def hinge_softness(self):
        return self._hinge_softness

    def _c(self, like):
        return tf.cast(self._hinge_softness, like.dtype)

    def _forward(self, x):
        if self._hinge_softness is None:
            return tf.nn.softplus(x)
        c = self._c(x)
        return c * tf.nn.softplus(x / c)

    def _inverse(self, y):
        if self._hinge_softness is None:
            return util.softplus_inverse(y)
        c = self._c(y)
        return c * util.softplus_inverse(y / c)

    def _inverse_log_det_jacobian(self, y):
        if self._hinge_softness is not None:
            y /= self._c(y)
        return -tf.math.log(-tf.math.expm1(-y))

    def _forward_log_det_jacobian(self, x):
        if self._hinge_softness is not None:
            x /= self._c(x)
        return -tf.nn.softplus(-x)
