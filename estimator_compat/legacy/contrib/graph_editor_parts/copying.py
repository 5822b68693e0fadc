"""Copying a subgraph with the default Transformer (`copy`), with some of its inputs replaced
(`copy_with_input_replacements`), and recomputing targets from replaced tensors
(`graph_replace`: the ops between the replaced tensors and the targets are copied)."""
import tensorflow as tf

from estimator_compat.legacy.contrib.graph_editor_parts import lists
from estimator_compat.legacy.contrib.graph_editor_parts.control_outputs import ControlOutputs
from estimator_compat.legacy.contrib.graph_editor_parts.handlers import (
    keep_t_if_possible_handler)
from estimator_compat.legacy.contrib.graph_editor_parts.subgraph import make_view
from estimator_compat.legacy.contrib.graph_editor_parts.transformer import Transformer
from estimator_compat.legacy.contrib.graph_editor_parts.trees import flatten_tree
from estimator_compat.legacy.contrib.graph_editor_parts.walks import (
    get_walks_intersection_ops)


def _view_and_graph(sgv, dst_graph):
    sgv = make_view(sgv)
    dst_graph = sgv.graph if dst_graph is None else dst_graph
    if not isinstance(dst_graph, tf.Graph):
        raise TypeError(f"Expected a tf.Graph, got: {type(dst_graph)}")
    return sgv, dst_graph


def copy(sgv, dst_graph=None, dst_scope="", src_scope="", reuse_dst_scope=False):
    """Copy a subgraph (into its own graph by default); (copied view, TransformerInfo)."""
    sgv, dst_graph = _view_and_graph(sgv, dst_graph)
    return Transformer()(sgv, dst_graph, dst_scope, src_scope,
                         reuse_dst_scope=reuse_dst_scope)


def copy_with_input_replacements(sgv, replacement_ts, dst_graph=None, dst_scope="",
                                 src_scope="", reuse_dst_scope=False):
    """Copy a subgraph, its inputs found in `replacement_ts` ({original: replacement}) replaced,
    its other inputs kept where the copy stays in the same graph."""
    sgv, dst_graph = _view_and_graph(sgv, dst_graph)
    copier = Transformer()

    def replace_or_keep(info, t):
        return replacement_ts[t] if t in replacement_ts else keep_t_if_possible_handler(info, t)
    copier.transform_external_input_handler = replace_or_keep
    return copier(sgv, dst_graph, dst_scope, src_scope, reuse_dst_scope=reuse_dst_scope)


def _add_control_flow_ops(ops, control_ios):
    """Add to `ops` the rest of each TF1 while loop (Enter to Exit) some of them are in, so the
    copy is a whole loop."""
    contexts = set()
    for op in ops:
        context = op._get_control_flow_context()  # pylint: disable=protected-access
        if context:
            contexts.add(context)
    extra = []
    for context in contexts:
        if context.IsWhileContext():
            extra += get_walks_intersection_ops([t.op for t in context.loop_enters],
                                                [t.op for t in context.loop_exits],
                                                control_ios=control_ios)
    present = frozenset(ops)
    ops += [op for op in set(extra) if op not in present]


def graph_replace(target_ts, replacement_ts, dst_scope="", src_scope="",
                  reuse_dst_scope=False):
    """`target_ts` (a tensor or a nested structure of them) recomputed from `replacement_ts`
    ({original: replacement}): the ops between them are copied; a target not depending on any
    replaced tensor is returned as it is."""
    targets = flatten_tree(target_ts)
    graph = lists.get_unique_graph(targets, check_types=(tf.Tensor,))
    control_ios = ControlOutputs(graph)
    ops = get_walks_intersection_ops(list(replacement_ts), targets, control_ios=control_ios)
    if not ops:
        raise ValueError("Targets and replacements are not connected!")
    _add_control_flow_ops(ops, control_ios)
    _, info = copy_with_input_replacements(ops, replacement_ts, None, dst_scope, src_scope,
                                           reuse_dst_scope)
    return info.transformed(target_ts, lambda original: original)
