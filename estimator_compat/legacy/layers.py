"""`tf.compat.v1.layers` for Keras 3: the TF1 layers, functions and classes, on `get_variable`.

On TF 2.16+ with Keras 3, `tf.compat.v1.layers.dense` and friends only raise AttributeError.
Legacy model_fns call them, so `use()` puts these thin versions in their place (the variables get
TF1's names: `dense/kernel`, `conv2d/bias`, `batch_normalization/moving_mean`, ...). Names that
TensorFlow still provides working are never replaced.
"""
import types

import tensorflow as tf

from estimator_compat.tf_modules import set_attr

v1 = tf.compat.v1
_GraphKeys = v1.GraphKeys


def _pair(value, n=2):
    if isinstance(value, int):
        return (value,) * n
    value = tuple(value)
    if len(value) != n:
        raise ValueError(f"Expected an int or a tuple of {n} ints, given: {value!r}")
    return value


def _bias_and_activation(outputs, use_bias, bias_shape, bias_initializer, bias_regularizer,
                         bias_constraint, trainable, activation, data_format="channels_last"):
    if use_bias:
        bias = v1.get_variable("bias", bias_shape, initializer=bias_initializer or v1.zeros_initializer(),
                               regularizer=bias_regularizer, constraint=bias_constraint,
                               trainable=trainable, dtype=outputs.dtype)
        fmt = "NCHW" if data_format == "channels_first" and outputs.shape.rank == 4 else None
        outputs = tf.nn.bias_add(outputs, bias, data_format=fmt)
    activation = _activation(activation)
    if activation is not None:
        outputs = activation(outputs)
    return outputs


_ACTIVATIONS = {"relu": tf.nn.relu, "relu6": tf.nn.relu6, "elu": tf.nn.elu, "selu": tf.nn.selu,
                "tanh": tf.tanh, "sigmoid": tf.sigmoid, "softmax": tf.nn.softmax,
                "softplus": tf.nn.softplus, "softsign": tf.nn.softsign, "swish": tf.nn.silu,
                "silu": tf.nn.silu, "gelu": tf.nn.gelu, "exponential": tf.exp, "linear": None}


def _activation(activation):
    """A TF1 layer's activation: a callable, None, or a name ('relu'), as tf.layers took it
    (through Keras' activations.get)."""
    if not isinstance(activation, str):
        return activation
    if activation not in _ACTIVATIONS:
        raise ValueError(f"Unknown activation {activation!r}; names tf.layers takes: "
                         f"{sorted(_ACTIVATIONS)}, or pass a function such as tf.nn.relu.")
    return _ACTIVATIONS[activation]


def _activity(outputs, activity_regularizer):
    if activity_regularizer is not None:
        v1.add_to_collection(_GraphKeys.REGULARIZATION_LOSSES, activity_regularizer(outputs))
    return outputs


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=None, kernel_regularizer=None, bias_regularizer=None,
          activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
          trainable=True, name=None, reuse=None):
    """Densely-connected layer: `outputs = activation(inputs @ kernel + bias)`."""
    inputs = tf.convert_to_tensor(inputs)
    with v1.variable_scope(name, default_name="dense", reuse=reuse):
        kernel = v1.get_variable("kernel", [inputs.shape[-1], units], dtype=inputs.dtype,
                                 initializer=kernel_initializer or v1.glorot_uniform_initializer(),
                                 regularizer=kernel_regularizer, constraint=kernel_constraint,
                                 trainable=trainable)
        if inputs.shape.rank is not None and inputs.shape.rank > 2:
            outputs = tf.tensordot(inputs, kernel, [[inputs.shape.rank - 1], [0]])
        else:
            outputs = tf.matmul(inputs, kernel)
        outputs = _bias_and_activation(outputs, use_bias, [units], bias_initializer,
                                       bias_regularizer, bias_constraint, trainable, activation)
        return _activity(outputs, activity_regularizer)


def _conv(rank, default_name, inputs, filters, kernel_size, strides, padding, data_format,
          dilation_rate, activation, use_bias, kernel_initializer, bias_initializer,
          kernel_regularizer, bias_regularizer, activity_regularizer, kernel_constraint,
          bias_constraint, trainable, name, reuse):
    inputs = tf.convert_to_tensor(inputs)
    kernel_size, strides = _pair(kernel_size, rank), _pair(strides, rank)
    dilation_rate = _pair(dilation_rate, rank)
    channel_axis = 1 if data_format == "channels_first" else -1
    with v1.variable_scope(name, default_name=default_name, reuse=reuse):
        kernel = v1.get_variable(
            "kernel", list(kernel_size) + [inputs.shape[channel_axis], filters], dtype=inputs.dtype,
            initializer=kernel_initializer or v1.glorot_uniform_initializer(),
            regularizer=kernel_regularizer, constraint=kernel_constraint, trainable=trainable)
        fmt = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}[rank]
        outputs = tf.nn.convolution(inputs, kernel, strides=strides, padding=padding.upper(),
                                    dilations=dilation_rate,
                                    data_format=fmt[1] if data_format == "channels_first" else fmt[0])
        outputs = _bias_and_activation(outputs, use_bias, [filters], bias_initializer,
                                       bias_regularizer, bias_constraint, trainable, activation,
                                       data_format)
        return _activity(outputs, activity_regularizer)


def _conv_fn(rank):
    def conv(inputs, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
             dilation_rate=1, activation=None, use_bias=True, kernel_initializer=None,
             bias_initializer=None, kernel_regularizer=None, bias_regularizer=None,
             activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
             trainable=True, name=None, reuse=None):
        return _conv(rank, f"conv{rank}d", inputs, filters, kernel_size, strides, padding,
                     data_format, dilation_rate, activation, use_bias, kernel_initializer,
                     bias_initializer, kernel_regularizer, bias_regularizer, activity_regularizer,
                     kernel_constraint, bias_constraint, trainable, name, reuse)
    conv.__name__ = f"conv{rank}d"
    conv.__doc__ = f"{rank}-D convolution layer (TF1 `tf.layers.conv{rank}d`)."
    return conv


conv1d, conv2d, conv3d = _conv_fn(1), _conv_fn(2), _conv_fn(3)


def _deconv_length(size, kernel, stride, padding):
    if padding.lower() == "same":
        return size * stride
    return size * stride + max(kernel - stride, 0)


def conv2d_transpose(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True,
                     kernel_initializer=None, bias_initializer=None, kernel_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                     bias_constraint=None, trainable=True, name=None, reuse=None):
    """Transposed 2-D convolution (TF1 `tf.layers.conv2d_transpose`); kernel [h, w, out, in]."""
    inputs = tf.convert_to_tensor(inputs)
    (kh, kw), (sh, sw) = _pair(kernel_size), _pair(strides)
    first = data_format == "channels_first"
    channels = inputs.shape[1 if first else -1]
    with v1.variable_scope(name, default_name="conv2d_transpose", reuse=reuse):
        kernel = v1.get_variable(
            "kernel", [kh, kw, filters, channels], dtype=inputs.dtype,
            initializer=kernel_initializer or v1.glorot_uniform_initializer(),
            regularizer=kernel_regularizer, constraint=kernel_constraint, trainable=trainable)
        dims = tf.shape(inputs)
        h, w = (dims[2], dims[3]) if first else (dims[1], dims[2])
        oh, ow = _deconv_length(h, kh, sh, padding), _deconv_length(w, kw, sw, padding)
        out_shape = tf.stack([dims[0], filters, oh, ow] if first else [dims[0], oh, ow, filters])
        outputs = tf.nn.conv2d_transpose(inputs, kernel, out_shape, strides=(sh, sw),
                                         padding=padding.upper(),
                                         data_format="NCHW" if first else "NHWC")
        outputs = _bias_and_activation(outputs, use_bias, [filters], bias_initializer,
                                       bias_regularizer, bias_constraint, trainable, activation,
                                       data_format)
        return _activity(outputs, activity_regularizer)


def separable_conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", dilation_rate=(1, 1), depth_multiplier=1,
                     activation=None, use_bias=True, depthwise_initializer=None,
                     pointwise_initializer=None, bias_initializer=None,
                     depthwise_regularizer=None, pointwise_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None, depthwise_constraint=None,
                     pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
    """Depthwise then pointwise 2-D convolution (TF1 `tf.layers.separable_conv2d`)."""
    inputs = tf.convert_to_tensor(inputs)
    first = data_format == "channels_first"
    channels = inputs.shape[1 if first else -1]
    with v1.variable_scope(name, default_name="separable_conv2d", reuse=reuse):
        depthwise = v1.get_variable(
            "depthwise_kernel", list(_pair(kernel_size)) + [channels, depth_multiplier],
            dtype=inputs.dtype, initializer=depthwise_initializer or v1.glorot_uniform_initializer(),
            regularizer=depthwise_regularizer, constraint=depthwise_constraint, trainable=trainable)
        pointwise = v1.get_variable(
            "pointwise_kernel", [1, 1, channels * depth_multiplier, filters], dtype=inputs.dtype,
            initializer=pointwise_initializer or v1.glorot_uniform_initializer(),
            regularizer=pointwise_regularizer, constraint=pointwise_constraint, trainable=trainable)
        sh, sw = _pair(strides)
        outputs = tf.nn.separable_conv2d(
            inputs, depthwise, pointwise, strides=(1, 1, sh, sw) if first else (1, sh, sw, 1),
            padding=padding.upper(), dilations=_pair(dilation_rate),
            data_format="NCHW" if first else "NHWC")
        outputs = _bias_and_activation(outputs, use_bias, [filters], bias_initializer,
                                       bias_regularizer, bias_constraint, trainable, activation,
                                       data_format)
        return _activity(outputs, activity_regularizer)


def _pool_fn(rank, kind):
    op = tf.nn.max_pool if kind == "max" else tf.nn.avg_pool

    def pool(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
        fmt = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}[rank]
        with tf.name_scope(name or f"{kind}_pooling{rank}d"):
            return op(inputs, ksize=_pair(pool_size, rank), strides=_pair(strides, rank),
                      padding=padding.upper(),
                      data_format=fmt[1] if data_format == "channels_first" else fmt[0])
    pool.__name__ = f"{'max' if kind == 'max' else 'average'}_pooling{rank}d"
    return pool


max_pooling1d, max_pooling2d, max_pooling3d = (_pool_fn(r, "max") for r in (1, 2, 3))
average_pooling1d, average_pooling2d, average_pooling3d = (_pool_fn(r, "avg") for r in (1, 2, 3))


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    """Dropout applied only when `training` (a bool or a boolean tensor) is true."""
    with tf.name_scope(name or "dropout"):
        inputs = tf.convert_to_tensor(inputs)
        if isinstance(training, bool):
            if not training or rate == 0:
                return tf.identity(inputs)
            return tf.nn.dropout(inputs, rate=rate, noise_shape=noise_shape, seed=seed)
        return tf.cond(tf.cast(training, tf.bool),
                       lambda: tf.nn.dropout(inputs, rate=rate, noise_shape=noise_shape, seed=seed),
                       lambda: tf.identity(inputs))


def flatten(inputs, name=None, data_format="channels_last"):
    """Flattens all but the batch dimension."""
    with tf.name_scope(name or "flatten"):
        inputs = tf.convert_to_tensor(inputs)
        if data_format == "channels_first" and inputs.shape.rank and inputs.shape.rank > 2:
            inputs = tf.transpose(inputs, [0] + list(range(2, inputs.shape.rank)) + [1])
        known = inputs.shape[1:]
        if known.is_fully_defined():
            return tf.reshape(inputs, [-1, known.num_elements()])
        return tf.reshape(inputs, [tf.shape(inputs)[0], -1])


def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                        beta_initializer=None, gamma_initializer=None,
                        moving_mean_initializer=None, moving_variance_initializer=None,
                        beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                        gamma_constraint=None, training=False, trainable=True, name=None,
                        reuse=None, renorm=False, renorm_clipping=None, renorm_momentum=0.99,
                        fused=None, virtual_batch_size=None, adjustment=None):
    """Batch normalization; in training the moving-average updates go to UPDATE_OPS, as in TF1."""
    if renorm or virtual_batch_size or adjustment:
        raise ValueError("batch_normalization: renorm, virtual_batch_size and adjustment are not "
                         "supported by estimator_compat; use keras.layers.BatchNormalization.")
    inputs = tf.convert_to_tensor(inputs)
    rank = inputs.shape.rank
    axes = [axis] if isinstance(axis, int) else list(axis)
    axes = [a % rank for a in axes]
    param_shape = [inputs.shape[a] for a in axes]
    reduce_axes = [i for i in range(rank) if i not in axes]
    bshape = [inputs.shape[i] if i in axes else 1 for i in range(rank)]
    dtype = tf.float32 if inputs.dtype in (tf.float16, tf.bfloat16) else inputs.dtype
    with v1.variable_scope(name, default_name="batch_normalization", reuse=reuse):
        gamma = v1.get_variable("gamma", param_shape, dtype, initializer=gamma_initializer or v1.ones_initializer(),
                                regularizer=gamma_regularizer, constraint=gamma_constraint,
                                trainable=trainable) if scale else None
        beta = v1.get_variable("beta", param_shape, dtype, initializer=beta_initializer or v1.zeros_initializer(),
                               regularizer=beta_regularizer, constraint=beta_constraint,
                               trainable=trainable) if center else None
        moving_mean = v1.get_variable("moving_mean", param_shape, dtype, trainable=False,
                                      initializer=moving_mean_initializer or v1.zeros_initializer())
        moving_var = v1.get_variable("moving_variance", param_shape, dtype, trainable=False,
                                     initializer=moving_variance_initializer or v1.ones_initializer())
        x = tf.cast(inputs, dtype)

        def batch_stats():
            mean, var = tf.nn.moments(x, reduce_axes)
            return mean, var

        def moving_stats():
            return tf.identity(moving_mean), tf.identity(moving_var)

        if isinstance(training, bool):
            mean, var = batch_stats() if training else moving_stats()
        else:
            training = tf.cast(training, tf.bool)
            mean, var = tf.cond(training, batch_stats, moving_stats)
        if training is not False:
            decay = 1.0 - momentum
            if not isinstance(training, bool):
                decay = tf.where(training, decay, 0.0)
            v1.add_to_collection(_GraphKeys.UPDATE_OPS,
                                 moving_mean.assign_sub((moving_mean - mean) * decay))
            v1.add_to_collection(_GraphKeys.UPDATE_OPS,
                                 moving_var.assign_sub((moving_var - var) * decay))
        outputs = tf.nn.batch_normalization(
            x, tf.reshape(mean, bshape), tf.reshape(var, bshape),
            None if beta is None else tf.reshape(beta, bshape),
            None if gamma is None else tf.reshape(gamma, bshape), epsilon)
        return tf.cast(outputs, inputs.dtype)


_FUNCTIONS = {
    "dense": dense, "conv1d": conv1d, "conv2d": conv2d, "conv3d": conv3d,
    "max_pooling1d": max_pooling1d, "max_pooling2d": max_pooling2d,
    "max_pooling3d": max_pooling3d, "average_pooling1d": average_pooling1d,
    "average_pooling2d": average_pooling2d, "average_pooling3d": average_pooling3d,
    "dropout": dropout, "flatten": flatten, "batch_normalization": batch_normalization,
    "conv2d_transpose": conv2d_transpose, "separable_conv2d": separable_conv2d,
}


def _works(module, name):
    try:
        getattr(module, name)
        return True
    except (AttributeError, ImportError):
        return False


_MODULE = []


def use():
    """Make `tf.compat.v1.layers.<fn>` resolve here where TensorFlow only raises. Idempotent."""
    if not _MODULE:
        current = getattr(v1, "layers", None)
        module = types.ModuleType("tensorflow.compat.v1.layers",
                                  "TF1 layers (estimator_compat, on get_variable).")
        module.__estimator_compat__ = True
        from estimator_compat.legacy import layer_classes
        for name, fn in {**_FUNCTIONS, **layer_classes.CLASSES}.items():
            setattr(module, name, fn if current is None or not _works(current, name)
                    else getattr(current, name))
        _MODULE.append(module)
    set_attr("tensorflow.compat.v1", "layers", _MODULE[0])
    return _MODULE[0]
