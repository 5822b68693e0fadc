"""`MatrixInverseTriL`: the inverse of a lower-triangular matrix (its own inverse)."""
import tensorflow as tf

from ._checks import Bijector, _v1


class MatrixInverseTriL(Bijector):
    """Compute `Y = g(X) = inv(X)` for a (batch of) lower-triangular non-singular X."""

    def __init__(self, validate_args=False, name="matrix_inverse_tril"):
        super().__init__(forward_min_event_ndims=2, validate_args=validate_args, name=name)

    def _forward(self, x):
        with tf.control_dependencies(self._assertions(x)):
            shape = tf.shape(x)
            return tf.linalg.triangular_solve(
                x, tf.eye(shape[-1], batch_shape=shape[:-2], dtype=x.dtype), lower=True)

    def _inverse(self, y):
        return self._forward(y)

    def _forward_log_det_jacobian(self, x):
        # d(X^-1) = -X^-1 dX X^-1 on the n(n+1)/2 lower entries: |det J| = prod |X_ii|^(-2n)
        with tf.control_dependencies(self._assertions(x)):
            n = tf.cast(tf.shape(x)[-1], x.dtype.base_dtype)
            return -2. * n * tf.reduce_sum(tf.math.log(tf.abs(tf.linalg.diag_part(x))),
                                           axis=-1)

    def _assertions(self, x):
        if not self.validate_args:
            return []
        shape = tf.shape(x)
        above = tf.linalg.band_part(
            tf.linalg.set_diag(x, tf.zeros(shape[:-1], dtype=x.dtype)), 0, -1)
        diag = tf.linalg.diag_part(x)
        return [
            _v1.assert_rank_at_least(x, 2, message="Input must have rank at least 2."),
            _v1.assert_equal(shape[-2], shape[-1], message="Input must be a square matrix."),
            _v1.assert_equal(above, tf.zeros_like(above),
                             message="Input must be lower triangular."),
            _v1.assert_none_equal(diag, tf.zeros_like(diag),
                                  message="Input must have all diagonal entries nonzero."),
        ]
