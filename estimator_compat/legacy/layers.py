"""`tf.compat.v1.layers` for Keras 3: the TF1 layers, functions and classes, on `get_variable`.

On TF 2.16+ with Keras 3, `tf.compat.v1.layers.dense` and friends only raise AttributeError.
Legacy model_fns call them, so `use()` puts these thin versions in their place (the variables get
TF1's names: `dense/kernel`, `conv2d/bias`, `batch_normalization/moving_mean`, ...). Names that
TensorFlow still provides working are never replaced.
"""
import contextlib
import types
import weakref

import tensorflow as tf
from tensorflow.python.ops import nn_ops

from estimator_compat.legacy.batch_norm_math import BatchNorm
from estimator_compat.tf_modules import set_attr

v1 = tf.compat.v1
_GraphKeys = v1.GraphKeys


_UIDS = weakref.WeakKeyDictionary()  # graph -> {layer base name: count}


def unique_layer_name(base):
    """Keras' per-graph layer name, `base_1`, `base_2`, ...: TF 1.15's tf.layers named each
    layer object so (the functions made one too), counting from 1."""
    counts = _UIDS.setdefault(v1.get_default_graph(), {})
    counts[base] = counts.get(base, 0) + 1
    return f"{base}_{counts[base]}"


@contextlib.contextmanager
def _variable_scope(name, default_name, reuse):
    """The layer's variable scope: a new one (`dense`, `dense_1`, ...), or a VariableScope
    given as `name` re-entered with the name scope it first opened (as TF 1.x re-entered it;
    TensorFlow 2's variable_scope would open a new `dense_1` name scope instead)."""
    if name is None:
        unique_layer_name(default_name)  # the layer object TF 1.15 made took this name
    if not (isinstance(name, v1.VariableScope) and name.original_name_scope):
        with v1.variable_scope(name, default_name=default_name, reuse=reuse) as scope:
            yield scope
        return
    with v1.variable_scope(name, reuse=reuse, auxiliary_name_scope=False) as scope:
        with v1.name_scope(name.original_name_scope):
            yield scope


def _name_scope(name, default_name):
    """A variable-free layer's name scope (`max_pooling2d`, `dropout_1`, ...)."""
    if name is None:
        unique_layer_name(default_name)
    return tf.name_scope(name or default_name)


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
        fmt = "NC..." if data_format == "channels_first" and outputs.shape.rank != 2 else None
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
    """The activity regularizer's loss per example (divided by the batch size, as TF 1.15's
    layers did), in REGULARIZATION_LOSSES as `<layer>/ActivityRegularizer/truediv`."""
    if activity_regularizer is not None:
        with v1.name_scope("ActivityRegularizer"):
            loss = activity_regularizer(outputs)
            if loss is not None:
                loss = loss / tf.cast(tf.shape(outputs)[0], loss.dtype)
                v1.add_to_collection(_GraphKeys.REGULARIZATION_LOSSES, loss)
    return outputs


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=None, kernel_regularizer=None, bias_regularizer=None,
          activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
          trainable=True, name=None, reuse=None):
    """Densely-connected layer: `outputs = activation(inputs @ kernel + bias)`."""
    inputs = tf.convert_to_tensor(inputs)
    with _variable_scope(name, "dense", reuse):
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
    with _variable_scope(name, default_name, reuse):
        kernel = v1.get_variable(
            "kernel", list(kernel_size) + [inputs.shape[channel_axis], filters], dtype=inputs.dtype,
            initializer=kernel_initializer or v1.glorot_uniform_initializer(),
            regularizer=kernel_regularizer, constraint=kernel_constraint, trainable=trainable)
        fmt = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}[rank]
        fmt = fmt[1] if data_format == "channels_first" else fmt[0]
        if any(d != 1 for d in dilation_rate):
            # TF 1.15's graph: SpaceToBatchND, Conv2D (conv1d, Conv3D), BatchToSpaceND in the
            # layer's own scope (tf.nn.convolution would add a `convolution` scope)
            outputs = nn_ops.Convolution(inputs.shape, kernel.shape, padding.upper(),
                                         strides=strides, dilation_rate=dilation_rate,
                                         data_format=fmt)(inputs, kernel)
        elif rank == 1:  # TF 1.15's op names: conv1d, Conv2D, Conv3D
            outputs = tf.nn.conv1d(inputs, kernel, strides[0], padding.upper(), data_format=fmt)
        elif rank == 2:
            outputs = tf.nn.conv2d(inputs, kernel, list(strides), padding.upper(),
                                   data_format=fmt)
        else:
            outputs = tf.nn.conv3d(
                inputs, kernel, [1, *strides, 1] if fmt == "NDHWC" else [1, 1, *strides],
                padding.upper(), data_format=fmt)
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
    conv.conv_rank = rank
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
    with _variable_scope(name, "conv2d_transpose", reuse):
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


def _channels_last(function, inputs, first, rank):
    """`function` on channels-last data (TF's CPU kernels for the transposed and depthwise
    convolutions take only that layout); `inputs` and the result keep `data_format`."""
    if not first:
        return function(inputs)
    to_last = [0] + list(range(2, rank + 2)) + [1]
    outputs = function(tf.transpose(inputs, to_last))
    return tf.transpose(outputs, [0, rank + 1] + list(range(1, rank + 1)))


def conv3d_transpose(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True,
                     kernel_initializer=None, bias_initializer=None, kernel_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                     bias_constraint=None, trainable=True, name=None, reuse=None):
    """Transposed 3-D convolution (TF1 `tf.layers.conv3d_transpose`); kernel
    [d, h, w, filters, in_channels]."""
    inputs = tf.convert_to_tensor(inputs)
    kernel_size, strides = _pair(kernel_size, 3), _pair(strides, 3)
    first = data_format == "channels_first"
    if inputs.shape.rank != 5:
        raise ValueError(f"conv3d_transpose takes 5-D inputs, given shape {inputs.shape}")
    channels = inputs.shape[1 if first else -1]
    if channels is None:
        raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
    with _variable_scope(name, "conv3d_transpose", reuse):
        kernel = v1.get_variable(
            "kernel", list(kernel_size) + [filters, channels], dtype=inputs.dtype,
            initializer=kernel_initializer or v1.glorot_uniform_initializer(),
            regularizer=kernel_regularizer, constraint=kernel_constraint, trainable=trainable)

        def transpose(x):
            dims = tf.shape(x)
            out = [dims[0]] + [_deconv_length(dims[i + 1], kernel_size[i], strides[i], padding)
                               for i in range(3)] + [filters]
            y = tf.nn.conv3d_transpose(x, kernel, tf.stack(out), strides=(1,) + strides + (1,),
                                       padding=padding.upper(), data_format="NDHWC")
            static = [x.shape[0]] + [None if x.shape[i + 1] is None else _deconv_length(
                x.shape[i + 1], kernel_size[i], strides[i], padding) for i in range(3)]
            y.set_shape(static + [filters])
            return y
        outputs = _channels_last(transpose, inputs, first, 3)
        outputs = _bias_and_activation(outputs, use_bias, [filters], bias_initializer,
                                       bias_regularizer, bias_constraint, trainable, activation,
                                       data_format)
        return _activity(outputs, activity_regularizer)


conv3d_transpose.conv_rank = 3


def separable_conv1d(inputs, filters, kernel_size, strides=1, padding="valid",
                     data_format="channels_last", dilation_rate=1, depth_multiplier=1,
                     activation=None, use_bias=True, depthwise_initializer=None,
                     pointwise_initializer=None, bias_initializer=None,
                     depthwise_regularizer=None, pointwise_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None, depthwise_constraint=None,
                     pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
    """Depthwise then pointwise 1-D convolution (TF1 `tf.layers.separable_conv1d`): kernels
    [k, in, depth_multiplier] and [1, in * depth_multiplier, filters], run as TF 1.15 ran
    them, as a 2-D separable convolution over a height of 1."""
    inputs = tf.convert_to_tensor(inputs)
    if inputs.shape.rank != 3:
        raise ValueError(f"separable_conv1d takes 3-D inputs, given shape {inputs.shape}")
    first = data_format == "channels_first"
    channels = inputs.shape[1 if first else -1]
    if channels is None:
        raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
    (kernel,), (stride,), (dilation,) = (_pair(kernel_size, 1), _pair(strides, 1),
                                         _pair(dilation_rate, 1))
    with _variable_scope(name, "separable_conv1d", reuse):
        depthwise = v1.get_variable(
            "depthwise_kernel", [kernel, channels, depth_multiplier], dtype=inputs.dtype,
            initializer=depthwise_initializer or v1.glorot_uniform_initializer(),
            regularizer=depthwise_regularizer, constraint=depthwise_constraint,
            trainable=trainable)
        pointwise = v1.get_variable(
            "pointwise_kernel", [1, channels * depth_multiplier, filters], dtype=inputs.dtype,
            initializer=pointwise_initializer or v1.glorot_uniform_initializer(),
            regularizer=pointwise_regularizer, constraint=pointwise_constraint,
            trainable=trainable)

        def separable(x):
            y = tf.nn.separable_conv2d(
                tf.expand_dims(x, 1), tf.expand_dims(depthwise, 0), tf.expand_dims(pointwise, 0),
                strides=(1, 1, stride, 1), padding=padding.upper(), dilations=(1, dilation),
                data_format="NHWC")
            return tf.squeeze(y, [1])
        outputs = _channels_last(separable, inputs, first, 1)
        outputs = _bias_and_activation(outputs, use_bias, [filters], bias_initializer,
                                       bias_regularizer, bias_constraint, trainable, activation,
                                       data_format)
        return _activity(outputs, activity_regularizer)


separable_conv1d.conv_rank = 1


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
    with _variable_scope(name, "separable_conv2d", reuse):
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


conv2d_transpose.conv_rank = separable_conv2d.conv_rank = 2


def _pool_fn(rank, kind):
    op = tf.nn.max_pool if kind == "max" else tf.nn.avg_pool

    def pool(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
        fmt = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}[rank]
        with _name_scope(name, pool.__name__):
            return op(inputs, ksize=_pair(pool_size, rank), strides=_pair(strides, rank),
                      padding=padding.upper(), name=op_name,
                      data_format=fmt[1] if data_format == "channels_first" else fmt[0])
    op_name = "MaxPool" if (kind, rank) == ("max", 2) else None  # TF 1.15's op name
    pool.__name__ = f"{'max' if kind == 'max' else 'average'}_pooling{rank}d"
    return pool


max_pooling1d, max_pooling2d, max_pooling3d = (_pool_fn(r, "max") for r in (1, 2, 3))
average_pooling1d, average_pooling2d, average_pooling3d = (_pool_fn(r, "avg") for r in (1, 2, 3))


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    """Dropout applied only when `training` (a bool or a boolean tensor) is true."""
    with _name_scope(name, "dropout"):
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
    with _name_scope(name, "flatten"):
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
    """Batch normalization (with TF 1.15's batch renormalization, ghost batches and
    adjustment: batch_norm_math.py); in training the moving-average updates go to UPDATE_OPS."""
    inputs = tf.convert_to_tensor(inputs)
    layer = BatchNorm(axis, momentum, epsilon, center, scale, renorm, renorm_clipping,
                      renorm_momentum, fused, virtual_batch_size, adjustment)
    dtype = tf.float32 if inputs.dtype in (tf.float16, tf.bfloat16) else inputs.dtype
    with _variable_scope(name, "batch_normalization", reuse):
        layer.resolve(inputs.shape, dtype)
        regularizers = {"gamma": gamma_regularizer, "beta": beta_regularizer}
        constraints = {"gamma": gamma_constraint, "beta": beta_constraint}

        def add(name, initializer, is_trainable):
            return v1.get_variable(name, layer.param_shape, dtype, initializer=initializer,
                                   regularizer=regularizers.get(name),
                                   constraint=constraints.get(name),
                                   trainable=trainable and is_trainable)
        layer.create_variables(add, dtype, {
            "gamma": gamma_initializer or v1.ones_initializer(),
            "beta": beta_initializer or v1.zeros_initializer(),
            "moving_mean": moving_mean_initializer or v1.zeros_initializer(),
            "moving_variance": moving_variance_initializer or v1.ones_initializer()})
        outputs, updates = layer(inputs, training)
        for update in updates if not tf.executing_eagerly() else ():  # eagerly: applied
            v1.add_to_collection(_GraphKeys.UPDATE_OPS, update)
        return outputs


_FUNCTIONS = {
    "dense": dense, "conv1d": conv1d, "conv2d": conv2d, "conv3d": conv3d,
    "max_pooling1d": max_pooling1d, "max_pooling2d": max_pooling2d,
    "max_pooling3d": max_pooling3d, "average_pooling1d": average_pooling1d,
    "average_pooling2d": average_pooling2d, "average_pooling3d": average_pooling3d,
    "dropout": dropout, "flatten": flatten, "batch_normalization": batch_normalization,
    "conv2d_transpose": conv2d_transpose, "separable_conv2d": separable_conv2d,
    "conv3d_transpose": conv3d_transpose, "separable_conv1d": separable_conv1d,
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
        experimental = types.ModuleType(
            "tensorflow.compat.v1.layers.experimental",
            "TF 1.15's tf.layers.experimental: Keras-style variable management for tf.layers.")
        experimental.keras_style_scope = layer_classes.keras_style_scope
        experimental.set_keras_style = layer_classes.set_keras_style
        for name, fn in {**_FUNCTIONS, **layer_classes.CLASSES,
                         "experimental": experimental}.items():
            setattr(module, name, fn if current is None or not _works(current, name)
                    else getattr(current, name))
        _MODULE.append(module)
    set_attr("tensorflow.compat.v1", "layers", _MODULE[0])
    return _MODULE[0]
