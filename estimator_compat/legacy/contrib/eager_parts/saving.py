"""`tfe.Saver`, `tfe.restore_variables_on_create`, `tfe.get_optimizer_variables`: TF 1.15's
name-based checkpoints for eager programs, on TensorFlow 2's `tf.compat.v1.train.Saver`."""
import contextlib

import tensorflow as tf
from tensorflow.python.eager import context
from tensorflow.python.framework import errors
from tensorflow.python.ops import resource_variable_ops


class Saver:
    """`tf.compat.v1.train.Saver` for eager execution: the same files, no Session."""

    def __init__(self, var_list):
        if not context.executing_eagerly():
            raise RuntimeError("tfe.Saver can only be used when eager execution is enabled. "
                               "Use tf.train.Saver when building graphs.")
        self._saver = tf.compat.v1.train.Saver(var_list=var_list)

    def save(self, file_prefix, global_step=None):
        """Writes the variables; returns the checkpoint's prefix (with `-<global_step>`)."""
        with tf.device("/device:CPU:0"):
            return self._saver.save(None, file_prefix, write_meta_graph=False,
                                    global_step=global_step)

    def restore(self, file_prefix):
        """Reads the variables back from `file_prefix`."""
        with tf.device("/device:CPU:0"):
            self._saver.restore(None, file_prefix)


def get_optimizer_variables(optimizer):
    """The variables a `tf.compat.v1.train.Optimizer` made (`optimizer.variables()`)."""
    return optimizer.variables()


@contextlib.contextmanager
def restore_variables_on_create(save_path, map_func=None):
    """Eager variables made inside take their value from the checkpoint `save_path` as they
    are created (looked up by their name, or by `map_func(name)`); a name the checkpoint lacks
    is a NotFoundError. Nothing happens when `save_path` is None.

    Every eager variable (`tf.Variable`, `tfe.Variable`, `get_variable`, a layer's) is built by
    `ResourceVariable._init_from_args`, so that is where the value is set, as TF 1.15 did;
    the method is put back on exit."""
    if not context.executing_eagerly():
        raise ValueError("Currently, restore_variables_on_create can only be used with eager "
                         "execution enabled.")
    if not save_path:
        yield
        return
    if map_func is not None and not callable(map_func):
        raise ValueError("map_func must be callable.")
    reader = tf.train.load_checkpoint(save_path)
    pending = {name: reader.get_tensor(name) for name, _ in tf.train.list_variables(save_path)}
    original = resource_variable_ops.ResourceVariable._init_from_args

    def init_from_checkpoint(variable, *args, **kwargs):
        original(variable, *args, **kwargs)
        name = variable.name[:variable.name.index(":")] if ":" in variable.name else variable.name
        wanted = map_func(name) if map_func is not None else name
        if wanted not in pending:
            raise errors.NotFoundError(None, None, "%s not found in checkpoint" % wanted)
        if pending[wanted] is not None:
            variable.assign(pending[wanted])
            pending[wanted] = None  # assigned once, as TF 1.15 did
    resource_variable_ops.ResourceVariable._init_from_args = init_from_checkpoint
    try:
        yield
    finally:
        resource_variable_ops.ResourceVariable._init_from_args = original
