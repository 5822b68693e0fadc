"""`SubGraphView`: a view on part of a tf.Graph, its ops with the tensors going in and out
(remappable: reordered, hidden, repeated outputs) and passthrough tensors going straight
through. A view never changes the graph; the editing functions update the views they are given.
"""
import copy as copy_lib
import io

import tensorflow as tf

from estimator_compat.legacy.contrib.graph_editor_parts import lists
from estimator_compat.legacy.contrib.graph_editor_parts.regex_select import select_ops_and_ts
from estimator_compat.legacy.contrib.graph_editor_parts.regex_select import get_name_scope_ops
from estimator_compat.legacy.contrib.graph_editor_parts.walks import compute_boundary_ts
from estimator_compat.legacy.contrib.graph_editor_parts.walks import get_walks_union_ops


def _indices(indices_or_ts, ts):
    return [i if isinstance(i, int) else ts.index(i) for i in indices_or_ts]


class _NotInView(ValueError, AttributeError):
    """A tensor asked for is not among the view's inputs / outputs: the ValueError TF 1.15
    documented, and the AttributeError it raised in fact (its message named a missing
    `self.name`)."""


def _check_within_range(mapping, n, repetition):
    for i in mapping:
        if not 0 <= i < n:
            raise ValueError(f"Out of [0, {n}[ range: {i}")
    if not repetition and len(set(mapping)) != len(mapping):
        raise ValueError(f"Found repetition in mapping: {mapping}")


class SubGraphView:
    """A subgraph view: `ops`, `inputs` / `outputs` (boundary tensors, then passthroughs),
    `passthroughs`. The `remap*` methods return new views; the graph is not touched."""

    def __init__(self, inside_ops=(), passthrough_ts=()):
        inside_ops = lists.make_list_of_op(inside_ops)
        passthrough_ts = lists.make_list_of_t(passthrough_ts)
        if not inside_ops and not passthrough_ts:
            self._graph = None
            self._ops, self._passthrough_ts, self._input_ts, self._output_ts = [], [], [], []
            return
        self._graph = lists.get_unique_graph(inside_ops + passthrough_ts)
        self._ops = inside_ops
        inputs, outputs, inside = compute_boundary_ts(inside_ops)
        connected = frozenset(inputs + outputs + list(inside))
        # a tensor touching the ops is not a passthrough: silently left out
        self._passthrough_ts = [t for t in passthrough_ts if t not in connected]
        self._input_ts = inputs + self._passthrough_ts
        self._output_ts = outputs + self._passthrough_ts

    def __copy__(self):
        """Another view on the same ops (the lists copied, the graph shared)."""
        cls = self.__class__
        out = cls.__new__(cls)
        for key, value in self.__dict__.items():
            setattr(out, key, value if key == "_graph" else list(value))
        return out

    def _assign_from(self, other):
        if not isinstance(other, SubGraphView):
            raise TypeError(f"Expected SubGraphView, got: {type(other)}")
        self._graph = other._graph
        self._ops = list(other._ops)
        self._passthrough_ts = list(other._passthrough_ts)
        self._input_ts = list(other._input_ts)
        self._output_ts = list(other._output_ts)

    def copy(self):
        """A copy of the view (not of the graph)."""
        return copy_lib.copy(self)

    def _remap_default(self, remove_input_map=True, remove_output_map=True):
        if not remove_input_map and not remove_output_map:
            return
        inputs, outputs, _ = compute_boundary_ts(self._ops)
        if remove_input_map:
            self._input_ts = list(inputs) + self._passthrough_ts
        if remove_output_map:
            self._output_ts = list(outputs) + self._passthrough_ts

    def remap_default(self, remove_input_map=True, remove_output_map=True):
        """A view with its inputs and/or outputs back to the default ones."""
        out = self.copy()
        out._remap_default(remove_input_map, remove_output_map)
        return out

    def _remap_inputs(self, new_input_indices):
        indices = _indices(new_input_indices, self._input_ts)
        _check_within_range(indices, len(self._input_ts), repetition=False)
        self._input_ts = [self._input_ts[i] for i in indices]

    def _remap_outputs(self, new_output_indices):
        indices = _indices(new_output_indices, self._output_ts)
        _check_within_range(indices, len(self._output_ts), repetition=True)
        self._output_ts = [self._output_ts[i] for i in indices]

    def _remap_outputs_make_unique(self):
        self._output_ts = lists.concatenate_unique([], list(self._output_ts))

    def _remap_outputs_to_consumers(self):
        self._remap_outputs_make_unique()
        self._output_ts = [t for t in self._output_ts for _ in t.consumers()]

    def remap_outputs_make_unique(self):
        """A view whose outputs each appear once."""
        out = copy_lib.copy(self)
        out._remap_outputs_make_unique()
        return out

    def remap_outputs_to_consumers(self):
        """A view whose outputs each appear once per consumer."""
        out = copy_lib.copy(self)
        out._remap_outputs_to_consumers()
        return out

    def _remove_unused_ops(self, control_inputs=True):
        used = get_walks_union_ops(self.connected_inputs, self.connected_outputs,
                                   within_ops=self._ops, control_inputs=control_inputs)
        self._ops = [op for op in self._ops if op in used]

    def remove_unused_ops(self, control_inputs=True):
        """A view keeping only the ops connected to its inputs or outputs."""
        out = copy_lib.copy(self)
        out._remove_unused_ops(control_inputs)
        return out

    def remap_inputs(self, new_input_indices):
        """A view whose inputs are these (indices or tensors of the inputs, no repeats)."""
        out = self.copy()
        out._remap_inputs(new_input_indices)
        return out

    def remap_outputs(self, new_output_indices):
        """A view whose outputs are these (indices or tensors of the outputs, repeats allowed)."""
        out = copy_lib.copy(self)
        out._remap_outputs(new_output_indices)
        return out

    def remap(self, new_input_indices=None, new_output_indices=None):
        """`remap_inputs` and `remap_outputs` at once (None leaves that side)."""
        out = copy_lib.copy(self)
        if new_input_indices is not None:
            out._remap_inputs(new_input_indices)
        if new_output_indices is not None:
            out._remap_outputs(new_output_indices)
        return out

    def find_op_by_name(self, op_name):
        """The op of the view named `op_name`."""
        found = [op for op in self._ops if op.name == op_name]
        if not found:
            raise ValueError(f"{op_name} not in subgraph.")
        if len(found) > 1:
            raise AssertionError(f"More than 1 op named: {op_name}!")
        return found[0]

    def __str__(self):
        if not self:
            return "SubGraphView: empty"
        out = io.StringIO()

        def section(title, items, name_of):
            if items:
                print(f"** {title}[{len(items)}]:", file=out)
                print("\n".join(f"  {name_of(item)}" for item in items), file=out)
            else:
                print(f"** {title}: empty", file=out)

        def tensor_name(t):
            return f"{t.name} *" if t in self._passthrough_ts else t.name

        print(f"SubGraphView (graphid={id(self.graph)}):", file=out)
        section("ops", self._ops, lambda op: op.name)
        section("inputs", self._input_ts, tensor_name)
        section("outputs", self._output_ts, tensor_name)
        return out.getvalue()

    @property
    def graph(self):
        """The viewed tf.Graph (None for an empty view)."""
        return self._graph

    @property
    def ops(self):
        return self._ops

    @property
    def inputs(self):
        return lists.ListView(self._input_ts)

    @property
    def connected_inputs(self):
        """The inputs that are not passthroughs."""
        return [t for t in self._input_ts if t not in self._passthrough_ts]

    @property
    def outputs(self):
        return lists.ListView(self._output_ts)

    @property
    def connected_outputs(self):
        """The outputs that are not passthroughs."""
        return [t for t in self._output_ts if t not in self._passthrough_ts]

    @property
    def passthroughs(self):
        return lists.ListView(self._passthrough_ts)

    def __bool__(self):
        return self._graph is not None

    __nonzero__ = __bool__

    def op(self, op_id):
        """The op at index `op_id`."""
        return self._ops[op_id]

    def is_passthrough(self, t):
        return t in self._passthrough_ts

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        pass

    def input_index(self, t):
        """The index of `t` among the inputs."""
        try:
            return self._input_ts.index(t)
        except ValueError:
            raise _NotInView(f"Can't find {t.name} in inputs of subgraph view.") from None

    def output_index(self, t):
        """The index of `t` among the outputs."""
        try:
            return self._output_ts.index(t)
        except ValueError:
            raise _NotInView(f"Can't find {t.name} in outputs of subgraph view.") from None

    def consumers(self):
        """The ops outside the view consuming one of its outputs."""
        inside = frozenset(self._ops)
        found = []
        for t in self._output_ts:
            lists.concatenate_unique(found, [op for op in t.consumers() if op not in inside])
        return found


def _check_graph(sgv, graph):
    if not isinstance(sgv, SubGraphView):
        raise TypeError(f"Expected a SubGraphView, got: {type(graph)}")
    if graph is None or not sgv.graph:
        return sgv
    if not isinstance(graph, tf.Graph):
        raise TypeError(f"Expected a tf.Graph, got: {type(graph)}")
    if sgv.graph is not graph:
        raise ValueError("Graph mismatch.")
    return sgv


def make_view(*args, **kwargs):
    """A SubGraphView of the ops and passthrough tensors `args` select (regexes with graph=,
    ops, tensors; see select_ops_and_ts), or the one SubGraphView given."""
    graph = kwargs.get("graph")
    if len(args) == 1 and isinstance(args[0], SubGraphView):
        return _check_graph(args[0], graph)
    ops, ts = select_ops_and_ts(*args, **kwargs)
    return _check_graph(SubGraphView(ops, ts), graph)


def make_view_from_scope(scope, graph):
    """A SubGraphView of the ops of `graph` under the name scope `scope`."""
    return SubGraphView(get_name_scope_ops(graph, scope))
