"""Object-based checkpoints in model_dir, for `Scaffold(saver=tf.train.Checkpoint(...))`.

tf.estimator wrote such a scaffold's objects (`net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE`, ...)
under the usual `model.ckpt-<step>` names and `checkpoint` state file, so the guide's
`tf.train.Checkpoint(...).restore(tf.train.latest_checkpoint(model_dir))` reads them back.
`Checkpoint.write` adds no `save_counter` (tf.estimator's files had none); the state file is
rewritten atomically after the data is complete, and retention then removes only checkpoints
the new state file no longer lists.
"""
import logging
import os

import tensorflow as tf
from tensorflow.python.checkpoint import checkpoint_management

logger = logging.getLogger("tensorflow")

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"


def is_object_based(path):
    """True for a checkpoint written by tf.train.Checkpoint (it holds the object graph)."""
    return tf.train.load_checkpoint(path).has_tensor(OBJECT_GRAPH_KEY)


def save(checkpoint, model_dir, basename, step, keep_max):
    """Writes `<model_dir>/<basename>-<step>` from `checkpoint`; returns its path."""
    prefix = os.path.join(model_dir, f"{basename}-{step}")
    path = os.path.abspath(checkpoint.write(prefix))
    state = tf.train.get_checkpoint_state(model_dir)
    kept = [os.path.abspath(p) for p in (state.all_model_checkpoint_paths if state else [])]
    kept = [p for p in kept if p != path] + [path]
    dropped = kept[:-keep_max] if keep_max else []
    kept = kept[len(dropped):]
    checkpoint_management.update_checkpoint_state_internal(
        os.path.abspath(model_dir), path, kept, save_relative_paths=True)
    for old in dropped:
        _remove(old)
    return path


def restore(checkpoints, path):
    """Reads `path` into every traced mode's Checkpoint object (objects a mode never built,
    such as an optimizer in evaluation, are left alone)."""
    for checkpoint in checkpoints:
        checkpoint.read(path).expect_partial()


def _remove(prefix):
    for name in tf.io.gfile.glob(prefix + ".*"):
        try:
            tf.io.gfile.remove(name)
        except tf.errors.NotFoundError:
            pass
