"""TF 1.15's multivariate Normals, each a `MultivariateNormalLinearOperator` with its kind of
`scale` operator, and their KL divergence (registered in TF 2.21's KL registry, as TF 1.15
registered it, so `kl_divergence` of any two of them works)."""
import tensorflow as tf
from tensorflow.python.ops.distributions import kullback_leibler
from tensorflow.python.util import deprecation

from estimator_compat.legacy.contrib.distributions_parts.bijectors.scale_operators import (
    make_diag_scale)
from estimator_compat.legacy.contrib.distributions_parts.vector_location_scale import (
    MultivariateNormalLinearOperator)

_v1 = tf.compat.v1


def _tensor(x, name):
    return None if x is None else tf.convert_to_tensor(x, name=name)


class MultivariateNormalDiag(MultivariateNormalLinearOperator):
    """N(loc, diag(scale_diag + scale_identity_multiplier)^2)."""

    def __init__(self, loc=None, scale_diag=None, scale_identity_multiplier=None,
                 validate_args=False, allow_nan_stats=True, name="MultivariateNormalDiag"):
        parameters = dict(locals())
        with _v1.name_scope(name) as name:
            with _v1.name_scope("init", values=[loc, scale_diag, scale_identity_multiplier]):
                scale = make_diag_scale(loc=loc, scale_diag=scale_diag,
                                        scale_identity_multiplier=scale_identity_multiplier,
                                        validate_args=False, assert_positive=False)
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


class MultivariateNormalDiagWithSoftplusScale(MultivariateNormalDiag):
    """MultivariateNormalDiag with scale_diag = softplus(scale_diag)."""

    def __init__(self, loc, scale_diag, validate_args=False, allow_nan_stats=True,
                 name="MultivariateNormalDiagWithSoftplusScale"):
        parameters = dict(locals())
        with _v1.name_scope(name, values=[scale_diag]) as name:
            super().__init__(loc=loc, scale_diag=tf.nn.softplus(scale_diag),
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             name=name)
        self._parameters = parameters


class MultivariateNormalTriL(MultivariateNormalLinearOperator):
    """N(loc, scale_tril @ scale_tril^T), scale_tril lower triangular."""

    def __init__(self, loc=None, scale_tril=None, validate_args=False, allow_nan_stats=True,
                 name="MultivariateNormalTriL"):
        parameters = dict(locals())
        if loc is None and scale_tril is None:
            raise ValueError("Must specify one or both of `loc`, `scale_tril`.")
        with _v1.name_scope(name) as name:
            with _v1.name_scope("init", values=[loc, scale_tril]):
                loc = _tensor(loc, "loc")
                scale_tril = _tensor(scale_tril, "scale_tril")
                if scale_tril is None:
                    scale = tf.linalg.LinearOperatorIdentity(
                        num_rows=_last_dim(loc), dtype=loc.dtype, is_self_adjoint=True,
                        is_positive_definite=True, assert_proper_shapes=validate_args)
                else:
                    # only the lower triangle is read (the operator ignores the rest)
                    scale = tf.linalg.LinearOperatorLowerTriangular(
                        scale_tril, is_non_singular=True, is_self_adjoint=False,
                        is_positive_definite=False)
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


def _last_dim(x):
    size = tf.compat.dimension_value(x.shape.with_rank_at_least(1)[-1])
    return size if size is not None else tf.shape(x)[-1]


class MultivariateNormalFullCovariance(MultivariateNormalTriL):
    """N(loc, covariance_matrix), through the Cholesky factor of the covariance."""

    def __init__(self, loc=None, covariance_matrix=None, validate_args=False,
                 allow_nan_stats=True, name="MultivariateNormalFullCovariance"):
        parameters = dict(locals())
        with _v1.name_scope(name) as name:
            with _v1.name_scope("init", values=[loc, covariance_matrix]):
                if covariance_matrix is None:
                    scale_tril = None
                else:
                    covariance_matrix = tf.convert_to_tensor(covariance_matrix,
                                                             name="covariance_matrix")
                    if validate_args:
                        check = _v1.assert_near(covariance_matrix,
                                                tf.linalg.matrix_transpose(covariance_matrix),
                                                message="Matrix was not symmetric")
                        with tf.control_dependencies([check]):
                            covariance_matrix = tf.identity(covariance_matrix)
                    scale_tril = tf.linalg.cholesky(covariance_matrix)
                super().__init__(loc=loc, scale_tril=scale_tril, validate_args=validate_args,
                                 allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


class MultivariateNormalDiagPlusLowRank(MultivariateNormalLinearOperator):
    """N(loc, S S^T), S = diag(scale_diag + scale_identity_multiplier)
    + scale_perturb_factor @ diag(scale_perturb_diag) @ scale_perturb_factor^T."""

    def __init__(self, loc=None, scale_diag=None, scale_identity_multiplier=None,
                 scale_perturb_factor=None, scale_perturb_diag=None, validate_args=False,
                 allow_nan_stats=True, name="MultivariateNormalDiagPlusLowRank"):
        parameters = dict(locals())
        with _v1.name_scope(name) as name:
            with _v1.name_scope("init", values=[loc, scale_diag, scale_identity_multiplier,
                                                scale_perturb_factor, scale_perturb_diag]):
                has_low_rank = scale_perturb_factor is not None or scale_perturb_diag is not None
                scale = make_diag_scale(loc=loc, scale_diag=scale_diag,
                                        scale_identity_multiplier=scale_identity_multiplier,
                                        validate_args=validate_args,
                                        assert_positive=has_low_rank)
                scale_perturb_factor = _tensor(scale_perturb_factor, "scale_perturb_factor")
                scale_perturb_diag = _tensor(scale_perturb_diag, "scale_perturb_diag")
                if has_low_rank:
                    scale = tf.linalg.LinearOperatorLowRankUpdate(
                        scale, u=scale_perturb_factor, diag_update=scale_perturb_diag,
                        is_diag_update_positive=scale_perturb_diag is None,
                        is_non_singular=True, is_self_adjoint=True, is_positive_definite=True,
                        is_square=True)
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


def _is_diagonal(operator):
    return isinstance(operator, (tf.linalg.LinearOperatorIdentity,
                                 tf.linalg.LinearOperatorScaledIdentity,
                                 tf.linalg.LinearOperatorDiag))


def _kl_mvn(a, b, name=None):
    """KL(a || b) = log|det B| - log|det A|
    + (||B^-1 A||_F^2 + ||B^-1 (mu_b - mu_a)||^2 - k) / 2."""
    def frobenius_squared(x):
        return tf.reduce_sum(tf.square(x), axis=[-2, -1])

    with _v1.name_scope(name, "kl_mvn", values=[a.loc, b.loc]):
        if _is_diagonal(a.scale) and _is_diagonal(b.scale):
            b_inv_a = (a.stddev() / b.stddev())[..., tf.newaxis]
        else:
            b_inv_a = b.scale.solve(a.scale.to_dense())
        kl = (b.scale.log_abs_determinant() - a.scale.log_abs_determinant()
              + 0.5 * (-tf.cast(a.scale.domain_dimension_tensor(), a.dtype)
                       + frobenius_squared(b_inv_a)
                       + frobenius_squared(b.scale.solve((b.mean() - a.mean())[...,
                                                                               tf.newaxis]))))
        kl.set_shape(tf.broadcast_static_shape(a.batch_shape, b.batch_shape))
        return kl


with deprecation.silence():  # RegisterKL's deprecation notice, logged at import otherwise
    kullback_leibler.RegisterKL(MultivariateNormalLinearOperator,
                                MultivariateNormalLinearOperator)(_kl_mvn)
