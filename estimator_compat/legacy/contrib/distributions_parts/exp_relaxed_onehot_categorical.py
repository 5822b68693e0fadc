"""ExpRelaxedOneHotCategorical: the log of a Gumbel-softmax (Concrete) sample, the base of
RelaxedOneHotCategorical (Exp of it); gone from TensorFlow 2 with tf.contrib."""
import tensorflow as tf

from estimator_compat.legacy.contrib.distributions_parts import _common as c
from estimator_compat.legacy.contrib.distributions_parts.onehot_categorical import (
    OneHotLogits)


class ExpRelaxedOneHotCategorical(OneHotLogits):
    """The ExpConcrete distribution (Maddison et al. 2016): samples are
    log_softmax((logits + Gumbel noise) / temperature), points of the log-simplex."""

    def __init__(self, temperature, logits=None, probs=None, dtype=None, validate_args=False,
                 allow_nan_stats=True, name="ExpRelaxedOneHotCategorical"):
        parameters = c.params(locals())
        with c.scope(name, [logits, probs, temperature]) as name:
            self._init_logits(name, logits, probs, validate_args)
            if dtype is None:
                dtype = self._logits.dtype
                if not validate_args:
                    temperature = tf.cast(temperature, dtype)
            with tf.control_dependencies(c.positive(temperature, validate_args)):
                self._temperature = tf.identity(temperature, name="temperature")
                self._temperature_2d = tf.reshape(temperature, [-1, 1], name="temperature_2d")
        super().__init__(dtype=dtype, reparameterization_type=c.FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._logits, self._probs, self._temperature],
                         name=name)

    @property
    def temperature(self):
        """Batchwise temperature tensor of a RelaxedCategorical."""
        return self._temperature

    def _sample_n(self, n, seed=None):
        shape = tf.concat([[n], tf.shape(self.logits)], 0)
        logits = tf.reshape(self.logits * tf.ones(shape, dtype=self.dtype),
                            [-1, self.event_size])
        u = tf.random.uniform(tf.shape(logits), minval=c.tiny(self.dtype), maxval=1.,
                              dtype=self.dtype, seed=seed)
        gumbel = -tf.math.log(-tf.math.log(u))
        return tf.reshape(tf.nn.log_softmax((gumbel + logits) / self._temperature_2d), shape)

    def _log_prob(self, x):
        x = self._checked_sample(x)
        x_2d, logits_2d, shape = self._broadcast_to_logits(x)
        k = tf.cast(self.event_size, x.dtype)
        log_norm = tf.math.lgamma(k) + (k - 1.) * tf.math.log(self.temperature)
        log_unnorm = tf.reduce_sum(
            tf.nn.log_softmax(logits_2d - x_2d * self._temperature_2d), [-1])
        return tf.reshape(log_norm + log_unnorm, shape)
