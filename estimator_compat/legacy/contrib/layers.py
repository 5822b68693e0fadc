"""`tf.contrib.layers`: layer_norm (the original BERT code uses it), initializers, regularizers."""
import tensorflow as tf

v1 = tf.compat.v1


def layer_norm(inputs, center=True, scale=True, activation_fn=None, reuse=None,
               variables_collections=None, outputs_collections=None, trainable=True,
               begin_norm_axis=1, begin_params_axis=-1, scope=None):
    """Normalises over dims [begin_norm_axis:], with beta/gamma over [begin_params_axis:]."""
    inputs = tf.convert_to_tensor(inputs)
    rank = inputs.shape.rank
    if rank is None:
        raise ValueError(f"Inputs {inputs.name} has undefined rank.")
    norm_axis = begin_norm_axis % rank
    params_axis = begin_params_axis % rank
    if params_axis < norm_axis:
        raise ValueError(f"begin_params_axis ({begin_params_axis}) must be at or after "
                         f"begin_norm_axis ({begin_norm_axis})")
    params_shape = inputs.shape[params_axis:]
    collections = None if variables_collections is None else [
        v1.GraphKeys.GLOBAL_VARIABLES, *variables_collections]
    with v1.variable_scope(scope, "LayerNorm", [inputs], reuse=reuse):
        beta = v1.get_variable("beta", params_shape, inputs.dtype,
                               initializer=v1.zeros_initializer(), trainable=trainable,
                               collections=collections) if center else None
        gamma = v1.get_variable("gamma", params_shape, inputs.dtype,
                                initializer=v1.ones_initializer(), trainable=trainable,
                                collections=collections) if scale else None
        mean, variance = tf.nn.moments(inputs, list(range(norm_axis, rank)), keepdims=True)
        epsilon = 1e-12 if inputs.dtype != tf.float16 else 1e-3
        outputs = tf.nn.batch_normalization(inputs, mean, variance, offset=beta, scale=gamma,
                                            variance_epsilon=epsilon)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return outputs


def xavier_initializer(uniform=True, seed=None, dtype=tf.float32):
    """Glorot initialisation: variance 1/fan_avg, uniform or truncated normal."""
    return _variance_scaling(1.0, "fan_avg", uniform, seed, dtype)


xavier_initializer_conv2d = xavier_initializer


def variance_scaling_initializer(factor=2.0, mode="FAN_IN", uniform=False, seed=None,
                                 dtype=tf.float32):
    """contrib's variance scaling (default: He initialisation)."""
    if mode not in ("FAN_IN", "FAN_OUT", "FAN_AVG"):
        raise TypeError(f"Unknown mode {mode!r}: use 'FAN_IN', 'FAN_OUT' or 'FAN_AVG'.")
    return _variance_scaling(factor, mode.lower(), uniform, seed, dtype)


def _variance_scaling(scale, mode, uniform, seed, dtype):
    if not tf.as_dtype(dtype).is_floating:
        raise TypeError(f"Cannot create initializer for non-floating point type {dtype}.")
    return v1.variance_scaling_initializer(  # dtype comes with each call, as TF 2 wants it
        scale=scale, mode=mode, seed=seed, distribution="uniform" if uniform else "truncated_normal")


def _regularizer(scale, kind, penalty):
    if isinstance(scale, (int, float)):
        if scale < 0.0:
            raise ValueError(f"Setting a scale less than 0 on a regularizer: {scale}")
        if scale == 0.0:
            return lambda _: None

    def regularize(weights, name=None):
        with tf.name_scope(name or f"{kind}_regularizer"):
            factor = tf.cast(scale, weights.dtype.base_dtype)
            return tf.multiply(factor, penalty(weights), name="value")
    return regularize


def l1_regularizer(scale, scope=None):
    """`scale * sum(|w|)`."""
    return _regularizer(scale, "l1", lambda w: tf.reduce_sum(tf.abs(w)))


def l2_regularizer(scale, scope=None):
    """`scale * sum(w²) / 2` (tf.nn.l2_loss), as contrib's."""
    return _regularizer(scale, "l2", tf.nn.l2_loss)


def apply_regularization(regularizer, weights_list=None):
    """Sums `regularizer(w)` over `weights_list` (default: the graph's WEIGHTS collection)."""
    if weights_list is None:
        weights_list = v1.get_collection(v1.GraphKeys.WEIGHTS)
    if not weights_list:
        raise ValueError("No weights to regularize.")
    penalties = [p for p in (regularizer(w) for w in weights_list) if p is not None]
    total = tf.add_n(penalties) if penalties else tf.constant(0.0)
    v1.add_to_collection(v1.GraphKeys.REGULARIZATION_LOSSES, total)
    return total


def fully_connected(inputs, num_outputs, activation_fn=tf.nn.relu, normalizer_fn=None,
                    normalizer_params=None, weights_initializer=None, weights_regularizer=None,
                    biases_initializer=v1.zeros_initializer(), biases_regularizer=None, reuse=None,
                    variables_collections=None, outputs_collections=None, trainable=True,
                    scope=None):
    """contrib's dense layer: `fully_connected/weights`, `fully_connected/biases`, relu default."""
    inputs = tf.convert_to_tensor(inputs)
    with v1.variable_scope(scope, "fully_connected", [inputs], reuse=reuse):
        weights = v1.get_variable("weights", [inputs.shape[-1], num_outputs], inputs.dtype,
                                  initializer=weights_initializer or xavier_initializer(),
                                  regularizer=weights_regularizer, trainable=trainable)
        if inputs.shape.rank is not None and inputs.shape.rank > 2:
            outputs = tf.tensordot(inputs, weights, [[inputs.shape.rank - 1], [0]])
        else:
            outputs = tf.matmul(inputs, weights)
        if normalizer_fn is not None:
            outputs = normalizer_fn(outputs, **(normalizer_params or {}))
        elif biases_initializer is not None:
            biases = v1.get_variable("biases", [num_outputs], inputs.dtype,
                                     initializer=biases_initializer,
                                     regularizer=biases_regularizer, trainable=trainable)
            outputs = tf.nn.bias_add(outputs, biases)
        return activation_fn(outputs) if activation_fn is not None else outputs


linear = lambda inputs, num_outputs, **kwargs: fully_connected(  # noqa: E731
    inputs, num_outputs, activation_fn=None, **kwargs)

from estimator_compat.legacy.contrib.optimize_loss import optimize_loss  # noqa: E402

FUNCTIONS = {f.__name__ if f is not linear else "linear": f for f in (optimize_loss,
    layer_norm, xavier_initializer, variance_scaling_initializer, l1_regularizer,
    l2_regularizer, apply_regularization, fully_connected, linear)}
FUNCTIONS.update(xavier_initializer_conv2d=xavier_initializer)


def build():
    from estimator_compat.legacy.namespaces import namespace
    return namespace("tensorflow.contrib.layers", "tf.contrib.layers", **FUNCTIONS)
