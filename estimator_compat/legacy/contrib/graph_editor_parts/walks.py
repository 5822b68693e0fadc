"""Selecting ops by graph connectivity: the ops around a set, the boundary tensors of a set,
forward / backward walks, and what lies between two walks (TF 1.15's `ge.select` walks).

A walk's result keeps the order the ops were reached in (seeds first, then wave by wave); as in
TF 1.15, the order within one wave follows Python's set order, so callers compare sets.
"""
import tensorflow as tf
from tensorflow.python.ops import op_selector
from tensorflow.python.util import deprecation

from estimator_compat.legacy.contrib.graph_editor_parts import lists
from estimator_compat.legacy.contrib.graph_editor_parts.control_outputs import ControlOutputs


def _unique_inputs(ops):
    return lists.concatenate_unique([], [t for op in lists.make_list_of_op(ops) for t in op.inputs])


def _outputs(ops):
    return [t for op in lists.make_list_of_op(ops) for t in op.outputs]


def check_cios(control_inputs=False, control_outputs=None, control_ios=None):
    """`(control_inputs, control_outputs)` after checking them: `control_ios` (a ControlOutputs)
    stands for both. The ControlOutputs returned is brought up to date."""
    if control_ios is not None:
        if not isinstance(control_ios, ControlOutputs):
            raise TypeError(f"Expected a util.ControlOutputs, got: {type(control_ios)}")
        if control_outputs is not None:
            raise ValueError("control_outputs should be None when using control_ios.")
        control_inputs, control_outputs = True, control_ios
    elif control_outputs is not None and not isinstance(control_outputs, ControlOutputs):
        raise TypeError(f"Expected a util.ControlOutputs, got: {type(control_outputs)}")
    if control_outputs is not None:
        control_outputs.update()
    return control_inputs, control_outputs


def get_ops_ios(ops, control_inputs=False, control_outputs=None, control_ios=None):
    """The ops feeding or fed by an op of `ops` (through control edges as asked)."""
    control_inputs, control_outputs = check_cios(control_inputs, control_outputs, control_ios)
    found = []
    for op in lists.make_list_of_op(ops):
        lists.concatenate_unique(found, [t.op for t in op.inputs])
        for t in op.outputs:
            lists.concatenate_unique(found, t.consumers())
        if control_outputs is not None:
            lists.concatenate_unique(found, control_outputs.get(op))
        if control_inputs:
            lists.concatenate_unique(found, op.control_inputs)
    return found


def compute_boundary_ts(ops):
    """`(inputs, outputs, inside)` of the set `ops`: tensors made outside and used inside,
    tensors made inside (less those only used inside), and tensors made and used inside (an
    inside tensor also used outside is an output too)."""
    ops = lists.make_list_of_op(ops)
    input_ts, output_ts = _unique_inputs(ops), _outputs(ops)
    made_inside, ops_set = frozenset(output_ts), frozenset(ops)
    inside = [t for t in input_ts if t in made_inside]
    only_inside = frozenset(t for t in inside if not set(t.consumers()) - ops_set)
    inside_set = frozenset(inside)
    return ([t for t in input_ts if t not in inside_set],
            [t for t in output_ts if t not in only_inside], inside)


def get_within_boundary_ops(ops, seed_ops, boundary_ops=(), inclusive=True,
                            control_inputs=False, control_outputs=None, control_ios=None):
    """The ops of `ops` reached from `seed_ops` through inputs and outputs without crossing
    `boundary_ops` (kept themselves if `inclusive`), in the order of `ops`."""
    control_inputs, control_outputs = check_cios(control_inputs, control_outputs, control_ios)
    ops = lists.make_list_of_op(ops)
    seed_ops = lists.make_list_of_op(seed_ops, allow_graph=False)
    boundary = set(lists.make_list_of_op(boundary_ops))
    reached = set(seed_ops)
    if boundary & reached:
        raise ValueError("Boundary is intersecting with the seeds.")
    wave = set(seed_ops)
    while wave:
        next_wave = set()
        for op in get_ops_ios(wave, control_inputs, control_outputs):
            if op in reached:
                continue
            if op not in boundary:
                next_wave.add(op)
            elif inclusive:
                reached.add(op)
        reached |= next_wave
        wave = next_wave
    return [op for op in ops if op in reached]


def _seeds(seed_ops, from_tensors):
    if not lists.is_iterable(seed_ops):
        seed_ops = [seed_ops]
    if not seed_ops:
        return None
    if isinstance(seed_ops[0], tf.Tensor):
        return from_tensors(lists.make_list_of_t(seed_ops, allow_graph=False))
    return lists.make_list_of_op(seed_ops, allow_graph=False)


def get_forward_walk_ops(seed_ops, inclusive=True, within_ops=None, within_ops_fn=None,
                         stop_at_ts=(), control_outputs=None):
    """The ops downstream of `seed_ops` (or of the consumers of seed tensors), the walk not
    passing `stop_at_ts` nor leaving `within_ops` / `within_ops_fn`."""
    _, control_outputs = check_cios(False, control_outputs)
    seeds = _seeds(seed_ops, lists.get_consuming_ops)
    if seeds is None:
        return []
    seeds = frozenset(seeds)
    stop = frozenset(lists.make_list_of_t(stop_at_ts))
    if within_ops:
        within_ops = frozenset(lists.make_list_of_op(within_ops, allow_graph=False))
        seeds &= within_ops

    def admitted(op):
        return ((within_ops is None or op in within_ops)
                and (within_ops_fn is None or within_ops_fn(op)))

    result = list(seeds)
    wave = set(seeds)
    while wave:
        next_wave = set()
        for op in wave:
            followers = [c for t in op.outputs if t not in stop for c in t.consumers()]
            if control_outputs is not None:
                followers += list(control_outputs.get(op))
            next_wave.update(c for c in followers if c not in result and admitted(c))
        lists.concatenate_unique(result, next_wave)
        wave = next_wave
    return result if inclusive else [op for op in result if op not in seeds]


@deprecation.deprecated(
    "2019-06-06", "Please use tensorflow.python.ops.op_selector.get_backward_walk_ops.",
    warn_once=True)
def get_backward_walk_ops(seed_ops, inclusive=True, within_ops=None, within_ops_fn=None,
                          stop_at_ts=(), control_inputs=False):
    """The ops upstream of `seed_ops` (or of the ops making seed tensors): TensorFlow's own
    op_selector walk, which TF 1.15's graph editor called too."""
    return op_selector.get_backward_walk_ops(
        seed_ops, inclusive=inclusive, within_ops=within_ops, within_ops_fn=within_ops_fn,
        stop_at_ts=stop_at_ts, control_inputs=control_inputs)


def _both_walks(forward_seed_ops, backward_seed_ops, forward_inclusive, backward_inclusive,
                within_ops, within_ops_fn, control_inputs, control_outputs, control_ios):
    control_inputs, control_outputs = check_cios(control_inputs, control_outputs, control_ios)
    forward = get_forward_walk_ops(forward_seed_ops, inclusive=forward_inclusive,
                                   within_ops=within_ops, within_ops_fn=within_ops_fn,
                                   control_outputs=control_outputs)
    backward = get_backward_walk_ops(backward_seed_ops, inclusive=backward_inclusive,
                                     within_ops=within_ops, within_ops_fn=within_ops_fn,
                                     control_inputs=control_inputs)
    return forward, backward


def get_walks_intersection_ops(forward_seed_ops, backward_seed_ops, forward_inclusive=True,
                               backward_inclusive=True, within_ops=None, within_ops_fn=None,
                               control_inputs=False, control_outputs=None, control_ios=None):
    """The ops both downstream of `forward_seed_ops` and upstream of `backward_seed_ops`."""
    forward, backward = _both_walks(forward_seed_ops, backward_seed_ops, forward_inclusive,
                                    backward_inclusive, within_ops, within_ops_fn,
                                    control_inputs, control_outputs, control_ios)
    return [op for op in forward if op in backward]


def get_walks_union_ops(forward_seed_ops, backward_seed_ops, forward_inclusive=True,
                        backward_inclusive=True, within_ops=None, within_ops_fn=None,
                        control_inputs=False, control_outputs=None, control_ios=None):
    """The ops downstream of `forward_seed_ops` or upstream of `backward_seed_ops`."""
    forward, backward = _both_walks(forward_seed_ops, backward_seed_ops, forward_inclusive,
                                    backward_inclusive, within_ops, within_ops_fn,
                                    control_inputs, control_outputs, control_ios)
    return lists.concatenate_unique(forward, backward)
