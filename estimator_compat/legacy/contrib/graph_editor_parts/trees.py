"""Nested structures (lists, tuples, namedtuples, dicts) of graph elements: flattening them,
mapping their leaves, and finding each leaf's namesake in another graph (TF 1.15's
`ge.util.flatten_tree` / `transform_tree` / `find_corresponding`)."""
import collections.abc

import tensorflow as tf

from estimator_compat.legacy.contrib.graph_editor_parts.lists import is_iterable
from estimator_compat.legacy.contrib.graph_editor_parts.placeholders import scope_finalize


def flatten_tree(tree, leaves=None):
    """The leaves of `tree` in order (a dict's in its iteration order), appended to `leaves`."""
    leaves = [] if leaves is None else leaves
    if isinstance(tree, dict):
        for child in tree.values():
            flatten_tree(child, leaves)
    elif is_iterable(tree):
        for child in tree:
            flatten_tree(child, leaves)
    else:
        leaves.append(tree)
    return leaves


def transform_tree(tree, fn, iterable_type=tuple):
    """`tree` with `fn` applied to each leaf, its containers rebuilt with their own types (an
    iterable of no known kind becomes `iterable_type`)."""
    if not is_iterable(tree):
        return fn(tree)
    if isinstance(tree, dict):
        out = tree.__new__(type(tree))
        out.__init__((key, transform_tree(child, fn)) for key, child in tree.items())
        return out
    if isinstance(tree, tuple):
        if hasattr(tree, "_asdict"):  # a namedtuple
            return tree.__new__(type(tree), **transform_tree(tree._asdict(), fn))
        return tree.__new__(type(tree), (transform_tree(child, fn) for child in tree))
    if isinstance(tree, collections.abc.Sequence):
        out = tree.__new__(type(tree))
        out.__init__(transform_tree(child, fn) for child in tree)
        return out
    return iterable_type(transform_tree(child, fn) for child in tree)


def find_corresponding_elem(target, dst_graph, dst_scope="", src_scope=""):
    """The op or tensor of `dst_graph` named as `target`, `src_scope` swapped for
    `dst_scope`."""
    name = target.name
    if src_scope:
        src_scope = scope_finalize(src_scope)
        # TF 1.15 misspelt `startswith` here (a src_scope raised AttributeError): documented
        # behaviour served instead
        if not name.startswith(src_scope):
            raise ValueError(f"{name} does not start with {src_scope}")
        name = name[len(src_scope):]
    if dst_scope:
        name = scope_finalize(dst_scope) + name
    if isinstance(target, tf.Tensor):
        return dst_graph.get_tensor_by_name(name)
    if isinstance(target, tf.Operation):
        return dst_graph.get_operation_by_name(name)
    raise TypeError(f"Expected tf.Tensor or tf.Operation, got: {type(target)}")


def find_corresponding(targets, dst_graph, dst_scope="", src_scope=""):
    """`targets` (a nested structure of ops / tensors) with each leaf replaced by its namesake
    in `dst_graph` (see `find_corresponding_elem`)."""
    return transform_tree(
        targets, lambda top: find_corresponding_elem(top, dst_graph, dst_scope, src_scope))
