"""`tf.contrib.bayesflow`, served whole: its `monte_carlo` module (Monte Carlo expectations and
importance sampling), which TF 1.15 kept when the rest moved to TensorFlow Probability."""
import tensorflow as tf

from estimator_compat.legacy.namespaces import namespace

_v1 = tf.compat.v1


def _samples(dist, z, n, seed):
    with _v1.name_scope("get_samples", values=[z, n]):
        if (n is None) == (z is None):
            raise ValueError('Must specify exactly one of arguments "n" and "z".  Found: '
                             "n = %s, z = %s" % (n, z))
        if n is not None:
            return dist.sample(n, seed=seed)
        return tf.convert_to_tensor(z, name="z")


def _log_mean_exp(log_values):
    """log(mean(exp(v))) over the samples (axis 0), shifted by their (constant) max."""
    center = tf.stop_gradient(tf.reduce_max(log_values, axis=[0]))
    return tf.math.log(tf.reduce_mean(tf.exp(log_values - center), axis=[0])) + center


def expectation_importance_sampler(f, log_p, sampling_dist_q, z=None, n=None, seed=None,
                                   name="expectation_importance_sampler"):
    """E_p[f(Z)] from samples of q: the positive and negative parts of f estimated in log
    space, as log(relu(+-f) + 1), then differenced."""
    with _v1.name_scope(name, values=[z, n]):
        z = _samples(sampling_dist_q, z, n, seed)
        log_p_z, log_q_z = log_p(z), sampling_dist_q.log_prob(z)
        f_z = f(z)
        plus = _log_mean_exp(tf.math.log(tf.nn.relu(f_z) + 1.) + log_p_z - log_q_z)
        minus = _log_mean_exp(tf.math.log(tf.nn.relu(-1. * f_z) + 1.) + log_p_z - log_q_z)
    return tf.exp(plus) - tf.exp(minus)


def expectation_importance_sampler_logspace(log_f, log_p, sampling_dist_q, z=None, n=None,
                                            seed=None,
                                            name="expectation_importance_sampler_logspace"):
    """log E_p[exp(log_f(Z))] from samples of q."""
    with _v1.name_scope(name, values=[z, n]):
        z = _samples(sampling_dist_q, z, n, seed)
        return _log_mean_exp(log_f(z) + log_p(z) - sampling_dist_q.log_prob(z))


def expectation(f, samples, log_prob=None, use_reparametrization=True, axis=0,
                keep_dims=False, name=None):
    """Mean of f(samples) over `axis`; without reparametrization, a score-function term
    (zero in value) carries the gradient through `log_prob`."""
    with _v1.name_scope(name, "expectation", [samples]):
        if not callable(f):
            raise ValueError("`f` must be a callable function.")
        if use_reparametrization:
            return tf.reduce_mean(f(samples), axis=axis, keepdims=keep_dims)
        if not callable(log_prob):
            raise ValueError("`log_prob` must be a callable function.")
        x = tf.stop_gradient(samples)
        log_px = log_prob(x)
        fx = f(x)
        fx += tf.stop_gradient(fx) * (log_px - tf.stop_gradient(log_px))
        return tf.reduce_mean(fx, axis=axis, keepdims=keep_dims)


def build():
    names = dict(expectation=expectation,
                 expectation_importance_sampler=expectation_importance_sampler,
                 expectation_importance_sampler_logspace=expectation_importance_sampler_logspace)
    impl = namespace("tensorflow.contrib.bayesflow.python.ops.monte_carlo_impl",
                     "contrib.bayesflow's monte_carlo_impl", **names)
    monte_carlo = namespace("tensorflow.contrib.bayesflow.python.ops.monte_carlo",
                            "tf.contrib.bayesflow.monte_carlo", **names)
    ops = namespace("tensorflow.contrib.bayesflow.python.ops", "contrib.bayesflow's ops",
                    monte_carlo=monte_carlo, monte_carlo_impl=impl)
    # registered for deep imports; TF 1.15's package did not keep a `python` attribute
    namespace("tensorflow.contrib.bayesflow.python", "contrib.bayesflow", ops=ops)
    return namespace("tensorflow.contrib.bayesflow", "tf.contrib.bayesflow (Monte Carlo)",
                     __served_whole__=True, monte_carlo=monte_carlo)
