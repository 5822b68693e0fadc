"""Evaluates trace-graph tensors outside the compiled step, as a TF1 `Session.run` would.

The wanted tensors' sub-graph is cut out of the step's GraphDef, following data inputs only
(the step's automatic control dependencies order *its* updates; a TF1 session read a variable
whenever asked), and imported into a small function whose captured variable handles are the
real variables. A tensor that needs the input batch cannot be computed this way.
"""
import tensorflow as tf
from tensorflow.python.util import deprecation


class InputDependent(ValueError):
    """The tensor depends on the step's input (a function argument), not only on variables."""


def make_reader(graph, targets):
    """A function returning the current values of `targets` (tensors or ops of `graph`)."""
    graph_def = graph.as_graph_def()
    for node in graph_def.node:
        kept = [i for i in node.input if not i.startswith("^")]
        del node.input[:]
        node.input.extend(kept)
    with deprecation.silence():  # TF1's API, used on purpose: no warning for the user to act on
        sub = tf.compat.v1.graph_util.extract_sub_graph(graph_def, [_op_name(t) for t in targets])
    captured = {internal.op.name: external for external, internal in graph.captures}
    inputs = [n.name for n in sub.node if n.op == "Placeholder"]
    not_captured = [n for n in inputs if n not in captured]
    if not_captured:
        raise InputDependent(f"{[t.name for t in targets]} depend on the step's input "
                             f"({not_captured})")
    names = [t.name for t in targets]

    def read():
        here = tf.compat.v1.get_default_graph()
        return tf.graph_util.import_graph_def(
            sub, input_map={f"{n}:0": here.capture(captured[n]) for n in inputs},
            return_elements=names, name="")

    return tf.compat.v1.wrap_function(read, [])


def _op_name(target):
    return target.name if isinstance(target, tf.Operation) else target.op.name
