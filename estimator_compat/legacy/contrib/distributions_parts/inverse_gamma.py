"""InverseGamma (1 / X for X ~ Gamma), gone from TensorFlow 2 with tf.contrib, and its
softplus-parameterized variant."""
import tensorflow as tf

from estimator_compat.legacy.contrib.distributions_parts import _common as c


class InverseGamma(c.Distribution):
    """The inverse gamma distribution: pdf rate^a / Gamma(a) x^(-a-1) exp(-rate / x). Mean
    and variance exist for concentration > 1 and > 2: NaN elsewhere, or a failing assertion
    without allow_nan_stats."""

    def __init__(self, concentration, rate, validate_args=False, allow_nan_stats=True,
                 name="InverseGamma"):
        parameters = c.params(locals())
        with c.scope(name, [concentration, rate]) as name:
            checks = ([tf.debugging.assert_positive(concentration),
                       tf.debugging.assert_positive(rate)] if validate_args else [])
            self._concentration, self._rate = c.named(
                [concentration, rate], ["concentration", "rate"], checks)
            c.same_float_dtype([self._concentration, self._rate])
        super().__init__(dtype=self._concentration.dtype,
                         reparameterization_type=c.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._concentration, self._rate], name=name)

    @staticmethod
    def _param_shapes(sample_shape):
        return c.shape_param(sample_shape, "concentration", "rate")

    @property
    def concentration(self):
        """Concentration parameter."""
        return self._concentration

    @property
    def rate(self):
        """Rate parameter."""
        return self._rate

    def _batch_shape_tensor(self):
        return c.broadcast_shape_tensor(self.concentration, self.rate)

    def _batch_shape(self):
        return c.broadcast_shape(self.concentration, self.rate)

    def _event_shape_tensor(self):
        return c.scalar_event_tensor()

    def _event_shape(self):
        return tf.TensorShape([])

    def _sample_n(self, n, seed=None):
        return 1. / tf.random.gamma([n], alpha=self.concentration, beta=self.rate,
                                    dtype=self.dtype, seed=seed)

    def _checked_sample(self, x):
        tf.compat.v1.assert_same_float_dtype([x], dtype=self.dtype)
        return c.with_checks([tf.debugging.assert_positive(x)] if self.validate_args else [], x)

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _log_unnormalized_prob(self, x):
        x = self._checked_sample(x)
        return -(1. + self.concentration) * tf.math.log(x) - self.rate / x

    def _log_normalization(self):
        return tf.math.lgamma(self.concentration) - self.concentration * tf.math.log(self.rate)

    def _cdf(self, x):
        x = self._checked_sample(x)
        return tf.math.igammac(self.concentration, self.rate / x)

    def _entropy(self):
        a = self.concentration
        return a + tf.math.log(self.rate) + tf.math.lgamma(a) - (1. + a) * tf.math.digamma(a)

    def _moment(self, value, least, what):
        """`value` where concentration > `least`; elsewhere NaN or a failing assertion."""
        if self.allow_nan_stats:
            return tf.where(self.concentration > least, value, c.nan_fill(self))
        check = tf.debugging.assert_less(
            tf.constant(least, self.dtype), self.concentration,
            message="%s undefined when any concentration <= %d" % (what, least))
        return c.with_checks([check], value)

    def _mean(self):
        return self._moment(self.rate / (self.concentration - 1.), 1., "mean")

    def _variance(self):
        a = self.concentration
        var = tf.square(self.rate) / tf.math.squared_difference(a, 1.) / (a - 2.)
        return self._moment(var, 2., "variance")

    def _mode(self):
        return self.rate / (1. + self.concentration)


class InverseGammaWithSoftplusConcentrationRate(InverseGamma):
    """InverseGamma with softplus(concentration), softplus(rate)."""

    def __init__(self, concentration, rate, validate_args=False, allow_nan_stats=True,
                 name="InverseGammaWithSoftplusConcentrationRate"):
        parameters = c.params(locals())
        with c.scope(name, [concentration, rate]) as name:
            super().__init__(
                concentration=tf.nn.softplus(concentration, name="softplus_concentration"),
                rate=tf.nn.softplus(rate, name="softplus_rate"),
                validate_args=validate_args, allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters
