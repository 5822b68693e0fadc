"""`tf.contrib.graph_editor`, served whole: editing a TF1 tf.Graph in place or by copying
(subgraph views, selection by name and by walks, rerouting tensors, detaching / connecting /
bypassing subgraphs, the Transformer copier, `graph_replace`), as TF 1.15 did.

Pure Python over tf.Graph / tf.Operation / tf.Tensor, which TensorFlow 2 keeps for graph mode
(tf.compat.v1), with their private editing hooks (`_update_input`, `_add_control_inputs`,
`_remove_all_control_inputs`, `Operation.from_node_def`). The parts live in
`graph_editor_parts/`; the submodules `edit` / `reroute` / `select` / `subgraph` / `transform` /
`util` are served under their TF 1.15 import paths with the public names each had.
"""
from estimator_compat.legacy.contrib.graph_editor_parts import (
    control_outputs, copying, edit, handlers, lists, placeholders, regex_select, reroute,
    subgraph, transformer, trees, walks)

_PATH = "tensorflow.contrib.graph_editor"


def _names(module, names):
    return {name: getattr(module, name) for name in names.split()}


def _submodules():
    util = dict(
        _names(lists, "ListView check_graphs concatenate_unique get_consuming_ops "
                      "get_generating_ops get_tensors get_unique_graph is_iterable "
                      "make_list_of_op make_list_of_t"),
        **_names(trees, "find_corresponding find_corresponding_elem flatten_tree "
                        "transform_tree"),
        **_names(control_outputs, "ControlOutputs"),
        **_names(placeholders, "get_predefined_collection_names "
                               "make_placeholder_from_dtype_and_shape "
                               "make_placeholder_from_tensor placeholder_name scope_basename "
                               "scope_dirname scope_finalize"))
    select = dict(
        _names(regex_select, "can_be_regex make_regex filter_ts filter_ts_from_regex "
                             "filter_ops filter_ops_from_regex get_name_scope_ops select_ops "
                             "select_ts select_ops_and_ts"),
        **_names(walks, "check_cios get_ops_ios compute_boundary_ts get_within_boundary_ops "
                        "get_forward_walk_ops get_backward_walk_ops "
                        "get_walks_intersection_ops get_walks_union_ops"))
    transform = dict(
        _names(handlers, "replace_t_with_placeholder_handler keep_t_if_possible_handler "
                         "assign_renamed_collections_handler transform_op_if_inside_handler "
                         "copy_op_handler"),
        **_names(transformer, "Transformer TransformerInfo"),
        **_names(copying, "copy copy_with_input_replacements graph_replace"))
    return {
        "edit": _names(edit, "detach_control_inputs detach_control_outputs detach_inputs "
                             "detach_outputs detach connect bypass"),
        "reroute": _names(reroute, "swap_ts reroute_ts swap_inputs reroute_inputs swap_outputs "
                                   "reroute_outputs swap_ios reroute_ios remove_control_inputs "
                                   "add_control_inputs"),
        "select": select,
        "subgraph": _names(subgraph, "SubGraphView make_view make_view_from_scope"),
        "transform": transform,
        "util": util,
    }


# what `from tensorflow.contrib.graph_editor.util import *` gave TF 1.15's package (its __all__)
_UTIL_EXPORTS = ("make_list_of_op get_tensors make_list_of_t get_generating_ops "
                 "get_consuming_ops ControlOutputs placeholder_name make_placeholder_from_tensor "
                 "make_placeholder_from_dtype_and_shape").split()


def build():
    from estimator_compat.legacy.namespaces import namespace
    names = {}
    modules = {}
    for name, attrs in _submodules().items():
        modules[name] = namespace(f"{_PATH}.{name}", f"tf.contrib.graph_editor.{name}", **attrs)
        exported = _UTIL_EXPORTS if name == "util" else attrs
        names.update({key: attrs[key] for key in exported})
    return namespace(_PATH, __doc__, __served_whole__=True, **names, **modules,
                     ph=placeholders.make_placeholder_from_dtype_and_shape,
                     sgv=subgraph.make_view, sgv_scope=subgraph.make_view_from_scope)
