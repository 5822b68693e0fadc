"""Exponentially weighted moving statistics in variables (moving mean and variance, and the
log of a moving mean of exp), gone from TensorFlow 2 with tf.contrib.distributions."""
import tensorflow as tf

_v1 = tf.compat.v1


def _float_dtype(var, what):
    dtype = var.dtype.base_dtype
    if not dtype.is_floating:
        raise TypeError("{}.base_dtype({}) does not have float type `dtype`.".format(
            what, dtype.name))
    return dtype


def assign_moving_mean_variance(mean_var, variance_var, value, decay, name=None):
    """Updates `mean_var` and `variance_var` with `value`: with delta = value - mean,
    mean += (1 - decay) delta and variance -= (1 - decay) (variance - decay delta^2).
    Returns the updated (mean, variance)."""
    with _v1.name_scope(name, "assign_moving_mean_variance",
                        [variance_var, mean_var, value, decay]):
        with _v1.colocate_with(variance_var), _v1.colocate_with(mean_var):
            dtype = _float_dtype(mean_var, "mean_var")
            if dtype != variance_var.dtype.base_dtype:
                raise TypeError("mean_var.base_dtype({}) != variance_var.base_dtype({})"
                                .format(dtype.name, variance_var.dtype.base_dtype.name))
            value = tf.convert_to_tensor(value, dtype=dtype, name="value")
            decay = tf.convert_to_tensor(decay, dtype=dtype, name="decay")
            delta = value - mean_var
            with tf.control_dependencies([delta]):
                mean_var = _v1.assign_add(mean_var, (1. - decay) * delta)
                variance_var = _v1.assign_sub(
                    variance_var, (1. - decay) * (variance_var - decay * tf.square(delta)))
            return mean_var, variance_var


def assign_log_moving_mean_exp(log_mean_exp_var, log_value, decay, name=None):
    """Updates `log_mean_exp_var` to log(decay exp(var) + (1 - decay) exp(log_value)),
    computed stably in log space. Returns the updated variable."""
    with _v1.name_scope(name, "assign_log_moving_mean_exp",
                        [log_mean_exp_var, log_value, decay]):
        with _v1.colocate_with(log_mean_exp_var):
            dtype = _float_dtype(log_mean_exp_var, "log_mean_exp_var")
            log_value = tf.convert_to_tensor(log_value, dtype=dtype, name="log_value")
            decay = tf.convert_to_tensor(decay, dtype=dtype, name="decay")
            delta = (log_value - log_mean_exp_var)[tf.newaxis, ...]
            terms = tf.concat([tf.math.log(decay) * tf.ones_like(delta),
                               delta + tf.math.log1p(-decay)], axis=0)
            return log_mean_exp_var.assign_add(tf.reduce_logsumexp(terms, axis=0))


def moving_mean_variance(value, decay, collections=None, name=None):
    """Makes the non-trainable `moving_mean` / `moving_variance` variables (zeros, `value`'s
    shape, in variable scope `name` or "moving_mean_variance") and returns their updates."""
    if collections is None:
        collections = [_v1.GraphKeys.GLOBAL_VARIABLES]
    with _v1.variable_scope(name, "moving_mean_variance", [value, decay]):
        value = tf.convert_to_tensor(value, name="value")
        dtype = value.dtype.base_dtype
        if not dtype.is_floating:
            raise TypeError("value.base_dtype({}) does not have float type `dtype`."
                            .format(dtype.name))
        decay = tf.convert_to_tensor(decay, dtype=dtype, name="decay")

        def variable(var_name):
            return _v1.get_variable(var_name, shape=value.shape, dtype=value.dtype,
                                    initializer=_v1.zeros_initializer(), trainable=False,
                                    collections=collections)
        variance_var = variable("moving_variance")
        mean_var = variable("moving_mean")
        return assign_moving_mean_variance(mean_var, variance_var, value, decay)
