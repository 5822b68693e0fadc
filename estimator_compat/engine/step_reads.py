"""A train step's reads of global_step see the step's own number, as in a TF1 session.

A TF1 model_fn often reads the global step after `minimize(global_step=...)` (TPUEstimator's
`host_call` tensors, `tf.reshape(tf.train.get_global_step(), [1])`): the session ran that read
before the increment, so step N's summaries carried N-1 (0, 1, ...). `tf.function` orders a
read after the writes traced before it, so the read saw N. Reads the model_fn made without a
control dependency of its own (the automatic ones are added only when the step's trace ends)
are given the value read at the start of the step; a read the program ordered after its
train_op (`with tf.control_dependencies([train_op])`) keeps the new value.
"""
import tensorflow as tf


def pin(graph, model_fn_ops, later_ops, global_step, step_before):
    """Points the consumers (among both lists) of the plain global_step reads among
    `model_fn_ops` at `step_before`; returns how many inputs it changed."""
    handles = {id(c.handle) for c in getattr(global_step, "values", None) or [global_step]}
    internal = {id(inner) for outer, inner in graph.captures if id(outer) in handles}
    reads = [op for op in model_fn_ops if op.type == "ReadVariableOp" and not op.control_inputs
             and id(op.inputs[0]) in internal and op.outputs[0] is not step_before]
    if not reads:
        return 0
    outputs = {id(op.outputs[0]) for op in reads}
    changed = 0
    for op in list(model_fn_ops) + list(later_ops):
        for index, tensor in enumerate(op.inputs):
            if id(tensor) in outputs and tensor.dtype == step_before.dtype:
                op._update_input(index, step_before)
                changed += 1
    return changed
