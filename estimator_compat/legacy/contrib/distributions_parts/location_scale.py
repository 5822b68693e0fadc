"""Cauchy and Logistic: location-scale families with closed-form cdf and quantile, gone from
TensorFlow 2 with tf.contrib. Written on TF 2.21's `Distribution` (TF 1.15's base class)."""
import math

import numpy as np
import tensorflow as tf

from estimator_compat.legacy.contrib.distributions_parts import _common as c


class _LocScale(c.Distribution):
    """The constructor and shapes both share: `loc`, positive `scale`, a scalar event."""

    def __init__(self, loc, scale, validate_args, allow_nan_stats, name, parameters):
        with c.scope(name, [loc, scale]) as name:
            self._loc, self._scale = c.named([loc, scale], ["loc", "scale"],
                                             c.positive(scale, validate_args))
            c.same_float_dtype([self._loc, self._scale])
        super().__init__(dtype=self._scale.dtype,
                         reparameterization_type=c.FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=[self._loc, self._scale],
                         name=name)

    @staticmethod
    def _param_shapes(sample_shape):
        return c.shape_param(sample_shape, "loc", "scale")

    @property
    def loc(self):
        """Distribution parameter for the location."""
        return self._loc

    @property
    def scale(self):
        """Distribution parameter for the scale."""
        return self._scale

    def _batch_shape_tensor(self):
        return c.broadcast_shape_tensor(self.loc, self.scale)

    def _batch_shape(self):
        return c.broadcast_shape(self.loc, self.scale)

    def _event_shape_tensor(self):
        return c.scalar_event_tensor()

    def _event_shape(self):
        return tf.TensorShape([])

    def _z(self, x):
        with tf.compat.v1.name_scope("standardize", values=[x]):
            return (x - self.loc) / self.scale

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()


class Cauchy(_LocScale):
    """The Cauchy distribution: pdf 1 / (pi scale (1 + z^2)), z = (x - loc) / scale. Its
    mean and stddev are undefined (NaN, or a ValueError without allow_nan_stats)."""

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Cauchy"):
        parameters = c.params(locals())
        super().__init__(loc, scale, validate_args, allow_nan_stats, name, parameters)

    def _sample_n(self, n, seed=None):
        shape = tf.concat([[n], self.batch_shape_tensor()], 0)
        u = tf.random.uniform(shape, minval=0., maxval=1., dtype=self.dtype, seed=seed)
        return self._quantile(u)

    def _log_unnormalized_prob(self, x):
        return -tf.math.log1p(tf.square(self._z(x)))

    def _log_normalization(self):
        return np.log(np.pi) + tf.math.log(self.scale)

    def _cdf(self, x):
        return tf.atan(self._z(x)) / np.pi + 0.5

    def _log_cdf(self, x):
        return tf.math.log1p(2 / np.pi * tf.atan(self._z(x))) - np.log(2)

    def _entropy(self):
        return (np.log(4 * np.pi) + tf.math.log(self.scale)) * tf.ones_like(self.loc)

    def _quantile(self, p):
        return self.loc + self.scale * tf.tan(np.pi * (p - 0.5))

    def _mode(self):
        return self.loc * tf.ones_like(self.scale)

    def _undefined(self, what):
        if self.allow_nan_stats:
            return c.nan_fill(self)
        raise ValueError("`%s` is undefined for Cauchy distribution." % what)

    def _mean(self):
        return self._undefined("mean")

    def _stddev(self):
        return self._undefined("stddev")


class Logistic(_LocScale):
    """The logistic distribution: cdf sigmoid((x - loc) / scale)."""

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True,
                 name="Logistic"):
        parameters = c.params(locals())
        super().__init__(loc, scale, validate_args, allow_nan_stats, name, parameters)

    def _sample_n(self, n, seed=None):
        shape = tf.concat([[n], self.batch_shape_tensor()], 0)
        u = tf.random.uniform(shape, minval=c.tiny(self.dtype), maxval=1., dtype=self.dtype,
                              seed=seed)
        return (tf.math.log(u) - tf.math.log1p(-u)) * self.scale + self.loc

    def _log_unnormalized_prob(self, x):
        z = self._z(x)
        return -z - 2. * tf.nn.softplus(-z)

    def _log_normalization(self):
        return tf.math.log(self.scale)

    def _log_cdf(self, x):
        return -tf.nn.softplus(-self._z(x))

    def _cdf(self, x):
        return tf.sigmoid(self._z(x))

    def _log_survival_function(self, x):
        return -tf.nn.softplus(self._z(x))

    def _survival_function(self, x):
        return tf.sigmoid(-self._z(x))

    def _entropy(self):
        return 2 + tf.math.log(self.scale * tf.ones_like(self.loc))

    def _mean(self):
        return self.loc * tf.ones_like(self.scale)

    def _stddev(self):
        return self.scale * tf.ones_like(self.loc) * math.pi / math.sqrt(3)

    def _mode(self):
        return self._mean()
