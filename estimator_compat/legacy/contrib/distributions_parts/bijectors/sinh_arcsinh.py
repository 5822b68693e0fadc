"""`SinhArcsinh`: Y = sinh((arcsinh(X) + skewness) * tailweight), a skew / tail reshaping."""
import numpy as np
import tensorflow as tf

from ._checks import Bijector, checked, start_scope, _v1


def _hypot1(x):
    """sqrt(x**2 + 1), taken as |x| where x**2 would lose all of the 1."""
    small = tf.abs(x) * np.sqrt(np.finfo(x.dtype.as_numpy_dtype).eps) <= 1.
    return tf.where(small, tf.sqrt(x ** 2. + 1.), tf.abs(x))


class SinhArcsinh(Bijector):
    """Compute `Y = g(X) = Sinh( (Arcsinh(X) + skewness) * tailweight )` (skewness 0 and
    tailweight 1 when None: the identity)."""

    def __init__(self, skewness=None, tailweight=None, validate_args=False,
                 name="SinhArcsinh"):
        start_scope(self, name, validate_args)
        with self._name_scope("init", values=[skewness, tailweight]):
            self._skewness = tf.convert_to_tensor(0. if skewness is None else skewness,
                                                  name="skewness")
            self._tailweight = tf.convert_to_tensor(1. if tailweight is None else tailweight,
                                                    name="tailweight",
                                                    dtype=self._skewness.dtype)
            _v1.assert_same_float_dtype([self._skewness, self._tailweight])
            if validate_args:
                self._tailweight = checked(self._tailweight, _v1.assert_positive(
                    self._tailweight, message="Argument tailweight was not positive"))
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args, name=name)

    @property
    def skewness(self):
        return self._skewness

    @property
    def tailweight(self):
        return self._tailweight

    def _forward(self, x):
        return tf.sinh((tf.asinh(x) + self._skewness) * self._tailweight)

    def _inverse(self, y):
        return tf.sinh(tf.asinh(y) / self._tailweight - self._skewness)

    def _inverse_log_det_jacobian(self, y):
        # dx/dy = cosh(asinh(y) / t - s) / (t * sqrt(y**2 + 1))
        inner = tf.asinh(y) / self._tailweight - self._skewness
        return tf.math.log(tf.cosh(inner) / _hypot1(y)) - tf.math.log(self._tailweight)

    def _forward_log_det_jacobian(self, x):
        # dy/dx = cosh((asinh(x) + s) * t) * t / sqrt(x**2 + 1)
        inner = (tf.asinh(x) + self._skewness) * self._tailweight
        return tf.math.log(tf.cosh(inner) / _hypot1(x)) + tf.math.log(self._tailweight)
