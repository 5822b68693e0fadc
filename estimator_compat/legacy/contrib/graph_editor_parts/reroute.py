"""Rerouting the ends of tensors: the consumers of one tensor made to consume another
(`reroute_*`, one way, or `swap_*`, both ways), for tensor lists and for subgraph views'
inputs / outputs, and adding / removing control inputs. These edit the graph in place, through
tf.Operation's own `_update_input` / `_add_control_inputs` / `_remove_all_control_inputs`.
"""
import tensorflow as tf

from estimator_compat.legacy.contrib.graph_editor_parts import lists
from estimator_compat.legacy.contrib.graph_editor_parts.subgraph import SubGraphView, make_view

_SWAP, _A2B, _B2A = range(3)


def _directions(mode):
    """(a2b, b2a): whether t1's consumers move to t0, and whether t0's move to t1."""
    if mode not in (_SWAP, _A2B, _B2A):
        raise ValueError(f"Unknown _RerouteMode: {mode}")
    return mode in (_SWAP, _A2B), mode in (_SWAP, _B2A)


def _check_ts_compatibility(ts0, ts1):
    ts0, ts1 = lists.make_list_of_t(ts0), lists.make_list_of_t(ts1)
    if len(ts0) != len(ts1):
        raise ValueError(f"ts0 and ts1 have different sizes: {len(ts0)} != {len(ts1)}")
    for t0, t1 in zip(ts0, ts1):
        if not t0.dtype.is_compatible_with(t1.dtype):
            raise ValueError(f"Dtypes {t0.dtype} and {t1.dtype} are not compatible.")
        if not t0.get_shape().is_compatible_with(t1.get_shape()):
            raise ValueError(f"Shapes {t0.get_shape()} and {t1.get_shape()} are not "
                             "compatible.")


def _move_consumers(t_new, t_old, consumers, can_modify, cannot_modify):
    """Make `consumers` (of t_old, less the ops not allowed) read t_new instead; the count of
    inputs changed."""
    if can_modify is not None:
        consumers &= can_modify
    if cannot_modify is not None:
        consumers -= cannot_modify
    slots = [(op, i) for op in consumers for i, t in enumerate(op.inputs) if t is t_old]
    for op, i in slots:
        op._update_input(i, t_new)  # pylint: disable=protected-access
    return len(slots)


def _reroute_ts(ts0, ts1, mode, can_modify=None, cannot_modify=None):
    a2b, b2a = _directions(mode)
    ts0, ts1 = lists.make_list_of_t(ts0), lists.make_list_of_t(ts1)
    _check_ts_compatibility(ts0, ts1)
    if cannot_modify is not None:
        cannot_modify = frozenset(lists.make_list_of_op(cannot_modify))
    if can_modify is not None:
        can_modify = frozenset(lists.make_list_of_op(can_modify))
    # the consumers are taken before any change, so a repeated tensor moves once
    consumers = [(set(t0.consumers()), set(t1.consumers())) for t0, t1 in zip(ts0, ts1)]
    changed = 0
    for t0, t1, (consumers0, consumers1) in zip(ts0, ts1, consumers):
        if t0 is t1:
            continue
        if a2b:
            changed += _move_consumers(t0, t1, consumers1, can_modify, cannot_modify)
        if b2a:
            changed += _move_consumers(t1, t0, consumers0, can_modify, cannot_modify)
    return changed


def swap_ts(ts0, ts1, can_modify=None, cannot_modify=None):
    """For each pair (t0, t1), t0's consumers take t1 and t1's take t0; the count of inputs
    changed (only among `can_modify`, never among `cannot_modify`)."""
    return _reroute_ts(ts0, ts1, _SWAP, can_modify, cannot_modify)


def reroute_ts(ts0, ts1, can_modify=None, cannot_modify=None):
    """For each pair (t0, t1), t1's consumers take t0 (t1 is left unconsumed); the count of
    inputs changed."""
    return _reroute_ts(ts0, ts1, _A2B, can_modify, cannot_modify)


def _remap_views(sgv0, sgv1, mode):
    """Update the two views in place as their inputs were rerouted."""
    a2b, b2a = _directions(mode)
    for sgv in (sgv0, sgv1):
        if not isinstance(sgv, SubGraphView):
            raise TypeError(f"Expected a SubGraphView, got {type(sgv)}")
    lists.check_graphs(sgv0, sgv1)
    new0, new1 = sgv0.copy(), sgv1.copy()
    # pylint: disable=protected-access
    if a2b and b2a:
        new0._input_ts, new1._input_ts = new1._input_ts, new0._input_ts
        new0._passthrough_ts, new1._passthrough_ts = new1._passthrough_ts, new0._passthrough_ts
    elif a2b:
        new1._input_ts, new1._passthrough_ts = new0._input_ts[:], new0._passthrough_ts[:]
    elif b2a:
        new0._input_ts, new0._passthrough_ts = new1._input_ts[:], new1._passthrough_ts[:]

    def follow_passthroughs(a, b):
        for i, t in enumerate(b._output_ts):
            if t in a._passthrough_ts:
                b._output_ts[i] = b._input_ts[a._input_ts.index(t)]

    if a2b:
        follow_passthroughs(new0, new1)
    if b2a:
        follow_passthroughs(new1, new0)
    sgv0._assign_from(new0)
    sgv1._assign_from(new1)
    # pylint: enable=protected-access


def _reroute_sgv_inputs(sgv0, sgv1, mode):
    sgv0, sgv1 = make_view(sgv0), make_view(sgv1)
    lists.check_graphs(sgv0, sgv1)
    can_modify = (sgv0.ops + sgv1.ops + lists.get_consuming_ops(sgv0.passthroughs)
                  + lists.get_consuming_ops(sgv1.passthroughs))
    _reroute_ts(sgv0.inputs, sgv1.inputs, mode, can_modify=can_modify)
    _remap_views(sgv0, sgv1, mode)
    return sgv0, sgv1


def _reroute_sgv_outputs(sgv0, sgv1, mode):
    sgv0, sgv1 = make_view(sgv0), make_view(sgv1)
    lists.check_graphs(sgv0, sgv1)
    _reroute_ts(sgv0.outputs, sgv1.outputs, mode, cannot_modify=sgv0.ops + sgv1.ops)
    return sgv0, sgv1


def _reroute_sgv(sgv0, sgv1, mode):
    _reroute_sgv_outputs(sgv0, sgv1, mode)
    _reroute_sgv_inputs(sgv0, sgv1, mode)
    return sgv0, sgv1


def swap_inputs(sgv0, sgv1):
    """Swap the inputs of two subgraph views (made by make_view's rules; updated in place)."""
    return _reroute_sgv_inputs(sgv0, sgv1, _SWAP)


def reroute_inputs(sgv0, sgv1):
    """sgv1's ops take sgv0's inputs; returns (sgv0, sgv1), updated in place."""
    return _reroute_sgv_inputs(sgv0, sgv1, _A2B)


def swap_outputs(sgv0, sgv1):
    """The consumers of sgv0's outputs take sgv1's and the other way round."""
    return _reroute_sgv_outputs(sgv0, sgv1, _SWAP)


def reroute_outputs(sgv0, sgv1):
    """The consumers of sgv1's outputs take sgv0's outputs instead."""
    return _reroute_sgv_outputs(sgv0, sgv1, _A2B)


def swap_ios(sgv0, sgv1):
    """Swap both the outputs and the inputs of two subgraph views."""
    return _reroute_sgv(sgv0, sgv1, _SWAP)


def reroute_ios(sgv0, sgv1):
    """Reroute both the outputs and the inputs of sgv0 to sgv1."""
    return _reroute_sgv(sgv0, sgv1, _A2B)


def _check_op(op):
    if not isinstance(op, tf.Operation):
        raise TypeError(f"Expected a tf.Operation, got: {type(op)}")


def remove_control_inputs(op, cops):
    """Remove the control inputs `cops` of `op` (each must be one)."""
    _check_op(op)
    cops = lists.make_list_of_op(cops, allow_graph=False)
    for cop in cops:
        if cop not in op.control_inputs:
            raise ValueError(f"{op.name} is not a control_input of {cop.name}")
    kept = [cop for cop in op.control_inputs if cop not in cops]
    op._remove_all_control_inputs()  # pylint: disable=protected-access
    op._add_control_inputs(kept)  # pylint: disable=protected-access


def add_control_inputs(op, cops):
    """Add the control inputs `cops` to `op` (none may be one already)."""
    _check_op(op)
    cops = lists.make_list_of_op(cops, allow_graph=False)
    for cop in cops:
        if cop in op.control_inputs:
            raise ValueError(f"{cop.name} is already a control_input of {op.name}")
    op._add_control_inputs(cops)  # pylint: disable=protected-access
