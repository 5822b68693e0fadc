"""Turning what a graph-editor call is given (an op, a tensor, an iterable of them, a graph)
into a plain list, checking everything comes from one graph, as TF 1.15's `ge.util` did."""
import tensorflow as tf


class ListView:
    """A read-only view on a list (a SubGraphView's inputs / outputs / passthroughs)."""

    def __init__(self, list_):
        if not isinstance(list_, list):
            raise TypeError(f"Expected a list, got: {type(list_)}.")
        self._list = list_

    def __iter__(self):
        return iter(self._list)

    def __len__(self):
        return len(self._list)

    def __bool__(self):
        return bool(self._list)

    __nonzero__ = __bool__

    def __getitem__(self, i):
        return self._list[i]

    def __add__(self, other):
        return list(self._list) + list(other)


def is_iterable(obj):
    """Whether `obj` can be iterated (a tf.Tensor counts as a single element)."""
    if isinstance(obj, tf.Tensor):
        return False
    try:
        iter(obj)
    except Exception:  # noqa: BLE001 - anything iter() refuses is a single element
        return False
    return True


def concatenate_unique(la, lb):
    """Append to `la`, in order, the elements of `lb` it does not hold yet; returns `la`."""
    seen = set(la)
    for item in lb:
        if item not in seen:
            la.append(item)
            seen.add(item)
    return la


def check_graphs(*args):
    """Raise ValueError unless every argument's `.graph` (where not None) is the same graph."""
    graph = None
    for i, item in enumerate(args):
        if item.graph is None:
            continue
        if graph is None:
            graph = item.graph
        elif item.graph is not graph:
            raise ValueError(f"Argument[{i}]: Wrong graph!")


def get_unique_graph(tops, check_types=None, none_if_empty=False):
    """The one graph all of `tops` (ops and/or tensors, or a tf.Graph) belong to."""
    if isinstance(tops, tf.Graph):
        return tops
    if not is_iterable(tops):
        raise TypeError(f"{type(tops)} is not iterable")
    if check_types is None:
        check_types = (tf.Operation, tf.Tensor)
    elif not is_iterable(check_types):
        check_types = (check_types,)
    check_types = tuple(check_types)
    graph = None
    for top in tops:
        if not isinstance(top, check_types):
            names = ", ".join(str(t) for t in check_types)
            raise TypeError(f"Expected a type in ({names}), got: {type(top)}")
        if graph is None:
            graph = top.graph
        elif top.graph is not graph:
            raise ValueError(f"Operation {top} does not belong to given graph")
    if graph is None and not none_if_empty:
        raise ValueError("Can't find the unique graph of an empty list")
    return graph


def _as_list(items, kind, graph_items, check_graph, allow_graph, ignore_other):
    if isinstance(items, tf.Graph):
        if not allow_graph:
            raise TypeError("allow_graph is False: cannot convert a tf.Graph.")
        return graph_items(items)
    if not is_iterable(items):
        items = [items]
    if not items:
        return []
    if check_graph:
        get_unique_graph(items, check_types=None if ignore_other else kind)
    return [item for item in items if isinstance(item, kind)]


def make_list_of_op(ops, check_graph=True, allow_graph=True, ignore_ts=False):
    """A new list of the tf.Operation in `ops` (an op, an iterable of ops, or a tf.Graph)."""
    return _as_list(ops, tf.Operation, lambda g: g.get_operations(), check_graph, allow_graph,
                    ignore_ts)


def get_tensors(graph):
    """Every output tensor of every op of `graph`."""
    if not isinstance(graph, tf.Graph):
        raise TypeError(f"Expected a graph, got: {type(graph)}")
    return [t for op in graph.get_operations() for t in op.outputs]


def make_list_of_t(ts, check_graph=True, allow_graph=True, ignore_ops=False):
    """A new list of the tf.Tensor in `ts` (a tensor, an iterable of them, or a tf.Graph)."""
    return _as_list(ts, tf.Tensor, get_tensors, check_graph, allow_graph, ignore_ops)


def get_generating_ops(ts):
    """The op making each tensor of `ts`."""
    return [t.op for t in make_list_of_t(ts, allow_graph=False)]


def get_consuming_ops(ts):
    """Every op consuming a tensor of `ts`, once each, in order of first use."""
    ops = []
    for t in make_list_of_t(ts, allow_graph=False):
        concatenate_unique(ops, t.consumers())
    return ops

