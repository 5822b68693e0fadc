"""QuantizedDistribution: a distribution rounded up to the integers (Y = ceiling(X)),
optionally clipped to [low, high]; gone from TensorFlow 2 with tf.contrib. Its pmf is the
difference of the base's cdf (or survival function on the right of the median, which keeps
precision there)."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.distributions import util

from estimator_compat.legacy.contrib.distributions_parts import _common as c


def _log_difference(big, small):
    """log(exp(big) - exp(small))."""
    with tf.compat.v1.name_scope("logsum_expbig_minus_expsmall", values=[small, big]):
        return tf.math.log(1. - tf.exp(small - big)) + big


class QuantizedDistribution(c.Distribution):
    """P[Y = y] = P[y - 1 < X <= y] for integer y in [low, high]; all the mass below low put
    on low, all above high on high."""

    def __init__(self, distribution, low=None, high=None, validate_args=False,
                 name="QuantizedDistribution"):
        parameters = c.params(locals())
        values = list(distribution.parameters.values()) + [low, high]
        with c.scope(name, values) as name:
            self._dist = distribution
            if low is not None:
                low = tf.convert_to_tensor(low, name="low")
            if high is not None:
                high = tf.convert_to_tensor(high, name="high")
            tf.compat.v1.assert_same_float_dtype(tensors=[distribution, low, high])
            graph_parents = list(distribution._graph_parents)
            checks = []
            if validate_args and low is not None and high is not None:
                checks.append(tf.debugging.assert_less(
                    low, high, message="low must be strictly less than high."))
            self._validate_args = validate_args  # read by _check_integer
            with tf.control_dependencies(checks):
                self._low = None if low is None else self._check_integer(low)
                self._high = None if high is None else self._check_integer(high)
            graph_parents += [t for t in (self._low, self._high) if t is not None]
        super().__init__(dtype=distribution.dtype, reparameterization_type=c.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=distribution.allow_nan_stats,
                         parameters=parameters, graph_parents=graph_parents, name=name)

    @property
    def distribution(self):
        """Base distribution, p(x)."""
        return self._dist

    @property
    def low(self):
        """Lowest value that quantization returns."""
        return self._low

    @property
    def high(self):
        """Highest value that quantization returns."""
        return self._high

    def _batch_shape_tensor(self):
        return self.distribution.batch_shape_tensor()

    def _batch_shape(self):
        return self.distribution.batch_shape

    def _event_shape_tensor(self):
        return self.distribution.event_shape_tensor()

    def _event_shape(self):
        return self.distribution.event_shape

    def _clip(self, result, j, below_low, at_or_above_high):
        """result where low <= j < high, `below_low` below low, `at_or_above_high` from high."""
        j = j + tf.zeros_like(result)
        if self._low is not None:
            result = tf.where(j < self._low, below_low(result), result)
        if self._high is not None:
            result = tf.where(j >= self._high, at_or_above_high(result), result)
        return result

    def _sample_n(self, n, seed=None):
        with tf.compat.v1.name_scope("transform"):
            n = tf.convert_to_tensor(n, name="n")
            x = self.distribution.sample(n, seed=seed)
            ones = tf.ones_like(x)
            y = tf.math.ceil(x)
            if self._low is not None:
                y = tf.where(y < self._low, self._low * ones, y)
            if self._high is not None:
                y = tf.where(y > self._high, self._high * ones, y)
            return y

    def _log_prob(self, y):
        if not hasattr(self.distribution, "_log_cdf"):
            raise NotImplementedError("'log_prob' not implemented unless the base "
                                      "distribution implements 'log_cdf'")
        y = self._check_integer(y)
        try:
            log_sf, log_sf_1 = self.log_survival_function(y), self.log_survival_function(y - 1)
            log_cdf, log_cdf_1 = self.log_cdf(y), self.log_cdf(y - 1)
            right = log_sf < log_cdf
            return _log_difference(tf.where(right, log_sf_1, log_cdf),
                                   tf.where(right, log_sf, log_cdf_1))
        except NotImplementedError:
            return _log_difference(self.log_cdf(y), self.log_cdf(y - 1))

    def _prob(self, y):
        if not hasattr(self.distribution, "_cdf"):
            raise NotImplementedError("'prob' not implemented unless the base distribution "
                                      "implements 'cdf'")
        y = self._check_integer(y)
        try:
            sf, sf_1 = self.survival_function(y), self.survival_function(y - 1)
            cdf, cdf_1 = self.cdf(y), self.cdf(y - 1)
            return tf.where(sf < cdf, sf_1 - sf, cdf - cdf_1)
        except NotImplementedError:
            return self.cdf(y) - self.cdf(y - 1)

    def _log_cdf(self, y):
        j = tf.floor(y)
        return self._clip(self.distribution.log_cdf(j), j,
                          lambda r: -np.inf * tf.ones_like(r), tf.zeros_like)

    def _cdf(self, y):
        j = tf.floor(y)
        return self._clip(self.distribution.cdf(j), j, tf.zeros_like, tf.ones_like)

    def _log_survival_function(self, y):
        j = tf.math.ceil(y)
        return self._clip(self.distribution.log_survival_function(j), j, tf.zeros_like,
                          lambda r: -np.inf * tf.ones_like(r))

    def _survival_function(self, y):
        j = tf.math.ceil(y)
        return self._clip(self.distribution.survival_function(j), j, tf.ones_like,
                          tf.zeros_like)

    def _check_integer(self, value):
        with tf.compat.v1.name_scope("check_integer", values=[value]):
            value = tf.convert_to_tensor(value, name="value")
            if not self.validate_args:
                return value
            return c.with_checks([util.assert_integer_form(
                value, message="value has non-integer components.")], value)
