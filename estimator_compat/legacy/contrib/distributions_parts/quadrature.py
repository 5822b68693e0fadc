"""TF 1.15's quadrature schemes: (grid, probs) pairs discretizing a LogNormal (for
`PoissonLogNormalQuadratureCompound`) or a SoftmaxNormal (the mixing weights of
`VectorDiffeomixture`), by Gauss-Hermite points or by the midpoints of equal-mass quantile
intervals (`quadrature_size` + 2 edges strictly inside (0, 1))."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.distributions import normal
from tensorflow.python.ops.distributions import util as distribution_util

from estimator_compat.legacy.contrib.distributions_parts.bijectors._checks import checked
from estimator_compat.legacy.contrib.distributions_parts.bijectors.exp import Exp
from estimator_compat.legacy.contrib.distributions_parts.bijectors.softmax_centered import (
    SoftmaxCentered)
from estimator_compat.legacy.contrib.distributions_parts.transformed_distribution import (
    TransformedDistribution)

_v1 = tf.compat.v1


def _gauss_hermite(quadrature_size, dtype):
    """Gauss-Hermite nodes and weights, the weights normalized to sum to 1."""
    grid, probs = np.polynomial.hermite.hermgauss(deg=quadrature_size)
    grid = grid.astype(dtype.as_numpy_dtype)
    probs = probs.astype(dtype.as_numpy_dtype)
    probs /= np.linalg.norm(probs, ord=1, keepdims=True)
    return grid, tf.convert_to_tensor(probs, name="probs", dtype=dtype)


def _uniform_probs(quadrature_size, dtype):
    return tf.fill(dims=[quadrature_size], value=1. / tf.cast(quadrature_size, dtype))


def _batch_ndims(dist):
    ndims = dist.batch_shape.ndims
    return ndims if ndims is not None else tf.shape(dist.batch_shape_tensor())[0]


def _quantiles(dist, quadrature_size, batch_ndims, transform=None):
    """dist's quantiles at quadrature_size + 1 inner edges, on a new last axis."""
    edges = tf.linspace(tf.zeros([], dist.dtype), 1., quadrature_size + 3)[1:-1]
    edges = tf.reshape(edges, tf.concat([[-1], tf.ones([batch_ndims], tf.int32)], axis=0))
    quantiles = dist.quantile(edges)
    if transform is not None:
        quantiles = transform(quantiles)
    return tf.transpose(quantiles, tf.concat([tf.range(1, 1 + batch_ndims), [0]], axis=0))


def quadrature_scheme_lognormal_gauss_hermite(loc, scale, quadrature_size,
                                              validate_args=False, name=None):
    """Gauss-Hermite (log-rate grid, probs) of LogNormal(loc, scale)."""
    del validate_args
    with _v1.name_scope(name, "vector_diffeomixture_quadrature_gauss_hermite", [loc, scale]):
        grid, probs = _gauss_hermite(quadrature_size, loc.dtype)
        grid = loc[..., tf.newaxis] + np.sqrt(2.) * scale[..., tf.newaxis] * grid
        return grid, probs


def quadrature_scheme_lognormal_quantiles(loc, scale, quadrature_size, validate_args=False,
                                          name=None):
    """Equal-mass (grid, probs) of LogNormal(loc, scale): quantile-interval midpoints."""
    with _v1.name_scope(name, "quadrature_scheme_lognormal_quantiles", [loc, scale]):
        dist = TransformedDistribution(distribution=normal.Normal(loc=loc, scale=scale),
                                       bijector=Exp(), validate_args=validate_args)
        quantiles = _quantiles(dist, quadrature_size, _batch_ndims(dist))
        grid = (quantiles[..., :-1] + quantiles[..., 1:]) / 2.
        grid.set_shape(dist.batch_shape.concatenate([quadrature_size]))
        return grid, _uniform_probs(quadrature_size, dist.dtype)


def check_quadrature_param(param, name, validate_args):
    """`param` checked to be a (batch of) vector(s) of size 1: only bimixtures are done."""
    with _v1.name_scope(name="check_" + name, values=[param]):
        checks = []
        if param.shape.ndims is not None:
            if param.shape.ndims == 0:
                raise ValueError("Mixing params must be a (batch of) vector; "
                                 f"{name}.rank={param.shape.ndims} is not at least one.")
        elif validate_args:
            checks.append(_v1.assert_rank_at_least(
                param, 1, message="Mixing params must be a (batch of) vector; "
                                  f"{name}.rank is not at least one."))
        if param.shape.with_rank_at_least(1)[-1] is not None:
            size = tf.compat.dimension_value(param.shape[-1])
            if size != 1:
                raise NotImplementedError("Currently only bimixtures are supported; "
                                          f"{name}.shape[-1]={size} is not 1.")
        elif validate_args:
            checks.append(_v1.assert_equal(
                tf.shape(param)[-1], 1, message="Currently only bimixtures are supported; "
                                                f"{name}.shape[-1] is not 1."))
        return checked(param, *checks)


def quadrature_scheme_softmaxnormal_gauss_hermite(normal_loc, normal_scale, quadrature_size,
                                                  validate_args=False, name=None):
    """Gauss-Hermite (grid, probs) of SoftmaxNormal(normal_loc, normal_scale): the grid
    [..., 2, quadrature_size], its two rows summing to 1."""
    with _v1.name_scope(name, "quadrature_scheme_softmaxnormal_gauss_hermite",
                        [normal_loc, normal_scale]):
        normal_loc = tf.convert_to_tensor(normal_loc, name="normal_loc")
        dtype = normal_loc.dtype.base_dtype
        normal_scale = tf.convert_to_tensor(normal_scale, dtype=dtype, name="normal_scale")
        normal_scale = check_quadrature_param(normal_scale, "normal_scale", validate_args)
        grid, probs = _gauss_hermite(quadrature_size, dtype)
        logits = distribution_util.pad(
            normal_loc[..., tf.newaxis] + np.sqrt(2.) * normal_scale[..., tf.newaxis] * grid,
            axis=-2, front=True)
        return _softmax(-logits, axis=-2), probs


def _softmax(x, axis, name=None):
    with _v1.name_scope(name, "softmax", [x, axis]):
        x = tf.convert_to_tensor(x, name="x")
        ndims = x.shape.ndims if x.shape.ndims is not None else tf.rank(x, name="ndims")
        axis = tf.convert_to_tensor(axis, dtype=tf.int32, name="axis")
        axis_ = tf.get_static_value(axis)
        if axis_ is not None:
            axis = int(ndims + axis_ if axis_ < 0 else axis_)
        else:
            axis = tf.where(axis < 0, ndims + axis, axis)
    return tf.nn.softmax(x, axis=axis)


def quadrature_scheme_softmaxnormal_quantiles(normal_loc, normal_scale, quadrature_size,
                                              validate_args=False, name=None):
    """Equal-mass (grid, probs) of SoftmaxNormal(normal_loc, normal_scale): the grid
    [..., 2, quadrature_size], midpoints of SoftmaxCentered'd Normal quantiles."""
    with _v1.name_scope(name, "softmax_normal_grid_and_probs", [normal_loc, normal_scale]):
        normal_loc = tf.convert_to_tensor(normal_loc, name="normal_loc")
        dtype = normal_loc.dtype.base_dtype
        normal_scale = tf.convert_to_tensor(normal_scale, dtype=dtype, name="normal_scale")
        normal_scale = check_quadrature_param(normal_scale, "normal_scale", validate_args)
        dist = normal.Normal(loc=normal_loc, scale=normal_scale)

        def final_shape(size):
            batch = dist.batch_shape.with_rank_at_least(1)
            components = tf.compat.dimension_value(batch[-1])
            if components is not None:
                components += 1
            return batch[:-1].concatenate(tf.TensorShape([components, size]))

        quantiles = _quantiles(dist, quadrature_size, _batch_ndims(dist),
                               SoftmaxCentered().forward)
        quantiles.set_shape(final_shape(quadrature_size + 1))
        grid = (quantiles[..., :-1] + quantiles[..., 1:]) / 2.
        grid.set_shape(final_shape(quadrature_size))
        return grid, _uniform_probs(quadrature_size, dist.dtype)
