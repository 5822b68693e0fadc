"""The Normal-Normal conjugate updates for a known observation scale (posterior over the mean,
and the posterior predictive), gone from TensorFlow 2 with tf.contrib.distributions."""
import tensorflow as tf
from tensorflow.python.ops.distributions import normal


def _posterior_loc_and_var(prior, scale, s, n):
    if not isinstance(prior, normal.Normal):
        raise TypeError("Expected prior to be an instance of type Normal")
    if s.dtype != prior.dtype:
        raise TypeError("Observation sum s.dtype does not match prior dtype: %s vs. %s"
                        % (s.dtype, prior.dtype))
    n = tf.cast(n, prior.dtype)
    prior_var, var = tf.square(prior.scale), tf.square(scale)
    posterior_var = 1.0 / (1 / prior_var + n / var)
    return (prior.loc / prior_var + s / var) * posterior_var, posterior_var, var


def normal_conjugates_known_scale_posterior(prior, scale, s, n):
    """The posterior Normal over the mean given `n` observations summing to `s`, each
    Normal(mean, scale), under the Normal `prior`."""
    loc, posterior_var, _ = _posterior_loc_and_var(prior, scale, s, n)
    return normal.Normal(loc=loc, scale=tf.sqrt(posterior_var))


def normal_conjugates_known_scale_predictive(prior, scale, s, n):
    """The posterior predictive Normal of a new observation: the posterior's variance plus
    the observation variance."""
    loc, posterior_var, var = _posterior_loc_and_var(prior, scale, s, n)
    return normal.Normal(loc=loc, scale=tf.sqrt(posterior_var + var))
