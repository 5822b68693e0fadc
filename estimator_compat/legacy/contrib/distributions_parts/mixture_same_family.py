"""MixtureSameFamily: a mixture whose components are the last batch dimension of one
distribution, weighted by a Categorical; gone from TensorFlow 2 with tf.contrib."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.distributions import util

from estimator_compat.legacy.contrib.distributions_parts import _common as c


def pad_mixture_dimensions(x, mixture, categorical, event_ndims):
    """`x` ([..., k], the mixture weights' shape) reshaped to broadcast against the
    components' [B, k, E]: ones inserted for the batch dimensions the categorical lacks and
    for each event dimension."""
    with tf.compat.v1.name_scope("pad_mix_dims", values=[x]):
        def ndims(d):
            if d.batch_shape.ndims is not None:
                return d.batch_shape.ndims
            return tf.shape(d.batch_shape_tensor())[0]
        dist_ndims, cat_ndims = ndims(mixture), ndims(categorical)
        pad = tf.where(categorical.is_scalar_batch(), dist_ndims, dist_ndims - cat_ndims)
        s = tf.shape(x)
        return tf.reshape(x, tf.concat([s[:-1], tf.ones([pad], dtype=tf.int32), s[-1:],
                                        tf.ones([event_ndims], dtype=tf.int32)], axis=0))


def _outer_squared_difference(x, y):
    z = x - y
    return z[..., tf.newaxis, :] * z[..., tf.newaxis]


class MixtureSameFamily(c.Distribution):
    """p(x) = sum_k Categorical(k) components_distribution[..., k](x)."""

    def __init__(self, mixture_distribution, components_distribution, validate_args=False,
                 allow_nan_stats=True, name="MixtureSameFamily"):
        parameters = c.params(locals())
        with tf.compat.v1.name_scope(name) as name:
            self._mixture_distribution = mixture_distribution
            self._components_distribution = components_distribution
            self._runtime_assertions = []
            s = components_distribution.event_shape_tensor()
            s_dim0 = tf.compat.dimension_value(s.shape[0])
            self._event_ndims = s_dim0 if s_dim0 is not None else tf.shape(s)[0]
            if not mixture_distribution.dtype.is_integer:
                raise ValueError("`mixture_distribution.dtype` ({}) is not over integers"
                                 .format(mixture_distribution.dtype.name))
            if (mixture_distribution.event_shape.ndims is not None
                    and mixture_distribution.event_shape.ndims != 0):
                raise ValueError("`mixture_distribution` must have scalar `event_dim`s")
            elif validate_args:
                self._runtime_assertions.append(tf.debugging.assert_rank(
                    mixture_distribution.event_shape_tensor(), 0,
                    message="`mixture_distribution` must have scalar `event_dim`s"))
            mdbs = mixture_distribution.batch_shape
            cdbs = components_distribution.batch_shape.with_rank_at_least(1)[:-1]
            if mdbs.is_fully_defined() and cdbs.is_fully_defined():
                if mdbs.ndims != 0 and mdbs != cdbs:
                    raise ValueError(
                        "`mixture_distribution.batch_shape` (`{}`) is not compatible with "
                        "`components_distribution.batch_shape` (`{}`)".format(
                            mdbs.as_list(), cdbs.as_list()))
            elif validate_args:
                mdbs = mixture_distribution.batch_shape_tensor()
                cdbs = components_distribution.batch_shape_tensor()[:-1]
                self._runtime_assertions.append(tf.debugging.assert_equal(
                    util.pick_vector(mixture_distribution.is_scalar_batch(), cdbs, mdbs),
                    cdbs, message="`mixture_distribution.batch_shape` is not compatible "
                                  "with `components_distribution.batch_shape`"))
            km = tf.compat.dimension_value(
                mixture_distribution.logits.shape.with_rank_at_least(1)[-1])
            kc = tf.compat.dimension_value(
                components_distribution.batch_shape.with_rank_at_least(1)[-1])
            if km is not None and kc is not None and km != kc:
                raise ValueError("`mixture_distribution components` ({}) does not equal "
                                 "`components_distribution.batch_shape[-1]` ({})"
                                 .format(km, kc))
            elif validate_args:
                km = tf.shape(mixture_distribution.logits)[-1]
                kc = components_distribution.batch_shape_tensor()[-1]
                self._runtime_assertions.append(tf.debugging.assert_equal(
                    km, kc, message="`mixture_distribution components` does not equal "
                                    "`components_distribution.batch_shape[-1:]`"))
            elif km is None:
                km = tf.shape(mixture_distribution.logits)[-1]
            self._num_components = km
            super().__init__(dtype=components_distribution.dtype,
                             reparameterization_type=c.NOT_REPARAMETERIZED,
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             parameters=parameters,
                             graph_parents=(mixture_distribution._graph_parents
                                            + components_distribution._graph_parents),
                             name=name)

    @property
    def mixture_distribution(self):
        return self._mixture_distribution

    @property
    def components_distribution(self):
        return self._components_distribution

    def _batch_shape_tensor(self):
        with tf.control_dependencies(self._runtime_assertions):
            return self.components_distribution.batch_shape_tensor()[:-1]

    def _batch_shape(self):
        return self.components_distribution.batch_shape.with_rank_at_least(1)[:-1]

    def _event_shape_tensor(self):
        with tf.control_dependencies(self._runtime_assertions):
            return self.components_distribution.event_shape_tensor()

    def _event_shape(self):
        return self.components_distribution.event_shape

    def _padded_probs(self, times=1):
        probs = self.mixture_distribution.probs
        for _ in range(times):
            probs = pad_mixture_dimensions(probs, self, self.mixture_distribution,
                                           self._event_shape().ndims)
        return probs

    def _sample_n(self, n, seed):
        with tf.control_dependencies(self._runtime_assertions):
            x = self.components_distribution.sample(n)  # [n, B, k, E]
            npdt = x.dtype.as_numpy_dtype
            mask = tf.one_hot(self.mixture_distribution.sample(n), self._num_components,
                              on_value=np.ones([], dtype=npdt),
                              off_value=np.zeros([], dtype=npdt))  # [n, B, k]
            mask = pad_mixture_dimensions(mask, self, self.mixture_distribution,
                                          self._event_shape().ndims)
            return tf.reduce_sum(x * mask, axis=-1 - self._event_ndims)

    def _mixed_log(self, per_component):
        log_mix = tf.nn.log_softmax(self.mixture_distribution.logits, axis=-1)  # [B, k]
        return tf.reduce_logsumexp(per_component + log_mix, axis=-1)

    def _log_prob(self, x):
        with tf.control_dependencies(self._runtime_assertions):
            return self._mixed_log(self.components_distribution.log_prob(
                self._pad_sample_dims(x)))

    def _log_cdf(self, x):
        return self._mixed_log(self.components_distribution.log_cdf(self._pad_sample_dims(x)))

    def _mean(self):
        with tf.control_dependencies(self._runtime_assertions):
            return tf.reduce_sum(self._padded_probs() * self.components_distribution.mean(),
                                 axis=-1 - self._event_ndims)

    def _variance(self):
        with tf.control_dependencies(self._runtime_assertions):
            probs = self._padded_probs()
            components = self.components_distribution
            mean_of_var = tf.reduce_sum(probs * components.variance(),
                                        axis=-1 - self._event_ndims)
            var_of_mean = tf.reduce_sum(
                probs * tf.math.squared_difference(components.mean(),
                                                   self._pad_sample_dims(self._mean())),
                axis=-1 - self._event_ndims)
            return mean_of_var + var_of_mean

    def _covariance(self):
        if self.event_shape.ndims != 1:
            raise NotImplementedError("covariance is not implemented")
        with tf.control_dependencies(self._runtime_assertions):
            probs = self._padded_probs(times=2)  # [B, k, 1, 1]
            components = self.components_distribution
            mean_of_cov = tf.reduce_sum(probs * components.covariance(), axis=-3)
            cov_of_mean = tf.reduce_sum(probs * _outer_squared_difference(
                components.mean(), self._pad_sample_dims(self._mean())), axis=-3)
            return mean_of_cov + cov_of_mean

    def _pad_sample_dims(self, x):
        """x [S, B, E] as [S, B, 1, E], to broadcast against the k components."""
        with tf.compat.v1.name_scope("pad_sample_dims", values=[x]):
            ndims = x.shape.ndims if x.shape.ndims is not None else tf.rank(x)
            shape = tf.shape(x)
            d = ndims - self._event_ndims
            return tf.reshape(x, tf.concat([shape[:d], [1], shape[d:]], axis=0))
