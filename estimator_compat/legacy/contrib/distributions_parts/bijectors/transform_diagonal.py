"""`TransformDiagonal`: a scalar bijector applied to a matrix's diagonal only."""
import tensorflow as tf

from ._checks import Bijector


class TransformDiagonal(Bijector):
    """Applies `diag_bijector` to the diagonal of a (batch of) matrix, the rest unchanged."""

    def __init__(self, diag_bijector, validate_args=False, name="transform_diagonal"):
        self._diag_bijector = diag_bijector
        super().__init__(forward_min_event_ndims=2, inverse_min_event_ndims=2,
                         validate_args=validate_args, name=name)

    def _forward(self, x):
        return tf.linalg.set_diag(x, self._diag_bijector.forward(tf.linalg.diag_part(x)))

    def _inverse(self, y):
        return tf.linalg.set_diag(y, self._diag_bijector.inverse(tf.linalg.diag_part(y)))

    def _forward_log_det_jacobian(self, x):
        return self._diag_bijector.forward_log_det_jacobian(tf.linalg.diag_part(x),
                                                            event_ndims=1)

    def _inverse_log_det_jacobian(self, y):
        return self._diag_bijector.inverse_log_det_jacobian(tf.linalg.diag_part(y),
                                                            event_ndims=1)
