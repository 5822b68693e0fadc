"""`Softsign`: Y = X / (1 + |X|), onto (-1, 1)."""
import tensorflow as tf

from ._checks import Bijector, checked, _v1


class Softsign(Bijector):
    """Compute `Y = g(X) = X / (1 + |X|)`."""

    def __init__(self, validate_args=False, name="softsign"):
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args, name=name)

    def _forward(self, x):
        return x / (1. + tf.abs(x))

    def _inverse(self, y):
        y = self._valid_y(y)
        return y / (1. - tf.abs(y))

    def _forward_log_det_jacobian(self, x):
        return -2. * tf.math.log1p(tf.abs(x))

    def _inverse_log_det_jacobian(self, y):
        y = self._valid_y(y)
        return -2. * tf.math.log1p(-tf.abs(y))

    def _valid_y(self, y):
        if not self.validate_args:
            return y
        dtype = y.dtype.base_dtype
        return checked(y, _v1.assert_greater(
            y, tf.cast(-1., dtype), message="Inverse transformation input must be greater "
            "than -1."), _v1.assert_less(
            y, tf.cast(1., dtype), message="Inverse transformation input must be less than 1."))
