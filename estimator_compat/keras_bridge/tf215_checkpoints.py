"""model_dirs that tf.estimator 2.15's model_to_estimator wrote (tf.keras 2 names), resumed
and continued by the bridge's Keras 3 clone.

2.15 trained its clone with `optimizer.iterations` set to the global step and saved, by
`checkpoint_format`, either
- object-based ('checkpoint'): the model's object graph, `layer_with_weights-<i>/kernel/...`,
  slots as `layer_with_weights-<i>/kernel/.OPTIMIZER_SLOT/optimizer/m/...`,
  `optimizer/<hyperparameter>/...`, `estimator_global_step/...` (the optimizer's `iter` is
  that same node), with `_CHECKPOINTABLE_OBJECT_GRAPH`; or
- name-based ('saver', or keras_lib's `_create_keras_model_fn`): graph names, `h/kernel`,
  `training/Adam/h/kernel/m`, `training/Adam/learning_rate`, `.../beta_1`, `.../decay`,
  `global_step` (no `iter`).
Keras 3 names neither (`functional/h/kernel`, `adam/functional_h_kernel_momentum`, its own
`adam/iteration`). A clone whose model_dir's newest checkpoint has one of these layouts keeps
it, so 2.15 can continue what we write: name-based, its variables are adopted under 2.15's
names (plus variables for the hyperparameters 2.15 saved); object-based, model_fn returns a
Scaffold whose `Tf215ObjectCheckpoint` reads and writes 2.15's object graph (CheckpointIO hands
object-based files only to such a scaffold). In both, as in 2.15, iterations = global step.

Keras 2's `layer_with_weights-<i>` is the i-th layer of the model that has weights, in layer
order; a layer's weights are keyed by their own names (`kernel`, `bias`, `moving_mean`), and
slots are paired with weights through the Keras 3 optimizer's slot lists (aligned with its
`_trainable_variables`; the Keras 2 slot names are keras_model_fn_slots' table).
"""
import logging

import keras
import numpy as np
import tensorflow as tf
from tensorflow.core.protobuf import trackable_object_graph_pb2

from estimator_compat.checkpoint_holders import Holders
from estimator_compat.engine.keras_model_fn_slots import _KINDS, _kind

logger = logging.getLogger("tensorflow")

OBJECT_GRAPH = "_CHECKPOINTABLE_OBJECT_GRAPH"
_VALUE = ".ATTRIBUTES/VARIABLE_VALUE"
OBJECT, SAVER = "object", "saver"


def _tf(variable):
    """The tf.Variable behind a Keras 3 variable."""
    return variable.value if isinstance(variable, keras.Variable) else variable


class Layout:
    """The clone's variables by 2.15's logical names: weights (layer-with-weights index,
    weight name, layer name, variable), slots (... , Keras 2 slot name, variable), the
    hyperparameters 2.15 saved as variables, the learning-rate variable and iterations."""

    def __init__(self, model, optimizer):
        kind = _kind(optimizer)
        if kind is None:
            raise ValueError(f"{type(optimizer).__name__} has no tf.keras 2.15 counterpart")
        self.keras2_name, slot_lists, hypers = _KINDS[kind]
        self.weights, where = [], {}
        for layer in model.layers:
            if layer.weights:
                index = len({w[0] for w in self.weights})
                for w in layer.weights:
                    self.weights.append((index, w.name, layer.name, _tf(w)))
                    where[id(_tf(w))] = (index, w.name, layer.name)
        self.slots = []
        trainable = list(getattr(optimizer, "_trainable_variables", []))
        for attribute, slot in slot_lists.items():
            for var, slot_var in zip(trainable, getattr(optimizer, attribute, None) or []):
                if id(_tf(var)) in where:
                    self.slots.append((*where[id(_tf(var))], slot, _tf(slot_var)))
        self.hypers = {h: float(getattr(optimizer, h)) for h in hypers}
        self.hypers["decay"] = 0.0  # Keras 3 has no `decay`; 2.15 saved it
        rate = getattr(optimizer, "_learning_rate", None)
        self.learning_rate = _tf(rate) if isinstance(rate, (keras.Variable, tf.Variable)) \
            else None
        self.iterations = _tf(optimizer.iterations)

    # -- name-based ('saver') ---------------------------------------------------------------
    def saver_names(self, prefix):
        """{2.15 name: variable} of the clone's weights, slots and learning rate."""
        named = {f"{layer}/{name}": var for _, name, layer, var in self.weights}
        named.update({f"training/{prefix}/{layer}/{name}/{slot}": var
                      for _, name, layer, slot, var in self.slots})
        if self.learning_rate is not None:
            named[f"training/{prefix}/learning_rate"] = self.learning_rate
        return named

    def is_saver_layout(self, reader):
        """Whether a name-based checkpoint holds this model's weights under 2.15's names."""
        return bool(self.weights) and all(reader.has_tensor(f"{layer}/{name}")
                                          for _, name, layer, _ in self.weights)


def saver_prefix(reader, default):
    """The `training/<name>` scope 2.15 saved the optimizer under (its name, `Adam` unless the
    user named it)."""
    for key in reader.get_variable_to_shape_map():
        parts = key.split("/")
        if len(parts) == 3 and parts[0] == "training" and parts[2] in ("learning_rate",
                                                                        "decay"):
            return parts[1]
    return default


def detect(model_dir, layout):
    """(OBJECT or SAVER or None, `training/` prefix for SAVER) of model_dir's newest
    checkpoint: None where there is none or it is not 2.15's Keras layout (ours)."""
    latest = tf.train.latest_checkpoint(model_dir) if model_dir else None
    if not latest:
        return None, None
    try:
        reader = tf.train.load_checkpoint(latest)
    except tf.errors.OpError:
        return None, None  # CheckpointIO reports it
    if reader.has_tensor(OBJECT_GRAPH):
        graph = _object_graph(reader)
        names = {c.local_name for c in graph.nodes[0].children}
        if "estimator_global_step" in names or "layer_with_weights-0" in names:
            return OBJECT, None
        return None, None
    if layout.is_saver_layout(reader):
        prefix = saver_prefix(reader, layout.keras2_name)
        warn_on_hypers({h: reader.get_tensor(f"training/{prefix}/{h}") for h in layout.hypers
                        if reader.has_tensor(f"training/{prefix}/{h}")}, layout, latest)
        return SAVER, prefix
    return None, None


def hyper_holders(layout, prefix):
    """{`training/<prefix>/<hyper>`: variable} for the hyperparameters Keras 3 keeps as Python
    numbers (2.15 saved them; it restores them, so they must be there)."""
    holders, out = Holders(), {}
    for hyper, value in layout.hypers.items():
        name = f"training/{prefix}/{hyper}"
        out[name] = holders(name, value)
    return out


def warn_on_hypers(values, layout, where):
    """The compiled optimizer keeps its hyperparameters (constants in Keras 3's update);
    2.15 took the checkpoint's."""
    for name, value in values.items():
        ours = layout.hypers.get(name)
        if ours is not None and not np.isclose(float(value), ours):
            logger.warning("%s holds %s=%s; the compiled optimizer's %s is kept (TF 2.15 "
                           "restored the checkpoint's).", where, name, float(value), ours)


# -- object-based ('checkpoint') ------------------------------------------------------------
def _object_graph(reader):
    graph = trackable_object_graph_pb2.TrackableObjectGraph()
    graph.ParseFromString(reader.get_tensor(OBJECT_GRAPH))
    return graph


def object_keys(reader):
    """{logical name: checkpoint key} from 2.15's object graph: ('weight', i, name),
    ('slot', i, name, slot), ('hyper', name), ('step',)."""
    graph = _object_graph(reader)

    def child(node, name):
        for ref in graph.nodes[node].children:
            if ref.local_name == name:
                return ref.node_id
        return None

    def key(node):
        for attr in graph.nodes[node].attributes if node is not None else ():
            if attr.name == "VARIABLE_VALUE":
                return attr.checkpoint_key
        return None

    keys, weight_of = {}, {}
    for ref in graph.nodes[0].children:
        if ref.local_name.startswith("layer_with_weights-"):
            index = int(ref.local_name.rsplit("-", 1)[1])
            for weight in graph.nodes[ref.node_id].children:
                keys[("weight", index, weight.local_name)] = key(weight.node_id)
                weight_of[weight.node_id] = (index, weight.local_name)
    optimizer = child(0, "optimizer")
    if optimizer is not None:
        for ref in graph.nodes[optimizer].children:
            keys[("hyper", ref.local_name)] = key(ref.node_id)
        for slot in graph.nodes[optimizer].slot_variables:
            if slot.original_variable_node_id in weight_of:
                keys[("slot", *weight_of[slot.original_variable_node_id], slot.slot_name)] = \
                    key(slot.slot_variable_node_id)
    step = child(0, "estimator_global_step")
    step = step if step is not None else child(optimizer, "iter") if optimizer else None
    keys[("step",)] = key(step)
    return {k: v for k, v in keys.items() if v is not None}


class _Restored:
    """What Checkpoint.read returns, for callers that mark a partial read as expected."""

    def expect_partial(self):
        return self

    def assert_consumed(self):
        return self


class Tf215ObjectCheckpoint(tf.train.Checkpoint):
    """A Scaffold saver for a model_dir 2.15 wrote object-based: `read` takes 2.15's object
    graph into the clone (weights, slots, learning rate, global step and iterations); `write`
    writes the same graph and keys, so tf.estimator 2.15 continues from it. It tracks nothing
    itself (object_checkpoints.restore then just calls `read`)."""

    def __init__(self, layout, global_step):
        super().__init__()
        object.__setattr__(self, "_tf215", (layout, global_step))

    def read(self, save_path, options=None):
        from estimator_compat.checkpoints import CheckpointMismatchError
        layout, global_step = self._tf215
        reader = tf.train.load_checkpoint(save_path)
        keys = object_keys(reader)
        wanted = [(("weight", i, n), v) for i, n, _, v in layout.weights]
        wanted += [(("slot", i, n, s), v) for i, n, _, s, v in layout.slots]
        missing = [k for k, v in wanted if k not in keys or
                   list(reader.get_variable_to_shape_map()[keys[k]]) != v.shape.as_list()]
        if missing or ("step",) not in keys:
            raise CheckpointMismatchError(
                f"The checkpoint {save_path} is tf.keras 2's object graph (TF 2.15's "
                f"model_to_estimator), but it does not hold these weights / slots of the "
                f"Keras model, or they have other shapes: {missing or ['global step']}. "
                f"Use the model that trained this model_dir, or a new model_dir.")
        for k, var in wanted:
            var.assign(reader.get_tensor(keys[k]))
        step = reader.get_tensor(keys[("step",)])
        global_step.assign(tf.cast(step, global_step.dtype))
        layout.iterations.assign(tf.cast(step, layout.iterations.dtype))
        if layout.learning_rate is not None and ("hyper", "learning_rate") in keys:
            layout.learning_rate.assign(reader.get_tensor(keys[("hyper", "learning_rate")]))
        warn_on_hypers({n: reader.get_tensor(keys[("hyper", n)]) for n in layout.hypers
                        if ("hyper", n) in keys}, layout, save_path)
        return _Restored()

    def write(self, file_prefix, options=None):
        layout, global_step = self._tf215
        with tf.init_scope():
            graph = trackable_object_graph_pb2.TrackableObjectGraph()
            tensors = {}

            def node(full_name=None, key=None, value=None):
                graph.nodes.add()
                if key is not None:
                    graph.nodes[-1].attributes.add(name="VARIABLE_VALUE", full_name=full_name,
                                                   checkpoint_key=key)
                    tensors[key] = value
                return len(graph.nodes) - 1

            def child(parent, name, node_id):
                graph.nodes[parent].children.add(node_id=node_id, local_name=name)

            root = node()
            step = node("global_step", f"estimator_global_step/{_VALUE}",
                        tf.cast(global_step.read_value(), tf.int64))
            child(root, "estimator_global_step", step)
            layers, weight_nodes = {}, {}
            for index, name, layer, var in layout.weights:
                if index not in layers:
                    layers[index] = node()
                    child(root, f"layer_with_weights-{index}", layers[index])
                weight_nodes[(index, name)] = node(
                    f"{layer}/{name}", f"layer_with_weights-{index}/{name}/{_VALUE}",
                    var.read_value())
                child(layers[index], name, weight_nodes[(index, name)])
            optimizer = node()
            child(root, "optimizer", optimizer)
            child(optimizer, "iter", step)
            prefix = f"training/{layout.keras2_name}"
            hypers = dict(layout.hypers)
            if layout.learning_rate is not None:
                hypers["learning_rate"] = layout.learning_rate.read_value()
            for name, value in sorted(hypers.items()):
                child(optimizer, name, node(f"{prefix}/{name}", f"optimizer/{name}/{_VALUE}",
                                            tf.cast(value, tf.float32)))
            for index, name, layer, slot, var in layout.slots:
                slot_node = node(f"{prefix}/{layer}/{name}/{slot}",
                                 f"layer_with_weights-{index}/{name}/.OPTIMIZER_SLOT/optimizer/"
                                 f"{slot}/{_VALUE}", var.read_value())
                graph.nodes[optimizer].slot_variables.add(
                    original_variable_node_id=weight_nodes[(index, name)], slot_name=slot,
                    slot_variable_node_id=slot_node)
            tensors[OBJECT_GRAPH] = tf.constant(graph.SerializeToString())
            names = sorted(tensors)
            tf.raw_ops.SaveV2(prefix=file_prefix, tensor_names=names,
                              shape_and_slices=[""] * len(names),
                              tensors=[tensors[n] for n in names])
        return file_prefix
