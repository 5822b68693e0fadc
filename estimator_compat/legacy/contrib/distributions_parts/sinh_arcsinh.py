"""TF 1.15's `SinhArcsinh` and `VectorSinhArcsinhDiag`: a scalar base Z (standard Normal by
default) through the SinhArcsinh bijector F, then scaled and shifted:
Y = loc + c * F(Z), c = 2 * scale / F_0(2) with F_0 the bijector without skewness, so that
(skewness 0) P(|Y - loc| <= 2 scale) equals P(|Z| <= 2)."""
import tensorflow as tf
from tensorflow.python.ops.distributions import normal

from estimator_compat.legacy.contrib.distributions_parts.bijectors.affine import Affine
from estimator_compat.legacy.contrib.distributions_parts.bijectors._checks import checked
from estimator_compat.legacy.contrib.distributions_parts.bijectors.affine_scalar import (
    AffineScalar)
from estimator_compat.legacy.contrib.distributions_parts.bijectors.chain import Chain
from estimator_compat.legacy.contrib.distributions_parts.bijectors.sinh_arcsinh import (
    SinhArcsinh as SinhArcsinhBijector)
from estimator_compat.legacy.contrib.distributions_parts.bijectors.scale_operators import (
    make_diag_scale)
from estimator_compat.legacy.contrib.distributions_parts.scale_operators import (
    broadcast_shape, check_scalar_distribution, shapes_from_loc_and_scale)
from estimator_compat.legacy.contrib.distributions_parts.transformed_distribution import (
    TransformedDistribution)

_v1 = tf.compat.v1


def _base_and_bijectors(distribution, skewness, tailweight, has_default_skewness, dtype,
                        allow_nan_stats, validate_args):
    """(base distribution, its checks, F, the scale factor c / scale = 2 / F_0(2))."""
    checks = []
    if distribution is None:
        distribution = normal.Normal(loc=tf.zeros([], dtype), scale=tf.ones([], dtype),
                                     allow_nan_stats=allow_nan_stats)
    else:
        checks = check_scalar_distribution(distribution, dtype, validate_args)
    f = SinhArcsinhBijector(skewness=skewness, tailweight=tailweight)
    f_noskew = f if has_default_skewness else SinhArcsinhBijector(
        skewness=skewness.dtype.as_numpy_dtype(0.0), tailweight=tailweight)
    factor = 2 / f_noskew.forward(tf.convert_to_tensor(2, dtype))
    return distribution, checks, f, factor


class _Parameters:
    """The parameters both classes keep (`loc`, `scale`, `tailweight`, `skewness`)."""

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    @property
    def tailweight(self):
        return self._tailweight

    @property
    def skewness(self):
        return self._skewness


class SinhArcsinh(_Parameters, TransformedDistribution):
    """The scalar SinhArcsinh distribution (see the module doc)."""

    def __init__(self, loc, scale, skewness=None, tailweight=None, distribution=None,
                 validate_args=False, allow_nan_stats=True, name="SinhArcsinh"):
        parameters = dict(locals())
        with _v1.name_scope(name, values=[loc, scale, skewness, tailweight]) as name:
            loc = tf.convert_to_tensor(loc, name="loc")
            dtype = loc.dtype
            scale = tf.convert_to_tensor(scale, name="scale", dtype=dtype)
            has_default_skewness = skewness is None
            tailweight = tf.convert_to_tensor(1.0 if tailweight is None else tailweight,
                                              name="tailweight", dtype=dtype)
            skewness = tf.convert_to_tensor(0.0 if skewness is None else skewness,
                                            name="skewness", dtype=dtype)
            batch_shape = broadcast_shape(loc, scale, tailweight, skewness)
            distribution, checks, f, factor = _base_and_bijectors(
                distribution, skewness, tailweight, has_default_skewness, dtype,
                allow_nan_stats, validate_args)
            loc = checked(loc, *checks)
            affine = AffineScalar(shift=loc, scale=scale * factor,
                                  validate_args=validate_args)
            super().__init__(distribution=distribution, bijector=Chain([affine, f]),
                             batch_shape=batch_shape, validate_args=validate_args, name=name)
        self._parameters = parameters
        self._loc, self._scale = loc, scale
        self._tailweight, self._skewness = tailweight, skewness


class VectorSinhArcsinhDiag(_Parameters, TransformedDistribution):
    """The vector SinhArcsinh distribution: i.i.d. components, scaled by a diagonal."""

    def __init__(self, loc=None, scale_diag=None, scale_identity_multiplier=None,
                 skewness=None, tailweight=None, distribution=None, validate_args=False,
                 allow_nan_stats=True, name="MultivariateNormalLinearOperator"):
        parameters = dict(locals())
        with _v1.name_scope(name, values=[loc, scale_diag, scale_identity_multiplier,
                                          skewness, tailweight]) as name:
            loc = tf.convert_to_tensor(loc, name="loc") if loc is not None else loc
            has_default_skewness = skewness is None
            scale_linop = make_diag_scale(loc=loc, scale_diag=scale_diag,
                                          scale_identity_multiplier=scale_identity_multiplier,
                                          validate_args=False, assert_positive=False)
            batch_shape, event_shape = shapes_from_loc_and_scale(loc, scale_linop)
            scale_diag_part = scale_linop.diag_part()
            dtype = scale_diag_part.dtype
            skewness = tf.convert_to_tensor(0.0 if skewness is None else skewness,
                                            dtype=dtype, name="skewness")
            tailweight = tf.convert_to_tensor(1.0 if tailweight is None else tailweight,
                                              dtype=dtype, name="tailweight")
            distribution, checks, f, factor = _base_and_bijectors(
                distribution, skewness, tailweight, has_default_skewness, dtype,
                allow_nan_stats, validate_args)
            scale_diag_part = checked(scale_diag_part, *checks)
            affine = Affine(shift=loc, scale_diag=scale_diag_part * factor,
                            validate_args=validate_args)
            super().__init__(distribution=distribution, bijector=Chain([affine, f]),
                             batch_shape=batch_shape, event_shape=event_shape,
                             validate_args=validate_args, name=name)
        self._parameters = parameters
        self._loc, self._scale = loc, scale_linop
        self._tailweight, self._skewness = tailweight, skewness
