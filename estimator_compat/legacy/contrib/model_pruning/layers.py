"""`masked_conv2d` (`masked_convolution`) and `masked_fully_connected`: contrib.layers' conv2d
and fully_connected whose kernel is `mask * weights`, as TF 1.15's model_pruning made them.

Each layer's model variables are, in its scope (`Conv`, `fully_connected` by default), as
TF 1.15 created them: `mask`, `weights`, `threshold`, `biases` (convolution) or `weights`,
`mask`, `threshold`, `biases` (fully connected); its `weights/masked_weight` product is what
the layer uses, and every call adds mask, threshold, product and weights to the pruning
collections. A weights regularizer's loss is named `<scope>/kernel/Regularizer/...`.
"""
import importlib

import tensorflow as tf

from estimator_compat.legacy.contrib.model_pruning import pruning
from estimator_compat.legacy.contrib.tf_slim_loader import tf_slim

v1 = tf.compat.v1


def _slim():
    """tf_slim's layer utils and variable helpers (TF 1.15's contrib ones)."""
    tf_slim()
    return (importlib.import_module("tf_slim.layers.utils"),
            importlib.import_module("tf_slim.ops.variables"),
            importlib.import_module("tf_slim.ops.arg_scope"))


def _variable(name, shape, dtype, initializer, trainable, regularizer=None, loss_name=None):
    """A model variable `name` in the current scope; a regularizer's loss (for a variable
    made here, not reused) under the name scope `<loss_name>/Regularizer`."""
    _, variables, _ = _slim()
    full_name = v1.get_variable_scope().name + "/" + name
    existed = any(v.op.name == full_name for v in v1.global_variables())
    var = variables.model_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                                   trainable=trainable)
    if regularizer is not None and not existed:
        with tf.name_scope(loss_name + "/Regularizer"):
            loss = regularizer(var)
        if loss is not None:
            v1.add_to_collection(v1.GraphKeys.REGULARIZATION_LOSSES, loss)
    return var


def _mask_and_threshold(kernel, mask, dtype):
    threshold = _variable("threshold", [], dtype, v1.zeros_initializer(), False)
    masked = tf.multiply(mask, kernel, pruning.MASKED_WEIGHT_NAME)
    # as TF 1.15's masked layers: added on every call (a reused layer's twice)
    v1.add_to_collection(pruning.MASK_COLLECTION, mask)
    v1.add_to_collection(pruning.MASKED_WEIGHT_COLLECTION, masked)
    v1.add_to_collection(pruning.THRESHOLD_COLLECTION, threshold)
    v1.add_to_collection(pruning.WEIGHT_COLLECTION, kernel)
    return masked


def _collect(variable, collections_set, collections_name):
    utils, _, _ = _slim()
    for collection in utils.get_variable_collections(collections_set, collections_name) or []:
        if not any(v is variable for v in v1.get_collection(collection)):
            v1.add_to_collection(collection, variable)


def _finish(outputs, bias, normalizer_fn, normalizer_params, activation_fn,
            outputs_collections, sc, data_format="NHWC"):
    utils, _, _ = _slim()
    if bias is not None:
        outputs = tf.nn.bias_add(outputs, bias, data_format=data_format)
    if normalizer_fn is not None:
        outputs = normalizer_fn(outputs, **(normalizer_params or {}))
    if activation_fn is not None:
        outputs = activation_fn(outputs)
    return utils.collect_named_outputs(outputs_collections, sc.original_name_scope, outputs)


def _pair(value, name):
    if isinstance(value, int):
        return (value, value)
    value = tuple(value)
    if len(value) != 2:
        raise ValueError(f"The `{name}` argument must be a tuple of 2 integers. "
                         f"Received: {value}")
    return value


def masked_convolution(inputs, num_outputs, kernel_size, stride=1, padding="SAME",
                       data_format=None, rate=1, activation_fn=tf.nn.relu, normalizer_fn=None,
                       normalizer_params=None, weights_initializer=None,
                       weights_regularizer=None, biases_initializer=v1.zeros_initializer(),
                       biases_regularizer=None, reuse=None, variables_collections=None,
                       outputs_collections=None, trainable=True, scope=None):
    """A 2-D convolution (4-D inputs only, NHWC or NCHW) with a masked kernel, then
    `normalizer_fn` (else biases) and `activation_fn`."""
    if data_format not in (None, "NWC", "NCW", "NHWC", "NCHW", "NDHWC", "NCDHW"):
        raise ValueError("Invalid data_format: %r" % (data_format,))
    with v1.variable_scope(scope, "Conv", [inputs], reuse=reuse) as sc:
        inputs = tf.convert_to_tensor(inputs)
        rank = inputs.get_shape().ndims
        if rank != 4:
            raise ValueError("Sparse Convolution not supported for input with rank", rank)
        if data_format not in (None, "NHWC", "NCHW"):
            raise ValueError("Unsupported data format", data_format)
        channels_first = data_format == "NCHW"
        dtype = inputs.dtype.base_dtype
        channels = inputs.get_shape()[1 if channels_first else -1]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. "
                             "Found `None`.")
        shape = list(_pair(kernel_size, "kernel_size")) + [int(channels), num_outputs]
        mask = _variable("mask", shape, dtype, v1.ones_initializer(), False)
        kernel = _variable("weights", shape, dtype, weights_initializer or _xavier(), trainable,
                           weights_regularizer, "kernel")
        masked = _mask_and_threshold(kernel, mask, dtype)
        use_bias = not normalizer_fn and biases_initializer
        bias = _variable("biases", [num_outputs], dtype, biases_initializer, trainable,
                         biases_regularizer, "bias") if use_bias else None
        outputs = v1.nn.convolution(
            inputs, masked, padding.upper(), strides=_pair(stride, "strides"),
            dilation_rate=_pair(rate, "dilation_rate"),
            data_format="NCHW" if channels_first else "NHWC")
        _collect(kernel, variables_collections, "weights")
        if bias is not None:
            _collect(bias, variables_collections, "biases")
        return _finish(outputs, bias, normalizer_fn, normalizer_params, activation_fn,
                       outputs_collections, sc, "NCHW" if channels_first else "NHWC")


masked_convolution = _slim()[2].add_arg_scope(masked_convolution)
masked_conv2d = masked_convolution


def masked_fully_connected(inputs, num_outputs, activation_fn=tf.nn.relu, normalizer_fn=None,
                           normalizer_params=None, weights_initializer=None,
                           weights_regularizer=None, biases_initializer=v1.zeros_initializer(),
                           biases_regularizer=None, reuse=None, variables_collections=None,
                           outputs_collections=None, trainable=True, scope=None):
    """A fully connected layer with a masked weight matrix (inputs of rank > 2 contracted on
    their last axis), then `normalizer_fn` (else biases) and `activation_fn`."""
    if not isinstance(num_outputs, int):
        raise ValueError("num_outputs should be int or long, got %s." % (num_outputs,))
    with v1.variable_scope(scope, "fully_connected", [inputs], reuse=reuse) as sc:
        inputs = tf.convert_to_tensor(inputs)
        dtype = inputs.dtype.base_dtype
        shape = inputs.get_shape().with_rank_at_least(2).as_list()
        if shape[-1] is None:
            raise ValueError("The last dimension of the inputs to `Dense` should be defined. "
                             "Found `None`.")
        kernel = _variable("weights", [shape[-1], num_outputs], dtype,
                           weights_initializer or _xavier(), trainable, weights_regularizer,
                           "kernel")
        mask = _variable("mask", [shape[-1], num_outputs], dtype, v1.ones_initializer(), False)
        masked = _mask_and_threshold(kernel, mask, dtype)
        use_bias = not normalizer_fn and biases_initializer
        bias = _variable("biases", [num_outputs], dtype, biases_initializer, trainable,
                         biases_regularizer, "bias") if use_bias else None
        if len(shape) > 2:
            outputs = tf.tensordot(inputs, masked, [[len(shape) - 1], [0]])
            outputs.set_shape(shape[:-1] + [num_outputs])
        else:
            outputs = tf.matmul(inputs, masked)
        _collect(kernel, variables_collections, "weights")
        if bias is not None:
            _collect(bias, variables_collections, "biases")
        return _finish(outputs, bias, normalizer_fn, normalizer_params, activation_fn,
                       outputs_collections, sc)


masked_fully_connected = _slim()[2].add_arg_scope(masked_fully_connected)


def _xavier():
    """contrib.layers' default weights initializer (Glorot uniform)."""
    return v1.glorot_uniform_initializer()
