"""TF 1.15's `VectorDiffeomixture`: a (quadrature-approximated) mixture over a SoftmaxNormal
mixing weight w of affine transforms of a scalar base distribution, the transform at w being
the interpolation w * (loc[0], scale[0]) + (1 - w) * (loc[1], scale[1]). Only two components
("bimixtures"), as in TF 1.15."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.distributions import categorical
from tensorflow.python.ops.distributions import distribution as distribution_lib
from tensorflow.python.ops.distributions import util as distribution_util
from tensorflow.python.ops.linalg import linear_operator_addition

from estimator_compat.legacy.contrib.distributions_parts.bijectors._checks import checked
from estimator_compat.legacy.contrib.distributions_parts.bijectors.affine_linear_operator import (
    AffineLinearOperator)
from estimator_compat.legacy.contrib.distributions_parts.quadrature import (
    quadrature_scheme_softmaxnormal_quantiles)
from estimator_compat.legacy.contrib.distributions_parts.scale_operators import (
    check_scalar_distribution, operator_parents)
from estimator_compat.legacy.contrib.distributions_parts.transformed_distribution import (
    concat_vectors)

_v1 = tf.compat.v1
_ONLY_BIMIXTURES = "Currently only bimixtures are supported; len(scale)={} is not 2."


class VectorDiffeomixture(distribution_lib.Distribution):
    """The diffeomixture of `distribution` by the `loc` / `scale` pair (see the module doc)."""

    def __init__(self, mix_loc, temperature, distribution, loc=None, scale=None,
                 quadrature_size=8, quadrature_fn=quadrature_scheme_softmaxnormal_quantiles,
                 validate_args=False, allow_nan_stats=True, name="VectorDiffeomixture"):
        parameters = dict(locals())
        with _v1.name_scope(name, values=[mix_loc, temperature]) as name:
            if not scale or len(scale) < 2:
                raise ValueError("Must specify list (or list-like object) of scale "
                                 "LinearOperators, one for each component with "
                                 "num_component >= 2.")
            if loc is None:
                loc = [None] * len(scale)
            if len(loc) != len(scale):
                raise ValueError("loc/scale must be same-length lists (or same-length "
                                 "list-like objects).")
            dtype = scale[0].dtype.base_dtype
            loc = [tf.convert_to_tensor(x, dtype=dtype, name=f"loc{k}") if x is not None
                   else None for k, x in enumerate(loc)]
            for k, s in enumerate(scale):
                if validate_args and not s.is_positive_definite:
                    raise ValueError(f"scale[{k}].is_positive_definite = "
                                     f"{s.is_positive_definite} != True")
                if s.dtype.base_dtype != dtype:
                    raise TypeError(f'dtype mismatch; scale[{k}].base_dtype="'
                                    f'{s.dtype.base_dtype.name}" != "{dtype.name}"')
            self._endpoint_affine = [
                AffineLinearOperator(shift=x, scale=s, validate_args=validate_args,
                                     name=f"endpoint_affine_{k}")
                for k, (x, s) in enumerate(zip(loc, scale))]
            if len(scale) != 2:
                raise NotImplementedError(_ONLY_BIMIXTURES.format(len(scale)))
            mix_loc = tf.convert_to_tensor(mix_loc, dtype=dtype, name="mix_loc")
            temperature = tf.convert_to_tensor(temperature, dtype=dtype, name="temperature")
            self._grid, probs = tuple(quadrature_fn(mix_loc / temperature, 1. / temperature,
                                                    quadrature_size, validate_args))
            self._mixture_distribution = categorical.Categorical(
                logits=tf.math.log(probs), validate_args=validate_args,
                allow_nan_stats=allow_nan_stats)
            checks = check_scalar_distribution(distribution, dtype, validate_args)
            self._grid = checked(self._grid, *checks)
            self._distribution = distribution
            self._interpolated_affine = [
                AffineLinearOperator(shift=x, scale=s, validate_args=validate_args,
                                     name=f"interpolated_affine_{k}")
                for k, (x, s) in enumerate(zip(interpolate_loc(self._grid, loc),
                                               interpolate_scale(self._grid, scale)))]
            (self._batch_shape_, self._batch_shape_tensor_, self._event_shape_,
             self._event_shape_tensor_) = _batch_event_shapes(self._grid, self._endpoint_affine)
            super().__init__(
                dtype=dtype, reparameterization_type=distribution_lib.FULLY_REPARAMETERIZED,
                validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                parameters=parameters,
                graph_parents=(list(distribution._graph_parents)
                               + [x for x in loc if x is not None]
                               + [p for s in scale for p in operator_parents(s)]),
                name=name)

    @property
    def mixture_distribution(self):
        """The Categorical over the quadrature points."""
        return self._mixture_distribution

    @property
    def distribution(self):
        """The scalar base distribution."""
        return self._distribution

    @property
    def grid(self):
        """The mixing weights at the quadrature points, [..., 2, quadrature_size]."""
        return self._grid

    @property
    def endpoint_affine(self):
        return self._endpoint_affine

    @property
    def interpolated_affine(self):
        return self._interpolated_affine

    def _batch_shape_tensor(self):
        return self._batch_shape_tensor_

    def _batch_shape(self):
        return self._batch_shape_

    def _event_shape_tensor(self):
        return self._event_shape_tensor_

    def _event_shape(self):
        return self._event_shape_

    def _sample_n(self, n, seed=None):
        x = self.distribution.sample(sample_shape=concat_vectors(
            [n], self.batch_shape_tensor(), self.event_shape_tensor()), seed=seed)
        x = [aff.forward(x) for aff in self.endpoint_affine]
        # a quadrature point per draw and batch member, its weight mixing the two endpoints
        batch_size = self.batch_shape.num_elements()
        if batch_size is None:
            batch_size = tf.reduce_prod(self.batch_shape_tensor())
        mix_batch_size = self.mixture_distribution.batch_shape.num_elements()
        if mix_batch_size is None:
            mix_batch_size = tf.reduce_prod(self.mixture_distribution.batch_shape_tensor())
        ids = self.mixture_distribution.sample(
            sample_shape=concat_vectors([n], distribution_util.pick_vector(
                self.is_scalar_batch(), np.int32([]), [batch_size // mix_batch_size])),
            seed=distribution_util.gen_new_seed(seed, "vector_diffeomixture"))
        ids = tf.reshape(ids, concat_vectors([n], distribution_util.pick_vector(
            self.is_scalar_batch(), np.int32([]), np.int32([-1]))))
        stride = self.grid.shape.with_rank_at_least(2)[-2:].num_elements()
        if stride is None:
            stride = tf.reduce_prod(tf.shape(self.grid)[-2:])
        offset = tf.range(start=0, limit=batch_size * stride, delta=stride, dtype=ids.dtype)
        weight = tf.gather(tf.reshape(self.grid, [-1]), ids + offset)
        if self.batch_shape.is_fully_defined():
            new_shape = [-1] + self.batch_shape.as_list() + [1]
        else:
            new_shape = tf.concat(([-1], self.batch_shape_tensor(), [1]), axis=0)
        weight = tf.reshape(weight, new_shape)
        if len(x) != 2:
            raise NotImplementedError(_ONLY_BIMIXTURES.format(len(x)))
        return weight * (x[0] - x[1]) + x[1]

    def _log_prob(self, x):
        y = tf.stack([aff.inverse(x) for aff in self.interpolated_affine], axis=-1)
        log_prob = tf.reduce_sum(self.distribution.log_prob(y), axis=-2)
        event_ndims = self.event_shape.ndims  # an int where known: bijectors cache by it
        if event_ndims is None:
            event_ndims = tf.rank(self.event_shape_tensor())
        fldj = tf.stack([aff.forward_log_det_jacobian(x, event_ndims=event_ndims)
                         for aff in self.interpolated_affine], axis=-1)
        return tf.reduce_logsumexp(self.mixture_distribution.logits - fldj + log_prob, axis=-1)

    def _mean(self):
        p = self._expand_mix_distribution_probs()
        m = self._expand_base_distribution_mean()
        mean = None
        for k, aff in enumerate(self.interpolated_affine):
            mean = _add(mean, p[..., k] * aff.forward(m))
        return mean

    def _covariance(self):
        # law of total covariance over the quadrature component
        return _add(self._mean_of_covariance_given_quadrature_component(diag_only=False),
                    self._covariance_of_mean_given_quadrature_component(diag_only=False))

    def _variance(self):
        return _add(self._mean_of_covariance_given_quadrature_component(diag_only=True),
                    self._covariance_of_mean_given_quadrature_component(diag_only=True))

    def _mean_of_covariance_given_quadrature_component(self, diag_only):
        p = self.mixture_distribution.probs
        multiplier = diag = full = None
        for k, aff in enumerate(self.interpolated_affine):
            s = aff.scale
            if s is None or isinstance(s, tf.linalg.LinearOperatorIdentity):
                multiplier = _add(multiplier, p[..., k, tf.newaxis])
            elif isinstance(s, tf.linalg.LinearOperatorScaledIdentity):
                multiplier = _add(multiplier,
                                  p[..., k, tf.newaxis] * tf.square(s.multiplier))
            elif isinstance(s, tf.linalg.LinearOperatorDiag):
                diag = _add(diag, p[..., k, tf.newaxis] * tf.square(s.diag_part()))
            else:
                x = (p[..., k, tf.newaxis, tf.newaxis]
                     * s.matmul(s.to_dense(), adjoint_arg=True))
                if diag_only:
                    x = tf.linalg.diag_part(x)
                full = _add(full, x)
        v = self.distribution.variance()
        if multiplier is not None:
            multiplier *= v
        if diag is not None:
            diag *= v[..., tf.newaxis]
        if full is not None:
            full *= v[..., tf.newaxis]
        if diag_only:
            r = _add(diag, full)
            if r is None and multiplier is not None:
                ones = tf.ones(self.event_shape_tensor(), dtype=self.dtype)
                return multiplier[..., tf.newaxis] * ones
            return _add(r, multiplier)
        positive = True if all(aff.scale.is_positive_definite
                               for aff in self.endpoint_affine) else None
        terms = []
        if diag is not None:
            terms.append(tf.linalg.LinearOperatorDiag(diag=diag, is_positive_definite=positive))
        if full is not None:
            terms.append(tf.linalg.LinearOperatorFullMatrix(matrix=full,
                                                            is_positive_definite=positive))
        if multiplier is not None:
            terms.append(tf.linalg.LinearOperatorScaledIdentity(
                num_rows=self.event_shape_tensor()[0], multiplier=multiplier,
                is_positive_definite=positive))
        return linear_operator_addition.add_operators(terms)[0].to_dense() if terms else None

    def _covariance_of_mean_given_quadrature_component(self, diag_only):
        square = tf.square if diag_only else _outer_square
        p = self._expand_mix_distribution_probs()
        if not diag_only:
            p = p[..., tf.newaxis, :]
        m = self._expand_base_distribution_mean()
        cov = None
        mean = self._mean()
        for k, aff in enumerate(self.interpolated_affine):
            cov = _add(cov, p[..., k] * square(aff.forward(m) - mean))
        return cov

    def _expand_base_distribution_mean(self):
        """The base mean, tiled to batch + event."""
        draw_shape = concat_vectors(self.batch_shape_tensor(), self.event_shape_tensor())
        m = tf.reshape(self.distribution.mean(), tf.ones_like(draw_shape, dtype=tf.int32))
        m = tf.tile(m, multiples=draw_shape)
        m.set_shape(self.batch_shape.concatenate(self.event_shape))
        return m

    def _expand_mix_distribution_probs(self):
        p = self.mixture_distribution.probs
        deg = tf.compat.dimension_value(p.shape.with_rank_at_least(1)[-1])
        if deg is None:
            deg = tf.shape(p)[-1]
        event_ndims = self.event_shape.ndims
        if event_ndims is None:
            event_ndims = tf.shape(self.event_shape_tensor())[0]
        return tf.reshape(p, tf.concat([self.mixture_distribution.batch_shape_tensor(),
                                        tf.ones([event_ndims], dtype=tf.int32), [deg]], axis=0))


def _batch_event_shapes(grid, endpoint_affine):
    """(batch_shape, batch_shape_tensor, event_shape, event_shape_tensor) of the mixture."""
    with _v1.name_scope(name="determine_batch_event_shapes"):
        batch_shape = grid.shape[:-2]
        batch_shape_tensor = tf.shape(grid)[:-2]
        event_shape = event_shape_tensor = None

        def joined(shape, shape_tensor):
            if event_shape is None:
                return shape, shape_tensor
            return (tf.broadcast_static_shape(event_shape, shape),
                    tf.broadcast_dynamic_shape(event_shape_tensor, shape_tensor))

        for aff in endpoint_affine:
            if aff.shift is not None:
                batch_shape = tf.broadcast_static_shape(batch_shape, aff.shift.shape[:-1])
                batch_shape_tensor = tf.broadcast_dynamic_shape(batch_shape_tensor,
                                                                tf.shape(aff.shift)[:-1])
                event_shape, event_shape_tensor = joined(aff.shift.shape[-1:],
                                                         tf.shape(aff.shift)[-1:])
            if aff.scale is not None:
                batch_shape = tf.broadcast_static_shape(batch_shape, aff.scale.batch_shape)
                batch_shape_tensor = tf.broadcast_dynamic_shape(
                    batch_shape_tensor, aff.scale.batch_shape_tensor())
                event_shape, event_shape_tensor = joined(
                    tf.TensorShape([aff.scale.range_dimension]),
                    aff.scale.range_dimension_tensor()[tf.newaxis])
        return batch_shape, batch_shape_tensor, event_shape, event_shape_tensor


def _quadrature_size(grid):
    deg = tf.compat.dimension_value(grid.shape.with_rank_at_least(1)[-1])
    if deg is None:
        raise ValueError("Num quadrature grid points must be known prior to graph execution.")
    return deg


def interpolate_loc(grid, loc):
    """The interpolated loc at each quadrature point: w0 * (loc0 - loc1) + loc1."""
    if len(loc) != 2:
        raise NotImplementedError(_ONLY_BIMIXTURES.format(len(loc)))
    deg = _quadrature_size(grid)
    with _v1.name_scope("interpolate_loc", values=[grid, loc]):
        if loc is None or (loc[0] is None and loc[1] is None):
            return [None] * deg
        w = grid[..., tf.newaxis, :, :]
        loc = [x[..., tf.newaxis] if x is not None else None for x in loc]
        if loc[0] is None:
            x = w[..., 1, :] * loc[1]
        elif loc[1] is None:
            x = w[..., 0, :] * loc[0]
        else:
            x = w[..., 0, :] * (loc[0] - loc[1]) + loc[1]
        return [x[..., k] for k in range(deg)]


def interpolate_scale(grid, scale):
    """The interpolated scale operator at each quadrature point: sum_k w_k scale_k."""
    if len(scale) != 2:
        raise NotImplementedError(_ONLY_BIMIXTURES.format(len(scale)))
    deg = _quadrature_size(grid)
    with _v1.name_scope("interpolate_scale", values=[grid]):
        return [linear_operator_addition.add_operators(
            [_scaled_operator(grid[..., k, q], s) for k, s in enumerate(scale)])[0]
            for q in range(deg)]


def _scaled_operator(w, op):
    """w * op, kept of op's structured kind."""
    with _v1.name_scope("linop_scale", values=[w]):
        hints = dict(is_non_singular=op.is_non_singular, is_self_adjoint=op.is_self_adjoint,
                     is_positive_definite=op.is_positive_definite)
        if isinstance(op, tf.linalg.LinearOperatorIdentity):
            return tf.linalg.LinearOperatorScaledIdentity(
                num_rows=op.range_dimension_tensor(), multiplier=w, **hints)
        if isinstance(op, tf.linalg.LinearOperatorScaledIdentity):
            return tf.linalg.LinearOperatorScaledIdentity(
                num_rows=op.range_dimension_tensor(), multiplier=w * op.multiplier, **hints)
        if isinstance(op, tf.linalg.LinearOperatorDiag):
            return tf.linalg.LinearOperatorDiag(diag=w[..., tf.newaxis] * op.diag_part(),
                                                **hints)
        if isinstance(op, tf.linalg.LinearOperatorLowerTriangular):
            return tf.linalg.LinearOperatorLowerTriangular(
                tril=w[..., tf.newaxis, tf.newaxis] * op.to_dense(), **hints)
        raise NotImplementedError(f"Unsupported Linop type ({type(op).__name__})")


def _add(x, y):
    if x is None:
        return y
    if y is None:
        return x
    return x + y


def _outer_square(x):
    return x[..., :, tf.newaxis] * x[..., tf.newaxis, :]
