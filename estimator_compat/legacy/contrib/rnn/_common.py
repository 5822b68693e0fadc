"""Helpers the contrib cells share: TF1's `_linear` (variables `kernel` / `bias` in the current
scope), contrib's layer normalization (`gamma` / `beta` in a named scope) and sharded weights."""
import tensorflow as tf

v1 = tf.compat.v1


def linear(args, output_size, bias, bias_initializer=None, kernel_initializer=None):
    """`concat(args) @ kernel (+ bias)`, TF1's `_Linear`: `kernel`, `bias` (zeros by default)."""
    args = args if isinstance(args, (list, tuple)) else [args]
    dtype = args[0].dtype
    width = sum(int(a.shape[-1]) for a in args)
    kernel = v1.get_variable("kernel", [width, output_size], dtype, initializer=kernel_initializer)
    out = tf.matmul(args[0] if len(args) == 1 else tf.concat(args, 1), kernel)
    if not bias:
        return out
    b = v1.get_variable("bias", [output_size], dtype,
                        initializer=bias_initializer or v1.constant_initializer(0.0, dtype=dtype))
    return tf.nn.bias_add(out, b)


def layer_norm(inputs, scope, gain=1.0, shift=0.0):
    """contrib.layers.layer_norm over the last axis of a [batch, n] tensor, its `gamma` (starting
    at `gain`) and `beta` (at `shift`) in `scope`; epsilon 1e-12 as TF 1.15's."""
    dtype = inputs.dtype
    size = inputs.shape[-1:]
    with v1.variable_scope(scope):
        gamma = v1.get_variable("gamma", size, dtype, initializer=v1.constant_initializer(gain))
        beta = v1.get_variable("beta", size, dtype, initializer=v1.constant_initializer(shift))
    axes = list(range(1, inputs.shape.ndims))
    mean, variance = tf.nn.moments(inputs, axes, keepdims=True)
    return tf.nn.batch_normalization(inputs, mean, variance, beta, gamma, 1e-12)


def sharded(name, shape, dtype, num_shards, initializer=None):
    """`name_0` ... `name_{n-1}` split on the first axis (TF1's `_get_concat_variable`), joined."""
    if num_shards > shape[0]:
        raise ValueError(f"Too many shards: shape={shape}, num_shards={num_shards}")
    size, rest = divmod(shape[0], num_shards)
    shards = [v1.get_variable(f"{name}_{i}", [size + (i < rest)] + list(shape[1:]), dtype,
                              initializer=initializer) for i in range(num_shards)]
    return shards[0] if num_shards == 1 else tf.concat(shards, 0, name=name + "/concat")


def input_depth(inputs_shape, cell):
    depth = tf.TensorShape(inputs_shape)[-1]
    if depth is None:
        raise ValueError(f"{cell}: the inputs' last dimension must be known, saw shape "
                         f"{inputs_shape}; give the inputs a static depth (set_shape).")
    return int(depth)
