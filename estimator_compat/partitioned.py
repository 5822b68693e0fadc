"""Partitioned variables: a TF1 `partitioner` (`get_variable(..., partitioner=...)`, a
variable_scope's, canned estimators' `input_layer_partitioner`) and a ParameterServerStrategy's
`variable_partitioner` split a variable into parts, each its own variable (placed on its own
ps task under parameter servers).

Checkpoints hold the whole variable under its own name, the parts as slices of it, as TF1's
Saver wrote them: a model_dir reads the same whether or not (and however) it was partitioned.
"""
import tensorflow as tf
from tensorflow.python.distribute import sharded_variable
from tensorflow.python.training import slot_creator
from tensorflow.python.training.saving import saveable_object_util

SaveSliceInfo = tf.Variable.SaveSliceInfo


class Parts(list):
    """A partitioned variable's parts as the Saver's slices of the whole (`shape`)."""

    def __init__(self, name, variables):
        variables = sorted(variables, key=lambda v: v._save_slice_info.var_offset)
        super().__init__(saveable_object_util.ResourceVariableSaveable(
            v, v._save_slice_info.spec, name) for v in variables)
        self.shape = tf.TensorShape(variables[0]._save_slice_info.full_shape)


def checkpoint_entries(variables):
    """{checkpoint name: variable, or the list of a partitioned variable's parts} of
    {store name: variable} (parts are stored as `<name>/part_<i>`, shards inside a
    ShardedVariable)."""
    entries, parts = {}, {}
    for name, var in variables.items():
        if is_sharded(var):
            parts[name] = list(var.variables)
            continue
        info = getattr(var, "_save_slice_info", None)
        if info is None:
            entries[name] = var
        else:
            parts.setdefault(info.full_name, []).append(var)
    entries.update({name: Parts(name, variables) for name, variables in parts.items()})
    return entries


def is_sharded(var):
    return isinstance(var, sharded_variable.ShardedVariable)


def set_shard_slices(name, sharded):
    """Gives a ShardedVariable's shards their place in the whole (axis 0), as TF1 parts had."""
    full = sharded.shape.as_list()
    offset = 0
    for shard in sharded.variables:
        shape = shard.shape.as_list()
        shard._set_save_slice_info(SaveSliceInfo(name, full, [offset] + [0] * (len(full) - 1),
                                                 shape))
        offset += shape[0]


def shards(var):
    """The variables an optimizer updates for `var`: a ShardedVariable's shards, else itself."""
    return list(var.variables) if is_sharded(var) else [var]


_original_create_slot_var = slot_creator._create_slot_var


def _create_slot_var(primary, val, scope, validate_shape, shape, dtype, **kwargs):
    """compat.v1 optimizers' slots of a part: TF's own code reads `primary.op.name`, which an
    eager variable lacks; the slot gets the part's slice of the whole slot, as in TF1."""
    info = getattr(primary, "_save_slice_info", None)
    if info is None or not tf.compat.v1.executing_eagerly_outside_functions():
        return _original_create_slot_var(primary, val, scope, validate_shape, shape, dtype,
                                         **kwargs)
    primary._save_slice_info = None
    try:
        slot = _original_create_slot_var(primary, val, scope, validate_shape, shape, dtype,
                                         **kwargs)
    finally:
        primary._save_slice_info = info
    slot_name = slot.name[len(primary.name.split(":")[0]) + 1:].split(":")[0]
    n = slot.shape.ndims
    if n is None or n > 0:
        slot._set_save_slice_info(SaveSliceInfo(
            f"{info.full_name}/{slot_name}", info.full_shape[:n], info.var_offset[:n],
            info.var_shape[:n]))
    return slot


def patch():
    """Installs the slot fix above (idempotent)."""
    slot_creator._create_slot_var = _create_slot_var
