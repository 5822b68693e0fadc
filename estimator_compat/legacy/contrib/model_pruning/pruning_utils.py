"""The pruning helpers of TF 1.15's `model_pruning.python.pruning_utils`: the `mask` (ones) and
`threshold` (zero) variables beside a weight, block expansion and pooling for block pruning,
and the assign ops (split per part for a partitioned weight)."""
import numpy as np
import tensorflow as tf

v1 = tf.compat.v1


def weight_mask_variable(var, scope):
    """`<scope>/mask`: ones of `var`'s shape and dtype, not trainable."""
    with v1.variable_scope(scope):
        return v1.get_variable("mask", var.get_shape(), initializer=v1.ones_initializer(),
                               trainable=False, dtype=var.dtype)


def weight_threshold_variable(var, scope):
    """`<scope>/threshold`: a scalar zero of `var`'s dtype, not trainable."""
    with v1.variable_scope(scope):
        return v1.get_variable("threshold", [], initializer=v1.zeros_initializer(),
                               trainable=False, dtype=var.dtype)


def kronecker_product(mat1, mat2):
    """The Kronecker product of the matrices `mat1` (m x n) and `mat2` (p x q): mp x nq."""
    m1, n1 = mat1.get_shape().as_list()
    m2, n2 = mat2.get_shape().as_list()
    product = tf.reshape(mat1, [m1, 1, n1, 1]) * tf.reshape(mat2, [1, m2, 1, n2])
    return tf.reshape(product, [m1 * m2, n1 * n2])


def expand_tensor(tensor, block_dims):
    """Each value of the 2-D `tensor` repeated over a block of `block_dims` (its Kronecker
    product with ones of that shape)."""
    if tensor.get_shape().ndims != 2:
        raise ValueError("Input tensor must be rank 2")
    if len(block_dims) != 2:
        raise ValueError("block_dims must have 2 elements")
    block_height, block_width = block_dims
    expanded = tensor
    if block_height > 1:
        expanded = tf.repeat(expanded, block_height, axis=0)
    if block_width > 1:
        expanded = tf.repeat(expanded, block_width, axis=1)
    return expanded


def factorized_pool(input_tensor, window_shape, pooling_type, strides, padding, name=None):
    """m x n pooling of a 2-D tensor as a pooling over rows then one over columns (what TPUs
    ran for block pruning)."""
    if input_tensor.get_shape().ndims != 2:
        raise ValueError("factorized_pool() accepts tensors of rank 2 only")
    height, width = input_tensor.get_shape()
    with tf.name_scope(name or "factorized_pool"):
        aligned = tf.reshape(input_tensor, [1, 1, height, width],
                             name=input_tensor.op.name + "_aligned")
        rows = v1.nn.pool(aligned, window_shape=[1, window_shape[0]], pooling_type=pooling_type,
                          strides=[1, strides[0]], padding=padding)
        cols = v1.nn.pool(tf.transpose(rows, [0, 1, 3, 2]), window_shape=[1, window_shape[1]],
                          pooling_type=pooling_type, strides=[1, strides[1]], padding=padding)
    return tf.squeeze(tf.transpose(cols, [0, 1, 3, 2]), axis=[0, 1])


def determine_partitioned_axis(partitioned_variable):
    """The one axis along which `partitioned_variable` is split."""
    axis = 0
    whole = partitioned_variable.get_shape()
    for part in partitioned_variable:
        smaller = np.less(part.get_shape(), whole)
        if np.count_nonzero(smaller) != 1:
            raise ValueError("Number of partitioned axes %s not equal to 1"
                             % np.count_nonzero(smaller))
        axis = np.where(smaller)[0][0]
    return axis


def variable_assign(var, new_value):
    return v1.assign(var, new_value, name=var.op.name + "_assign")


def partitioned_variable_assign(partitioned_var, new_value):
    """`new_value` split along the partitioned axis and assigned part by part (one group op)."""
    axis = 0 if len(partitioned_var) == 1 else determine_partitioned_axis(partitioned_var)
    sizes = np.array([part.get_shape()[axis] for part in partitioned_var])
    values = tf.split(new_value, tf.convert_to_tensor(sizes, dtype=tf.int32), axis=axis)
    return tf.group(*[variable_assign(part, value) for part, value in zip(partitioned_var, values)],
                    name=partitioned_var.name + "_group_assign")
