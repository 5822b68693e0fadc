"""MetaGraphs imported inside a model_fn: their variables adopted by the variable store.

TF 1.x code builds graphs by importing MetaGraphDefs: tensorflow_hub 0.15's TF1 `hub.Module`
(and so `hub.text_embedding_column` and the other hub feature columns) imports its module's
graph with `tf.compat.v1.train.import_meta_graph`, then asks `init_from_checkpoint` to set its
variables from the module's own checkpoint; a model_fn may import a pretrained graph the same
way. In TF1 that made graph variables, which the Estimator's Saver saved, and ops that a
session ran only when fetched. Here a model_fn is traced into a `tf.function`, which runs every
stateful op it holds at every step: the imported variables would belong to the function, their
initializers would reset them at each step, the MetaGraph's Saver would restore at each step
and a hub module's lookups of its (never fed) signature input would fail the step.

So, in a graph where the store traces a model_fn (`VariableStore.trace_scope`),
`import_meta_graph`:

- creates each variable of the MetaGraph's variable collections (GLOBAL / TRAINABLE / MODEL /
  LOCAL_VARIABLES...) in the store under the name the import gives it (`module/embeddings`,
  TF1's graph and checkpoint name), initial value computed once from its initializer; the
  variable's node becomes an `Identity` of the store variable's handle (a reference
  variable's: of its value), so the imported ops read and train the store's variables;
- leaves out what a step must not run: the variables' initializers (and those of state given
  through `input_map`: hub imports a module's graph again to apply it, its state mapped to the
  first import's), the MetaGraph's Saver ops, the ops that write the imported variables other
  than its UPDATE_OPS (an imported training graph's optimizer ops), placeholders `input_map`
  does not feed, and every op that needs one of these;
- puts the store's variables in the trace's collections, where hub finds them to map its
  checkpoint (`init_from_checkpoint`: the store applies it before the first step where
  model_dir has no checkpoint, as TF1's initializers ran only then);
- returns an eager `Saver` over the adopted variables (None where there are none), as TF1
  returned a Saver over the imported ones.

In a TF1 graph that the store builds (export) the import is TensorFlow's own and the store lists
the variables it made, so the export's Saver restores them from model_dir's checkpoint.
Elsewhere (`.meta` files, `hub.LatestModuleExporter`'s graph, a function outside an
Estimator) `import_meta_graph` is TensorFlow's own.
"""
import contextlib
import logging

import numpy as np
import tensorflow as tf
from tensorflow.core.framework import variable_pb2
from tensorflow.core.protobuf import meta_graph_pb2
from tensorflow.python.framework import auto_control_deps_utils, meta_graph, op_def_registry, ops
from tensorflow.python.training import saver as saver_lib

from estimator_compat.tf_modules import set_attr

_GraphKeys = tf.compat.v1.GraphKeys
_ORIGINAL = saver_lib.import_meta_graph
_TABLE_INITIALIZERS = ("InitializeTable", "InitializeTableV2", "InitializeTableFromTextFile",
                       "InitializeTableFromTextFileV2", "InitializeTableFromDataset")
_PLACEHOLDERS = ("Placeholder", "PlaceholderV2")
_RESOURCE_READS = ("Identity", "VarIsInitializedOp")  # besides TensorFlow's read-only ops


def patch():
    """Installs `import_meta_graph` below in `tf.compat.v1.train` (idempotent)."""
    if saver_lib.import_meta_graph is not import_meta_graph:
        saver_lib.import_meta_graph = import_meta_graph
        set_attr("tensorflow.compat.v1.train", "import_meta_graph", import_meta_graph)
        logging.getLogger("absl").addFilter(_HubFunctionWarning())


class _HubFunctionWarning(logging.Filter):
    """Drops hub's "Using TF1 Hub format while building a function ... can lead to errors if
    the function is not pruned" for a model_fn's trace: the import above leaves out what the
    step must not run."""

    def filter(self, record):
        return not (str(record.msg).startswith("Using TF1 Hub format while building a function")
                    and getattr(tf.compat.v1.get_default_graph(), "_estimator_compat_store",
                                None) is not None)


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, **kwargs):
    """TensorFlow's, but in a trace of a model_fn, where the store adopts the variables."""
    graph = tf.compat.v1.get_default_graph()
    store = getattr(graph, "_estimator_compat_store", None)  # (VariableStore.trace_scope)
    if store is None:
        return _ORIGINAL(meta_graph_or_file, clear_devices, import_scope, **kwargs)
    if graph.building_function:
        return _import_in_trace(store, graph, meta_graph_or_file, clear_devices, import_scope,
                                **kwargs)
    before = {id(v) for v in graph.get_collection(_GraphKeys.GLOBAL_VARIABLES)}
    saver = _ORIGINAL(meta_graph_or_file, clear_devices, import_scope, **kwargs)
    _register_graph_variables(store, graph, before)
    return saver


def _register_graph_variables(store, graph, before):
    """In a TF1 graph built through the store (export), the import's graph variables work as
    they are; the store lists them, so the export's Saver restores and saves them."""
    for key in (_GraphKeys.GLOBAL_VARIABLES, _GraphKeys.LOCAL_VARIABLES):
        for var in graph.get_collection(key):
            if id(var) in before or not hasattr(var, "op"):
                continue
            name = var.op.name
            if store._vars.setdefault(name, var) is not var:
                raise ValueError(f"import_meta_graph: the imported variable {name!r} has the "
                                 "name of another variable of the model_fn. Import it under "
                                 "another import_scope.")
            store._collections.setdefault(name, set()).update(
                k for k in (key, _GraphKeys.TRAINABLE_VARIABLES, _GraphKeys.MODEL_VARIABLES)
                if any(v is var for v in graph.get_collection(k)))


def _import_in_trace(store, graph, meta_graph_or_file, clear_devices, import_scope,
                     input_map=None, **kwargs):
    if isinstance(meta_graph_or_file, meta_graph_pb2.MetaGraphDef):
        meta = meta_graph_pb2.MetaGraphDef()
        meta.CopyFrom(meta_graph_or_file)
    else:
        meta = meta_graph.read_meta_graph_file(meta_graph_or_file)
    input_map = {_tensor_name(k): v for k, v in (input_map or {}).items()}
    found = _variable_defs(meta)
    nodes = {n.name: n for n in meta.graph_def.node}
    missing = sorted(set(found) - set(nodes))
    if missing:
        raise ValueError(f"import_meta_graph: the MetaGraphDef's variable collections name "
                         f"{missing}, which its graph_def does not hold. Export the MetaGraph "
                         "with the graph that made those variables.")
    left_out = _saver_ops(meta) | _initializers_of_mapped(meta.graph_def, input_map)
    left_out |= _writers(meta, found, nodes)
    prefix = graph.unique_name(import_scope, mark_as_used=False) if import_scope else \
        graph.get_name_scope()
    adopted_vars = {}
    for node_name, (variable_def, collections) in found.items():
        name = _store_name(f"{prefix}/{node_name}" if prefix else node_name)
        var = _get_or_create(store, name, nodes[node_name], variable_def, meta.graph_def,
                             collections)
        adopted_vars[name] = (var, collections)
        source = f"{node_name}/_estimator_compat_adopted"
        handle = graph.capture(var.handle)
        if variable_def.is_resource:
            input_map.setdefault(source + ":0", handle)
        else:  # a reference variable's readers get its value
            input_map.setdefault(source + ":0", tf.raw_ops.ReadVariableOp(
                resource=handle, dtype=var.dtype.base_dtype))
        _as_identity(nodes[node_name], source,
                     tf.resource if variable_def.is_resource else var.dtype.base_dtype)
        left_out.add(variable_def.initializer_name.split(":")[0])
    _leave_out(meta, _with_dependents(meta.graph_def, input_map, left_out))
    for key in list(meta.collection_def):
        if ops.get_collection_proto_type(key) is variable_pb2.VariableDef:
            del meta.collection_def[key]
    meta_graph.import_scoped_meta_graph_with_return_elements(
        meta, clear_devices=clear_devices, import_scope=import_scope, input_map=input_map,
        **kwargs)
    for var, collections in adopted_vars.values():
        for key in collections:
            if not any(v is var for v in graph.get_collection(key)):
                graph.add_to_collection(key, var)
    if not adopted_vars:
        return None
    from estimator_compat.variables import outside_trace
    with outside_trace():
        return tf.compat.v1.train.Saver({n: v for n, (v, _) in adopted_vars.items()})


def _tensor_name(name):
    return name if ":" in name or name.startswith("^") else name + ":0"


def _variable_defs(meta):
    """{variable node name: (VariableDef, [collection keys])} of the variable collections."""
    found = {}
    for key, collection in meta.collection_def.items():
        if ops.get_collection_proto_type(key) is not variable_pb2.VariableDef:
            continue
        for raw in collection.bytes_list.value:
            variable_def = variable_pb2.VariableDef.FromString(raw)
            if variable_def.HasField("save_slice_info_def"):
                raise ValueError(
                    f"import_meta_graph inside an Estimator's model_fn: variable "
                    f"{variable_def.variable_name!r} is a part of a partitioned variable, "
                    "which estimator_compat cannot adopt. Export the module or graph with "
                    "unpartitioned variables (no partitioner in its variable scope).")
            node_name = variable_def.variable_name.split(":")[0]
            entry = found.setdefault(node_name, (variable_def, []))
            if key not in entry[1]:
                entry[1].append(key)
    return found


def _store_name(absolute):
    """The variable's checkpoint name: MirroredStrategy's replica scope left out."""
    from estimator_compat.variables import _REPLICA_SCOPE
    return _REPLICA_SCOPE.sub("", absolute)


def _get_or_create(store, name, node, variable_def, graph_def, collections):
    """The store's variable `name`: made once, outside the trace, from its initializer's
    value; a later trace (another mode, a retrace) gets the same variable."""
    dtype = tf.as_dtype(node.attr["dtype"].type).base_dtype
    shape = tf.TensorShape(node.attr["shape"].shape)
    var = store.get(name)
    if var is not None:
        if var.dtype.base_dtype != dtype or not shape.is_compatible_with(var.shape):
            raise ValueError(f"import_meta_graph: the imported variable {name!r} is "
                             f"{dtype.name} {shape}, but the model_fn already has a variable "
                             f"of that name, {var.dtype.name} {var.shape}. Import it under "
                             "another import_scope.")
    else:
        from estimator_compat.variables import outside_trace
        value = _initial_value(graph_def, variable_def, name)
        scope, _, base = name.rpartition("/")
        trainable = _GraphKeys.TRAINABLE_VARIABLES in collections
        with outside_trace(), (tf.name_scope(scope + "/") if scope else contextlib.nullcontext()):
            var = tf.compat.v1.Variable(value, name=base, dtype=dtype, trainable=trainable)
        store._vars[name] = var
    store._collections.setdefault(name, set()).update(collections)
    if _GraphKeys.LOCAL_VARIABLES in collections:
        store.mark_local([var])
    return var


def _initial_value(graph_def, variable_def, name):
    """The value the variable's initializer computes, run once in a graph of its own."""
    tensor = variable_def.initial_value_name
    if not tensor:  # an old VariableDef: the initializer's second input
        init = [n for n in graph_def.node
                if n.name == variable_def.initializer_name.split(":")[0]]
        tensor = init[0].input[1] if init and len(init[0].input) > 1 else ""
    if not tensor:
        raise ValueError(f"import_meta_graph: variable {name!r} has no initial value in the "
                         "MetaGraphDef.")
    tensor = _tensor_name(tensor)
    sub = _ancestors(graph_def, tensor.split(":")[0])
    with tf.Graph().as_default():
        value, = tf.graph_util.import_graph_def(sub, return_elements=[tensor], name="")
        with tf.compat.v1.Session() as session:
            try:
                return np.asarray(session.run(value))
            except tf.errors.OpError as e:
                raise ValueError(f"import_meta_graph: the initial value of variable {name!r} "
                                 f"({tensor}) cannot be computed on its own: {e.message}") from e


def _ancestors(graph_def, name):
    """A GraphDef of node `name` and every node it needs, without colocation."""
    nodes = {n.name: n for n in graph_def.node}
    needed, pending = set(), [name]
    while pending:
        current = pending.pop()
        if current not in needed and current in nodes:
            needed.add(current)
            pending.extend(i.lstrip("^").split(":")[0] for i in nodes[current].input)
    out = type(graph_def)()
    out.versions.CopyFrom(graph_def.versions)
    out.library.CopyFrom(graph_def.library)
    out.node.extend(n for n in graph_def.node if n.name in needed)
    for node in out.node:
        node.attr.pop("_class", None)  # colocation with nodes left out (the variable)
    return out


def _as_identity(node, source, dtype):
    """The variable's node becomes an Identity of `source` (mapped to the store's variable)."""
    name, device = node.name, node.device
    node.Clear()
    node.name, node.op, node.device = name, "Identity", device
    node.input.append(source)
    node.attr["T"].type = dtype.as_datatype_enum


def _saver_ops(meta):
    """The MetaGraph's Saver ops (SaveV2 / RestoreV2 under its scope)."""
    if not meta.HasField("saver_def"):
        return set()
    scope = meta.saver_def.filename_tensor_name.split("/")[0] + "/"
    meta.ClearField("saver_def")
    return {n.name for n in meta.graph_def.node if n.name.startswith(scope)}


def _initializers_of_mapped(graph_def, input_map):
    """Initializers of state that the import is given through `input_map`: a variable's
    `<name>/Assign`, a table's `Initialize*` op. The state's own graph initializes it."""
    out = set()
    for node in graph_def.node:
        if not node.input or _tensor_name(node.input[0]) not in input_map:
            continue
        if node.op in _TABLE_INITIALIZERS or (
                node.op in ("Assign", "AssignVariableOp")
                and node.name == node.input[0].split(":")[0] + "/Assign"):
            out.add(node.name)
    return out


def _writers(meta, found, nodes):
    """Ops that write (or take by reference) the imported variables, but for UPDATE_OPS."""
    update_ops = set()
    if _GraphKeys.UPDATE_OPS in meta.collection_def:
        update_ops = {v.lstrip("^").split(":")[0]
                      for v in meta.collection_def[_GraphKeys.UPDATE_OPS].node_list.value}
    reads = auto_control_deps_utils.RESOURCE_READ_OPS.union(_RESOURCE_READS)
    out = set()
    for node in nodes.values():
        for index, name in enumerate(node.input):
            source = name.split(":")[0]
            if source not in found:
                continue
            if found[source][0].is_resource:
                writes = node.op not in reads
            else:
                op_def = op_def_registry.get(node.op)
                args = op_def.input_arg if op_def is not None else []
                writes = index < len(args) and args[index].is_ref
                if writes and node.name in update_ops:
                    raise ValueError(
                        f"import_meta_graph inside an Estimator's model_fn: update op "
                        f"{node.name!r} writes reference variable {source!r}; estimator_compat "
                        "adopts variables as resource variables. Export the graph with "
                        "resource variables (tf.compat.v1.variable_scope(..., "
                        "use_resource=True)).")
            if writes and node.name not in update_ops:
                out.add(node.name)
    return out


def _with_dependents(graph_def, input_map, left_out):
    """`left_out`, the placeholders `input_map` does not feed (nothing can feed them in a
    traced step), and every op that needs one of them, as a data or control input."""
    consumers = {}
    for node in graph_def.node:
        for name in node.input:
            if _tensor_name(name) not in input_map:
                consumers.setdefault(name.lstrip("^").split(":")[0], []).append(node.name)
    out = set(left_out)
    out.update(n.name for n in graph_def.node
               if n.op in _PLACEHOLDERS and n.name + ":0" not in input_map)
    pending = list(out)
    while pending:
        for consumer in consumers.get(pending.pop(), ()):
            if consumer not in out:
                out.add(consumer)
                pending.append(consumer)
    return out


def _leave_out(meta, names):
    """Removes the `names` nodes from the graph_def and from node collections."""
    kept = [n for n in meta.graph_def.node if n.name not in names]
    del meta.graph_def.node[:]
    meta.graph_def.node.extend(kept)
    for collection in meta.collection_def.values():
        if collection.HasField("node_list"):
            values = [v for v in collection.node_list.value
                      if v.lstrip("^").split(":")[0] not in names]
            del collection.node_list.value[:]
            collection.node_list.value.extend(values)
