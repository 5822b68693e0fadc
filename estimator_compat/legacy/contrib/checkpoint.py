"""`tf.contrib.checkpoint`, served whole: TF 1.15's object-based checkpoint helpers on TensorFlow
2.21's trackable machinery.

- TensorFlow 2.21's own: `CheckpointManager` (`tf.train.CheckpointManager`), `Checkpointable`
  (AutoTrackable), `CheckpointableBase` (Trackable), `CheckpointableObjectGraph` (the
  TrackableObjectGraph proto), `List`, `Mapping`, `NoDependency`, `PythonStateWrapper`
  (PythonState), `list_objects`, `object_metadata`, `capture_dependencies`.
- Here (contrib had them alone): `NumpyState` (numpy arrays saved in checkpoints),
  `UniqueNameTracker` (dependencies under uniquified names), `dot_graph_from_checkpoint` (a
  checkpoint's object graph as Graphviz text, as TF 1.15 drew it).
- `split_dependency`: `split_dependency.py` (on TensorFlow 2's saveable API).
"""
import io

import numpy as np
import tensorflow as tf
from tensorflow.core.protobuf import trackable_object_graph_pb2
from tensorflow.python.checkpoint import checkpoint as _checkpoint
from tensorflow.python.trackable import (
    autotrackable,
    base,
    data_structures,
    python_state,
)


class _NumpyWrapper(python_state.PythonState):
    """One numpy array of a `NumpyState`, saved as `np.save` bytes."""

    def __init__(self, array):
        self.array = array

    def serialize(self):
        buffer = io.BytesIO()
        np.save(buffer, self.array, allow_pickle=False)
        return buffer.getvalue()

    def deserialize(self, string_value):
        self.array = np.load(io.BytesIO(string_value), allow_pickle=False)


class NumpyState(autotrackable.AutoTrackable):
    """A trackable whose numpy-array (and numpy scalar) attributes are saved in checkpoints.

    Reading an attribute gives the array (restored in place by `Checkpoint.restore`); setting
    one replaces it. Each save stores the arrays of that moment (graph mode too).
    """

    def __getattribute__(self, name):
        value = super().__getattribute__(name)
        return value.array if isinstance(value, _NumpyWrapper) else value

    def __setattr__(self, name, value):
        if isinstance(value, (np.ndarray, np.generic)):
            try:
                existing = super().__getattribute__(name)
            except AttributeError:
                existing = None
            if isinstance(existing, _NumpyWrapper):
                existing.array = value
                return
            value = _NumpyWrapper(value)
        super().__setattr__(name, value)


class UniqueNameTracker(data_structures.TrackableDataStructure):
    """Dependencies on trackables under locally unique names: `track(v, "x")` twice names
    them `x` and `x_1`."""

    def __init__(self):
        super().__init__()
        self._name_counts = {}

    @property
    def _values(self):
        return [dependency.ref for dependency in self._self_unconditional_checkpoint_dependencies]

    def track(self, trackable, base_name):
        """Depend on `trackable` under `base_name` made unique here; returns `trackable`."""
        if not isinstance(trackable, base.Trackable):
            raise ValueError(f"Expected a trackable value, got {trackable!r} which does not "
                             "inherit from tf.train.Checkpoint's Trackable (a tf.Variable, "
                             "a Checkpoint, a Keras layer...).")
        number = self._name_counts.get(base_name, 0)
        while True:
            name = f"{base_name}_{number}" if number else base_name
            if self._lookup_dependency(name) is None:
                break
            number += 1
        self._name_counts[base_name] = number + 1
        self._track_value(trackable, name=name)
        return trackable


def object_metadata(save_path):
    """The object graph (a TrackableObjectGraph proto) stored in the checkpoint `save_path`."""
    return _checkpoint.object_metadata(save_path)


def dot_graph_from_checkpoint(save_path):
    """The object graph of the checkpoint `save_path` as Graphviz dot text (TF 1.15's drawing:
    variables blue, optimizers red, slot variables orange with dotted edges)."""
    reader = tf.train.load_checkpoint(save_path)
    shapes, dtypes = reader.get_variable_to_shape_map(), reader.get_variable_to_dtype_map()
    graph = object_metadata(save_path)
    slots = {slot.slot_variable_node_id for node in graph.nodes for slot in node.slot_variables}

    def variable(node):
        for attribute in node.attributes:
            if attribute.name == "VARIABLE_VALUE":
                key = attribute.checkpoint_key
                return (f"{attribute.full_name} shape={list(shapes[key])} "
                        f"{dtypes[key].name}")
        return None

    lines = ["digraph {"]
    for node_id, node in enumerate(graph.nodes):
        described = variable(node)
        if node_id in slots and described:
            lines.append(f'N_{node_id} [shape=point label="" color=orange width=.25 '
                         f'tooltip="Slot variable {described}"]')
        elif described:
            lines.append(f'N_{node_id} [shape=point label="" color=blue width=.25 '
                         f'tooltip="Variable {described}"]')
        elif node.slot_variables:
            lines.append(f'N_{node_id} [shape=point label="" width=.25 color=red,'
                         'tooltip="Optimizer"]')
        else:
            lines.append(f'N_{node_id} [shape=point label="" width=.25]')
        for child in node.children:
            lines.append(f'N_{node_id} -> N_{child.node_id} [label="{child.local_name}"]')
        for slot in node.slot_variables:
            lines.append(f'N_{node_id} -> N_{slot.slot_variable_node_id} '
                         f'[label="{slot.slot_name}" style=dotted]')
            lines.append(f'N_{slot.original_variable_node_id} -> '
                         f'N_{slot.slot_variable_node_id} [style=dotted]')
    lines.append("}")
    return "\n".join(lines) + "\n"


ATTRS = dict(
    CheckpointManager=tf.train.CheckpointManager,
    Checkpointable=autotrackable.AutoTrackable,
    CheckpointableBase=base.Trackable,
    CheckpointableObjectGraph=trackable_object_graph_pb2.TrackableObjectGraph,
    List=data_structures.List,
    Mapping=data_structures.Mapping,
    NoDependency=data_structures.NoDependency,
    NumpyState=NumpyState,
    PythonStateWrapper=python_state.PythonState,
    UniqueNameTracker=UniqueNameTracker,
    capture_dependencies=_checkpoint.capture_dependencies,
    dot_graph_from_checkpoint=dot_graph_from_checkpoint,
    list_objects=_checkpoint.list_objects,
    object_metadata=object_metadata)


def build():
    from estimator_compat.legacy.contrib.split_dependency import split_dependency
    from estimator_compat.legacy.namespaces import namespace
    return namespace("tensorflow.contrib.checkpoint", "tf.contrib.checkpoint",
                     __served_whole__=True, split_dependency=split_dependency, **ATTRS)
