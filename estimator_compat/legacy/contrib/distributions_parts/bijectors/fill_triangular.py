"""`FillTriangular`: a vector of n(n+1)/2 entries laid out as an n x n triangular matrix."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.distributions import util

from ._checks import Bijector, checked, _v1


def vector_size_to_square_matrix_size(d, validate_args, name=None):
    """The n with n (n + 1) / 2 == d: an int for a Python / numpy d (ValueError when d is not
    triangular), else a tensor of d's dtype."""
    if isinstance(d, (float, int, np.generic, np.ndarray)):
        n = (-1 + np.sqrt(1 + 8 * d)) / 2.
        if float(int(n)) != n:
            raise ValueError("Vector length is not a triangular number.")
        return int(n)
    with _v1.name_scope(name, "vector_size_to_square_matrix_size", [d]):
        n = (-1. + tf.sqrt(1 + 8. * tf.cast(d, tf.float32))) / 2.
        if validate_args:
            n = checked(n, _v1.assert_equal(
                tf.cast(tf.cast(n, tf.int32), tf.float32), n,
                message="Vector length is not a triangular number"))
        return tf.cast(n, d.dtype)


class FillTriangular(Bijector):
    """Maps the last dimension of size n(n+1)/2 to a lower (or `upper`) triangular n x n
    matrix, TensorFlow's `fill_triangular` order; a volume-preserving reshape."""

    def __init__(self, upper=False, validate_args=False, name="fill_triangular"):
        self._upper = upper
        super().__init__(forward_min_event_ndims=1, inverse_min_event_ndims=2,
                         validate_args=validate_args, name=name)

    def _forward(self, x):
        return util.fill_triangular(x, upper=self._upper)

    def _inverse(self, y):
        return util.fill_triangular_inverse(y, upper=self._upper)

    def _forward_log_det_jacobian(self, x):
        return tf.zeros_like(x[..., 0])

    def _inverse_log_det_jacobian(self, y):
        return tf.zeros_like(y[..., 0, 0])

    def _forward_event_shape(self, input_shape):
        d = tf.compat.dimension_value(input_shape[-1])
        n = None if d is None else vector_size_to_square_matrix_size(d, self.validate_args)
        return input_shape[:-1].concatenate([n, n])

    def _inverse_event_shape(self, output_shape):
        n1 = tf.compat.dimension_value(output_shape[-2])
        n2 = tf.compat.dimension_value(output_shape[-1])
        if n1 is None or n2 is None:
            m = None
        elif n1 != n2:
            raise ValueError("Matrix must be square. (saw [{}, {}])".format(n1, n2))
        else:
            m = n1 * (n1 + 1) // 2
        return output_shape[:-2].concatenate([m])

    def _forward_event_shape_tensor(self, input_shape_tensor):
        n = vector_size_to_square_matrix_size(input_shape_tensor[-1], self.validate_args)
        return tf.concat([input_shape_tensor[:-1], [n, n]], axis=0)

    def _inverse_event_shape_tensor(self, output_shape_tensor):
        n = output_shape_tensor[-1]
        if self.validate_args:
            n = checked(n, _v1.assert_equal(n, output_shape_tensor[-2],
                                            message="Matrix must be square."))
        d = tf.cast(n * (n + 1) / 2, output_shape_tensor.dtype)
        return tf.concat([output_shape_tensor[:-2], [d]], axis=0)
