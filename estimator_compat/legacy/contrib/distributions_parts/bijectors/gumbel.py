"""`Gumbel`: the Gumbel CDF, Y = exp(-exp(-(X - loc) / scale)), onto (0, 1)."""
import tensorflow as tf

from ._checks import Bijector, checked, start_scope, _v1


class Gumbel(Bijector):
    """Compute `Y = g(X) = exp(-exp(-(X - loc) / scale))`."""

    def __init__(self, loc=0., scale=1., validate_args=False, name="gumbel"):
        start_scope(self, name, validate_args)
        with self._name_scope("init", values=[loc, scale]):
            self._loc = tf.convert_to_tensor(loc, name="loc")
            self._scale = tf.convert_to_tensor(scale, name="scale")
            _v1.assert_same_float_dtype([self._loc, self._scale])
            if validate_args:
                self._scale = checked(self._scale, _v1.assert_positive(
                    self._scale, message="Argument scale was not positive"))
        super().__init__(validate_args=validate_args, forward_min_event_ndims=0, name=name)

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _forward(self, x):
        return tf.exp(-tf.exp(-(x - self._loc) / self._scale))

    def _inverse(self, y):
        y = self._valid_y(y)
        return self._loc - self._scale * tf.math.log(-tf.math.log(y))

    def _inverse_log_det_jacobian(self, y):
        y = self._valid_y(y)
        return tf.math.log(self._scale / (-tf.math.log(y) * y))

    def _forward_log_det_jacobian(self, x):
        z = (x - self._loc) / self._scale
        return -z - tf.exp(-z) - tf.math.log(self._scale)

    def _valid_y(self, y):
        if not self.validate_args:
            return y
        return checked(y, _v1.assert_non_negative(
            y, message="Inverse transformation input must be greater than 0."),
            _v1.assert_less_equal(
                y, tf.constant(1., y.dtype),
                message="Inverse transformation input must be less than or equal to 1."))
