"""`tf.contrib.copy_graph`, served whole: copying variables and ops (with what they depend on)
from one TF1 graph into another, under a scope, as TF 1.15 did.

A copied op keeps its NodeDef (attrs, device) under `<scope>/<name>`, takes the copies of its
inputs and control inputs, and joins `<scope>/<collection>` for each collection its original
was in (the collection's own name when the scope is empty). A copied variable starts at its
original's initialized value (read in a session on the original's graph).
"""
import tensorflow as tf
from tensorflow.python.framework import ops
from tensorflow.python.ops import variables as variables_lib


def _scoped(scope, name):
    return scope + "/" + name if scope != "" else name


def _collections_of(instance, scope, keep=()):
    graph = instance.graph
    out = []
    for name in graph.get_all_collection_keys():
        if any(item is instance for item in graph.get_collection(name)):
            out.append(name if (scope == "" or name in keep) else scope + "/" + name)
    return out


def copy_variable_to_graph(org_instance, to_graph, scope=""):
    """A copy of the variable `org_instance` in `to_graph`, named `<scope>/<its name>`."""
    if not isinstance(org_instance, variables_lib.Variable):
        raise TypeError(str(org_instance) + " is not a Variable")
    new_name = _scoped(scope, org_instance.name[:org_instance.name.index(":")])
    keys = ops.GraphKeys
    collections = _collections_of(org_instance, scope,
                                  keep=(keys.GLOBAL_VARIABLES, keys.TRAINABLE_VARIABLES))
    trainable = any(v is org_instance
                    for v in org_instance.graph.get_collection(keys.TRAINABLE_VARIABLES))
    with org_instance.graph.as_default(), tf.compat.v1.Session() as sess:
        # TF 1.15 ran `initialized_value()`, a v1 cond (in a fresh session, the initial value);
        # a v2 cond would read the uninitialized variable, so the branch is picked here
        ready = sess.run(tf.compat.v1.is_variable_initialized(org_instance))
        init_value = sess.run(org_instance.value() if ready else org_instance.initial_value)
    with to_graph.as_default():
        return tf.compat.v1.Variable(init_value, trainable, name=new_name,
                                     collections=collections, validate_shape=False)


def copy_op_to_graph(org_instance, to_graph, variables, scope=""):
    """The copy in `to_graph` of the op or tensor `org_instance` (copying what it needs first;
    the variables it reads must be among the already copied `variables`)."""
    new_name = _scoped(scope, org_instance.name)
    copied_variables = {v.name: v for v in variables}
    if new_name in copied_variables:
        return to_graph.get_tensor_by_name(copied_variables[new_name].name)
    try:
        return to_graph.as_graph_element(new_name, allow_tensor=True, allow_operation=True)
    except (KeyError, ValueError, TypeError):
        pass
    collections = _collections_of(org_instance, scope)
    if isinstance(org_instance, tf.Tensor):
        new_op = copy_op_to_graph(org_instance.op, to_graph, variables, scope)
        new_tensor = new_op.outputs[org_instance.value_index]
        for collection in collections:
            to_graph.add_to_collection(collection, new_tensor)
        return new_tensor
    if not isinstance(org_instance, tf.Operation):
        raise TypeError("Could not copy instance: " + str(org_instance))
    op = org_instance
    control_inputs = [copy_op_to_graph(x, to_graph, variables, scope) for x in op.control_inputs]
    inputs = [copy_op_to_graph(x, to_graph, variables, scope) for x in op.inputs]
    node_def = op.node_def
    with to_graph.as_default(), ops.control_dependencies(None), \
            ops.control_dependencies(control_inputs), ops.device(node_def.device or None):
        # a name ending in "/" is taken as it is (no scope, no uniquifying)
        new_op = to_graph._create_op_internal(  # pylint: disable=protected-access
            op.type, inputs, [t.dtype for t in op.outputs], name=new_name + "/",
            attrs=dict(node_def.attr), op_def=op.op_def, compute_device=True)
    return new_op


def get_copied_op(org_instance, graph, scope=""):
    """The copy of `org_instance` in `graph` under `scope`."""
    return graph.as_graph_element(_scoped(scope, org_instance.name), allow_tensor=True,
                                  allow_operation=True)


def build():
    from estimator_compat.legacy.namespaces import namespace
    names = dict(copy_op_to_graph=copy_op_to_graph,
                 copy_variable_to_graph=copy_variable_to_graph, get_copied_op=get_copied_op)
    elements = namespace("tensorflow.contrib.copy_graph.python.util.copy_elements",
                         "copy_elements", **names)
    util = namespace("tensorflow.contrib.copy_graph.python.util", "util",
                     copy_elements=elements)
    namespace("tensorflow.contrib.copy_graph.python", "python", util=util)
    return namespace("tensorflow.contrib.copy_graph", __doc__, __served_whole__=True,
                     copy_op_to_graph=copy_op_to_graph,
                     copy_variable_to_graph=copy_variable_to_graph, get_copied_op=get_copied_op)
