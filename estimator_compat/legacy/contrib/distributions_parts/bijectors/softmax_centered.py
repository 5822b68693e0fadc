"""`SoftmaxCentered`: R^k onto the (k+1)-simplex, softmax of X with a 0 appended (so it is a
bijection, unlike softmax itself)."""
import tensorflow as tf

from ._checks import Bijector, checked, _v1


class SoftmaxCentered(Bijector):
    """Compute `Y = g(X) = exp([X 0]) / sum(exp([X 0]))`, X's last dimension grown by one."""

    def __init__(self, validate_args=False, name="softmax_centered"):
        super().__init__(forward_min_event_ndims=1, validate_args=validate_args, name=name)

    def _forward_event_shape(self, input_shape):
        if input_shape.ndims is None or input_shape[-1] is None:
            return input_shape
        return tf.TensorShape([input_shape[-1] + 1])

    def _forward_event_shape_tensor(self, input_shape):
        return (input_shape[-1] + 1)[..., tf.newaxis]

    def _inverse_event_shape(self, output_shape):
        if output_shape.ndims is None or output_shape[-1] is None:
            return output_shape
        if output_shape[-1] <= 1:
            raise ValueError("output_shape[-1] = %d <= 1" % output_shape[-1])
        return tf.TensorShape([output_shape[-1] - 1])

    def _inverse_event_shape_tensor(self, output_shape):
        if self.validate_args:
            output_shape = checked(output_shape, _v1.assert_greater(
                output_shape[-1], 1, message="Need last dimension greater than 1."))
        return (output_shape[-1] - 1)[..., tf.newaxis]

    def _forward(self, x):
        ndims = tf.rank(x)
        paddings = tf.concat([tf.zeros([ndims - 1, 2], tf.int32), [[0, 1]]], axis=0)
        y = tf.pad(x, paddings)
        if x.shape.ndims is not None:
            last = tf.compat.dimension_value(x.shape[-1])
            y.set_shape(x.shape[:-1].concatenate(None if last is None else last + 1))
        return tf.nn.softmax(y)

    def _inverse(self, y):
        # log y_i - log y_k: the softmax normalizer cancels, the appended 0 is recovered
        x = tf.math.log(y)
        x = x[..., :-1] - x[..., -1:]
        if y.shape.ndims is not None:
            last = tf.compat.dimension_value(y.shape[-1])
            x.set_shape(y.shape[:-1].concatenate(None if last is None else last - 1))
        return x

    def _inverse_log_det_jacobian(self, y):
        return -tf.reduce_sum(tf.math.log(y), axis=-1)

    def _forward_log_det_jacobian(self, x):
        # log det = sum(log y) over all k + 1 outputs = sum(x) - (k + 1) * log(1 + sum exp x)
        log_norm = tf.nn.softplus(tf.reduce_logsumexp(x, axis=-1, keepdims=True))
        return tf.squeeze(-log_norm + tf.reduce_sum(x - log_norm, axis=-1, keepdims=True),
                          axis=-1)
