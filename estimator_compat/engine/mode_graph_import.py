"""One mode's MetaGraph of a SavedModel imported into a model_fn's traced step.

`SavedModelEstimator` (tf.contrib.estimator, tensorflow_estimator's
`canned.saved_model_estimator`) runs the `train`, `eval` or `serve` MetaGraph that
`experimental_export_all_saved_models` wrote as its model_fn. TF1 imported the whole MetaGraph
into the mode's graph, and a session ran only what it fetched. A model_fn here is traced into a
`tf.function`, which runs every stateful op it holds at every step, so `import_mode_graph`
imports only the sub-graph the fetches (the signature's outputs, the train op) need: no
initializers, Saver ops or main op. Unlike `imported_variables` (a hub module's graph, whose
writes other than UPDATE_OPS are left out) the imported train op and the metrics' update ops
keep their writes:

- each variable the sub-graph uses (its VariableDef in the MetaGraph's collections) is made once
  in the variable store under its graph name (`w`, `global_step`: the checkpoint names; the
  store's own `global_step` is the one the train op increments); metric variables are local;
- a resource variable's node becomes an Identity of the store variable's handle. A reference
  variable's (TF 1.15 and tf.estimator 2.15 in graph mode wrote those) too, and its ops are
  rewritten to their resource forms: a read to `ReadVariableOp`, `Assign` / `AssignAdd` /
  `AssignSub` to `Assign*VariableOp`, `ApplyX` / `SparseApplyX` / `ScatterX` to `ResourceApplyX`
  / `ResourceSparseApplyX` / `ResourceScatterX`, and a consumer of a write's output (a metric's
  `update_op` is `AssignAdd`'s new value) reads the variable after the write;
- the store starts the variables from `checkpoint` (the SavedModel's `variables/variables`)
  where model_dir has no checkpoint of its own (`init_from_checkpoint`, as the store applies
  it).

A TF1 graph (the `.meta` beside each checkpoint, an export's TF1 graph) is not served: the error
says so and those callers go without (`_not_in_a_tf1_graph`).
"""
import tensorflow as tf
from tensorflow.core.framework import attr_value_pb2, graph_pb2
from tensorflow.python.framework import op_def_registry

from estimator_compat.engine import imported_variables

_GraphKeys = tf.compat.v1.GraphKeys
_VARIABLE_OPS = ("VariableV2", "Variable", "VarHandleOp")
_PLACEHOLDERS = ("Placeholder", "PlaceholderV2")
_RESOURCE_FORMS = {"Assign": "AssignVariableOp", "AssignAdd": "AssignAddVariableOp",
                   "AssignSub": "AssignSubVariableOp"}
_TABLE_OPS = ("HashTable", "HashTableV2", "MutableHashTable", "MutableHashTableV2",
              "MutableHashTableOfTensors", "MutableHashTableOfTensorsV2",
              "MutableDenseHashTable", "MutableDenseHashTableV2")


def import_mode_graph(meta, input_map, fetches, checkpoint=None, what="the SavedModel"):
    """Imports what `fetches` (tensor or op names of `meta`'s graph) need, `input_map` ({tensor
    name: tensor}) feeding the signature's inputs; returns the imported fetches in order."""
    graph = tf.compat.v1.get_default_graph()
    if not graph.building_function:
        _not_in_a_tf1_graph()
    store = getattr(graph, "_estimator_compat_store", None)  # (VariableStore.trace_scope)
    if store is None:
        raise RuntimeError(f"{what}: its MetaGraph can only be imported in an Estimator's "
                           "model_fn (the SavedModelEstimator's own).")
    input_map = {_tensor_name(k): v for k, v in input_map.items()}
    nodes = {n.name: n for n in meta.graph_def.node}
    found = imported_variables._variable_defs(meta)
    needed = _needed(nodes, fetches, input_map, what)
    sub = graph_pb2.GraphDef()
    sub.versions.CopyFrom(meta.graph_def.versions)
    sub.library.CopyFrom(meta.graph_def.library)
    sub.node.extend(n for n in meta.graph_def.node if n.name in needed)
    sub_nodes = {n.name: n for n in sub.node}
    adopted = {}
    for name in sorted(needed):
        node = sub_nodes[name]
        if node.op in _TABLE_OPS:
            raise ValueError(f"{what}: its graph uses lookup table {name!r}, which "
                             "SavedModelEstimator cannot initialize inside a traced step. Train "
                             "an Estimator on the model_fn that exported it instead.")
        if node.op not in _VARIABLE_OPS:
            continue
        if name not in found:
            raise ValueError(f"{what}: variable {name!r} is in no variable collection of its "
                             "MetaGraph, so its initial value and checkpoint name are unknown. "
                             "Export the graph with its variables in GLOBAL_VARIABLES.")
        variable_def, collections = found[name]
        var = imported_variables._get_or_create(store, imported_variables._store_name(name),
                                                node, variable_def, meta.graph_def, collections)
        adopted[name] = (var, collections, node.op != "VarHandleOp")
        source = f"{name}/_estimator_compat_adopted"
        input_map[source + ":0"] = graph.capture(var.handle)
        imported_variables._as_identity(node, source, tf.resource)
    _to_resource_ops(sub, {n for n, (_, _, ref) in adopted.items() if ref},
                     {n: v.dtype.base_dtype for n, (v, _, _) in adopted.items()}, what)
    for node in sub.node:  # control inputs of the fed placeholders (not imported)
        kept = [i for i in node.input
                if not (i.startswith("^") and i[1:] not in sub_nodes)]
        del node.input[:]
        node.input.extend(kept)
    out = tf.graph_util.import_graph_def(sub, input_map=input_map, return_elements=fetches,
                                         name="")
    in_checkpoint = set()
    if checkpoint is not None:
        in_checkpoint = {n for n, _ in tf.train.list_variables(checkpoint)}
    assignment = {}
    for name, (var, collections, _) in adopted.items():
        for key in collections:
            if not any(v is var for v in graph.get_collection(key)):
                graph.add_to_collection(key, var)
        store_name = imported_variables._store_name(name)
        if store_name in in_checkpoint and _GraphKeys.LOCAL_VARIABLES not in collections:
            assignment[store_name] = store_name
    if "global_step" in in_checkpoint and store.get("global_step") is not None:
        assignment["global_step"] = "global_step"  # evaluate / predict report it too
    if assignment:
        tf.compat.v1.train.init_from_checkpoint(checkpoint, assignment)
    return out


def _tensor_name(name):
    return name if ":" in name or name.startswith("^") else name + ":0"


def _needed(nodes, fetches, input_map, what):
    """The nodes `fetches` need (data and control inputs), stopping at the fed tensors."""
    fed = {k.split(":")[0] for k in input_map if not k.startswith("^")}
    needed, pending = set(), [f.lstrip("^").split(":")[0] for f in fetches]
    while pending:
        name = pending.pop()
        if name in needed or name in fed:
            continue
        if name not in nodes:
            raise ValueError(f"{what}: its graph has no node {name!r}, which its signature or "
                             "train op names. The SavedModel is damaged: export it again.")
        node = nodes[name]
        if node.op in _PLACEHOLDERS:
            raise ValueError(f"{what}: its graph needs placeholder {name!r}, which its "
                             "signature's inputs do not list, so nothing can feed it.")
        needed.add(name)
        pending.extend(i.lstrip("^").split(":")[0] for i in node.input)
    return needed


def _to_resource_ops(graph_def, ref_variables, dtypes, what):
    """Rewrites the ops of reference variables `ref_variables` (their nodes now resource
    handles) to the resource ops that do the same."""
    if not ref_variables:
        return
    new_nodes, reads, after_write = [], {}, {}
    for node in graph_def.node:
        op_def = op_def_registry.get(node.op)
        args = list(op_def.input_arg) if op_def is not None else []
        ref_inputs = [(i, name) for i, name in enumerate(node.input)
                      if not name.startswith("^") and name.split(":")[0] in ref_variables]
        writes = [(i, name) for i, name in ref_inputs if i < len(args) and args[i].is_ref]
        for index, name in ref_inputs:
            if (index, name) in writes:
                continue
            variable = name.split(":")[0]
            if variable not in reads:  # a value read: one ReadVariableOp per variable
                reads[variable] = _read_node(f"{variable}/_estimator_compat_read", variable,
                                             dtypes[variable])
                new_nodes.append(reads[variable])
            node.input[index] = reads[variable].name
        if writes:
            variable = writes[0][1].split(":")[0]
            _rewrite_write(node, op_def, what)
            after_write[node.name] = (variable, dtypes[variable])
    graph_def.node.extend(new_nodes)
    # Consumers of a write's output (TF1's ref to the new value) read the variable after it.
    added = {}
    for node in list(graph_def.node):
        for index, name in enumerate(node.input):
            source = name.split(":")[0]
            if name.startswith("^") or source not in after_write:
                continue
            if source not in added:
                variable, dtype = after_write[source]
                read = _read_node(f"{source}/_estimator_compat_value", variable, dtype)
                read.input.append("^" + source)
                graph_def.node.extend([read])
                added[source] = read.name
            node.input[index] = added[source]


def _read_node(name, variable, dtype):
    node = graph_pb2.GraphDef().node.add()
    node.name, node.op = name, "ReadVariableOp"
    node.input.append(variable)
    node.attr["dtype"].type = tf.as_dtype(dtype).as_datatype_enum
    return node


def _rewrite_write(node, op_def, what):
    """`Assign`, `AssignAdd`, `ApplyAdam`, `ScatterAdd`... on a reference variable to the op
    of the same inputs on a resource handle."""
    target = _RESOURCE_FORMS.get(node.op) or "Resource" + node.op
    target_def = op_def_registry.get(target)
    if target_def is None or len(target_def.input_arg) != len(op_def.input_arg):
        raise ValueError(f"{what}: op {node.name!r} ({node.op}) writes a reference variable and "
                         "has no resource-variable form to run it in a traced step. Export the "
                         "model with resource variables (tf.compat.v1.enable_resource_variables"
                         "() before building it).")
    saved = {k: attr_value_pb2.AttrValue.FromString(v.SerializeToString())
             for k, v in node.attr.items()}
    node.op = target
    node.attr.clear()
    for attr in target_def.attr:
        if attr.name in saved:
            node.attr[attr.name].CopyFrom(saved[attr.name])
        elif attr.name == "dtype" and "T" in saved:
            node.attr["dtype"].CopyFrom(saved["T"])


def _not_in_a_tf1_graph():
    """A TF1 graph (the `.meta` beside a checkpoint, `export_saved_model`'s TF1 graph) is not
    served: both callers take the error as "this model_fn builds only in a trace", so the
    checkpoints get no `.meta` and `export_saved_model` writes its SavedModel from the traced
    serving function instead."""
    raise ValueError("SavedModelEstimator's model_fn imports its SavedModel's MetaGraph only "
                     "into the Estimator's traced train / evaluate / predict steps, not into "
                     "a TF 1.x graph.")
