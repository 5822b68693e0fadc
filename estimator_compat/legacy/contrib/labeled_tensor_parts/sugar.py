"""`ReshapeCoder`: reshape some axes away and back again (e.g. around a model that wants a
flat batch)."""
from estimator_compat.legacy.contrib.labeled_tensor_parts import core, ops
from estimator_compat.legacy.contrib.labeled_tensor_parts import typecheck as tc


class ReshapeCoder:
    """`encode` reshapes `existing_axis_names` into `new_axes`; `decode` undoes it with the axes
    seen by the first `encode`."""

    @tc.accepts(object, tc.Collection(str), tc.Collection(tc.Union(str, core.AxisLike)),
                tc.Optional(str))
    def __init__(self, existing_axis_names, new_axes, name=None):
        self._name = name
        self._existing_axis_names = existing_axis_names
        self._new_axes = new_axes
        self._existing_axes = None

    @tc.accepts(object, core.LabeledTensorLike)
    def encode(self, labeled_tensor):
        with core._scope(self._name, "lt_reshape_encode", [labeled_tensor]) as scope:
            labeled_tensor = core.convert_to_labeled_tensor(labeled_tensor)
            result = ops.reshape(labeled_tensor, self._existing_axis_names, self._new_axes,
                                 name=scope)
            axes = [labeled_tensor.axes[n] for n in self._existing_axis_names]
            if self._existing_axes is not None and self._existing_axes != axes:
                raise ValueError("input axes %r do not match axes from previous method call %r"
                                 % (axes, self._existing_axes))
            self._existing_axes = axes
            return result

    @tc.accepts(object, core.LabeledTensorLike)
    def decode(self, labeled_tensor):
        if self._existing_axes is None:
            raise ValueError("decode called before encode")
        with core._scope(self._name, "lt_reshape_decode", [labeled_tensor]) as scope:
            labeled_tensor = core.convert_to_labeled_tensor(labeled_tensor)
            new_names = [a if isinstance(a, str) else core.as_axis(a).name
                         for a in self._new_axes]
            return ops.reshape(labeled_tensor, new_names, self._existing_axes, name=scope)
