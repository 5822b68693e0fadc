"""Hook fetches ↔ step outputs: nested tensors/ops/names/variables, mapped by graph name."""
import difflib

import tensorflow as tf

from estimator_compat.engine import session_input


class Fetch:
    """One leaf of a hook's fetches, resolved to how its value is obtained."""
    __slots__ = ("kind", "key", "value")

    def __init__(self, kind, key=None, value=None):
        # kind: 'graph' | 'op' | 'host' | 'input' (value: the SessionInput that reads it)
        self.kind, self.key, self.value = kind, key, value


def resolve(leaf):
    if leaf is None:
        return Fetch("host", value=None)
    if isinstance(leaf, tf.Variable):
        return Fetch("host", value=leaf)
    if isinstance(leaf, tf.Operation):
        return Fetch("op", key=leaf.name)
    if isinstance(leaf, tf.Tensor):
        if tf.is_symbolic_tensor(leaf):
            source = session_input.session_of([leaf])
            if source is not None:  # the input_fn's own graph: read with the step's element
                return Fetch("input", key=leaf.name, value=source)
            return Fetch("graph", key=leaf.name)
        return Fetch("host", value=leaf)
    if isinstance(leaf, str):
        return Fetch("graph", key=leaf) if ":" in leaf else Fetch("op", key=leaf)
    if hasattr(leaf, "dtype") and hasattr(leaf, "numpy"):  # a Keras Variable
        return Fetch("host", value=leaf)
    raise TypeError(f"Fetch argument {leaf!r} has invalid type {type(leaf).__name__}; it must be "
                    "a Tensor, an Operation, a Variable, a tensor/op name, or a nest of them.")


def flatten(fetches):
    """(structure, [Fetch]) for a nest of fetches (dicts, lists, tuples)."""
    leaves = tf.nest.flatten(fetches, expand_composites=False)
    return fetches, [resolve(leaf) for leaf in leaves]


def lookup(graph, key):
    """The tensor named `key` in the step's trace graph, with a clear error if absent."""
    try:
        return graph.get_tensor_by_name(key)
    except (KeyError, ValueError):
        raise ValueError(missing_message(graph, key)) from None


def existing(graph, keys):
    """The tensors named `keys` that `graph` has so far (hooks' begin() may make the rest)."""
    found = []
    for key in keys:
        try:
            found.append(graph.get_tensor_by_name(key))
        except (KeyError, ValueError):
            pass
    return found


def missing_message(graph, key):
    """Names the missing tensor and the graph's closest names."""
    names = [op.name for op in graph.get_operations()]
    close = difflib.get_close_matches(key.split(":")[0], names, n=5, cutoff=0.5)
    hint = f" Close matches: {close}." if close else ""
    return (f"A hook asked for {key!r}, which the model_fn's graph does not have.{hint} Name "
            "the tensor in model_fn, e.g. tf.identity(x, name='my_tensor'), and fetch "
            "'my_tensor:0' (or 'my_tensor').")


def pack(structure, resolved, step_values):
    """Values for `structure`, given the step's {graph name: numpy value}."""
    values = []
    for f in resolved:
        if f.kind == "graph":
            values.append(step_values.get(f.key))
        elif f.kind == "input":
            values.append(f.value.fetched.get(f.key))
        elif f.kind == "host":
            values.append(None if f.value is None else f.value.numpy())
        else:
            values.append(None)
    return tf.nest.pack_sequence_as(structure, values)
