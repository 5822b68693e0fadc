"""`Sigmoid`: Y = 1 / (1 + exp(-X)), onto (0, 1)."""
import tensorflow as tf

from ._checks import Bijector


class Sigmoid(Bijector):
    """Compute `Y = g(X) = 1 / (1 + exp(-X))`."""

    def __init__(self, validate_args=False, name="sigmoid"):
        super().__init__(forward_min_event_ndims=0, validate_args=validate_args, name=name)

    def _forward(self, x):
        return tf.sigmoid(x)

    def _inverse(self, y):
        return tf.math.log(y) - tf.math.log1p(-y)

    def _inverse_log_det_jacobian(self, y):
        return -tf.math.log(y) - tf.math.log1p(-y)

    def _forward_log_det_jacobian(self, x):
        return -tf.nn.softplus(-x) - tf.nn.softplus(x)
