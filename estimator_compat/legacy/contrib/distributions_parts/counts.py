"""The count distributions gone from TensorFlow 2 with tf.contrib: Poisson, Geometric,
Binomial and NegativeBinomial (scalar events over the non-negative integers, given as floats).
With validate_args a count is checked to be a non-negative whole number; without, TF 1.15's
formulas are evaluated at the value as given (Geometric floors it)."""
import tensorflow as tf
from tensorflow.python.ops.distributions import util

from estimator_compat.legacy.contrib.distributions_parts import _common as c


class _ScalarCount(c.Distribution):
    def _event_shape_tensor(self):
        return c.scalar_event_tensor()

    def _event_shape(self):
        return tf.TensorShape([])


class Poisson(_ScalarCount):
    """Poisson(rate): pmf rate^k exp(-rate) / k!; given `rate` or `log_rate`."""

    def __init__(self, rate=None, log_rate=None, validate_args=False, allow_nan_stats=True,
                 name="Poisson"):
        parameters = c.params(locals())
        with c.scope(name, [rate]) as name:
            if (rate is None) == (log_rate is None):
                raise ValueError("Must specify exactly one of `rate` and `log_rate`.")
            if log_rate is None:
                rate = tf.convert_to_tensor(rate, name="rate")
                if not rate.dtype.is_floating:
                    raise TypeError("rate.dtype ({}) is a not a float-type.".format(
                        rate.dtype.name))
                with tf.control_dependencies(c.positive(rate, validate_args)):
                    self._rate = tf.identity(rate, name="rate")
                    self._log_rate = tf.math.log(rate, name="log_rate")
            else:
                log_rate = tf.convert_to_tensor(log_rate, name="log_rate")
                if not log_rate.dtype.is_floating:
                    raise TypeError("log_rate.dtype ({}) is a not a float-type.".format(
                        log_rate.dtype.name))
                self._rate = tf.exp(log_rate, name="rate")
                self._log_rate = log_rate
        super().__init__(dtype=self._rate.dtype, reparameterization_type=c.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=[self._rate], name=name)

    @property
    def rate(self):
        """Rate parameter."""
        return self._rate

    @property
    def log_rate(self):
        """Log rate parameter."""
        return self._log_rate

    def _batch_shape_tensor(self):
        return tf.shape(self.rate)

    def _batch_shape(self):
        return self.rate.shape

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _log_unnormalized_prob(self, x):
        x = c.integer_counts(x, self.validate_args)
        return x * self.log_rate - tf.math.lgamma(1. + x)

    def _log_normalization(self):
        return self.rate

    def _cdf(self, x):
        x = c.integer_counts(x, self.validate_args)
        return tf.math.igammac(1. + x, self.rate)

    def _log_cdf(self, x):
        return tf.math.log(self.cdf(x))

    def _mean(self):
        return tf.identity(self.rate)

    def _variance(self):
        return tf.identity(self.rate)

    def _mode(self):
        return tf.floor(self.rate)

    def _sample_n(self, n, seed=None):
        return tf.random.poisson([n], self.rate, dtype=self.dtype, seed=seed)


class Geometric(_ScalarCount):
    """Geometric(probs): the number of failures before the first success, pmf
    (1 - p)^k p."""

    def __init__(self, logits=None, probs=None, validate_args=False, allow_nan_stats=True,
                 name="Geometric"):
        parameters = c.params(locals())
        with c.scope(name, [logits, probs]) as name:
            self._logits, probs = util.get_logits_and_probs(
                logits, probs, validate_args=validate_args, name=name)
            self._probs, = c.named([probs], ["probs"], c.positive(probs, validate_args))
        super().__init__(dtype=self._probs.dtype, reparameterization_type=c.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=[self._probs, self._logits],
                         name=name)

    @property
    def logits(self):
        """Log-odds of a success."""
        return self._logits

    @property
    def probs(self):
        """Probability of a success."""
        return self._probs

    def _batch_shape_tensor(self):
        return tf.shape(self._probs)

    def _batch_shape(self):
        return self.probs.shape

    def _count(self, x):
        x = util.embed_check_nonnegative_integer_form(x) if self.validate_args else tf.floor(x)
        return x * tf.ones_like(self.probs)

    def _sample_n(self, n, seed=None):
        u = tf.random.uniform(tf.concat([[n], tf.shape(self._probs)], 0),
                              minval=c.tiny(self.dtype), maxval=1., seed=seed, dtype=self.dtype)
        return tf.floor(tf.math.log(u) / tf.math.log1p(-self.probs))

    def _cdf(self, x):
        x = self._count(x)
        return tf.where(x < 0., tf.zeros_like(x),
                        -tf.math.expm1((1. + x) * tf.math.log1p(-self.probs)))

    def _log_prob(self, x):
        x = self._count(x)
        probs = self.probs * tf.ones_like(x)
        # (1 - p)^0 is 1 even where p = 1
        safe = tf.where(tf.equal(x, 0.), tf.zeros_like(probs), probs)
        return x * tf.math.log1p(-safe) + tf.math.log(probs)

    def _entropy(self):
        probs = self._probs
        if self.validate_args:
            probs = c.with_checks([tf.debugging.assert_less(
                probs, tf.constant(1., probs.dtype),
                message="Entropy is undefined when logits = inf or probs = 1.")], probs)
        return tf.nn.softplus(self.logits) / probs - self.logits

    def _mean(self):
        return tf.exp(-self.logits)

    def _variance(self):
        return self._mean() / self.probs

    def _mode(self):
        return tf.zeros(self.batch_shape_tensor(), dtype=self.dtype)


def _binomial_cdf(k, n, p):
    """P(K <= k) = I_{1-p}(n - k, k + 1), 1 where k = n (where betainc's first argument is 0)."""
    ones = tf.ones_like(n - k)
    at_n = tf.equal(k, n)
    tail = tf.math.betainc(tf.where(at_n, ones, n - k), k + 1, 1 - p)
    return tf.where(at_n, ones, tail)


class Binomial(_ScalarCount):
    """Binomial(total_count, probs): successes in total_count trials. No sampler (as in TF
    1.15: `sample` raises NotImplementedError)."""

    def __init__(self, total_count, logits=None, probs=None, validate_args=False,
                 allow_nan_stats=True, name="Binomial"):
        parameters = c.params(locals())
        with c.scope(name, [total_count, logits, probs]) as name:
            total_count = tf.convert_to_tensor(total_count, name="total_count")
            if validate_args:
                total_count = c.with_checks([
                    tf.debugging.assert_non_negative(
                        total_count, message="total_count must be non-negative."),
                    util.assert_integer_form(
                        total_count,
                        message="total_count cannot contain fractional components.")],
                    total_count)
            self._total_count = total_count
            self._logits, self._probs = util.get_logits_and_probs(
                logits=logits, probs=probs, validate_args=validate_args, name=name)
        super().__init__(dtype=self._probs.dtype, reparameterization_type=c.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._total_count, self._logits, self._probs],
                         name=name)

    @property
    def total_count(self):
        """Number of trials."""
        return self._total_count

    @property
    def logits(self):
        """Log-odds of a success."""
        return self._logits

    @property
    def probs(self):
        """Probability of a success."""
        return self._probs

    def _batch_shape_tensor(self):
        return c.broadcast_shape_tensor(self.total_count, self.probs)

    def _batch_shape(self):
        return c.broadcast_shape(self.total_count, self.probs)

    def _checked_counts(self, counts):
        if not self.validate_args:
            return counts
        counts = util.embed_check_nonnegative_integer_form(counts)
        return c.with_checks([tf.debugging.assert_less_equal(
            counts, self.total_count, message="counts are not less than or equal to n.")],
            counts)

    def _log_prob(self, counts):
        return self._log_unnormalized_prob(counts) - self._log_normalization(counts)

    def _prob(self, counts):
        return tf.exp(self._log_prob(counts))

    def _log_unnormalized_prob(self, counts):
        counts = self._checked_counts(counts)
        return (counts * tf.math.log(self.probs)
                + (self.total_count - counts) * tf.math.log1p(-self.probs))

    def _log_normalization(self, counts):
        counts = self._checked_counts(counts)
        n = self.total_count
        return (tf.math.lgamma(1. + n - counts) + tf.math.lgamma(1. + counts)
                - tf.math.lgamma(1. + n))

    def _cdf(self, counts):
        counts = self._checked_counts(counts)
        probs = self.probs
        if not (counts.shape.is_fully_defined() and probs.shape.is_fully_defined()
                and counts.shape.is_compatible_with(probs.shape)):
            probs = probs + tf.zeros_like(counts)
            counts = counts + tf.zeros_like(self.probs)
        return _binomial_cdf(counts, self.total_count, probs)

    def _mean(self):
        return self.total_count * self.probs

    def _variance(self):
        return self._mean() * (1. - self.probs)

    def _mode(self):
        return tf.floor((1. + self.total_count) * self.probs)


class NegativeBinomial(_ScalarCount):
    """NegativeBinomial(total_count, probs): the number of successes (probability p each)
    before total_count failures; pmf C(k + r - 1, k) (1 - p)^r p^k."""

    def __init__(self, total_count, logits=None, probs=None, validate_args=False,
                 allow_nan_stats=True, name="NegativeBinomial"):
        parameters = c.params(locals())
        with c.scope(name, [total_count, logits, probs]) as name:
            self._logits, self._probs = util.get_logits_and_probs(
                logits, probs, validate_args=validate_args, name=name)
            with tf.control_dependencies(c.positive(total_count, validate_args)):
                self._total_count = tf.identity(total_count)
        super().__init__(dtype=self._probs.dtype, reparameterization_type=c.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._total_count, self._probs, self._logits],
                         name=name)

    @property
    def total_count(self):
        """Number of negative trials."""
        return self._total_count

    @property
    def logits(self):
        """Log-odds of a positive outcome."""
        return self._logits

    @property
    def probs(self):
        """Probability of a positive outcome."""
        return self._probs

    def _batch_shape_tensor(self):
        return c.broadcast_shape_tensor(self.total_count, self.probs)

    def _batch_shape(self):
        return c.broadcast_shape(self.total_count, self.probs)

    def _sample_n(self, n, seed=None):
        rate = tf.random.gamma([n], alpha=self.total_count, beta=tf.exp(-self.logits),
                               dtype=self.dtype, seed=seed)
        return tf.random.poisson([], rate, dtype=self.dtype,
                                 seed=util.gen_new_seed(seed, "negative_binom"))

    def _cdf(self, x):
        x = c.integer_counts(x, self.validate_args)
        return tf.math.betainc(self.total_count, 1. + x, tf.sigmoid(-self.logits))

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization(x)

    def _log_unnormalized_prob(self, x):
        x = c.integer_counts(x, self.validate_args)
        return (self.total_count * tf.math.log_sigmoid(-self.logits)
                + x * tf.math.log_sigmoid(self.logits))

    def _log_normalization(self, x):
        x = c.integer_counts(x, self.validate_args)
        r = self.total_count
        return -tf.math.lgamma(r + x) + tf.math.lgamma(1. + x) + tf.math.lgamma(r)

    def _mean(self):
        return self.total_count * tf.exp(self.logits)

    def _mode(self):
        r = self.total_count
        return tf.floor(tf.where(1. < r, r - 1., tf.zeros_like(r)) * tf.exp(self.logits))

    def _variance(self):
        return self._mean() / tf.sigmoid(-self.logits)

