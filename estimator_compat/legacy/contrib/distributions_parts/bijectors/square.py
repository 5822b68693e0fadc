"""`Square`: Y = X^2 on the non-negative reals."""
import numpy as np
import tensorflow as tf

from ._checks import Bijector, checked, _v1


class Square(Bijector):
    """Compute `Y = g(X) = X**2` for X >= 0."""

    def __init__(self, validate_args=False, name="square"):
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args, name=name)

    def _forward(self, x):
        return tf.square(self._valid(x))

    def _inverse(self, y):
        return tf.sqrt(self._valid(y))

    def _forward_log_det_jacobian(self, x):
        return np.log(2.) + tf.math.log(self._valid(x))

    def _valid(self, t):
        if not self.validate_args:
            return t
        return checked(t, _v1.assert_non_negative(
            t, message="All elements must be non-negative."))
