"""The default handlers a `Transformer` calls (each replaceable by the user's own): how an op is
copied, what an input tensor of the subgraph becomes, which collections a copy joins, and what
an original op or control input becomes."""
import copy as copy_lib

from tensorflow.python.framework import ops as ops_lib

from estimator_compat.legacy.contrib.graph_editor_parts.placeholders import (
    get_predefined_collection_names, make_placeholder_from_tensor)


def replace_t_with_placeholder_handler(info, t):
    """A placeholder like `t` in the destination graph, under the destination scope."""
    with info.graph_.as_default():
        return make_placeholder_from_tensor(t, scope=info.scope_)


def keep_t_if_possible_handler(info, t):
    """`t` itself when copying within its own graph, else a placeholder like it."""
    if info.graph is info.graph_:
        return t
    return replace_t_with_placeholder_handler(info, t)


def assign_renamed_collections_handler(info, elem, elem_):
    """Add the copy `elem_` to each collection `elem` is in: TF's own collections (GraphKeys)
    by their name, the user's under the destination scope."""
    known = get_predefined_collection_names()
    for name, members in info.collections.items():
        if elem not in members:
            continue
        info.graph_.add_to_collection(name if name in known else info.new_name(name), elem_)


def transform_op_if_inside_handler(info, op, keep_if_possible=True):
    """The copy of `op` if it is in the subgraph; else `op` itself when copying within its own
    graph (and `keep_if_possible`), else None."""
    if op in info.sgv.ops:
        return info.transformed_ops[op]
    if keep_if_possible and info.graph is info.graph_:
        return op
    return None


def _functions_called(node_def):
    names = []
    for value in node_def.attr.values():
        if value.HasField("func"):
            names.append(value.func.name)
        names += [f.name for f in value.list.func]
    return names


def _bring_functions(node_def, src, dst):
    """Give `dst` the source graph's function library where the op calls a function `dst`
    lacks: TensorFlow 2's tf.cond / tf.while_loop are ops calling functions (TF 1.15's were
    Switch / Merge / Enter ops, copied as such), their bodies kept in the graph's library."""
    # pylint: disable=protected-access
    if src is dst or all(dst._is_function(name) for name in _functions_called(node_def)):
        return
    for name, function in list(src._functions.items()):
        if not dst._is_function(name):
            dst._add_function_recursive(function)
    # pylint: enable=protected-access


def copy_op_handler(info, op, new_inputs, copy_shape=False, nodedef_fn=None):
    """A copy of `op` in the destination graph reading `new_inputs`, named under the destination
    scope (made unique), its NodeDef passed through `nodedef_fn` if given; (op_, op_.outputs)."""
    if isinstance(new_inputs, bool):
        raise TypeError("the `new_inputs` argument must be an iterable.")
    node_def = copy_lib.deepcopy(op.node_def)
    node_def.name = info.graph_.unique_name(info.new_name(op.name))
    if nodedef_fn is not None:
        node_def = nodedef_fn(node_def)
    _bring_functions(node_def, info.graph, info.graph_)
    # pylint: disable=protected-access
    op_ = ops_lib.Operation.from_node_def(
        node_def, info.graph_, list(new_inputs), list(op._output_types), [],
        list(op._input_types), None, copy_lib.deepcopy(op.op_def))
    if copy_shape:
        for t, t_ in zip(op.outputs, op_.outputs):
            t_.set_shape(t.get_shape())
    # kept for now, made the copy's own once every op is copied (Transformer's last pass)
    if op._original_op:
        op_._original_op = op._original_op
    # pylint: enable=protected-access
    return op_, op_.outputs
