"""Cutting and joining subgraphs in place: detaching a view's inputs / outputs onto new
placeholders, dropping its outside control edges, connecting one view's outputs to another's
inputs, and bypassing a view (TF 1.15's `ge.edit`)."""
import tensorflow as tf

from estimator_compat.legacy.contrib.graph_editor_parts import lists, reroute
from estimator_compat.legacy.contrib.graph_editor_parts.control_outputs import ControlOutputs
from estimator_compat.legacy.contrib.graph_editor_parts.placeholders import (
    make_placeholder_from_tensor, placeholder_name)
from estimator_compat.legacy.contrib.graph_editor_parts.subgraph import SubGraphView, make_view
from estimator_compat.legacy.contrib.graph_editor_parts.walks import check_cios


def detach_control_inputs(sgv):
    """Remove the control inputs the view's ops take from outside it."""
    sgv = make_view(sgv)
    for op in sgv.ops:
        reroute.remove_control_inputs(
            op, [cop for cop in op.control_inputs if cop not in sgv.ops])


def detach_control_outputs(sgv, control_outputs):
    """Remove the control edges from the view's ops to ops outside it."""
    if not isinstance(control_outputs, ControlOutputs):
        raise TypeError(f"Expected a util.ControlOutputs, got: {type(control_outputs)}")
    control_outputs.update()
    sgv = make_view(sgv)
    for op in sgv.ops:
        for cop in control_outputs.get(op):
            if cop not in sgv.ops:
                reroute.remove_control_inputs(cop, op)


def detach_inputs(sgv, control_inputs=False):
    """Feed the view's ops from new placeholders (no static shape, as TF 1.15's) in place of
    its inputs; returns (sgv, placeholders), the view updated in place."""
    sgv = make_view(sgv)
    with sgv.graph.as_default():
        placeholders = [tf.compat.v1.placeholder(dtype=t.dtype, name=placeholder_name(t))
                        for t in sgv.inputs]
    reroute.swap_inputs(sgv, placeholders)
    if control_inputs:
        detach_control_inputs(sgv)
    return sgv, placeholders


def detach_outputs(sgv, control_outputs=None):
    """Make the outside consumers of the view's outputs read new placeholders (shaped as the
    outputs) instead; returns (the view of the outputs that had consumers, placeholders)."""
    sgv = make_view(sgv)
    consumed = sgv.remap_outputs([i for i, t in enumerate(sgv.outputs) if t.consumers()])
    consumers = SubGraphView(consumed.consumers())
    consumers = consumers.remap_inputs(
        [i for i, t in enumerate(consumers.inputs) if t in consumed.outputs])
    with consumed.graph.as_default():
        placeholders = [make_placeholder_from_tensor(t) for t in consumers.inputs]
    reroute.swap_outputs(consumed, placeholders)
    if control_outputs is not None:
        detach_control_outputs(consumed, control_outputs)
    return consumed, placeholders


def detach(sgv, control_inputs=False, control_outputs=None, control_ios=None):
    """detach_inputs then detach_outputs; returns (sgv, input placeholders, output
    placeholders)."""
    control_inputs, control_outputs = check_cios(control_inputs, control_outputs, control_ios)
    _, inputs = detach_inputs(sgv, control_inputs)
    _, outputs = detach_outputs(sgv, control_outputs)
    return sgv, inputs, outputs


def connect(sgv0, sgv1, disconnect_first=False):
    """sgv1's ops take sgv0's outputs as their inputs (sgv0's outputs first detached from their
    consumers if `disconnect_first`); returns (sgv0, sgv1)."""
    sgv0, sgv1 = make_view(sgv0), make_view(sgv1)
    lists.check_graphs(sgv0, sgv1)
    if disconnect_first:
        detach_outputs(sgv0)
    reroute.reroute_inputs(SubGraphView(passthrough_ts=sgv0.outputs), sgv1)
    return sgv0, sgv1


def bypass(sgv):
    """Cut the view out: its inputs feed its outputs' consumers directly, its ops read new
    placeholders; returns (sgv, those placeholders)."""
    sgv = make_view(sgv)
    inputs = list(sgv.inputs)
    sgv, placeholders = detach_inputs(sgv)
    reroute.reroute_ts(inputs, sgv.outputs)
    return sgv, placeholders
