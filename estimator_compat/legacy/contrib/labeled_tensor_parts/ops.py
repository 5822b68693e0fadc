"""Shape, selection, reduction, batching and functional ops on LabeledTensors (TF 1.15's
labeled_tensor ops.py), each keeping the axis names and labels in step with the tensor."""
import collections.abc

import numpy as np
import tensorflow as tf

from estimator_compat.legacy.contrib.labeled_tensor_parts import core
from estimator_compat.legacy.contrib.labeled_tensor_parts import typecheck as tc

_v1 = tf.compat.v1
_scope = core._scope
_convert = core.convert_to_labeled_tensor


def _gather_1d_on_axis(labeled_tensor, indexer, axis, name=None):
    with _scope(name, "lt_take", [labeled_tensor]) as scope:
        temp_axes = core.Axes([axis] + list(labeled_tensor.axes.remove(axis.name).values()))
        transposed = core.transpose(labeled_tensor, temp_axes.keys())
        indexed = core.LabeledTensor(tf.gather(transposed.tensor, indexer), temp_axes)
        return core.transpose(indexed, labeled_tensor.axes.keys(), name=scope)


@tc.accepts(core.LabeledTensorLike,
            tc.Mapping(str, tc.Union(slice, collections.abc.Hashable, list)), tc.Optional(str))
def select(labeled_tensor, selection, name=None):
    """Selects by tick label: scalars and (inclusive) label slices, or exactly one label list."""
    with _scope(name, "lt_select", [labeled_tensor]) as scope:
        labeled_tensor = _convert(labeled_tensor)
        slices, indexers = {}, {}
        for axis_name, value in selection.items():
            if axis_name not in labeled_tensor.axes:
                raise ValueError("The tensor does not have an axis named %s. Its axes are: %r"
                                 % (axis_name, labeled_tensor.axes.keys()))
            axis = labeled_tensor.axes[axis_name]
            if axis.labels is None:
                raise ValueError("The axis named %s does not have labels. The axis is: %r"
                                 % (axis_name, axis))
            if isinstance(value, slice):
                start = None if value.start is None else axis.index(value.start)
                stop = None if value.stop is None else axis.index(value.stop) + 1
                if value.step is not None:
                    raise NotImplementedError("slicing with a step is not yet supported")
                slices[axis_name] = slice(start, stop)
            elif isinstance(value, collections.abc.Hashable):
                slices[axis_name] = axis.index(value)
            elif isinstance(value, list):
                if indexers:
                    raise NotImplementedError("select does not yet support more than one list "
                                              "selection at the same time")
                indexers[axis_name] = tf.convert_to_tensor([axis.index(v) for v in value],
                                                           dtype=tf.int64)
            else:
                raise TypeError("cannot handle arbitrary types")
        if indexers and slices:
            raise NotImplementedError("select does not yet support combined scalar and list "
                                      "selection")
        if indexers:
            (axis_name, indexer), = indexers.items()
            axis = core.Axis(axis_name, selection[axis_name])
            return _gather_1d_on_axis(labeled_tensor, indexer, axis, name=scope)
        return core.slice_function(labeled_tensor, slices, name=scope)


@tc.accepts(tc.Collection(core.LabeledTensorLike), str, tc.Optional(str))
def concat(labeled_tensors, axis_name, name=None):
    """Concatenates along `axis_name` (labels concatenated when all inputs have them)."""
    with _scope(name, "lt_concat", labeled_tensors) as scope:
        labeled_tensors = [_convert(t) for t in labeled_tensors]
        if len(labeled_tensors) < 1:
            raise ValueError("concat expects at least 1 tensor, but received %s"
                             % labeled_tensors)
        axes_0 = labeled_tensors[0].axes
        names = list(axes_0.keys())
        if axis_name not in names:
            raise ValueError("%s not in %s" % (axis_name, names))
        shared = axes_0.remove(axis_name)
        for t in labeled_tensors[1:]:
            current = t.axes.remove(axis_name)
            if current != shared:
                raise ValueError("Mismatched shared axes: the first tensor had axes %r but this "
                                 "tensor has axes %r." % (shared, current))
        axis = core.concat_axes([t.axes[axis_name] for t in labeled_tensors])
        position = names.index(axis_name)
        result = tf.concat([t.tensor for t in labeled_tensors], position, name=scope)
        values = list(axes_0.values())
        return core.LabeledTensor(result, values[:position] + [axis] + values[position + 1:])


@tc.accepts(tc.Collection(core.LabeledTensorLike), tc.Union(str, core.AxisLike), int,
            tc.Optional(str))
def pack(labeled_tensors, new_axis, axis_position=0, name=None):
    """Stacks tensors with identical axes along a new axis at `axis_position`."""
    with _scope(name, "lt_pack", labeled_tensors) as scope:
        labeled_tensors = [_convert(t) for t in labeled_tensors]
        if len(labeled_tensors) < 1:
            raise ValueError("pack expects at least 1 tensors, but received %s"
                             % labeled_tensors)
        axes_0 = labeled_tensors[0].axes
        for t in labeled_tensors:
            if t.axes != axes_0:
                raise ValueError("Non-identical axes. Expected %s but got %s" % (axes_0, t.axes))
        result = tf.stack([t.tensor for t in labeled_tensors], axis=axis_position, name=scope)
        axes = list(axes_0.values())
        axes.insert(axis_position, new_axis)
        return core.LabeledTensor(result, axes)


@tc.accepts(core.LabeledTensorLike, tc.Optional(str), tc.Optional(str))
def unpack(labeled_tensor, axis_name=None, name=None):
    """Unstacks along `axis_name` (default: the first axis) into a list."""
    with _scope(name, "lt_unpack", [labeled_tensor]) as scope:
        labeled_tensor = _convert(labeled_tensor)
        names = list(labeled_tensor.axes.keys())
        axis_name = names[0] if axis_name is None else axis_name
        if axis_name not in names:
            raise ValueError("%s not in %s" % (axis_name, names))
        position = names.index(axis_name)
        parts = tf.unstack(labeled_tensor.tensor, axis=position, name=scope)
        axes = [a for i, a in enumerate(labeled_tensor.axes.values()) if i != position]
        return [core.LabeledTensor(t, axes) for t in parts]


@tc.accepts(core.LabeledTensorLike, tc.Collection(str),
            tc.Collection(tc.Union(str, core.AxisLike)), tc.Optional(str))
def reshape(labeled_tensor, existing_axes, new_axes, name=None):
    """Replaces the consecutive `existing_axes` by `new_axes` (at most one a bare name, of
    unknown size)."""
    with _scope(name, "lt_reshape", [labeled_tensor]) as scope:
        labeled_tensor = _convert(labeled_tensor)
        original = list(labeled_tensor.axes.keys())
        existing_axes = list(existing_axes)
        if not set(existing_axes) <= set(original):
            raise ValueError("existing_axes %r are not contained in the set of axis names %r on "
                             "the input labeled tensor" % (existing_axes, original))
        start = original.index(existing_axes[0])
        stop = original.index(existing_axes[-1]) + 1
        if existing_axes != original[start:stop]:
            raise core.AxisOrderError(
                "existing_axes %r are not a slice of axis names %r on the input labeled tensor. "
                "Use `transpose` or `impose_axis_order` to reorder axes on the input explicitly."
                % (existing_axes, original))
        if sum(isinstance(axis, str) for axis in new_axes) > 1:
            raise ValueError("at most one axis in new_axes can have unknown size. All other axes "
                             "must have an indicated integer size or labels: %r" % new_axes)
        values = list(labeled_tensor.axes.values())

        def size(axis):
            return -1 if axis.size is None else axis.size
        shape = ([size(a) for a in values[:start]]
                 + [-1 if isinstance(a, str) else size(core.as_axis(a)) for a in new_axes]
                 + [size(a) for a in values[stop:]])
        result = tf.reshape(labeled_tensor.tensor, shape, name=scope)
        return core.LabeledTensor(result, values[:start] + list(new_axes) + values[stop:])


@tc.accepts(core.LabeledTensorLike, str, str, tc.Optional(str))
def rename_axis(labeled_tensor, existing_name, new_name, name=None):
    """Renames one axis (its size and labels stay)."""
    with _scope(name, "lt_rename_axis", [labeled_tensor]) as scope:
        if existing_name not in labeled_tensor.axes:
            raise ValueError("existing_name %r are not contained in the set of axis names %r on "
                             "the input labeled tensor"
                             % (existing_name, labeled_tensor.axes.keys()))
        new_axis = core.Axis(new_name, labeled_tensor.axes[existing_name].value)
        return reshape(labeled_tensor, [existing_name], [new_axis], name=scope)


def _batch_helper(default_name, batch_fn, batch_size, enqueue_many, labeled_tensors,
                  allow_smaller_final_batch, name=None):
    with _scope(name, default_name, labeled_tensors) as scope:
        labeled_tensors = [_convert(t) for t in labeled_tensors]
        batched = batch_fn([t.tensor for t in labeled_tensors], scope)
        if not isinstance(batched, list):
            batched = [batched]
        size = None if allow_smaller_final_batch else batch_size

        def output_axes(axes):
            if enqueue_many:
                if "batch" not in axes or list(axes.keys()).index("batch") != 0:
                    raise ValueError('When enqueue_many is True, input tensors must have an axis '
                                     'called "batch" as their first dimension, but axes were %s'
                                     % axes)
                axes = axes.remove("batch")
            return core.Axes([("batch", size)] + list(axes.values()))
        return [core.LabeledTensor(t, output_axes(lt.axes))
                for t, lt in zip(batched, labeled_tensors)]


@tc.accepts(tc.Collection(core.LabeledTensorLike), int, int, int, bool, bool, tc.Optional(str))
def batch(labeled_tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False,
          allow_smaller_final_batch=False, name=None):
    """tf.compat.v1.train.batch (queue based) with a leading 'batch' axis."""
    def fn(tensors, scope):
        return _v1.train.batch(tensors, batch_size=batch_size, num_threads=num_threads,
                               capacity=capacity, enqueue_many=enqueue_many,
                               allow_smaller_final_batch=allow_smaller_final_batch, name=scope)
    return _batch_helper("lt_batch", fn, batch_size, enqueue_many, labeled_tensors,
                         allow_smaller_final_batch, name)


@tc.accepts(tc.Collection(core.LabeledTensorLike), int, int, int, bool, int, tc.Optional(int),
            bool, tc.Optional(str))
def shuffle_batch(labeled_tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False,
                  min_after_dequeue=0, seed=None, allow_smaller_final_batch=False, name=None):
    """tf.compat.v1.train.shuffle_batch (queue based) with a leading 'batch' axis."""
    def fn(tensors, scope):
        return _v1.train.shuffle_batch(
            tensors, batch_size=batch_size, num_threads=num_threads, capacity=capacity,
            enqueue_many=enqueue_many, min_after_dequeue=min_after_dequeue, seed=seed,
            allow_smaller_final_batch=allow_smaller_final_batch, name=scope)
    return _batch_helper("lt_shuffle_batch", fn, batch_size, enqueue_many, labeled_tensors,
                         allow_smaller_final_batch, name)


@tc.accepts(core.LabeledTensorLike, tc.Mapping(str, int), tc.Optional(int), tc.Optional(str))
def random_crop(labeled_tensor, shape_map, seed=None, name=None):
    """tf.image.random_crop of the axes in `shape_map` ({name: size}); cropped axes lose labels."""
    with _scope(name, "lt_random_crop", [labeled_tensor]) as scope:
        labeled_tensor = _convert(labeled_tensor)
        for axis_name in shape_map:
            if axis_name not in labeled_tensor.axes:
                raise ValueError("Selection axis %s not in axes %s"
                                 % (axis_name, labeled_tensor.axes))
        shape, axes = [], []
        for axis in labeled_tensor.axes.values():
            if axis.name in shape_map:
                shape.append(shape_map[axis.name])
                axes.append((axis.name, shape_map[axis.name]))
            else:
                shape.append(len(axis))
                axes.append(axis)
        result = _v1.random_crop(labeled_tensor.tensor, shape, seed=seed, name=scope)
        return core.LabeledTensor(result, axes)


@tc.accepts(collections.abc.Callable, core.LabeledTensorLike, tc.Optional(str))
def map_fn(fn, labeled_tensor, name=None):
    """Maps `fn` (LabeledTensor -> LabeledTensor) over the first axis."""
    with _scope(name, "lt_map_fn", [labeled_tensor]) as scope:
        labeled_tensor = _convert(labeled_tensor)
        parts = unpack(labeled_tensor)
        first_axis = list(labeled_tensor.axes.values())[0]
        if labeled_tensor.dtype == tf.string:
            # map_fn of strings ran into trouble in TF 1.x: unrolled, as TF 1.15 did
            return pack([fn(t) for t in parts], first_axis, name=scope)
        first = fn(parts[0])
        inner_axes = list(labeled_tensor.axes.values())[1:]

        def tf_fn(tensor):
            return fn(core.LabeledTensor(tensor, inner_axes)).tensor
        result = _v1.map_fn(tf_fn, labeled_tensor.tensor, dtype=first.dtype)
        mapped = core.LabeledTensor(result, [first_axis] + list(first.axes.values()))
        return core.identity(mapped, name=scope)


@tc.accepts(collections.abc.Callable, core.LabeledTensorLike, core.LabeledTensorLike,
            tc.Optional(str))
def foldl(fn, labeled_tensor, initial_value, name=None):
    """Folds `fn(accumulator, element)` over the first axis, from `initial_value`."""
    with _scope(name, "lt_foldl", [labeled_tensor, initial_value]) as scope:
        labeled_tensor = _convert(labeled_tensor)
        initial_value = _convert(initial_value)
        inner_axes = list(labeled_tensor.axes.values())[1:]

        def tf_fn(accumulator, element):
            return fn(core.LabeledTensor(accumulator, initial_value.axes),
                      core.LabeledTensor(element, inner_axes)).tensor
        result = _v1.foldl(tf_fn, labeled_tensor.tensor, initializer=initial_value.tensor)
        return core.identity(core.LabeledTensor(result, initial_value.axes), name=scope)


@tc.accepts(core.LabeledTensorLike, tc.Optional(tc.Collection(str)), tc.Optional(str))
def squeeze(labeled_tensor, axis_names=None, name=None):
    """Removes size-1 axes (`axis_names`, default all of them)."""
    with _scope(name, "lt_squeeze", [labeled_tensor]) as scope:
        labeled_tensor = _convert(labeled_tensor)
        if axis_names is None:
            axis_names = [a.name for a in labeled_tensor.axes.values() if len(a) == 1]
        for axis_name in axis_names:
            if axis_name not in labeled_tensor.axes:
                raise ValueError("axis %s is not in tensor axes %s"
                                 % (axis_name, labeled_tensor.axes))
            if len(labeled_tensor.axes[axis_name]) != 1:
                raise ValueError("cannot squeeze axis with size greater than 1: (%s, %s)"
                                 % (axis_name, labeled_tensor.axes[axis_name]))
        dims = [i for i, a in enumerate(labeled_tensor.axes.values()) if a.name in axis_names]
        axes = [a for a in labeled_tensor.axes.values() if a.name not in axis_names]
        if dims:
            result = tf.squeeze(labeled_tensor.tensor, dims, name=scope)
        else:
            result = tf.identity(labeled_tensor.tensor, name=scope)
        return core.LabeledTensor(result, axes)


@tc.accepts(core.LabeledTensorLike, core.LabeledTensorLike, tc.Optional(str))
def matmul(a, b, name=None):
    """Matrix/vector product of rank-1 or -2 tensors over their one shared axis (as numpy.dot);
    result axes follow the axis_order_scope if set, else order of appearance."""
    with _scope(name, "lt_matmul", [a, b]) as scope:
        a, b = _convert(a), _convert(b)
        if len(a.axes) > 2 or len(b.axes) > 2:
            raise NotImplementedError("matmul currently requires inputs with rank 2 or less, but "
                                      "inputs have ranks %r and %r" % (len(a.axes), len(b.axes)))
        if not a.axes or not b.axes:
            raise ValueError("matmul currently requires inputs with at least rank 1, but inputs "
                             "have ranks %r and %r" % (len(a.axes), len(b.axes)))
        shared = set(a.axes) & set(b.axes)
        if len(shared) > 1:
            raise NotImplementedError(
                "matmul does not yet support summing over multiple shared axes: %r. Use "
                "transpose and reshape to create a single shared axis to sum over." % shared)
        if not shared:
            raise ValueError("there must have exactly one axis in common between input to "
                             "matmul: %r, %r" % (a.axes.keys(), b.axes.keys()))
        shared_axis, = shared
        if a.axes[shared_axis] != b.axes[shared_axis]:
            raise ValueError("axis %r does not match on input arguments: %r vs %r" % (
                shared_axis, a.axes[shared_axis].value, b.axes[shared_axis].value))
        result_axes = [axis for axes in (a.axes, b.axes) for axis in axes.values()
                       if axis.name != shared_axis]
        scope_order = core.get_axis_order()
        if scope_order is not None:
            names = [axis.name for axis in result_axes]
            if [n for n in scope_order if n in names] != names:
                a, b = b, a
                result_axes = result_axes[::-1]
        squeeze_dims = []
        a_tensor, b_tensor = a.tensor, b.tensor
        transpose_a = transpose_b = False
        if len(a.axes) == 1:
            a_tensor = tf.reshape(a_tensor, (1, -1))
            squeeze_dims.append(0)
        else:
            transpose_a = list(a.axes.keys()).index(shared_axis) == 0
        if len(b.axes) == 1:
            b_tensor = tf.reshape(b_tensor, (-1, 1))
            squeeze_dims.append(1)
        else:
            transpose_b = list(b.axes.keys()).index(shared_axis) == 1
        result = tf.matmul(a_tensor, b_tensor, transpose_a=transpose_a, transpose_b=transpose_b)
        if squeeze_dims:
            result = tf.squeeze(result, squeeze_dims)
        return core.LabeledTensor(tf.identity(result, name=scope), result_axes)


ReduceAxis = tc.Union(str, tc.Tuple(str, collections.abc.Hashable))
ReduceAxes = tc.Optional(tc.Union(ReduceAxis, tc.Collection(ReduceAxis)))


@tc.accepts(str, collections.abc.Callable)
def define_reduce_op(op_name, reduce_fn):
    """The LabeledTensor version of `reduce_fn(tensor, axes, keepdims=True)`: axes named by a
    string are removed, (name, label) / (name, None) pairs are kept with size 1."""
    default_name = "lt_%s" % op_name

    @tc.accepts(core.LabeledTensorLike, ReduceAxes, tc.Optional(str))
    def op(labeled_tensor, axes=None, name=None):
        with _scope(name, default_name, [labeled_tensor]) as scope:
            labeled_tensor = _convert(labeled_tensor)
            if axes is None:
                axes = labeled_tensor.axes.keys()
            if isinstance(axes, (str, tuple)):
                axes = [axes]
            reduction, to_squeeze = {}, []
            for a in axes:
                if isinstance(a, str):
                    reduction[a] = a
                    to_squeeze.append(a)
                else:
                    axis_name, label = a
                    reduction[axis_name] = (axis_name, None if label is None else [label])
            for axis_name in reduction:
                if axis_name not in labeled_tensor.axes:
                    raise ValueError("Axis %s not in axes %s" % (axis_name, labeled_tensor.axes))
            kept_axes, dims = [], []
            for i, axis in enumerate(labeled_tensor.axes.values()):
                if axis.name in reduction:
                    kept_axes.append(reduction[axis.name])
                    dims.append(i)
                else:
                    kept_axes.append(axis)
            reduced = reduce_fn(labeled_tensor.tensor, dims, keepdims=True)
            return squeeze(core.LabeledTensor(reduced, kept_axes), to_squeeze, name=scope)

    op.__doc__ = "LabeledTensor version of `tf.%s`." % op_name
    op.__name__ = op_name
    return op


REDUCE = {n: define_reduce_op(n, getattr(tf.math, n)) for n in (
    "reduce_all", "reduce_any", "reduce_logsumexp", "reduce_max", "reduce_mean", "reduce_min",
    "reduce_prod", "reduce_sum")}


@tc.accepts(core.LabeledTensorLike, tc.Mapping(str, tc.Union(int, tf.Tensor)), tc.Optional(str))
def tile(labeled_tensor, multiples, name=None):
    """Tiles axes without tick labels ({name: multiple})."""
    with _scope(name, "lt_tile", [labeled_tensor]) as scope:
        labeled_tensor = _convert(labeled_tensor)
        if not set(multiples.keys()) <= set(labeled_tensor.axes.keys()):
            raise ValueError("tile axes %r are not contained in the set of axis names %r on the "
                             "input labeled tensor" % (multiples.keys(), labeled_tensor.axes))
        labeled = [n for n in multiples if labeled_tensor.axes[n].labels is not None]
        if labeled:
            raise ValueError("cannot tile axes with tick labels: %r" % labeled)
        result = tf.tile(labeled_tensor.tensor,
                         [multiples.get(n, 1) for n in labeled_tensor.axes], name=scope)
        axes = [a.name if a.labels is None else a for a in labeled_tensor.axes.values()]
        return core.LabeledTensor(result, axes)


@tc.accepts(core.LabeledTensorLike, tc.Mapping(str, tc.Tuple(core.AxisValue, core.AxisValue)),
            str, tc.Optional(str))
def pad(labeled_tensor, paddings, mode="CONSTANT", name=None):
    """tf.pad by axis name ({name: (before, after)}, sizes or labels)."""
    with _scope(name, "lt_pad", [labeled_tensor]) as scope:
        labeled_tensor = _convert(labeled_tensor)
        if not set(paddings.keys()) <= set(labeled_tensor.axes.keys()):
            raise ValueError("pad axes %r are not contained in the set of axis names %r on the "
                             "input labeled tensor" % (paddings.keys(), labeled_tensor.axes))
        new_axes, pairs = [], []
        for axis_name, axis in labeled_tensor.axes.items():
            if axis_name in paddings:
                before = core.Axis(axis_name, paddings[axis_name][0])
                after = core.Axis(axis_name, paddings[axis_name][1])
                new_axes.append(core.concat_axes([before, axis, after]))
                pairs.append((len(before), len(after)))
            else:
                new_axes.append(axis)
                pairs.append((0, 0))
        return core.LabeledTensor(tf.pad(labeled_tensor.tensor, pairs, mode, name=scope),
                                  new_axes)


@tc.accepts(tc.Union(np.ndarray, list, tuple, core.Scalar), tc.Optional(tf.DType),
            tc.Optional(tc.Union(core.Axes, tc.Collection(tc.Union(str, core.AxisLike)))),
            tc.Optional(str))
def constant(value, dtype=None, axes=None, name=None):
    """tf.constant with axes (their sizes give the shape unless any is a bare name)."""
    with _scope(name, "lt_constant", [value]) as scope:
        axes = [] if axes is None else axes
        if isinstance(axes, core.Axes):
            axes = axes.values()
        if any(isinstance(a, str) for a in axes):
            shape = None
        else:
            axes = [core.as_axis(a) for a in axes]
            shape = [a.size for a in axes]
        return core.LabeledTensor(_v1.constant(value, dtype=dtype, shape=shape, name=scope), axes)


def _like(default_name, fn, doc):
    @tc.accepts(core.LabeledTensorLike, tc.Optional(tf.DType), tc.Optional(str))
    def op(labeled_tensor, dtype=None, name=None):
        with _scope(name, default_name, [labeled_tensor]) as scope:
            labeled_tensor = _convert(labeled_tensor)
            return core.LabeledTensor(fn(labeled_tensor.tensor, dtype=dtype, name=scope),
                                      labeled_tensor.axes)
    op.__doc__ = doc
    op.__name__ = default_name[len("lt_"):]
    return op


zeros_like = _like("lt_zeros_like", _v1.zeros_like, "tf.zeros_like, keeping the axes.")
ones_like = _like("lt_ones_like", _v1.ones_like, "tf.ones_like, keeping the axes.")
cast = _like("lt_cast", tf.cast, "tf.cast, keeping the axes.")


@tc.accepts(core.LabeledTensorLike, str, tc.Optional(str))
def verify_tensor_all_finite(labeled_tensor, message, name=None):
    """Asserts every value is finite (failing with `message`), keeping the axes."""
    with _scope(name, "lt_verify_tensor_all_finite", [labeled_tensor]) as scope:
        labeled_tensor = _convert(labeled_tensor)
        result = _v1.verify_tensor_all_finite(labeled_tensor.tensor, msg=message, name=scope)
        return core.LabeledTensor(result, labeled_tensor.axes)


@tc.accepts(core.LabeledTensorLike, core.LabeledTensorLike, tc.Optional(str))
def boolean_mask(labeled_tensor, mask, name=None):
    """tf.boolean_mask of the first axis by a 1-D mask with that same axis (labels dropped)."""
    with _scope(name, "lt_boolean_mask", [labeled_tensor, mask]) as scope:
        labeled_tensor, mask = _convert(labeled_tensor), _convert(mask)
        if len(mask.axes) > 1:
            raise NotImplementedError("LabeledTensor's boolean_mask currently only supports 1D "
                                      "masks")
        mask_axis = list(mask.axes.values())[0]
        lt_axis = list(labeled_tensor.axes.values())[0]
        if mask_axis != lt_axis:
            raise ValueError("the first axis of the labeled tensor and the mask are not equal:\n"
                             "%r\n%r" % (lt_axis, mask_axis))
        result = tf.boolean_mask(labeled_tensor.tensor, mask.tensor, name=scope)
        return core.LabeledTensor(result, [lt_axis.name] + list(labeled_tensor.axes.values())[1:])


@tc.accepts(core.LabeledTensorLike, core.LabeledTensorLike, core.LabeledTensorLike,
            tc.Optional(str))
def where(condition, x, y, name=None):
    """Three-argument tf.where of tensors with equal axes."""
    with _scope(name, "lt_where", [condition, x, y]) as scope:
        condition, x, y = _convert(condition), _convert(x), _convert(y)
        if not condition.axes == x.axes == y.axes:
            raise ValueError("all inputs to `where` must have equal axes")
        return core.LabeledTensor(_v1.where(condition.tensor, x.tensor, y.tensor, name=scope),
                                  x.axes)
