"""Selecting ops and tensors by name or predicate (TF 1.15's `ge.select` filters and its
`select_ops` / `select_ts` / `select_ops_and_ts`).

In `select_*`, a regex argument starting with "(?#ts)" matches tensors only, "(?#ops)" ops only.
"""
import re

import tensorflow as tf

from estimator_compat.legacy.contrib.graph_editor_parts import lists
from estimator_compat.legacy.contrib.graph_editor_parts.walks import _outputs, _unique_inputs

_RE_TYPE = type(re.compile(""))


def can_be_regex(obj):
    """Whether `obj` is a string or a compiled regular expression."""
    return isinstance(obj, (str, _RE_TYPE))


def make_regex(obj):
    """`obj` as a compiled regular expression."""
    if not can_be_regex(obj):
        raise ValueError(f"Expected a string or a regex, got: {type(obj)}")
    return re.compile(obj) if isinstance(obj, str) else obj


def filter_ts(ops, positive_filter):
    """The input then output tensors of `ops` (once each) that `positive_filter` keeps (all of
    them where it is True)."""
    ops = lists.make_list_of_op(ops)
    ts = lists.concatenate_unique(_unique_inputs(ops), _outputs(ops))
    return ts if positive_filter is True else [t for t in ts if positive_filter(t)]


def filter_ts_from_regex(ops, regex):
    """The tensors of `ops` whose name `regex` finds (re.search)."""
    ops = lists.make_list_of_op(ops)
    pattern = make_regex(regex)
    return filter_ts(ops, positive_filter=lambda t: pattern.search(t.name))


def filter_ops(ops, positive_filter):
    """The ops of `ops` that `positive_filter` keeps (all of them where it is True)."""
    ops = lists.make_list_of_op(ops)
    return ops if positive_filter is True else [op for op in ops if positive_filter(op)]


def filter_ops_from_regex(ops, regex):
    """The ops of `ops` whose name `regex` finds (re.search)."""
    ops = lists.make_list_of_op(ops)
    pattern = make_regex(regex)
    return filter_ops(ops, lambda op: pattern.search(op.name))


def get_name_scope_ops(ops, scope):
    """The ops of `ops` named `scope` or under `scope/`."""
    if scope and scope[-1] == "/":
        scope = scope[:-1]
    return filter_ops_from_regex(ops, f"^{scope}(/.*)?$")


def _select(args, kwargs, mine, skip_marker, restrict_key, other_key, regex_filter, as_list):
    graph, positive_filter, restrict = None, None, False
    for key, value in kwargs.items():
        if key == "graph":
            graph = value
            if graph is not None and not isinstance(graph, tf.Graph):
                sep = ":" if mine == "(?#ops)" else ""
                raise TypeError(f"Expected a tf.Graph, got{sep} {type(graph)}")
        elif key == "positive_filter":
            positive_filter = value
        elif key == restrict_key:
            restrict = value
        elif key != other_key:
            raise ValueError(f"Wrong keywords argument: {key}.")
    selected = []
    for arg in args:
        if can_be_regex(arg):
            if graph is None:
                raise ValueError("Use the keyword argument 'graph' to use regex.")
            pattern = make_regex(arg)
            if pattern.pattern.startswith(skip_marker):
                continue
            if restrict and not pattern.pattern.startswith(mine):
                continue
            for item in regex_filter(graph, pattern):
                if item not in selected and (positive_filter is None or positive_filter(item)):
                    selected.append(item)
        else:  # as TF 1.15: repeats within one list argument are kept
            found = as_list(arg)
            if positive_filter is not None:
                found = [item for item in found if positive_filter(item)]
            selected += [item for item in found if item not in selected]
    return selected


def select_ops(*args, **kwargs):
    """The ops named by `args` (regexes, needing graph=, or ops; tensors are ignored), kept by
    the optional `positive_filter`; `restrict_ops_regex=True` takes only "(?#ops)" regexes."""
    return _select(args, kwargs, "(?#ops)", "(?#ts)", "restrict_ops_regex",
                   "restrict_ts_regex", filter_ops_from_regex,
                   lambda arg: lists.make_list_of_op(arg, ignore_ts=True))


def select_ts(*args, **kwargs):
    """The tensors named by `args` (regexes, needing graph=, or tensors; ops are ignored), kept
    by the optional `positive_filter`; `restrict_ts_regex=True` takes only "(?#ts)" regexes."""
    return _select(args, kwargs, "(?#ts)", "(?#ops)", "restrict_ts_regex",
                   "restrict_ops_regex", filter_ts_from_regex,
                   lambda arg: lists.make_list_of_t(arg, ignore_ops=True))


def select_ops_and_ts(*args, **kwargs):
    """`(ops, ts)`: `select_ops` of `args`, and `select_ts` of them with only "(?#ts)"
    regexes."""
    return (select_ops(*args, restrict_ops_regex=False, **kwargs),
            select_ts(*args, restrict_ts_regex=True, **kwargs))
