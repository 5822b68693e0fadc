"""tf.contrib.checkpoint's `split_dependency`: several checkpoint dependencies saved and
restored together, on TensorFlow 2's saveable API (`_serialize_to_tensors` /
`_restore_from_tensors` of a Trackable) instead of TF 1.15's SaveableObjects.

One call of `fill_save_buffer_fn` fills the tensors of every component when the first of them is
saved (TensorFlow 2 also asks for them when it restores); each component is saved under its own
object as `<path>/.ATTRIBUTES/VARIABLE_VALUE` (TF 1.15's key). On restore,
`consume_restore_buffer_fn` runs once, when the last component has its tensor, with all of them
(its op is that component's restore op in graph mode).
"""
import tensorflow as tf
from tensorflow.python.trackable import base as trackable

_KEY = "VARIABLE_VALUE"


class _Shared:
    """What the components of one split_dependency call share."""

    def __init__(self, names, dtypes, fill, consume, device):
        self.names, self.dtypes = list(names), [tf.as_dtype(d) for d in dtypes]
        self.fill, self.consume, self.device = fill, consume, device
        self.save_buffer, self.restore_buffer = {}, {}

    def tensor_to_save(self, name):
        with tf.device(self.device):
            if name not in self.save_buffer:  # a new save (or a restore reading the specs)
                self.save_buffer.clear()
                self.fill(self.save_buffer)
                missing = sorted(set(self.names) - set(self.save_buffer))
                if missing:
                    raise ValueError(f"split_dependency: fill_save_buffer_fn did not add "
                                     f"{missing} to the buffer (it must add every one of "
                                     f"{self.names})")
            return self.save_buffer.pop(name)

    def restored(self, name, tensor):
        self.restore_buffer[name] = tensor
        if len(self.restore_buffer) < len(self.names):
            return tf.no_op() if not tf.executing_eagerly() else None
        buffer, self.restore_buffer = dict(self.restore_buffer), {}
        with tf.device(self.device):
            return self.consume(buffer)


class _SplitDependency(trackable.Trackable):
    """One component: saves and restores its tensor through the shared buffers."""

    def __init__(self, shared, name):
        self._shared, self._name = shared, name

    def _serialize_to_tensors(self):
        return {_KEY: self._shared.tensor_to_save(self._name)}

    def _restore_from_tensors(self, restored_tensors):
        return self._shared.restored(self._name, restored_tensors[_KEY])


def split_dependency(component_names, component_dtypes, fill_save_buffer_fn,
                     consume_restore_buffer_fn, device):
    """{name: Trackable} for `component_names`, saved from one `fill_save_buffer_fn(dict)` call
    and restored by one `consume_restore_buffer_fn(dict)` call."""
    names = list(component_names)
    if len(names) != len(list(component_dtypes)):
        raise ValueError("split_dependency: give one dtype per component name "
                         f"({len(names)} names, {len(list(component_dtypes))} dtypes)")
    if len(set(names)) != len(names):
        raise ValueError(f"split_dependency: component names must be unique, got {names}")
    shared = _Shared(names, component_dtypes, fill_save_buffer_fn, consume_restore_buffer_fn,
                     device)
    return {name: _SplitDependency(shared, name) for name in names}
