"""The per-layer part of `tf.contrib.receptive_field`: each GraphDef node's kernel size, stride
and padding (`get_layer_params`), and the graph's topological order with the feature map sizes
(`get_compute_order`), read from NodeDefs as TF 1.15 read them.

Beyond TF 1.15, a TensorFlow 2 graph's resource variables are understood: a convolution's
weights may come through ReadVariableOp from a VarHandleOp (TF 1.15 knew only `<var>/read` of
a VariableV2 or Const), and those two ops leave the receptive field unchanged.
"""
import collections
import math

import tensorflow as tf

_UNCHANGED_OPS = frozenset([
    "Add", "AddV2", "BiasAdd", "Cast", "Ceil", "ConcatV2", "Const", "Floor", "FusedBatchNorm",
    "Identity", "Log", "Mul", "Pow", "RealDiv", "Relu", "Relu6", "Round", "Rsqrt", "Softplus",
    "Sub", "VariableV2", "LRN", "GreaterEqual",
    "ReadVariableOp", "VarHandleOp"])  # TensorFlow 2's resource variables
_VALID = ("VALID", b"VALID")
_SAME = ("SAME", b"SAME")

NodeInfo = collections.namedtuple("NodeInfo", ["order", "node", "input_size", "output_size"])


def _const_input(node, name_to_node, index, suffix, what):
    name = node.input[index]
    if not name.endswith(suffix):
        raise ValueError(f"{what} name does not end with '{suffix}'")
    return tf.make_ndarray(name_to_node[name].attr["value"].tensor)


def _strides(node, name_to_node):
    if node.op == "MaxPoolV2":
        t = _const_input(node, name_to_node, 2, "/strides", "Strides")
        return t[2], t[1]
    strides = node.attr["strides"].list.i
    return strides[2], strides[1]


def _weights_node(node, name_to_node):
    read = node.input[1]
    if read.endswith("/read"):
        return read[:-5], name_to_node[read[:-5]]
    source = name_to_node.get(read.split(":")[0])
    if source is not None and source.op == "ReadVariableOp":
        handle = source.input[0].split(":")[0]
        return handle, name_to_node[handle]
    raise ValueError("Weight layer's name input to conv layer does not end with '/read'")


def _conv_kernel(node, name_to_node):
    name, weights = _weights_node(node, name_to_node)
    if weights.op in ("VariableV2", "VarHandleOp"):
        dims = weights.attr["shape"].shape.dim
    elif weights.op == "Const":
        dims = weights.attr["value"].tensor.tensor_shape.dim
    else:
        raise ValueError(f"Weight layer {name} is not of type VariableV2 or Const: "
                         f"{weights.op}")
    if len(dims) != 4:
        raise ValueError(f"Weight layer {name} does not have rank 4. Instead, it has: "
                         f"{len(dims)}")
    return dims[1].size, dims[0].size


def _pool_kernel(node, name_to_node):
    if node.op == "MaxPoolV2":
        ksize = _const_input(node, name_to_node, 1, "/ksize", "Kernel size")
    else:
        ksize = node.attr["ksize"].list.i
    if ksize[0] != 1:
        raise ValueError("pool ksize for first dim is not 1")
    if ksize[3] != 1:
        raise ValueError("pool ksize for last dim is not 1")
    return ksize[2], ksize[1]


def _conv_padding(node, kernel, stride, resolution=None):
    """(total padding, padding before) of SAME / VALID; SAME's depends on the input size,
    unknown (None) when that is unknown and the stride does not settle it."""
    padding = node.attr["padding"].s
    if padding in _VALID:
        return 0, 0
    if padding not in _SAME:
        raise ValueError("Invalid padding operation %s" % padding)
    if resolution is not None:
        remainder = resolution % stride
        total = int(max(float(kernel - (stride if remainder == 0 else remainder)), 0.0))
        return total, total // 2
    if kernel == 1:
        return 0, 0
    if stride == 1:
        return kernel - 1, (kernel - 1) // 2
    if stride == 2 and kernel % 2 == 0:
        return None, (kernel - 1) // 2
    tf.compat.v1.logging.warning(
        "Padding depends on input size, which means that the effective padding may be "
        "different depending on the input image dimensionality. In this case, alignment check "
        "will be skipped. If you know the input resolution, please set it.")
    return None, None


def _pad_layer(node, name_to_node):
    name = node.input[1]
    if not name.endswith("/paddings"):
        raise ValueError("Padding layer name does not end with '/paddings'")
    paddings = name_to_node[name]
    if paddings.op != "Const":
        raise ValueError("Padding op is not Const")
    t = tf.make_ndarray(paddings.attr["value"].tensor)
    if t[0][0] != 0 or t[0][1] != 0:
        raise ValueError("padding is not zero for first tensor dim")
    if t[3][0] != 0 or t[3][1] != 0:
        raise ValueError("padding is not zero for last tensor dim")
    return t[2][0] + t[2][1], t[2][0], t[1][0] + t[1][1], t[1][0]


def get_layer_params(node, name_to_node, input_resolution=None, force=False):
    """(kernel_x, kernel_y, stride_x, stride_y, padding_x, padding_y, total_padding_x,
    total_padding_y) of a node; an unknown op raises ValueError, or gives Nones if `force`."""
    height = input_resolution[0] if input_resolution is not None else None
    width = input_resolution[1] if input_resolution is not None else None
    if node.op in ("Conv2D", "DepthwiseConv2dNative", "MaxPool", "MaxPoolV2", "AvgPool"):
        stride_x, stride_y = _strides(node, name_to_node)
        kernel = _pool_kernel if "Pool" in node.op else _conv_kernel
        kernel_x, kernel_y = kernel(node, name_to_node)
        total_x, padding_x = _conv_padding(node, kernel_x, stride_x, width)
        total_y, padding_y = _conv_padding(node, kernel_y, stride_y, height)
    elif node.op == "Pad":
        kernel_x = kernel_y = stride_x = stride_y = 1
        total_x, padding_x, total_y, padding_y = _pad_layer(node, name_to_node)
    elif node.op in _UNCHANGED_OPS:
        kernel_x = kernel_y = stride_x = stride_y = 1
        total_x = padding_x = total_y = padding_y = 0
    elif force:
        return (None,) * 8
    else:
        raise ValueError("Unknown layer for operation '%s': %s" % (node.name, node.op))
    return (kernel_x, kernel_y, stride_x, stride_y, padding_x, padding_y, total_x, total_y)


def _output_size(size, kernel, stride, total_padding):
    if None in (size, kernel, stride, total_padding):
        return None
    return int(math.ceil((size + total_padding - kernel + 1) / stride))


def _visit(name_to_node, current, info, input_name, input_size):
    """(order, input size, output size) of `current`, its inputs visited first (depth-first,
    so `info` fills in TF 1.15's order)."""
    if current in info:
        return info[current].order, info[current].input_size, info[current].output_size
    node = name_to_node[current]
    if current == input_name:
        info[current] = NodeInfo(0, node, None, input_size)
        return 0, None, input_size
    order, size, first = 0, None, True
    for name in node.input:
        if name.startswith("^"):
            continue
        parent_order, _, parent_size = _visit(name_to_node, name.split(":")[0], info,
                                              input_name, input_size)
        order = max(order, parent_order + 1)
        if first:
            size, first = parent_size, False
    output = None
    if size is not None:
        kx, ky, sx, sy, _, _, tx, ty = get_layer_params(node, name_to_node, size, force=True)
        output = [_output_size(size[0], kx, sx, tx), _output_size(size[1], ky, sy, ty)]
    info[current] = NodeInfo(order, node, size, output)
    return order, size, output


def get_compute_order(graph_def, input_node_name="", input_node_size=None):
    """(node_info, name_to_node): each node's NodeInfo(order, node, input_size, output_size)
    (sizes [x, y] from `input_node_size` at `input_node_name`, None where unknown), and the
    NodeDefs by name."""
    name_to_node = {node.name: node for node in graph_def.node}
    info = collections.defaultdict(NodeInfo)
    for node in graph_def.node:
        _visit(name_to_node, node.name, info, input_node_name, input_node_size)
    return info, name_to_node
