"""Object-based checkpoints in model_dir, for `Scaffold(saver=tf.train.Checkpoint(...))`.

tf.estimator wrote such a scaffold's objects (`net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE`, ...)
under the usual `model.ckpt-<step>` names and `checkpoint` state file, so the guide's
`tf.train.Checkpoint(...).restore(tf.train.latest_checkpoint(model_dir))` reads them back.
CheckpointIO writes them with `Checkpoint.write`, which adds no `save_counter` (tf.estimator's
files had none), and records them in the state file like name-based ones.
"""
OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"


def is_object_based(reader):
    """True for a checkpoint written by tf.train.Checkpoint (it holds the object graph)."""
    return reader.has_tensor(OBJECT_GRAPH_KEY)


def restore(checkpoints, path):
    """Reads `path` into every traced mode's Checkpoint object (objects a mode never built,
    such as an optimizer in evaluation, are left alone)."""
    for checkpoint in checkpoints:
        checkpoint.read(path).expect_partial()
