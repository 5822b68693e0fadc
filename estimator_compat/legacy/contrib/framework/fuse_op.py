"""tf.contrib.framework's `fuse_op`: a GraphDef rewrite (no kernel involved) that replaces the
sub-graph between `input_nodes` and `output_nodes` by one node of a custom op type.

The result lists, in this order: every node the inputs depend on (inputs included, in the
original order); the new node (`op_name`, of `op_type`, fed by the inputs, with attrs
`_output_types` and `_output_quantized`); a copy of each output node (each must have exactly one
input) fed by the new node's i-th output; then the nodes neither on the way to an output nor
before an input. The nodes strictly between inputs and outputs are dropped.
"""
import copy

from tensorflow.core.framework import graph_pb2, node_def_pb2


def _node(name):
    """The node name of an input string ("^ctrl", "x:1" -> "ctrl", "x")."""
    return name.lstrip("^").split(":")[0]


def _ancestors(starts, inputs_of):
    """`starts` and every node they depend on."""
    seen, todo = set(), list(starts)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(inputs_of.get(name, ()))
    return seen


def _check_fused(name, inputs_of, before_inputs, input_set):
    """A node to be fused may reach what precedes the inputs only through an input node."""
    seen, todo = set(), [name]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        if current in input_set:
            continue
        if current in before_inputs:
            raise TypeError(f"Node {name} uses input {current} not in input_nodes.")
        todo.extend(inputs_of.get(current, ()))


def fuse_op(graph_def, input_nodes, output_nodes, output_dtypes, output_quantized, op_name,
            op_type):
    """A copy of `graph_def` with the sub-graph from `input_nodes` to `output_nodes` fused into
    one `op_type` node named `op_name` (output dtypes: `output_dtypes`, DataType enums)."""
    if not isinstance(graph_def, graph_pb2.GraphDef):
        raise TypeError("graph_def must be a graph_pb2.GraphDef proto.")
    if isinstance(input_nodes, str):
        raise TypeError("input_nodes must be a list.")
    if isinstance(output_nodes, str):
        raise TypeError("output_nodes must be a list.")
    by_name = {_node(n.name): n for n in graph_def.node}
    for name in list(input_nodes) + list(output_nodes):
        if name not in by_name:
            raise AssertionError(f"{name} is not in graph")
    inputs_of = {name: [_node(i) for i in n.input] for name, n in by_name.items()}
    before_inputs = _ancestors(input_nodes, inputs_of)
    before_outputs = _ancestors(output_nodes, inputs_of)
    input_set, output_set = set(input_nodes), set(output_nodes)
    after = []
    for node in graph_def.node:
        name = _node(node.name)
        if name in before_outputs:
            if name not in before_inputs and name not in output_set:
                _check_fused(name, inputs_of, before_inputs, input_set)
        elif name not in before_inputs:
            after.append(node)

    out = graph_pb2.GraphDef()
    out.node.extend(copy.deepcopy(n) for n in graph_def.node if _node(n.name) in before_inputs)
    fused = node_def_pb2.NodeDef(name=op_name, op=op_type, input=list(input_nodes))
    if not all(isinstance(t, int) for t in output_dtypes):
        raise TypeError("fuse_op: output_dtypes must be DataType enums, e.g. "
                        f"tf.float32.as_datatype_enum, got {list(output_dtypes)!r}")
    fused.attr["_output_types"].list.type[:] = list(output_dtypes)
    fused.attr["_output_quantized"].b = bool(output_quantized)
    out.node.append(fused)
    for index, name in enumerate(output_nodes):
        node = by_name[name]
        if len(node.input) != 1:
            raise AssertionError(f"fuse_op: output node {name} must have exactly one input, has "
                                 f"{len(node.input)}")
        copied = copy.deepcopy(node)
        del copied.input[:]
        copied.input.append(op_name if index == 0 else f"{op_name}:{index}")
        out.node.append(copied)
    out.node.extend(copy.deepcopy(n) for n in after)
    out.library.CopyFrom(graph_def.library)
    out.versions.CopyFrom(graph_def.versions)
    return out


NAMES = {"fuse_op": fuse_op}
