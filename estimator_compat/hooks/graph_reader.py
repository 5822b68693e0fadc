"""Evaluates trace-graph tensors outside the compiled step, as a TF1 `Session.run` would.

The wanted tensors' sub-graph is cut out of the step's GraphDef, following data inputs and
the model_fn's own control dependencies (not the automatic ones tf.function adds to order the
step's updates: a TF1 session read a variable whenever asked), and imported into a small
function whose captured variable handles are the real variables (a write the step itself
diverts, engine/unneeded_writes.py, goes to the real variable here). A sub-graph that needs
the input batch reads the call's iterator, as a TF1 `session.run` took a fresh batch (with
steps_per_execution 1, where the step function takes the iterator). Tensors a hook feeds
(`session.run(op, feed_dict={placeholder: value})`, hooks/feeds.py) are cut off from what
computed them and become the function's arguments, as a TF1 feed replaced a tensor.
"""
import tensorflow as tf
from tensorflow.python.util import deprecation


class InputDependent(ValueError):
    """The tensor depends on the step's input (a function argument), not only on variables."""


def make_reader(graph, targets, iterator=None, feeds=()):
    """A function returning the current values of `targets` (tensors or ops of `graph`).

    Where they need the step's input and `iterator` (the call's tf.data iterator) is given,
    the function takes its next element, as a TF1 `session.run` of such a tensor (a train op a
    hook runs, TF-GAN's RunTrainOpsHook) read a fresh batch; the model_fn's own control
    dependencies are then kept, so a train op's updates run (`reader(iterator)`). The tensors
    `feeds` are the function's (last) arguments: `reader(*fed_values)`."""
    user_controls = getattr(graph, "_estimator_compat_control_inputs", None)
    # a tensor's current value follows its data inputs; an op (a train op), anything run on
    # a fresh batch or with feeds (a hook's `assign_add(placeholder)`, whose value waits for
    # the write), what the model_fn or the hook's begin() made it wait for too
    controls = user_controls if iterator is not None or feeds or any(
        isinstance(t, tf.Operation) for t in targets) else None
    sub, inputs, captured = _cut(graph, targets, controls, feeds)
    not_captured = [n for n in inputs if n not in captured and n not in _FEED_NAMES]
    if not_captured and (iterator is None or user_controls is None):
        raise InputDependent(f"{[t.name for t in targets]} depend on the step's input "
                             f"({not_captured})")
    names = [t.name for t in targets]
    feed_specs = [tf.TensorSpec(t.shape, t.dtype) for t in feeds]
    if not not_captured:
        def read(*fed):
            here = tf.compat.v1.get_default_graph()
            input_map = {f"{n}:0": here.capture(captured[n]) for n in inputs
                         if n not in _FEED_NAMES}
            return _outputs(tf.graph_util.import_graph_def(
                sub, input_map=dict(input_map, **_fed_map(inputs, fed)),
                return_elements=names, name=""))
        return tf.compat.v1.wrap_function(read, feed_specs)
    return _input_fed_reader(graph, targets, user_controls, names, feeds)


_FEED_NAMES = tuple(f"estimator_compat_hook_feed_{i}" for i in range(256))


def _fed_map(inputs, fed):
    """input_map entries for the feed placeholders the sub-graph kept (the function's args)."""
    return {f"{_FEED_NAMES[i]}:0": value for i, value in enumerate(fed)
            if _FEED_NAMES[i] in inputs}


def _cut(graph, targets, controls, feeds=()):
    """(sub-GraphDef of `targets`, its placeholders, {captured placeholder: outer tensor}):
    data inputs only, plus `controls` ({op: [control input op]}) where given; each tensor of
    `feeds` replaced by a placeholder `_FEED_NAMES[i]` (what computed it is cut off)."""
    if len(feeds) > len(_FEED_NAMES):
        raise ValueError(f"session.run feeds {len(feeds)} tensors; at most "
                         f"{len(_FEED_NAMES)} can be fed at once.")
    graph_def = graph.as_graph_def()
    fed = {}
    for i, tensor in enumerate(feeds):
        fed[tensor.name] = _FEED_NAMES[i]
        if tensor.value_index == 0:
            fed[tensor.op.name] = _FEED_NAMES[i]
    for node in graph_def.node:
        kept = [fed.get(i, i) for i in node.input if not i.startswith("^")]
        kept += [f"^{c}" for c in (controls or {}).get(node.name, ())]
        del node.input[:]
        node.input.extend(kept)
    for i, tensor in enumerate(feeds):
        node = graph_def.node.add(name=_FEED_NAMES[i], op="Placeholder")
        node.attr["dtype"].type = tensor.dtype.as_datatype_enum
        node.attr["shape"].shape.CopyFrom(tensor.shape.as_proto())
    with deprecation.silence():  # TF1's API, used on purpose: no warning for the user to act on
        sub = tf.compat.v1.graph_util.extract_sub_graph(graph_def, [_op_name(t) for t in targets])
    diverted = getattr(graph, "_estimator_compat_diverted", {})  # engine/unneeded_writes.py
    captured = {internal.op.name: diverted.get(id(external), external)
                for external, internal in graph.captures}
    return sub, [n.name for n in sub.node if n.op == "Placeholder"], captured


def _input_fed_reader(graph, targets, controls, names, feeds=()):
    """`reader(iterator)`: the targets' sub-graph (with the model_fn's control inputs) run on
    the iterator's next element: the one-step function takes the iterator, whose
    `IteratorGetNext` the sub-graph holds. (With steps_per_execution > 1 the hooks' graph
    takes an element instead: not served, the error below says so.)"""
    sub, inputs, captured = _cut(graph, targets, controls, feeds)
    arguments = [t for t in graph.inputs if t.op.name not in captured]
    if len(arguments) != 1 or arguments[0].dtype != tf.resource:
        raise InputDependent(f"{names} depend on the step's input, and with "
                             "steps_per_execution > 1 a hook cannot run them")
    iterator_input = arguments[0].op.name
    if any(n not in captured and n != iterator_input and n not in _FEED_NAMES
           for n in inputs):
        raise InputDependent(f"{names} depend on placeholders the step does not feed")

    def read(iterator_resource, *fed):
        here = tf.compat.v1.get_default_graph()
        input_map = {f"{n}:0": iterator_resource if n == iterator_input
                     else here.capture(captured[n]) for n in inputs if n not in _FEED_NAMES}
        input_map.update(_fed_map(inputs, fed))
        return _outputs(tf.graph_util.import_graph_def(sub, input_map=input_map,
                                                       return_elements=names, name=""))
    specs = [tf.TensorSpec([], tf.resource)] + [tf.TensorSpec(t.shape, t.dtype) for t in feeds]
    return _FedReader(tf.compat.v1.wrap_function(read, specs))


class _FedReader:
    """A reader called with the iterator's resource (`takes_iterator`)."""
    takes_iterator = True

    def __init__(self, function):
        self._function = function

    def __call__(self, iterator_resource, *fed):
        return self._function(iterator_resource, *fed)


def _outputs(elements):
    """The function's outputs: tensors as they are, an op as a 0 that waits for it (its
    session.run value, None, is given by the caller)."""
    out = []
    for element in elements:
        if isinstance(element, tf.Operation):
            with tf.control_dependencies([element]):
                element = tf.constant(0)
        out.append(element)
    return out


def _op_name(target):
    return target.name if isinstance(target, tf.Operation) else target.op.name
