"""Parsing tf.Example protos and placeholders into LabeledTensors."""
import tensorflow as tf

from estimator_compat.legacy.contrib.labeled_tensor_parts import core
from estimator_compat.legacy.contrib.labeled_tensor_parts import typecheck as tc

_v1 = tf.compat.v1


class FixedLenFeature:
    """A fixed-length feature to parse, with its axes (known sizes) instead of a shape."""

    def __init__(self, axes, dtype, default_value=None):
        self._axes = [core.as_axis(a) for a in axes]
        self._dtype = dtype
        self._default_value = default_value

    @property
    def axes(self):
        return self._axes

    @property
    def dtype(self):
        return self._dtype

    @property
    def default_value(self):
        return self._default_value


@tc.accepts(tc.Mapping(str, FixedLenFeature))
def _unlabeled(features):
    out = {}
    for name, feature in features.items():
        shape = [axis.size for axis in feature.axes]
        if any(size is None for size in shape):
            raise ValueError("axes with unknown size are not supported")
        out[name] = tf.io.FixedLenFeature(shape, feature.dtype, feature.default_value)
    return out


@tc.accepts(core.LabeledTensorLike, tc.Mapping(str, FixedLenFeature), tc.Optional(str), object)
def parse_example(serialized, features, name=None, example_names=None):
    """tf.io.parse_example of a batch of serialized protos; results have the batch's axes then
    the feature's."""
    serialized = core.convert_to_labeled_tensor(serialized)
    parsed = _v1.io.parse_example(serialized.tensor, _unlabeled(features), name, example_names)
    return {key: core.LabeledTensor(value, list(serialized.axes.values()) + features[key].axes)
            for key, value in parsed.items()}


@tc.accepts(core.LabeledTensorLike, tc.Mapping(str, FixedLenFeature), tc.Optional(str), object)
def parse_single_example(serialized, features, name=None, example_names=None):
    """tf.io.parse_single_example of one serialized proto."""
    serialized = core.convert_to_labeled_tensor(serialized)
    parsed = _v1.io.parse_single_example(serialized.tensor, _unlabeled(features), name,
                                         example_names)
    return {key: core.LabeledTensor(value, features[key].axes) for key, value in parsed.items()}


@tc.accepts(tf.DType, tc.Collection(tc.Union(str, core.AxisLike)), tc.Optional(str))
def placeholder(dtype, axes, name=None):
    """A tf.compat.v1.placeholder with axes (a bare name is an axis of unknown size)."""
    with core._scope(name, "lt_placeholder", []) as scope:
        axes = core.Axes([(a, None) if isinstance(a, str) else a for a in axes])
        tensor = _v1.placeholder(dtype, [a.size for a in axes.values()], name=scope)
        return core.LabeledTensor(tensor, axes)
