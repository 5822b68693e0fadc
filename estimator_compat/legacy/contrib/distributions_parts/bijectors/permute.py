"""`Permute`: a fixed permutation of the last dimension (volume preserving)."""
import numpy as np
import tensorflow as tf
from tensorflow.python.framework import tensor_util

from ._checks import Bijector, checked, _v1

_NOT_A_PERMUTATION = ("Permutation over `d` must contain exactly one of each of "
                      "`{0, 1, ..., d}`.")


class Permute(Bijector):
    """Compute `Y = g(X) = X[..., permutation]`."""

    def __init__(self, permutation, validate_args=False, name=None):
        with _v1.name_scope(name, "permute", values=[permutation]):
            permutation = tf.convert_to_tensor(permutation, name="permutation")
            if not permutation.dtype.is_integer:
                raise TypeError("permutation.dtype ({}) should be `int`-like.".format(
                    permutation.dtype.name))
            p = tensor_util.constant_value(permutation)
            if p is not None:
                if set(p) != set(np.arange(p.size)):
                    raise ValueError(_NOT_A_PERMUTATION)
            elif validate_args:
                in_order = tf.sort(permutation, axis=-1)
                permutation = checked(permutation, _v1.assert_equal(
                    in_order, tf.range(tf.size(in_order), dtype=in_order.dtype),
                    message=_NOT_A_PERMUTATION))
            self._permutation = permutation
            super().__init__(forward_min_event_ndims=1, is_constant_jacobian=True,
                             validate_args=validate_args, name=name or "permute")

    @property
    def permutation(self):
        return self._permutation

    def _forward(self, x):
        return tf.gather(x, self._permutation, axis=-1)

    def _inverse(self, y):
        return tf.gather(y, tf.math.invert_permutation(self._permutation), axis=-1)

    def _inverse_log_det_jacobian(self, y):
        return tf.constant(0., dtype=y.dtype.base_dtype)

    def _forward_log_det_jacobian(self, x):
        return tf.constant(0., dtype=x.dtype.base_dtype)
