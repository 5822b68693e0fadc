"""TF 1.15's `VectorExponentialDiag` and `VectorLaplaceDiag`: loc + diag(scale) @ X with X of
i.i.d. Exponential(1) / Laplace(0, 1) draws."""
import tensorflow as tf

from estimator_compat.legacy.contrib.distributions_parts.bijectors.scale_operators import (
    make_diag_scale)
from estimator_compat.legacy.contrib.distributions_parts.vector_location_scale import (
    VectorExponentialLinearOperator, VectorLaplaceLinearOperator)

_v1 = tf.compat.v1


def _diag_scale(loc, scale_diag, scale_identity_multiplier):
    with _v1.name_scope("init", values=[loc, scale_diag, scale_identity_multiplier]):
        return make_diag_scale(loc=loc, scale_diag=scale_diag,
                               scale_identity_multiplier=scale_identity_multiplier,
                               validate_args=False, assert_positive=False)


class VectorExponentialDiag(VectorExponentialLinearOperator):
    """loc + diag(scale_diag + scale_identity_multiplier) @ X, X_i ~ Exponential(1)."""

    def __init__(self, loc=None, scale_diag=None, scale_identity_multiplier=None,
                 validate_args=False, allow_nan_stats=True, name="VectorExponentialDiag"):
        parameters = dict(locals())
        with _v1.name_scope(name) as name:
            scale = _diag_scale(loc, scale_diag, scale_identity_multiplier)
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


class VectorLaplaceDiag(VectorLaplaceLinearOperator):
    """loc + diag(scale_diag + scale_identity_multiplier) @ X, X_i ~ Laplace(0, 1)."""

    def __init__(self, loc=None, scale_diag=None, scale_identity_multiplier=None,
                 validate_args=False, allow_nan_stats=True, name="VectorLaplaceDiag"):
        parameters = dict(locals())
        with _v1.name_scope(name):  # not reused: TF 1.15's scopes nest as here
            scale = _diag_scale(loc, scale_diag, scale_identity_multiplier)
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters
