"""A get_variable dense layer (tensorflow_estimator 2.15's `canned.timeseries.model_utils.
fully_connected`, which time series model code built its layers with): `<name>_weight`
(Glorot uniform) and `<name>_bias` (zeros) in the current variable scope."""
import tensorflow as tf

v1 = tf.compat.v1


def fully_connected(inp, inp_size, layer_size, name, activation=tf.nn.relu, dtype=tf.float32):
    """`activation(inp @ <name>_weight + <name>_bias)` for `inp` `[batch, inp_size]`
    (`activation=None`: the affine map alone)."""
    weight = v1.get_variable(f"{name}_weight", shape=[inp_size, layer_size], dtype=dtype,
                             initializer=v1.glorot_uniform_initializer())
    bias = v1.get_variable(f"{name}_bias", shape=[layer_size], dtype=dtype,
                           initializer=v1.zeros_initializer())
    output = v1.nn.xw_plus_b(inp, weight, bias)
    return activation(output) if activation is not None else output
