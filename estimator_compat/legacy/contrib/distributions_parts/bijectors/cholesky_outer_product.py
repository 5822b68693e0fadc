"""`CholeskyOuterProduct`: a lower-triangular X with positive diagonal to the positive
definite X X^T (its inverse is the Cholesky factorization)."""
import numpy as np
import tensorflow as tf

from ._checks import Bijector, checked, _v1


class CholeskyOuterProduct(Bijector):
    """Compute `Y = g(X) = X @ X.T` on the lower triangle of X; `X = cholesky(Y)`."""

    def __init__(self, validate_args=False, name="cholesky_outer_product"):
        super().__init__(forward_min_event_ndims=2, validate_args=validate_args, name=name)

    def _forward(self, x):
        if self.validate_args:
            shape = tf.shape(x)
            x = checked(x, _v1.assert_rank_at_least(x, 2),
                        _v1.assert_equal(shape[-2], shape[-1]))
        x = tf.linalg.band_part(x, -1, 0)
        return tf.matmul(x, x, adjoint_b=True)

    def _inverse(self, y):
        return tf.linalg.cholesky(y)

    def _forward_log_det_jacobian(self, x):
        # d(X X^T)/dX on lower-triangular X: log|J| = p log 2 + sum_i (p - i) log X_ii (i from 0)
        # TF 1.15 built shape and positivity checks here that nothing returned depended on: a
        # non-positive diagonal gives NaN, not an error, even with validate_args
        diag = tf.linalg.diag_part(x)
        p = tf.compat.dimension_value(x.shape[-1]) if x.shape.ndims is not None else None
        if p is None:
            p_int = tf.shape(x)[-1]
            p_float = tf.cast(p_int, x.dtype)
        else:
            p_int, p_float = p, np.array(p, dtype=x.dtype.as_numpy_dtype)
        exponents = tf.linspace(p_float, tf.cast(1., x.dtype), p_int)
        return p_float * np.log(2.) + tf.reduce_sum(tf.math.log(diag) * exponents, axis=-1)
