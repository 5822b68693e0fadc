"""`tf.contrib.layers.layer_norm` (the original BERT code uses it), on get_variable."""
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
