"""Named axes (`Axis`, `Axes`), `LabeledTensor`, the axis-order scope, alignment by axis name and
the elementwise ops built on it: the heart of TF 1.15's `tf.contrib.labeled_tensor`."""
import collections
import collections.abc
import contextlib
import numbers

import numpy as np
import tensorflow as tf

from estimator_compat.legacy.contrib.labeled_tensor_parts import typecheck as tc

_v1 = tf.compat.v1
Dimension = _v1.Dimension

LabelsLike = tc.Union(np.ndarray, range, list, tuple)
DimensionLike = tc.Optional(tc.Union(Dimension, int))
AxisValue = tc.Union(LabelsLike, DimensionLike)
Scalar = tc.Union(numbers.Number, bool, bytes, str)


class Axis:
    """An axis: its name and either its size (a Dimension, maybe unknown) or its unique tick
    labels."""

    @tc.accepts(object, str, AxisValue)
    def __init__(self, name, value):
        if isinstance(value, Dimension):
            dimension, labels = value, None
        elif isinstance(value, int) or value is None:
            dimension, labels = Dimension(value), None
        else:
            dimension, labels = Dimension(len(value)), tuple(value)
        if dimension.value == 0:
            labels = ()
        index = None
        if labels is not None:
            index = {label: i for i, label in enumerate(labels)}
            if len(index) != len(labels):
                raise ValueError("Tick labels must be unique, but got {}".format(labels))
        self._name, self._dimension, self._labels, self._index = name, dimension, labels, index

    @property
    def name(self):
        return self._name

    def __repr__(self):
        return "%s('%s', %r)" % (type(self).__name__, self.name, self.value)

    def __eq__(self, other):
        return (isinstance(other, Axis) and self.name == other.name
                and self.size == other.size and self.labels == other.labels)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((self.name, self.size, self.labels))

    def __len__(self):
        if self.size is None:
            raise ValueError("axis %r has unknown length" % self.name)
        return self.size

    @property
    def dimension(self):
        return self._dimension

    @property
    def size(self):
        return self._dimension.value

    @property
    def value(self):
        """The tick labels if there are any, else the Dimension."""
        return self.dimension if self.labels is None else self.labels

    @property
    def labels(self):
        return self._labels

    def index(self, value):
        """The position of tick label `value`."""
        if self._index is None:
            raise ValueError("Axis does not have tick labels")
        return self._index[value]


AxisLike = tc.Union(Axis, tc.Tuple(str, AxisValue))


@tc.accepts(AxisLike)
def as_axis(axis_data):
    """An Axis from an Axis or a (name, value) pair."""
    return axis_data if isinstance(axis_data, Axis) else Axis(*axis_data)


class Axes(collections.abc.Mapping):
    """The ordered axes of a tensor, by name (names are unique)."""

    @tc.accepts(object, tc.List(AxisLike))
    def __init__(self, axes):
        self._axes = collections.OrderedDict()
        for axis_data in axes:
            axis = as_axis(axis_data)
            if axis.name in self._axes:
                raise ValueError("Duplicate axis name: %s" % axis.name)
            self._axes[axis.name] = axis

    def __iter__(self):
        return iter(self._axes)

    def __repr__(self):
        name = type(self).__name__
        values = ["('%s', %r)" % (v.name, v.value) for v in self._axes.values()]
        return "%s([%s])" % (name, (",\n" + " " * len(name + "([")).join(values))

    @tc.accepts(object, str)
    def __getitem__(self, name):
        return self._axes[name]

    def __contains__(self, name):
        return name in self._axes

    def __len__(self):
        return len(self._axes)

    def __hash__(self):
        return hash(tuple(self.items()))

    @tc.accepts(object, str)
    def remove(self, axis_name):
        """These axes without `axis_name`."""
        if axis_name not in self:
            raise KeyError(axis_name)
        return Axes([a for a in self.values() if a.name != axis_name])


def _dim_value(d):
    return d.value if isinstance(d, Dimension) else d


class LabeledTensor:
    """A tf.Tensor with one named Axis per dimension (sizes must agree)."""

    @tc.accepts(object, tf.Tensor, tc.Union(Axes, tc.Collection(tc.Union(str, AxisLike))))
    def __init__(self, tensor, axes):
        self._tensor = tensor
        shape = tensor.get_shape()
        if not isinstance(axes, Axes):
            axes = Axes([(a, _dim_value(shape[i])) if isinstance(a, str) else a
                         for i, a in enumerate(axes)])
        if len(shape) != len(axes):
            raise ValueError("Tensor rank was not equal to the number of axes: %r, %r"
                             % (shape, axes))
        for d, axis in zip(shape, axes.values()):
            # an unknown size on either side is compatible, as TF 1.15's Dimension compare was
            if None not in (_dim_value(d), axis.size) and _dim_value(d) != axis.size:
                raise ValueError("Provided axis size %s does not match tensor dimension size %s"
                                 "in tensor %r" % (axis.size, _dim_value(d), tensor))
        self._axes = axes

    def __repr__(self):
        axes = ["('%s', %r)" % (v.name, v.value) for v in self.axes.values()]
        name = self.tensor.name if not tf.executing_eagerly() else "EagerTensor"
        return "<%s '%s' shape=%s dtype=%s\n axes=[%s]>" % (
            type(self).__name__, name, self.tensor.get_shape(), self.tensor.dtype.name,
            (",\n" + " " * len(" axes=[")).join(axes))

    @property
    def tensor(self):
        return self._tensor

    def _as_graph_element(self):
        """Lets tf.name_scope and friends take labeled tensors."""
        return self.tensor

    @property
    def axes(self):
        return self._axes

    @property
    def dtype(self):
        return self._tensor.dtype

    @property
    def shape(self):
        return self._tensor.shape

    @property
    def name(self):
        return self._tensor.name

    def get_shape(self):
        return self._tensor.get_shape()

    def __getitem__(self, key):
        key = key if isinstance(key, tuple) else (key,)
        if len(key) != len(self.axes):
            raise ValueError("indexer %r must have the same length as the Tensor rank (%r)"
                             % (key, len(self.axes)))
        return slice_function(self, dict(zip(self.axes.keys(), key)))

    def __abs__(self):
        return ELEMENTWISE["abs"](self)

    def __neg__(self):
        return ELEMENTWISE["neg"](self)

    def __pos__(self):
        return self

    def __invert__(self):
        return ELEMENTWISE["logical_not"](self)

    def __eq__(self, other):
        if not isinstance(other, LabeledTensor):
            return False
        return self.tensor is other.tensor and self.axes == other.axes

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((id(self.tensor), self.axes))


def _binary_method(op_name, reflected=False):
    def method(self, other):
        op = ELEMENTWISE[op_name]
        return op(other, self) if reflected else op(self, other)
    return method


for _name, _op in (("add", "add"), ("sub", "sub"), ("mul", "mul"), ("truediv", "div"),
                   ("div", "div"), ("mod", "mod"), ("pow", "pow")):
    setattr(LabeledTensor, "__%s__" % _name, _binary_method(_op))
    setattr(LabeledTensor, "__r%s__" % _name, _binary_method(_op, reflected=True))
for _name, _op in (("and", "logical_and"), ("or", "logical_or"), ("xor", "logical_xor"),
                   ("lt", "less"), ("le", "less_equal"), ("gt", "greater"),
                   ("ge", "greater_equal")):
    setattr(LabeledTensor, "__%s__" % _name, _binary_method(_op))


def _to_tensor(value, dtype=None, name=None, as_ref=False):
    return tf.convert_to_tensor(value.tensor, dtype=dtype, name=name)


tf.register_tensor_conversion_function(LabeledTensor, _to_tensor)

LabeledTensorLike = tc.Union(LabeledTensor, tf.Tensor, np.ndarray, Scalar)


@tc.accepts(LabeledTensorLike, object, tc.Optional(str))
def convert_to_labeled_tensor(value, dtype=None, name=None):
    """`value` as a LabeledTensor: LabeledTensors pass, scalars convert; a tensor or array of
    rank > 0 must be labeled with the LabeledTensor constructor."""
    axes = []
    if isinstance(value, LabeledTensor):
        axes, value = list(value.axes.values()), value.tensor
    tensor = tf.convert_to_tensor(value, dtype=dtype, name=name)
    if len(tensor.get_shape()) != len(axes):
        raise ValueError("cannot automatically convert unlabeled arrays or tensors with rank>0 "
                         "into LabeledTensors: %r" % value)
    return LabeledTensor(tensor, axes)


@tc.accepts(tc.Collection(Axis))
def concat_axes(axes):
    """The axis made by concatenating `axes` (same name): labels joined if all have them."""
    names = {a.name for a in axes}
    if len(names) > 1:
        raise ValueError("axes do not all have the same name: %r" % names)
    name, = names
    if all(a.labels is not None for a in axes):
        value = tuple(label for a in axes for label in a.labels)
    elif any(a.size is None for a in axes):
        value = None
    else:
        value = sum(len(a) for a in axes)
    return Axis(name, value)


def _scope(name, default, values):
    return _v1.name_scope(name, default, values)


@tc.accepts(LabeledTensorLike, tc.Optional(str))
def identity(labeled_tensor, name=None):
    """tf.identity, keeping the axes."""
    with _scope(name, "lt_identity", [labeled_tensor]) as scope:
        labeled_tensor = convert_to_labeled_tensor(labeled_tensor)
        return LabeledTensor(tf.identity(labeled_tensor.tensor, name=scope), labeled_tensor.axes)


@tc.accepts(LabeledTensorLike, tc.Mapping(str, tc.Union(int, slice)), tc.Optional(str))
def slice_function(labeled_tensor, selection, name=None):
    """Slices by axis name ({name: int or slice}); an int drops its axis."""
    with _scope(name, "lt_slice", [labeled_tensor]) as scope:
        labeled_tensor = convert_to_labeled_tensor(labeled_tensor)
        slices = [selection.get(a, slice(None)) for a in labeled_tensor.axes]
        sliced = labeled_tensor.tensor[tuple(slices)]
        axes = [axis.name if axis.labels is None else (axis.name, axis.labels[s])
                for axis, s in zip(labeled_tensor.axes.values(), slices)
                if isinstance(s, slice)]
        return LabeledTensor(tf.identity(sliced, name=scope), axes)


@tc.accepts(LabeledTensorLike, tc.Optional(tc.Collection(str)), tc.Optional(str))
def transpose(labeled_tensor, axis_order=None, name=None):
    """Permutes the axes into `axis_order` (default: reversed)."""
    with _scope(name, "lt_transpose", [labeled_tensor]) as scope:
        labeled_tensor = convert_to_labeled_tensor(labeled_tensor)
        names = list(labeled_tensor.axes.keys())
        if axis_order is None:
            axis_order = names[::-1]
        elif sorted(axis_order) != sorted(names):
            raise ValueError("The new axis order must have the same names as the original axes, "
                             "but the new order is %r while the original order is %r"
                             % (axis_order, names))
        permutation = [names.index(n) for n in axis_order]
        result = tf.transpose(labeled_tensor.tensor, permutation, name=scope)
        return LabeledTensor(result, [labeled_tensor.axes[n] for n in axis_order])


@tc.accepts(LabeledTensorLike,
            tc.Collection(tc.Union(str, tc.Tuple(str, collections.abc.Hashable))),
            tc.Optional(str))
def expand_dims(labeled_tensor, axes, name=None):
    """Inserts size-1 axes: `axes` lists all the result's axes (names or (name, label))."""
    with _scope(name, "lt_expand_dims", [labeled_tensor]) as scope:
        labeled_tensor = convert_to_labeled_tensor(labeled_tensor)
        check_axis_order(labeled_tensor, [a if isinstance(a, str) else a[0] for a in axes])
        new_axes, shape = [], []
        for spec in axes:
            if spec in labeled_tensor.axes:
                axis = labeled_tensor.axes[spec]
                new_axes.append(axis)
                shape.append(-1 if axis.size is None else axis.size)
            else:
                new_axes.append((spec, 1) if isinstance(spec, str) else (spec[0], (spec[1],)))
                shape.append(1)
        return LabeledTensor(tf.reshape(labeled_tensor.tensor, shape, name=scope), new_axes)


_AXIS_ORDER_KEY = ("__axis_order",)


def get_axis_order():
    """The axis order of the innermost axis_order_scope, or None."""
    found = _v1.get_collection(_AXIS_ORDER_KEY)
    return found[0] if found else None


def _set_axis_order(axis_order):
    ref = _v1.get_collection_ref(_AXIS_ORDER_KEY)
    if ref:
        ref[0] = axis_order
    else:
        ref.append(axis_order)


@contextlib.contextmanager
def _axis_order_scope(axis_order):
    original = get_axis_order()
    _set_axis_order(axis_order)
    try:
        yield axis_order
    finally:
        _set_axis_order(original)


@tc.accepts(tc.Optional(tc.List(str)))
def axis_order_scope(axis_order=None):
    """Within it, broadcasting ops order their result axes by `axis_order` (None: left-most
    consistent order). Kept in the graph's collection, as TF 1.15 did."""
    return _axis_order_scope(axis_order)


class AxisOrderError(ValueError):
    """No valid axis order exists for the operation."""


def _get_valid_axis_order():
    axis_order = get_axis_order()
    if axis_order is None:
        raise AxisOrderError("an explicit axis order must be provided with the axis_order "
                             "argument or by using an axis_order_scope")
    return axis_order


@tc.accepts(LabeledTensorLike, tc.Optional(tc.Collection(str)))
def check_axis_order(labeled_tensor, axis_order=None):
    """Raises AxisOrderError unless the tensor's axes all appear, in order, in `axis_order`
    (default: the axis_order_scope's)."""
    labeled_tensor = convert_to_labeled_tensor(labeled_tensor)
    if axis_order is None:
        axis_order = _get_valid_axis_order()
    relevant = [a for a in axis_order if a in labeled_tensor.axes]
    if len(relevant) < len(labeled_tensor.axes):
        raise AxisOrderError("not all axis names appear in the required axis order %r: %r"
                             % (axis_order, labeled_tensor))
    if relevant != list(labeled_tensor.axes):
        raise AxisOrderError("axes on a labeled tensor do not appear in the same order as the "
                             "required axis order %r: %r" % (axis_order, labeled_tensor))


@tc.accepts(LabeledTensorLike, tc.Optional(tc.Collection(str)), tc.Optional(str))
def impose_axis_order(labeled_tensor, axis_order=None, name=None):
    """Transposes into `axis_order` (default: the axis_order_scope's)."""
    with _scope(name, "lt_impose_axis_order", [labeled_tensor]) as scope:
        labeled_tensor = convert_to_labeled_tensor(labeled_tensor)
        if axis_order is None:
            axis_order = _get_valid_axis_order()
        relevant = [a for a in axis_order if a in labeled_tensor.axes]
        return transpose(labeled_tensor, relevant, name=scope)


def _find_consistent_ordering(a, b):
    """The left-most merge of name lists `a` and `b` keeping both orders, or None."""
    a_set, b_set = set(a), set(b)
    i = j = 0
    ordering = []
    while i < len(a) and j < len(b):
        if a[i] not in b_set:
            ordering.append(a[i])
            i += 1
        elif b[j] not in a_set:
            ordering.append(b[j])
            j += 1
        elif a[i] == b[j]:
            ordering.append(a[i])
            i, j = i + 1, j + 1
        else:
            return None
    return ordering + a[i:] + b[j:]


@tc.accepts(LabeledTensorLike, LabeledTensorLike, tc.Optional(str))
def align(labeled_tensor_0, labeled_tensor_1, name=None):
    """Reshapes both tensors (no transpose) to a common axis order so they broadcast; returns
    them and the broadcast axes."""
    with _scope(name, "lt_align", [labeled_tensor_0, labeled_tensor_1]) as scope:
        lt0 = convert_to_labeled_tensor(labeled_tensor_0)
        lt1 = convert_to_labeled_tensor(labeled_tensor_1)
        axes_0, axes_1 = lt0.axes, lt1.axes
        for axis_name in axes_0:
            if axis_name in axes_1 and axes_0[axis_name] != axes_1[axis_name]:
                raise ValueError("Mismatched %r axis on input tensors: %r and %r"
                                 % (axis_name, axes_0[axis_name], axes_1[axis_name]))
        scope_order = get_axis_order()
        if scope_order is not None:
            names = set(axes_0) | set(axes_1)
            new_names = [a for a in scope_order if a in names]
            check_axis_order(lt0, scope_order)
            check_axis_order(lt1, scope_order)
        else:
            new_names = _find_consistent_ordering(list(axes_0), list(axes_1))
            if new_names is None:
                raise AxisOrderError(
                    "No consistent axis order allows for aligning tensors with axis orders %r "
                    "and %r without copying data. Use transpose or impose_axis_order to reorder "
                    "axes on one of more of the inputs." % (axes_0.keys(), axes_1.keys()))
        lt0 = expand_dims(lt0, new_names, name=scope + "0")
        lt1 = expand_dims(lt1, new_names, name=scope + "1")
        broadcast = [axes_0[n] if n in axes_0 else axes_1[n] for n in new_names]
        return lt0, lt1, Axes(broadcast)


@tc.accepts(str, collections.abc.Callable)
def define_unary_op(op_name, elementwise_function):
    """The LabeledTensor version of elementwise `elementwise_function(tensor, name=...)`."""
    default_name = "lt_%s" % op_name

    @tc.accepts(LabeledTensorLike, tc.Optional(str))
    def op(labeled_tensor, name=None):
        with _scope(name, default_name, [labeled_tensor]) as scope:
            labeled_tensor = convert_to_labeled_tensor(labeled_tensor)
            result = elementwise_function(labeled_tensor.tensor, name=scope)
            return LabeledTensor(result, labeled_tensor.axes)

    op.__doc__ = "LabeledTensor version of `tf.%s`." % op_name
    op.__name__ = op_name
    return op


@tc.accepts(str, collections.abc.Callable)
def define_binary_op(op_name, elementwise_function):
    """The LabeledTensor version of `elementwise_function(a, b, name=...)`, aligning the inputs
    by axis name first."""
    default_name = "lt_%s" % op_name

    @tc.accepts(LabeledTensorLike, LabeledTensorLike, tc.Optional(str))
    def op(labeled_tensor_0, labeled_tensor_1, name=None):
        with _scope(name, default_name, [labeled_tensor_0, labeled_tensor_1]) as scope:
            a, b, axes = align(labeled_tensor_0, labeled_tensor_1)
            return LabeledTensor(elementwise_function(a.tensor, b.tensor, name=scope), axes)

    op.__doc__ = "LabeledTensor version of `tf.%s` with label based alignment." % op_name
    op.__name__ = op_name
    return op


_m = tf.math
UNARY = {"abs": _m.abs, "neg": _m.negative, "sign": _m.sign, "reciprocal": _m.reciprocal,
         "square": _m.square, "round": _m.round, "sqrt": _m.sqrt, "rsqrt": _m.rsqrt,
         "exp": _m.exp, "log": _m.log, "ceil": _m.ceil, "floor": _m.floor, "cos": _m.cos,
         "sin": _m.sin, "tan": _m.tan, "acos": _m.acos, "asin": _m.asin, "atan": _m.atan,
         "lgamma": _m.lgamma, "digamma": _m.digamma, "erf": _m.erf, "erfc": _m.erfc,
         "logical_not": _m.logical_not, "tanh": _m.tanh, "sigmoid": _m.sigmoid}
BINARY = {"add": _m.add, "sub": _m.subtract, "mul": _m.multiply, "div": _v1.div,
          "mod": _m.floormod, "pow": _m.pow, "equal": _m.equal, "greater": _m.greater,
          "greater_equal": _m.greater_equal, "not_equal": _m.not_equal, "less": _m.less,
          "less_equal": _m.less_equal, "logical_and": _m.logical_and,
          "logical_or": _m.logical_or, "logical_xor": _m.logical_xor, "maximum": _m.maximum,
          "minimum": _m.minimum, "squared_difference": _m.squared_difference,
          "igamma": _m.igamma, "igammac": _m.igammac, "zeta": _m.zeta,
          "polygamma": _m.polygamma}
# the public names that would shadow Python builtins
_PUBLIC = {"abs": "abs_function", "round": "round_function", "pow": "pow_function"}
ELEMENTWISE = {}
for _name, _fn in UNARY.items():
    ELEMENTWISE[_name] = globals()[_PUBLIC.get(_name, _name)] = define_unary_op(_name, _fn)
for _name, _fn in BINARY.items():
    ELEMENTWISE[_name] = globals()[_PUBLIC.get(_name, _name)] = define_binary_op(_name, _fn)
