"""Object-based checkpoints in model_dir, for `Scaffold(saver=tf.train.Checkpoint(...))`.

tf.estimator wrote such a scaffold's objects (`net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE`, ...)
under the usual `model.ckpt-<step>` names and `checkpoint` state file, so the guide's
`tf.train.Checkpoint(...).restore(tf.train.latest_checkpoint(model_dir))` reads them back.
CheckpointIO writes them with `Checkpoint.write`, which adds no `save_counter` (tf.estimator's
files had none), and records them in the state file like name-based ones.

A model_dir written by tf.estimator 2.15 holds Keras 2's objects, which Keras 3 names
differently: a layer's `kernel` is its `_kernel`, and an optimizer's `_variables` list has
the learning rate at index 1 before the slots (Keras 2 had the slots from index 1). TensorFlow's
restore would then put a bias slot into a kernel slot, or skip the kernel silently. So each
variable's key is checked against the checkpoint first; where they differ, the values are read
by the Keras 2 key of the same object (same shape required) and assigned.
"""
import re

import tensorflow as tf
from tensorflow.python.checkpoint import graph_view, util

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
_SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"
_LIST_ITEM = re.compile(r"^(.*/_variables)/(\d+)$")


def is_object_based(reader):
    """True for a checkpoint written by tf.train.Checkpoint (it holds the object graph)."""
    return reader.has_tensor(OBJECT_GRAPH_KEY)


def restore(checkpoints, path):
    """Reads `path` into every traced mode's Checkpoint object (objects a mode never built,
    such as an optimizer in evaluation, are left alone)."""
    reader = tf.train.load_checkpoint(path)
    shapes = reader.get_variable_to_shape_map()
    for checkpoint in checkpoints:
        variables = _variables_by_path(checkpoint)
        if all(p + _SUFFIX in shapes and _fits(v, shapes[p + _SUFFIX])
               for p, v in variables.items()):
            checkpoint.read(path).expect_partial()
        else:
            _restore_keras2(variables, reader, shapes, path)


def _variables_by_path(checkpoint):
    """{object path in the checkpoint ('net/l1/_kernel'): variable} of what exists now."""
    objects, paths = util.objects_ids_and_slot_variables_and_paths(
        graph_view.ObjectGraphView(checkpoint))[:2]
    return {"/".join(ref.name for ref in paths[obj]): obj for obj in objects
            if isinstance(obj, tf.Variable) or hasattr(obj, "assign") and hasattr(obj, "shape")}


def _fits(variable, shape):
    return tf.TensorShape(variable.shape).is_compatible_with(shape)


def _restore_keras2(variables, reader, shapes, path):
    offsets = _list_offsets(variables, shapes)
    missing = []
    for obj_path, variable in variables.items():
        key = _keras2_key(obj_path, shapes, offsets)
        if key is None or not _fits(variable, shapes[key]):
            missing.append(obj_path)
            continue
        variable.assign(reader.get_tensor(key))
    if missing:
        raise ValueError(
            f"The object-based checkpoint {path} does not hold these objects of the model_fn's "
            f"Scaffold(saver=tf.train.Checkpoint(...)), under Keras 3's names nor Keras 2's: "
            f"{sorted(missing)}. Use the same objects as the model_dir's writer, or a new "
            "model_dir.")


def _list_offsets(variables, shapes):
    """{'<prefix>/_variables': k}: Keras 3's index i of an optimizer variable is Keras 2's
    i - k (k: how many more non-slot variables Keras 3 keeps before the slots)."""
    ours, theirs = {}, {}
    for obj_path in variables:
        match = _LIST_ITEM.match(obj_path)
        if match:
            ours.setdefault(match.group(1), []).append(int(match.group(2)))
    for key in shapes:
        match = _LIST_ITEM.match(key[:-len(_SUFFIX)] if key.endswith(_SUFFIX) else key)
        if match:
            theirs.setdefault(match.group(1), []).append(int(match.group(2)))
    return {prefix: max(indices) - max(theirs[prefix]) for prefix, indices in ours.items()
            if prefix in theirs}


def _keras2_key(obj_path, shapes, offsets):
    """The checkpoint key holding `obj_path`'s value, Keras 3's own or Keras 2's."""
    candidates = [obj_path]
    match = _LIST_ITEM.match(obj_path)
    if match and match.group(1) in offsets:  # an optimizer variable: Keras 2's index first
        index = int(match.group(2)) - offsets[match.group(1)]
        if index >= 1:
            candidates.insert(0, f"{match.group(1)}/{index}")
    parent, _, name = obj_path.rpartition("/")
    if name.startswith("_"):  # Keras 3's `_kernel`, `_embeddings`: Keras 2's `kernel`, ...
        candidates.append(f"{parent}/{name[1:]}" if parent else name[1:])
    for candidate in candidates:
        if candidate + _SUFFIX in shapes:
            return candidate + _SUFFIX
    return None
