"""`AffineLinearOperator`: Y = scale @ X + shift for a given `tf.linalg.LinearOperator`."""
import tensorflow as tf

from ._checks import Bijector, check_batch_rank, start_scope


class AffineLinearOperator(Bijector):
    """Compute `Y = g(X; shift, scale) = scale @ X + shift`, `scale` a `LinearOperator` (the
    identity when None) of batch shape B acting on the last dimension of X."""

    def __init__(self, shift=None, scale=None, validate_args=False,
                 name="affine_linear_operator"):
        start_scope(self, name, validate_args)
        parents = []
        with self._name_scope("init", values=[shift]):
            dtype = tf.float32
            if shift is not None:
                shift = tf.convert_to_tensor(shift, name="shift")
                parents.append(shift)
                dtype = shift.dtype.base_dtype
            self._shift = shift
            if scale is not None:
                if shift is not None and shift.dtype.base_dtype != scale.dtype.base_dtype:
                    raise TypeError("shift.dtype({}) is incompatible with scale.dtype({})."
                                    .format(shift.dtype, scale.dtype))
                if not isinstance(scale, tf.linalg.LinearOperator):
                    raise TypeError("scale is not an instance of tf.LinearOperator")
                if validate_args and not scale.is_non_singular:
                    raise ValueError("Scale matrix must be non-singular.")
                if scale.dtype is not None:
                    dtype = scale.dtype.base_dtype
            self._scale = scale
            super().__init__(forward_min_event_ndims=1, graph_parents=parents,
                             is_constant_jacobian=True, dtype=dtype,
                             validate_args=validate_args, name=name)

    @property
    def shift(self):
        """The `shift` `Tensor` in `Y = scale @ X + shift`."""
        return self._shift

    @property
    def scale(self):
        """The `scale` `LinearOperator` in `Y = scale @ X + shift`."""
        return self._scale

    def _checks(self):
        if not self.validate_args:
            return []
        try:
            return [self._scale.assert_non_singular()]
        except NotImplementedError:
            return []

    def _forward(self, x):
        y = x
        if self._scale is not None:
            check_batch_rank(y, self._scale)
            with tf.control_dependencies(self._checks()):
                y = self._scale.matvec(y)
        return y if self._shift is None else y + self._shift

    def _inverse(self, y):
        x = y if self._shift is None else y - self._shift
        if self._scale is None:
            return x
        check_batch_rank(x, self._scale)
        return self._scale.solvevec(x)

    def _forward_log_det_jacobian(self, x):
        if self._scale is None:
            return tf.constant(0., dtype=x.dtype.base_dtype)
        with tf.control_dependencies(self._checks()):
            return self._scale.log_abs_determinant()
