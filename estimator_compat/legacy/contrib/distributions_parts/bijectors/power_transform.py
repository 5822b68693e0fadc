"""`PowerTransform`: the Box-Cox inverse, Y = (1 + X * c)^(1/c), and exp(X) at c = 0."""
import tensorflow as tf
from tensorflow.python.framework import tensor_util

from ._checks import Bijector, checked, start_scope, _v1


class PowerTransform(Bijector):
    """Compute `Y = g(X) = (1 + X * c)**(1 / c)` for a static `power` c >= 0 (exp at 0)."""

    def __init__(self, power=0., validate_args=False, name="power_transform"):
        start_scope(self, name, validate_args)
        with self._name_scope("init", values=[power]):
            power = tensor_util.constant_value(tf.convert_to_tensor(power, name="power"))
        if power is None or power < 0:
            raise ValueError("`power` must be a non-negative TF constant.")
        self._power = power
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args, name=name)

    @property
    def power(self):
        """The `c` in `Y = g(X) = (1 + X * c)**(1 / c)`."""
        return self._power

    def _forward(self, x):
        x = self._valid_x(x)
        if self._power == 0.:
            return tf.exp(x)
        return tf.exp(tf.math.log1p(x * self._power) / self._power)

    def _inverse(self, y):
        y = self._valid_y(y)
        if self._power == 0.:
            return tf.math.log(y)
        return tf.math.expm1(tf.math.log(y) * self._power) / self._power

    def _inverse_log_det_jacobian(self, y):
        y = self._valid_y(y)
        return (self._power - 1.) * tf.math.log(y)

    def _forward_log_det_jacobian(self, x):
        x = self._valid_x(x)
        if self._power == 0.:
            return x
        return (1. / self._power - 1.) * tf.math.log1p(x * self._power)

    def _valid_x(self, x):
        if not self.validate_args or self._power == 0.:
            return x
        return checked(x, _v1.assert_non_negative(
            1. + self._power * x,
            message="Forward transformation input must be at least {}.".format(
                -1. / self._power)))

    def _valid_y(self, y):
        if not self.validate_args:
            return y
        return checked(y, _v1.assert_positive(
            y, message="Inverse transformation input must be greater than 0."))
