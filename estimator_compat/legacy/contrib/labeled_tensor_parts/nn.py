"""`lt.nn`: neural-network ops on LabeledTensors (the cross entropies take logits first, the
TF 1.0 argument order, as TF 1.15's did)."""
import tensorflow as tf

from estimator_compat.legacy.contrib import nn as contrib_nn
from estimator_compat.legacy.contrib.labeled_tensor_parts import core

_nn = tf.nn
UNARY = {"relu": _nn.relu, "relu6": _nn.relu6, "crelu": _nn.crelu, "elu": _nn.elu,
         "softplus": _nn.softplus, "l2_loss": _nn.l2_loss, "softmax": _nn.softmax,
         "log_softmax": _nn.log_softmax}
BINARY = {
    "sigmoid_cross_entropy_with_logits":
        contrib_nn.deprecated_flipped_sigmoid_cross_entropy_with_logits,
    "softmax_cross_entropy_with_logits":
        contrib_nn.deprecated_flipped_softmax_cross_entropy_with_logits,
    "sparse_softmax_cross_entropy_with_logits":
        contrib_nn.deprecated_flipped_sparse_softmax_cross_entropy_with_logits}


def names():
    """{name: op} of lt.nn."""
    ops = {n: core.define_unary_op(n, f) for n, f in UNARY.items()}
    ops.update({n: core.define_binary_op(n, f) for n, f in BINARY.items()})
    return ops
