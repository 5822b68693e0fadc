"""`Transformer`: copies a subgraph view into a graph (the same or another), op by op in creation
order, asking its handlers what each op, input tensor, control input and collection becomes;
`TransformerInfo` maps the originals to their copies afterwards.

Ops in a cycle (a while loop's NextIteration feeding a Merge) are copied before their inputs
are: the copy takes a stand-in (the Merge's first input, an Enter's input, or a `geph_tmp`
placeholder) and is rewired once the input's copy exists.
"""
import functools
import io
import logging

import tensorflow as tf

from estimator_compat.legacy.contrib.graph_editor_parts import handlers, reroute
from estimator_compat.legacy.contrib.graph_editor_parts.control_outputs import ControlOutputs
from estimator_compat.legacy.contrib.graph_editor_parts.placeholders import (
    make_placeholder_from_tensor, scope_finalize)
from estimator_compat.legacy.contrib.graph_editor_parts.subgraph import SubGraphView, make_view
from estimator_compat.legacy.contrib.graph_editor_parts.trees import transform_tree

logger = logging.getLogger("tensorflow")


class TransformerInfo:
    """What a transform did: source / destination graph and scope, and the op / tensor maps."""

    def __init__(self, info):
        self._graph, self._scope = info.graph, info.scope
        self._graph_, self._scope_ = info.graph_, info.scope_
        self._transformed_ops = info.transformed_ops
        self._transformed_ts = info.transformed_ts

    def _get_transformed_map(self, top):
        if isinstance(top, tf.Operation):
            return self._transformed_ops
        if isinstance(top, tf.Tensor):
            return self._transformed_ts
        raise TypeError(f"Expected a tf.Tensor or a tf.Operation, got a {type(top)}")

    def _transformed_elem(self, original_top, missing_fn=None):
        mapping = self._get_transformed_map(original_top)
        if original_top in mapping:
            return mapping[original_top]
        return None if missing_fn is None else missing_fn(original_top)

    def _original_elem(self, transformed_top, missing_fn=None):
        mapping = self._get_transformed_map(transformed_top)
        for original, transformed in mapping.items():
            if transformed == transformed_top:
                return original
        return None if missing_fn is None else missing_fn(transformed_top)

    def transformed(self, original, missing_fn=None):
        """The copy of each op / tensor in `original` (a nested structure kept as it is); None,
        or `missing_fn(elem)`, where there is none."""
        return transform_tree(original,
                              functools.partial(self._transformed_elem, missing_fn=missing_fn))

    def original(self, transformed, missing_fn=None):
        """The original of each copied op / tensor in `transformed` (as `transformed()`)."""
        return transform_tree(transformed,
                              functools.partial(self._original_elem, missing_fn=missing_fn))

    def __str__(self):
        out = io.StringIO()
        print("Transform result info:", file=out)
        if self._graph == self._graph_:
            in_place = "" if self._scope_ else " IN-PLACE"
            print(f"  Within graph[{id(self._graph)}]{in_place}", file=out)
        else:
            print(f"  graph[{id(self._graph)}] => graph[{id(self._graph_)}]", file=out)
        if self._scope:
            print(f"  Relative to source scope: {self._scope}", file=out)
        if self._scope_:
            print(f"  Scope destination: {self._scope_}", file=out)
        print("Operations mapping:", file=out)
        for op, op_ in self._transformed_ops.items():
            print(f"  {op.name} => {op_.name}", file=out)
        return out.getvalue()


class _TmpInfo:
    """The state of one transform call, handed to the handlers (`info`): the source view and
    graph / scope, the destination graph_ / scope_, and the copies made so far."""

    def __init__(self, sgv, dst_graph, dst_scope, src_scope):
        self.sgv = sgv
        self.sgv_inputs_set = frozenset(sgv.inputs)
        self.ops = frozenset(sgv.ops)
        self.control_outputs = ControlOutputs(sgv.graph)
        self.graph, self.scope = sgv.graph, src_scope
        self.graph_, self.scope_ = dst_graph, dst_scope
        self.transformed_ops, self.transformed_ts = {}, {}
        self.collections = {key: self.graph.get_collection(key)
                            for key in self.graph.get_all_collection_keys()}
        self.cyclic_ops = []
        self.transform_original_op_handler = handlers.transform_op_if_inside_handler
        self.tmp_cyclic_ts = []  # (tensor, its stand-in, the op that took the stand-in)

    def new_name(self, name):
        """`name` moved from the source scope to the destination scope."""
        if not name.startswith(self.scope):
            raise ValueError(f"{name} does not belong to source scope: {self.scope}.")
        return self.scope_ + name[len(self.scope):]


class Transformer:
    """Copies a subgraph; its handler attributes say how (defaults: copy each op, placeholders
    for the view's inputs, hidden inputs kept within the same graph, collections renamed)."""

    def __init__(self):
        self.transform_op_handler = handlers.copy_op_handler
        self.transform_control_input_handler = handlers.transform_op_if_inside_handler
        self.assign_collections_handler = handlers.assign_renamed_collections_handler
        self.transform_external_input_handler = handlers.replace_t_with_placeholder_handler
        self.transform_external_hidden_input_handler = handlers.keep_t_if_possible_handler
        self.transform_original_op_handler = handlers.transform_op_if_inside_handler

    def __call__(self, sgv, dst_graph, dst_scope, src_scope="", reuse_dst_scope=False):
        """Copy `sgv` into `dst_graph` under `dst_scope` (made unique unless
        `reuse_dst_scope`), names taken relative to `src_scope`; (copied view, info)."""
        sgv = make_view(sgv)
        if not isinstance(dst_graph, tf.Graph):
            raise TypeError(f"Expected a tf.Graph, got: {type(dst_graph)}")
        src_scope, dst_scope = scope_finalize(src_scope), scope_finalize(dst_scope)
        if dst_scope and not reuse_dst_scope:
            dst_scope = scope_finalize(dst_graph.unique_name(dst_scope[:-1]))
        info = _TmpInfo(sgv, dst_graph, dst_scope, src_scope)
        self._copy_ops(info)
        self._finalize_cycles(info)
        self._connect_control_inputs(info)
        return self._transform_sgv(info, sgv), TransformerInfo(info)

    def _copy_ops(self, info):
        for op in sorted(info.sgv.ops, key=lambda op: op._id):  # pylint: disable=protected-access
            new_inputs = [self._transformed_t(info, t, op) for t in op.inputs]
            op_, outputs_ = self.transform_op_handler(info, op, new_inputs)
            if op is op_:
                raise ValueError("In-place transformation not allowed.")
            info.transformed_ops[op] = op_
            self.assign_collections_handler(info, op, op_)
            for t, t_ in zip(op.outputs, outputs_):
                info.transformed_ts[t] = t_
                self.assign_collections_handler(info, t, t_)

    def _finalize_cycles(self, info):
        for t, stand_in, consumer in info.tmp_cyclic_ts:
            if t not in info.transformed_ts:
                raise ValueError(f"The tensor {t.name} should be transformed by now.")
            if consumer not in info.transformed_ops:
                raise ValueError(f"The op {consumer.name} should be transformed by now.")
            consumer_ = info.transformed_ops[consumer]
            index = list(consumer_.inputs).index(stand_in)
            # pylint: disable-next=protected-access
            consumer_._update_input(index, info.transformed_ts[t])

    def _connect_control_inputs(self, info):
        for op in info.sgv.ops:
            op_ = info.transformed_ops[op]
            # pylint: disable=protected-access
            if op._original_op:
                original = self.transform_original_op_handler(info, op._original_op)
                if original is None:
                    logger.debug("Could not find original op for: %s", op_.name)
                else:
                    op_._original_op = original
            # pylint: enable=protected-access
            controls = [self.transform_control_input_handler(info, ci)
                        for ci in op.control_inputs]
            reroute.add_control_inputs(op_, [ci for ci in controls if ci is not None])

    def _transform_sgv(self, info, sgv):
        """The view of the copies, its inputs / outputs in the order of `sgv`'s."""
        sgv_ = SubGraphView(list(info.transformed_ops.values()))
        input_map = [sgv_.input_index(info.transformed_ts[t]) for t in sgv.inputs
                     if t in info.transformed_ts and info.transformed_ts[t] in sgv_.inputs]
        output_map = [sgv_.output_index(info.transformed_ts[t]) for t in sgv.outputs
                      if t in info.transformed_ts and info.transformed_ts[t] in sgv_.outputs]
        return sgv_.remap(input_map, output_map)

    def _transformed_t(self, info, t, consumer_op):
        """What input `t` of `consumer_op` becomes in the copy."""
        if t in info.transformed_ts:
            return info.transformed_ts[t]
        if t in info.sgv_inputs_set:
            return self.transform_external_input_handler(info, t)
        if t.op not in info.ops:
            return self.transform_external_hidden_input_handler(info, t)
        # made inside the view but not copied yet: a cycle; a stand-in until it is
        if consumer_op.type == "Merge":
            stand_in = self._transformed_t(info, consumer_op.inputs[0], consumer_op)
        elif t.op.type == "Enter":
            stand_in = self._transformed_t(info, t.op.inputs[0], consumer_op)
        else:
            with info.graph_.as_default():
                stand_in = make_placeholder_from_tensor(t, scope=info.scope_,
                                                        prefix="geph_tmp")
        info.tmp_cyclic_ts.append((t, stand_in, consumer_op))
        return stand_in
