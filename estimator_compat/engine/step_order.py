"""The unrolled steps of one call ordered only where they share state, as one traced graph is.

An evaluate / predict call at steps_per_execution N runs N calls of the step's function,
traced once. tf.function orders two calls that write the same variable (eval's metric
totals), and a call's control inputs gate its whole inlined body: each step's forward pass
waited for the last step's metric updates, so the N steps ran one after another (an MLP's
evaluate: 41 ms a call against 33 had the model_fn been traced N times into one graph).

`OrderedStep` gives the step an explicit order instead: a token in, a token out. Inside the
trace, the ops that use a resource the step writes, and stateful ops that use no resource,
wait for the token in; the token out is ready when all the step's stateful ops have run.
Chained from one step to the next, it keeps the order tf.function kept between the updates,
while the forward passes are free to overlap. Steps whose state sits in v1 control flow
(which takes no edge from outside) keep the whole-call order.
"""
import tensorflow as tf
from tensorflow.python.framework import auto_control_deps_utils
from tensorflow.python.util import object_identity

_AFTER = tf.TensorSpec([], tf.float32)


class OrderedStep:
    """`on_element(element) -> outputs`, traced once as (element, after) -> (outputs, done)."""

    def __init__(self, on_element):
        self._whole_call_order = False
        self.ops = 0  # the traced step's ops
        self._fn = tf.function(self._ordered(on_element), autograph=False)

    def __call__(self, element):
        """The step on its own (a one-step call, a loop's body): nothing to wait for."""
        return self._fn(element, tf.constant(0.0))[0]

    def after(self, element, previous):
        """The step after the one whose `done` is `previous`: (outputs, done)."""
        out, done = self._fn(element, previous)
        manager = getattr(tf.compat.v1.get_default_graph(), "experimental_acd_manager", None)
        if not self._whole_call_order and manager is not None and \
                done.op.type == "StatefulPartitionedCall":
            manager.run_independently(done.op)  # its order is the token's
        return out, done

    def structured_outputs(self, element_spec):
        return self._fn.get_concrete_function(element_spec, _AFTER).structured_outputs[0]

    def _ordered(self, on_element):
        def step(element, after):
            gate = tf.identity(after, name="estimator_compat_after_previous_step").op
            graph = tf.compat.v1.get_default_graph()
            first = len(graph.get_operations())
            out = on_element(element)
            self._wait(gate, graph, graph.get_operations()[first:])
            self.ops = len(graph.get_operations()) - first  # (its nested functions' aside)
            return out, tf.identity(after, name="estimator_compat_step_done")
        return step

    def _wait(self, gate, graph, ops):
        free = _read_only_captures(graph)
        for op in ops:
            resources = [t for t in op.inputs if t.dtype == tf.resource]
            if any(t not in free for t in resources) or (op._is_stateful and not resources):
                if op._control_flow_context is not None:  # (v1 cond / while: no edge in)
                    self._whole_call_order = True
                    return
                op._add_control_input(gate)


def _read_only_captures(graph):
    """The variables (captured resources) no op of the step writes."""
    captured = object_identity.ObjectIdentitySet(
        t for t in list(graph.inputs) + list(graph.internal_captures) if t.dtype == tf.resource)
    return object_identity.ObjectIdentitySet(
        t for t in captured
        if all(t not in auto_control_deps_utils.get_read_write_resource_inputs(op)[1]
               for op in t.consumers()))
