"""The vector location-scale distributions of TF 1.15: a scalar base (standard Normal,
Exponential(1) or Laplace(0, 1)) widened to the event of `scale` and moved by
`AffineLinearOperator(shift=loc, scale=scale)`, with the moments of `loc + scale @ X`.

`MultivariateNormalLinearOperator`, `VectorExponentialLinearOperator` and
`VectorLaplaceLinearOperator` were not public in `tf.contrib.distributions` but are the bases
of the public classes (`mvn.py`, `vector_diag.py`).
"""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.distributions import exponential, laplace, normal

from estimator_compat.legacy.contrib.distributions_parts.bijectors.affine_linear_operator import (
    AffineLinearOperator)
from estimator_compat.legacy.contrib.distributions_parts.scale_operators import (
    is_diagonal_scale, shapes_from_loc_and_scale)
from estimator_compat.legacy.contrib.distributions_parts.transformed_distribution import (
    TransformedDistribution)

_v1 = tf.compat.v1


class _LinearOperatorScaled(TransformedDistribution):
    """`loc + scale @ X`, X of i.i.d. draws of `_base(dtype)`; `_second_moment_factor` is
    Var(X_i) (2 for Laplace)."""
    _second_moment_factor = 1.0
    _scope_captured = True  # TF 1.15's VectorLaplace opened its scope without `as name`

    def __init__(self, loc=None, scale=None, validate_args=False, allow_nan_stats=True,
                 name=None):
        parameters = dict(locals())
        if scale is None:
            raise ValueError("Missing required `scale` parameter.")
        if not scale.dtype.is_floating:
            raise TypeError("`scale` parameter must have floating-point dtype.")
        with _v1.name_scope(name, values=[loc]) as scope:
            name = scope if self._scope_captured else name
            loc = tf.convert_to_tensor(loc, name="loc") if loc is not None else loc
            batch_shape, event_shape = shapes_from_loc_and_scale(loc, scale)
            super().__init__(
                distribution=self._base(scale.dtype, allow_nan_stats),
                bijector=AffineLinearOperator(shift=loc, scale=scale,
                                              validate_args=validate_args),
                batch_shape=batch_shape, event_shape=event_shape,
                validate_args=validate_args, name=name)
        self._parameters = parameters

    @property
    def loc(self):
        """The location: the shift of the affine transform."""
        return self.bijector.shift

    @property
    def scale(self):
        """The scale `LinearOperator`."""
        return self.bijector.scale

    def _full_shape(self):
        shape = self.batch_shape.concatenate(self.event_shape)
        if shape.is_fully_defined():
            return shape
        return tf.concat([self.batch_shape_tensor(), self.event_shape_tensor()], 0)

    def _loc_mean(self):
        """loc broadcast to batch + event (zeros without a loc)."""
        shape = self._full_shape()
        if self.loc is None:
            return tf.zeros(shape, self.dtype)
        if isinstance(shape, tf.TensorShape) and shape == self.loc.shape:
            return tf.identity(self.loc)
        return tf.identity(self.loc) + tf.zeros(shape, self.dtype)

    def _scale_square(self):
        """scale @ scale^T (scale @ scale for a self-adjoint low-rank update)."""
        s = self.scale
        if isinstance(s, tf.linalg.LinearOperatorLowRankUpdate) and s.is_self_adjoint:
            return s.matmul(s.to_dense())
        return s.matmul(s.to_dense(), adjoint_arg=True)

    def _covariance(self):
        c = self._second_moment_factor
        if is_diagonal_scale(self.scale):
            cov = tf.linalg.diag(tf.square(self.scale.diag_part()))
        else:
            cov = self.scale.matmul(self.scale.to_dense(), adjoint_arg=True)
        return cov if c == 1.0 else c * cov

    def _variance(self):
        c = self._second_moment_factor
        if is_diagonal_scale(self.scale):
            var = tf.square(self.scale.diag_part())
        else:
            var = tf.linalg.diag_part(self._scale_square())
        return var if c == 1.0 else c * var

    def _stddev(self):
        c = self._second_moment_factor
        if is_diagonal_scale(self.scale):
            std = tf.abs(self.scale.diag_part())
        else:
            std = tf.sqrt(tf.linalg.diag_part(self._scale_square()))
        return std if c == 1.0 else np.sqrt(c) * std


class MultivariateNormalLinearOperator(_LinearOperatorScaled):
    """N(loc, scale @ scale^T), a `TransformedDistribution` of the standard Normal."""

    def __init__(self, loc=None, scale=None, validate_args=False, allow_nan_stats=True,
                 name="MultivariateNormalLinearOperator"):
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)

    @staticmethod
    def _base(dtype, allow_nan_stats):
        return normal.Normal(loc=tf.zeros([], dtype), scale=tf.ones([], dtype))

    def _mean(self):
        return self._loc_mean()

    def _mode(self):
        return self._loc_mean()


class VectorExponentialLinearOperator(_LinearOperatorScaled):
    """loc + scale @ X, X_i ~ Exponential(1) i.i.d."""

    def __init__(self, loc=None, scale=None, validate_args=False, allow_nan_stats=True,
                 name="VectorExponentialLinearOperator"):
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)

    @staticmethod
    def _base(dtype, allow_nan_stats):
        return exponential.Exponential(rate=tf.ones([], dtype),
                                       allow_nan_stats=allow_nan_stats)

    def _shifted(self, fill):
        moved = self.bijector.scale.matvec(fill(self._full_shape(), self.dtype))
        return moved if self.loc is None else tf.identity(self.loc) + moved

    def _mean(self):
        return self._shifted(tf.ones)

    def _mode(self):
        return self._shifted(tf.zeros)


class VectorLaplaceLinearOperator(_LinearOperatorScaled):
    """loc + scale @ X, X_i ~ Laplace(0, 1) i.i.d. (covariance 2 scale @ scale^T)."""
    _second_moment_factor = 2.0
    _scope_captured = False

    def __init__(self, loc=None, scale=None, validate_args=False, allow_nan_stats=True,
                 name="VectorLaplaceLinearOperator"):
        super().__init__(loc=loc, scale=scale, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)

    @staticmethod
    def _base(dtype, allow_nan_stats):
        return laplace.Laplace(loc=tf.zeros([], dtype), scale=tf.ones([], dtype))

    def _mean(self):
        return self._loc_mean()

    def _mode(self):
        return self._loc_mean()
