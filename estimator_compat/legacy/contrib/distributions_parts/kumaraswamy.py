"""TF 1.15's `Kumaraswamy(concentration1=a, concentration0=b)` on [0, 1]: Uniform(0, 1) through
the Kumaraswamy bijector, with its closed-form entropy, moments and mode."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.distributions import distribution as distribution_lib
from tensorflow.python.ops.distributions import uniform

from estimator_compat.legacy.contrib.distributions_parts.bijectors.kumaraswamy import (
    Kumaraswamy as KumaraswamyBijector)
from estimator_compat.legacy.contrib.distributions_parts.scale_operators import broadcast_shape
from estimator_compat.legacy.contrib.distributions_parts.transformed_distribution import (
    TransformedDistribution)

_v1 = tf.compat.v1


def _harmonic_number(x):
    """H(x) = digamma(x + 1) - digamma(1)."""
    one = tf.ones([], x.dtype)
    return tf.math.digamma(x + one) - tf.math.digamma(one)


class Kumaraswamy(TransformedDistribution):
    """pdf(x; a, b) = a b x^(a - 1) (1 - x^a)^(b - 1) on [0, 1]."""

    def __init__(self, concentration1=None, concentration0=None, validate_args=False,
                 allow_nan_stats=True, name="Kumaraswamy"):
        with _v1.name_scope(name, values=[concentration1, concentration0]) as name:
            concentration1 = tf.convert_to_tensor(concentration1, name="concentration1")
            concentration0 = tf.convert_to_tensor(concentration0, name="concentration0")
        dtype = concentration1.dtype
        super().__init__(
            distribution=uniform.Uniform(low=tf.zeros([], dtype), high=tf.ones([], dtype),
                                         allow_nan_stats=allow_nan_stats),
            bijector=KumaraswamyBijector(concentration1=concentration1,
                                         concentration0=concentration0,
                                         validate_args=validate_args),
            batch_shape=broadcast_shape(concentration1, concentration0), name=name)
        self._reparameterization_type = distribution_lib.FULLY_REPARAMETERIZED

    @property
    def concentration1(self):
        return self.bijector.concentration1

    @property
    def concentration0(self):
        return self.bijector.concentration0

    def _entropy(self):
        a, b = self.concentration1, self.concentration0
        return (1 - 1. / a + (1 - 1. / b) * _harmonic_number(b)
                + tf.math.log(a) + tf.math.log(b))

    def _moment(self, n):
        """E[X^n] = b B(1 + n / a, b)."""
        total = self.concentration1 + self.concentration0
        a = tf.ones_like(total, dtype=self.dtype) * self.concentration1
        b = tf.ones_like(total, dtype=self.dtype) * self.concentration0
        log_moment = tf.math.log(b) + tf.math.lbeta(tf.stack([1 + n / a, b], -1))
        return tf.exp(log_moment)

    def _mean(self):
        return self._moment(1)

    def _variance(self):
        return self._moment(2) - tf.square(self._moment(1))

    def _mode(self):
        a, b = self.concentration1, self.concentration0
        mode = ((a - 1) / (a * b - 1)) ** (1. / a)
        if self.allow_nan_stats:
            nan = tf.fill(self.batch_shape_tensor(),
                          np.array(np.nan, dtype=self.dtype.as_numpy_dtype), name="nan")
            return tf.where(tf.logical_and(a > 1., b > 1.), mode, nan)
        checks = [_v1.assert_less(tf.ones([], a.dtype), a,
                                  message="Mode undefined for concentration1 <= 1."),
                  _v1.assert_less(tf.ones([], b.dtype), b,
                                  message="Mode undefined for concentration0 <= 1.")]
        with tf.control_dependencies(checks):
            return tf.identity(mode)
