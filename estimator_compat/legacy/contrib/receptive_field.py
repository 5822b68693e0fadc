"""`tf.contrib.receptive_field`, served whole: a CNN's receptive field size, effective stride
and effective padding between two nodes of a GraphDef, walked back from the output in reverse
topological order (layers: `receptive_field_layers`), as TF 1.15 computed them.

Going back through a layer of kernel k, stride s and padding p: size' = s size + k - s,
stride' = s stride, padding' = s padding + p. Paths that meet must agree on the stride and on
the centre shift (size - 1) / 2 - padding, else the graph is "not aligned" (ValueError).
"""
import numpy as np
import tensorflow as tf

from estimator_compat.legacy.contrib import receptive_field_layers as _layers
from estimator_compat.legacy.namespaces import namespace

get_compute_order = _layers.get_compute_order
_DIRECTIONS = ("horizontal", "vertical")


class ReceptiveField(object):
    """Receptive field size, effective stride and effective padding (arrays over x, y)."""

    def __init__(self, size, stride, padding):
        self.size = np.asarray(size)
        self.stride = np.asarray(stride)
        self.padding = np.asarray(padding)

    def _axis(self, coordinates, axis, what):
        axis = list(range(self.size.size) if axis is None else axis)
        coordinates = np.asarray(coordinates)
        if coordinates.shape[-1] != len(axis):
            raise ValueError("Dimensionality of the %s (%d) does not match dimensionality of "
                             "`axis` (%d)" % (what, coordinates.shape[-1], len(axis)))
        return coordinates, axis

    def compute_input_center_coordinates(self, y, axis=None):
        """The input centre of the receptive field of features at coordinates `y`."""
        y, axis = self._axis(y, axis, "feature coordinates `y`")
        return -self.padding[axis] + y * self.stride[axis] + (self.size[axis] - 1) / 2

    def compute_feature_coordinates(self, x, axis=None):
        """The feature coordinates whose receptive field is centred at input `x`."""
        x, axis = self._axis(x, axis, "input center coordinates `x`")
        return (x + self.padding[axis] + (1 - self.size[axis]) / 2) / self.stride[axis]

    def __iter__(self):
        return iter(np.concatenate([self.size, self.stride, self.padding]))


def _check_aligned(seen, new):
    """seen / new: [x, y] of (size, stride, padding) of one input from two paths."""
    for (size, stride, _), (_, new_stride, _), direction in zip(seen, new, _DIRECTIONS):
        if stride != new_stride:
            raise ValueError("Graph is not aligned since effective stride from different "
                             "paths is different in %s direction" % direction)
    for (size, _, padding), (new_size, _, new_padding), direction in zip(seen, new,
                                                                        _DIRECTIONS):
        if (size - 1) / 2 - padding != (new_size - 1) / 2 - new_padding:
            raise ValueError("Graph is not aligned since center shift from different paths "
                             "is different in %s direction" % direction)


def parse_graph_nodes(graph_def):
    """{name: NodeDef} of a GraphDef."""
    return {node.name: node for node in graph_def.node}


def compute_receptive_field_from_graph_def(graph_def, input_node, output_node,
                                           stop_propagation=None, input_resolution=None):
    """ReceptiveField((size_x, size_y), (stride_x, stride_y), (padding_x, padding_y)) of
    `output_node` on `input_node` (names or Tensors; `graph_def` a GraphDef or Graph);
    propagation stops at inputs whose names start with an entry of `stop_propagation`."""
    if isinstance(graph_def, tf.Graph):
        graph_def = graph_def.as_graph_def()
    if isinstance(input_node, tf.Tensor):
        input_node = input_node.op.name
    if isinstance(output_node, tf.Tensor):
        output_node = output_node.op.name
    stop_propagation = stop_propagation or []
    info, name_to_node = get_compute_order(graph_def, input_node, input_resolution)
    # per node: [x, y], each [size, stride, padding] at that node's output
    fields = {output_node: [[1, 1, 0], [1, 1, 0]]}
    found_output = undefined_padding = False
    for _, (_, node, _, _) in sorted(info.items(), key=lambda item: -item[1].order):
        if not node:
            continue
        if node.name == input_node:
            break
        found_output = found_output or node.name == output_node
        if not found_output or node.name not in fields:
            continue
        kx, ky, sx, sy, px, py, _, _ = _layers.get_layer_params(
            node, name_to_node, info[node.name].input_size)
        undefined_padding = undefined_padding or px is None or py is None
        new = []
        for (size, stride, padding), k, s, p in zip(fields[node.name], (kx, ky), (sx, sy),
                                                    (px, py)):
            new.append([s * size + k - s, s * stride,
                        None if undefined_padding else s * padding + p])
        for name in node.input:
            if any(name.startswith(stop) for stop in stop_propagation) or name.startswith("^"):
                continue
            name_to_node[name]  # noqa: B018 - an unknown input is a KeyError, as in TF 1.15
            if name not in fields:
                fields[name] = [list(new[0]), list(new[1])]
                continue
            if not undefined_padding:
                _check_aligned(fields[name], new)
            for seen, field in zip(fields[name], new):
                if seen[0] < field[0]:
                    seen[:] = field
    if not found_output:
        raise ValueError("Output node was not found")
    if input_node not in fields:
        raise ValueError("Input node was not found")
    (size_x, stride_x, pad_x), (size_y, stride_y, pad_y) = fields[input_node]
    return ReceptiveField((size_x, size_y), (stride_x, stride_y), (pad_x, pad_y))


def build():
    util = "tensorflow.contrib.receptive_field.python.util"
    modules = dict(
        graph_compute_order=namespace(util + ".graph_compute_order", "compute order",
                                      get_compute_order=get_compute_order,
                                      parse_graph_nodes=parse_graph_nodes),
        parse_layer_parameters=namespace(util + ".parse_layer_parameters", "layer parameters",
                                         get_layer_params=_layers.get_layer_params),
        receptive_field=namespace(
            util + ".receptive_field", "receptive fields", ReceptiveField=ReceptiveField,
            compute_receptive_field_from_graph_def=compute_receptive_field_from_graph_def))
    # registered for deep imports; TF 1.15's package did not keep a `python` attribute
    namespace("tensorflow.contrib.receptive_field.python", "contrib.receptive_field",
              util=namespace(util, "contrib.receptive_field's util", **modules))
    return namespace("tensorflow.contrib.receptive_field", "tf.contrib.receptive_field",
                     __served_whole__=True, get_compute_order=get_compute_order,
                     compute_receptive_field_from_graph_def=compute_receptive_field_from_graph_def)
