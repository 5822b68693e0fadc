"""A hook's `session.run(..., feed_dict=...)`: its keys resolved to tensors of the mode's trace
graph and its values checked and converted as a TF1 `Session.run` did (the same errors), before
hooks/graph_reader.py cuts a function that takes the fed tensors as its arguments."""
import numpy as np
import tensorflow as tf


def resolve(graph, feed_dict):
    """[(tensor of `graph`, numpy value)] for `feed_dict`, in a fixed order (by tensor name)."""
    if not isinstance(feed_dict, dict):
        raise TypeError(f"feed_dict must be a dict of {{tensor or tensor name: value}}, given "
                        f"{type(feed_dict).__name__}: {feed_dict!r}")
    pairs = [(_tensor(graph, key), key, value) for key, value in feed_dict.items()]
    return sorted(((t, _value(t, key, value)) for t, key, value in pairs),
                  key=lambda pair: pair[0].name)


def _tensor(graph, key):
    if isinstance(key, tf.Tensor) and tf.is_symbolic_tensor(key):
        name = key.name  # a tensor of an earlier trace: the same name in this one
    elif isinstance(key, str):
        name = key
    else:
        raise TypeError(f"Cannot interpret feed_dict key {key!r} as Tensor: feed_dict keys "
                        "must be graph tensors (a placeholder) or their names 'op_name:0'.")
    if ":" not in name:
        raise TypeError(f"Cannot interpret feed_dict key as Tensor: The name {name!r} refers to "
                        "an Operation, not a Tensor. Tensor names must be of the form "
                        '"<op_name>:<output_index>".')
    try:
        return graph.get_tensor_by_name(name)
    except (KeyError, ValueError):
        raise TypeError(f"Cannot interpret feed_dict key as Tensor: the model_fn's graph (with "
                        f"the ops the hooks' begin() made) has no tensor {name!r}.") from None


def _value(tensor, key, value):
    if isinstance(value, (tf.Tensor, tf.Variable)) or (
            hasattr(value, "numpy") and not isinstance(value, np.ndarray)):
        raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed "
                        "values include Python scalars, strings, lists, numpy ndarrays. For "
                        f"reference, the tensor object was {value!r} which was passed to the "
                        f"feed with key {key!r}.")
    dtype = tensor.dtype.base_dtype
    if dtype == tf.resource or dtype == tf.variant:
        raise TypeError(f"Cannot feed {tensor.name!r}: it is a {dtype.name} tensor (a "
                        "variable's handle or a dataset), which a feed cannot replace.")
    try:
        array = np.asarray(value, dtype=object if dtype == tf.string else dtype.as_numpy_dtype)
    except (OverflowError, TypeError, ValueError) as e:
        raise type(e)(f"Cannot feed {value!r} to {tensor.name!r} of dtype {dtype.name}: "
                      f"{e}") from None
    if not tensor.shape.is_compatible_with(array.shape):
        raise ValueError(f"Cannot feed value of shape {array.shape} for Tensor "
                         f"{tensor.name!r}, which has shape '{tensor.shape}'")
    return array
