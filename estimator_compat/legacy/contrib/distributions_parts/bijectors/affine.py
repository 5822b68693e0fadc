"""`Affine`: Y = scale @ X + shift on vectors, `scale` built from identity, diagonal,
lower-triangular and low-rank parts."""
import tensorflow as tf
from tensorflow.python.ops.distributions import util

from ._checks import Bijector, check_batch_rank, checked, start_scope, tensor_or_none, _v1
from .scale_operators import make_tril_scale


class Affine(Bijector):
    """Compute `Y = g(X; shift, scale) = scale @ X + shift` with
    `scale = c * I + diag(D1) + tril(L) + V @ diag(D2) @ V.T` (c = 1 when no part is given).
    With only `scale_identity_multiplier`, `scale` is that scalar `Tensor`, else a
    `LinearOperator`."""

    def __init__(self, shift=None, scale_identity_multiplier=None, scale_diag=None,
                 scale_tril=None, scale_perturb_factor=None, scale_perturb_diag=None,
                 validate_args=False, name="affine"):
        start_scope(self, name, validate_args)
        if scale_perturb_diag is not None and scale_perturb_factor is None:
            raise ValueError("When scale_perturb_diag is specified, scale_perturb_factor must "
                             "be specified.")
        self._is_only_identity_multiplier = (scale_tril is None and scale_diag is None
                                             and scale_perturb_factor is None)
        with self._name_scope("init", values=[shift, scale_identity_multiplier, scale_diag,
                                              scale_tril, scale_perturb_diag,
                                              scale_perturb_factor]):
            dtype = tf.float32
            if shift is not None:
                shift = tf.convert_to_tensor(shift, name="shift")
                dtype = shift.dtype.base_dtype
            self._shift = shift
            if self._is_only_identity_multiplier and scale_identity_multiplier is None:
                scale_identity_multiplier = tf.convert_to_tensor(1., dtype=dtype)
            scale = self._scale_operator(scale_identity_multiplier, scale_diag, scale_tril,
                                         scale_perturb_diag, scale_perturb_factor, shift,
                                         validate_args)
            if scale.dtype is not None:
                dtype = scale.dtype.base_dtype
            if not self._is_only_identity_multiplier and shift is not None \
                    and shift.dtype.base_dtype != scale.dtype.base_dtype:
                raise TypeError("shift.dtype({}) is incompatible with scale.dtype({}).".format(
                    shift.dtype, scale.dtype))
            self._scale = scale
            if self._is_only_identity_multiplier:
                parents = [scale]
            else:
                parents = [shift] if shift is not None else []
            super().__init__(forward_min_event_ndims=1, graph_parents=parents,
                             is_constant_jacobian=True, dtype=dtype,
                             validate_args=validate_args, name=name)

    def _scale_operator(self, identity_multiplier, diag, tril, perturb_diag, perturb_factor,
                        shift, validate_args):
        identity_multiplier = tensor_or_none(identity_multiplier, "identity_multiplier")
        diag = tensor_or_none(diag, "diag")
        tril = tensor_or_none(tril, "tril")
        perturb_diag = tensor_or_none(perturb_diag, "perturb_diag")
        perturb_factor = tensor_or_none(perturb_factor, "perturb_factor")
        if self._is_only_identity_multiplier:
            if validate_args:
                return checked(identity_multiplier, _v1.assert_none_equal(
                    identity_multiplier, tf.zeros([], identity_multiplier.dtype),
                    ["identity_multiplier should be non-zero."]))
            return identity_multiplier
        shape_hint = None
        if perturb_factor is not None:
            shape_hint = util.dimension_size(perturb_factor, axis=-2)
        scale = make_tril_scale(loc=shift, scale_tril=tril, scale_diag=diag,
                                scale_identity_multiplier=identity_multiplier,
                                validate_args=validate_args, assert_positive=False,
                                shape_hint=shape_hint)
        if perturb_factor is None:
            return scale
        return tf.linalg.LinearOperatorLowRankUpdate(
            scale, u=perturb_factor, diag_update=perturb_diag,
            is_diag_update_positive=perturb_diag is None, is_non_singular=True,
            is_self_adjoint=True, is_positive_definite=True, is_square=True)

    @property
    def shift(self):
        """The `shift` `Tensor` in `Y = scale @ X + shift`."""
        return self._shift

    @property
    def scale(self):
        """The `scale` in `Y = scale @ X + shift`."""
        return self._scale

    def _forward(self, x):
        if self._is_only_identity_multiplier:
            y = x * self._scale
        else:
            check_batch_rank(x, self._scale)
            checks = []
            if self.validate_args:
                try:
                    checks = [self._scale.assert_non_singular()]
                except NotImplementedError:
                    pass
            with tf.control_dependencies(checks):
                y = self._scale.matvec(x)
        return y if self._shift is None else y + self._shift

    def _inverse(self, y):
        x = y if self._shift is None else y - self._shift
        if self._is_only_identity_multiplier:
            return x / self._scale
        check_batch_rank(x, self._scale)
        return self._scale.solvevec(x)

    def _forward_log_det_jacobian(self, x):
        if self._is_only_identity_multiplier:
            event_size = tf.cast(tf.shape(x)[-1], self._scale.dtype)
            return tf.math.log(tf.abs(self._scale)) * event_size
        return self._scale.log_abs_determinant()
