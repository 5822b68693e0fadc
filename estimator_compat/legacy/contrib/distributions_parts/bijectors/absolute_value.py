"""`AbsoluteValue`: Y = |X|, not injective: `inverse` gives both preimages (-y, y)."""
import tensorflow as tf

from ._checks import Bijector, checked, start_scope, _v1


class AbsoluteValue(Bijector):
    """Compute `Y = g(X) = Abs(X)` elementwise; its inverse and inverse log-det-Jacobian are
    pairs, one per branch (X < 0, X >= 0)."""

    def __init__(self, validate_args=False, name="absolute_value"):
        start_scope(self, name, validate_args)
        with self._name_scope("init"):
            super().__init__(forward_min_event_ndims=0, is_constant_jacobian=True,
                             validate_args=validate_args, name=name)

    def _non_negative(self, y, value):
        if not self.validate_args:
            return value
        return checked(value, _v1.assert_non_negative(y, message="Argument y was negative"))

    def _forward(self, x):
        return tf.abs(x)

    def _inverse(self, y):
        y = self._non_negative(y, y)
        return -y, y

    def _inverse_log_det_jacobian(self, y):
        zeros = self._non_negative(y, tf.constant(0., dtype=y.dtype))
        return zeros, zeros

    @property
    def _is_injective(self):
        return False
