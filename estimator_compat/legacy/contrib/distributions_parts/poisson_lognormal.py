"""TF 1.15's `PoissonLogNormalQuadratureCompound`: Poisson(rate) with log(rate) ~ Normal(loc,
scale), the LogNormal replaced by a quadrature (a finite mixture of Poissons at the grid's
log-rates, weighted by its probs)."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.distributions import categorical
from tensorflow.python.ops.distributions import distribution as distribution_lib
from tensorflow.python.ops.distributions import util as distribution_util

from estimator_compat.legacy.contrib.distributions_parts.counts import Poisson
from estimator_compat.legacy.contrib.distributions_parts.quadrature import (
    quadrature_scheme_lognormal_quantiles)
from estimator_compat.legacy.contrib.distributions_parts.transformed_distribution import (
    concat_vectors)

_v1 = tf.compat.v1


class PoissonLogNormalQuadratureCompound(distribution_lib.Distribution):
    """The Poisson-LogNormal compound, approximated by `quadrature_fn`'s grid."""

    def __init__(self, loc, scale, quadrature_size=8,
                 quadrature_fn=quadrature_scheme_lognormal_quantiles, validate_args=False,
                 allow_nan_stats=True, name="PoissonLogNormalQuadratureCompound"):
        parameters = dict(locals())
        with _v1.name_scope(name, values=[loc, scale]) as name:
            if loc is not None:
                loc = tf.convert_to_tensor(loc, name="loc")
            if scale is not None:
                scale = tf.convert_to_tensor(scale, dtype=None if loc is None else loc.dtype,
                                             name="scale")
            self._quadrature_grid, self._quadrature_probs = tuple(
                quadrature_fn(loc, scale, quadrature_size, validate_args))
            dtype = self._quadrature_grid.dtype
            if dtype.base_dtype != self._quadrature_probs.dtype.base_dtype:
                raise TypeError(f"Quadrature grid dtype ({dtype.name}) does not match "
                                "quadrature probs dtype "
                                f"({self._quadrature_probs.dtype.name}).")
            self._distribution = Poisson(log_rate=self._quadrature_grid,
                                         validate_args=validate_args,
                                         allow_nan_stats=allow_nan_stats)
            self._mixture_distribution = categorical.Categorical(
                logits=tf.math.log(self._quadrature_probs), validate_args=validate_args,
                allow_nan_stats=allow_nan_stats)
            self._loc = loc
            self._scale = scale
            self._quadrature_size = quadrature_size
            super().__init__(dtype=dtype,
                             reparameterization_type=distribution_lib.NOT_REPARAMETERIZED,
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             parameters=parameters, graph_parents=[loc, scale], name=name)

    @property
    def mixture_distribution(self):
        """The Categorical over the quadrature points."""
        return self._mixture_distribution

    @property
    def distribution(self):
        """The Poisson at each quadrature point."""
        return self._distribution

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    @property
    def quadrature_size(self):
        return self._quadrature_size

    def _batch_shape_tensor(self):
        return tf.broadcast_dynamic_shape(self.distribution.batch_shape_tensor(),
                                          tf.shape(self.mixture_distribution.logits))[:-1]

    def _batch_shape(self):
        return tf.broadcast_static_shape(self.distribution.batch_shape,
                                         self.mixture_distribution.logits.shape)[:-1]

    def _event_shape(self):
        return tf.TensorShape([])

    def _sample_n(self, n, seed=None):
        # a quadrature point per draw and batch member, then a Poisson draw at its rate
        batch_size = self.batch_shape.num_elements()
        if batch_size is None:
            batch_size = tf.reduce_prod(self.batch_shape_tensor())
        ids = self._mixture_distribution.sample(
            sample_shape=concat_vectors([n], distribution_util.pick_vector(
                self.mixture_distribution.is_scalar_batch(), [batch_size], np.int32([]))),
            seed=distribution_util.gen_new_seed(seed, "poisson_lognormal_quadrature_compound"))
        ids = tf.reshape(ids, concat_vectors([n], distribution_util.pick_vector(
            self.is_scalar_batch(), np.int32([]), np.int32([-1]))))
        ids += tf.range(start=0, limit=batch_size * self._quadrature_size,
                        delta=self._quadrature_size, dtype=ids.dtype)
        rate = tf.gather(tf.reshape(self.distribution.rate, [-1]), ids)
        rate = tf.reshape(rate, concat_vectors([n], self.batch_shape_tensor()))
        return tf.random.poisson(lam=rate, shape=[], dtype=self.dtype, seed=seed)

    def _log_prob(self, x):
        return tf.reduce_logsumexp(self.mixture_distribution.logits
                                   + self.distribution.log_prob(x[..., tf.newaxis]), axis=-1)

    def _mean(self):
        return tf.exp(tf.reduce_logsumexp(self.mixture_distribution.logits
                                          + self.distribution.log_rate, axis=-1))

    def _variance(self):
        return tf.exp(self._log_variance())

    def _stddev(self):
        return tf.exp(0.5 * self._log_variance())

    def _log_variance(self):
        # Var = E[rate] + Var[rate] (law of total variance), in log space
        v = tf.stack([self.distribution.log_rate,
                      2. * tf.math.log(tf.abs(self.distribution.mean()
                                              - self._mean()[..., tf.newaxis]))], axis=-1)
        return tf.reduce_logsumexp(self.mixture_distribution.logits[..., tf.newaxis] + v,
                                   axis=[-2, -1])
