"""`Ordered`: a strictly increasing vector to R^n (first entry kept, then the logs of the
successive differences)."""
import tensorflow as tf

from ._checks import Bijector, checked, _v1


class Ordered(Bijector):
    """Compute `Y = g(X) = [X[0], log(X[1] - X[0]), ..., log(X[n-1] - X[n-2])]`."""

    def __init__(self, validate_args=False, name="ordered"):
        super().__init__(forward_min_event_ndims=1, validate_args=validate_args, name=name)

    def _forward_event_shape(self, input_shape):
        if input_shape.ndims is None or input_shape[-1] is None:
            return input_shape
        return tf.TensorShape([input_shape[-1]])

    def _forward_event_shape_tensor(self, input_shape):
        return input_shape[-1][..., tf.newaxis]

    def _inverse_event_shape(self, output_shape):
        if output_shape.ndims is None or output_shape[-1] is None:
            return output_shape
        if output_shape[-1] <= 1:
            raise ValueError("output_shape[-1] = %d <= 1" % output_shape[-1])
        return tf.TensorShape([output_shape[-1]])

    def _inverse_event_shape_tensor(self, output_shape):
        if self.validate_args:
            output_shape = checked(output_shape, _v1.assert_greater(
                output_shape[-1], 1, message="Need last dimension greater than 1."))
        return output_shape[-1][..., tf.newaxis]

    def _forward(self, x):
        x = self._valid_x(x)
        return tf.concat([x[..., :1], tf.math.log(x[..., 1:] - x[..., :-1])], axis=-1)

    def _inverse(self, y):
        return tf.cumsum(tf.concat([y[..., :1], tf.exp(y[..., 1:])], axis=-1), axis=-1)

    def _inverse_log_det_jacobian(self, y):
        return tf.reduce_sum(y[..., 1:], axis=-1)

    def _forward_log_det_jacobian(self, x):
        x = self._valid_x(x)
        return -tf.reduce_sum(tf.math.log(x[..., 1:] - x[..., :-1]), axis=-1)

    def _valid_x(self, x):
        if not self.validate_args:
            return x
        return checked(x, _v1.assert_positive(
            x[..., 1:] - x[..., :-1],
            message="Forward transformation input must be strictly increasing."))
