"""The `scale` linear operators that `Affine` (and the contrib distributions with `scale_*`
arguments) build from a lower-triangular, a diagonal and an identity-multiplier part: TF 1.15's
`distribution_util.make_tril_scale` / `make_diag_scale`."""
import tensorflow as tf

from ._checks import checked, tensor_or_none, _v1


def _diag_check(x, validate_args, assert_positive, diag_of_matrix):
    if not validate_args:
        return x
    diag = tf.linalg.diag_part(x) if diag_of_matrix else x
    if assert_positive:
        return checked(x, _v1.assert_positive(diag, message="diagonal part must be positive"))
    return checked(x, _v1.assert_none_equal(diag, tf.zeros([], x.dtype),
                                            message="diagonal part must be non-zero"))


def make_tril_scale(loc=None, scale_tril=None, scale_diag=None,
                    scale_identity_multiplier=None, shape_hint=None, validate_args=False,
                    assert_positive=False, name=None):
    """A `LinearOperatorLowerTriangular`: tril(scale_tril) with scale_diag and the identity
    multiplier added on its diagonal; without `scale_tril`, `make_diag_scale`'s operator."""
    with _v1.name_scope(name, "make_tril_scale",
                        values=[loc, scale_diag, scale_identity_multiplier]):
        loc = tensor_or_none(loc, "loc")
        scale_tril = tensor_or_none(scale_tril, "scale_tril")
        scale_diag = tensor_or_none(scale_diag, "scale_diag")
        scale_identity_multiplier = tensor_or_none(scale_identity_multiplier,
                                                   "scale_identity_multiplier")
    if scale_tril is None:
        return make_diag_scale(loc=loc, scale_diag=scale_diag,
                               scale_identity_multiplier=scale_identity_multiplier,
                               shape_hint=shape_hint, validate_args=validate_args,
                               assert_positive=assert_positive, name=name)
    scale_tril = tf.linalg.band_part(scale_tril, -1, 0)
    diag = tf.linalg.diag_part(scale_tril)
    if scale_diag is not None:
        diag += scale_diag
    if scale_identity_multiplier is not None:
        diag += scale_identity_multiplier[..., tf.newaxis]
    scale_tril = tf.linalg.set_diag(scale_tril, diag)
    return tf.linalg.LinearOperatorLowerTriangular(
        tril=_diag_check(scale_tril, validate_args, assert_positive, True),
        is_non_singular=True, is_self_adjoint=False, is_positive_definite=assert_positive)


def make_diag_scale(loc=None, scale_diag=None, scale_identity_multiplier=None,
                    shape_hint=None, validate_args=False, assert_positive=False, name=None):
    """A `LinearOperatorDiag` (scale_diag plus the identity multiplier), else a scaled
    identity of `shape_hint` (or loc's last dimension) rows, else the identity."""
    with _v1.name_scope(name, "make_diag_scale",
                        values=[loc, scale_diag, scale_identity_multiplier]):
        loc = tensor_or_none(loc, "loc")
        scale_diag = tensor_or_none(scale_diag, "scale_diag")
        scale_identity_multiplier = tensor_or_none(scale_identity_multiplier,
                                                   "scale_identity_multiplier")
        if scale_diag is not None:
            if scale_identity_multiplier is not None:
                scale_diag += scale_identity_multiplier[..., tf.newaxis]
            return tf.linalg.LinearOperatorDiag(
                diag=_diag_check(scale_diag, validate_args, assert_positive, False),
                is_non_singular=True, is_self_adjoint=True,
                is_positive_definite=assert_positive)
        if loc is None and shape_hint is None:
            raise ValueError("Cannot infer `event_shape` unless `loc` or `shape_hint` is "
                             "specified.")
        if shape_hint is None:
            shape_hint = loc.shape[-1]
        if scale_identity_multiplier is None:
            return tf.linalg.LinearOperatorIdentity(
                num_rows=shape_hint, dtype=tf.float32 if loc is None else loc.dtype.base_dtype,
                is_self_adjoint=True, is_positive_definite=True,
                assert_proper_shapes=validate_args)
        return tf.linalg.LinearOperatorScaledIdentity(
            num_rows=shape_hint,
            multiplier=_diag_check(scale_identity_multiplier, validate_args, assert_positive,
                                   False),
            is_non_singular=True, is_self_adjoint=True, is_positive_definite=assert_positive,
            assert_proper_shapes=validate_args)
