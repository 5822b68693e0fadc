"""AsyncCheckpointSaverHook (`tensorflow.contrib.tpu.python.tpu.async_checkpoint`): TF 1.15
saved from a background thread so a TPU host would not wait on its disk. Here the engine's
CheckpointSaverHook writes the same checkpoints (same steps, names and `checkpoint` file), on
the training thread: its writes are staged and renamed, and nothing on the host waits for a
TPU."""
import logging

from estimator_compat.hooks.builtin import CheckpointSaverHook

logger = logging.getLogger("tensorflow")


class AsyncCheckpointSaverHook(CheckpointSaverHook):
    """CheckpointSaverHook(checkpoint_dir, save_secs, save_steps, saver, checkpoint_basename,
    scaffold, listeners): a checkpoint every `save_steps` steps or `save_secs` seconds, and
    at the end."""

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
                 checkpoint_basename="model.ckpt", scaffold=None, listeners=None):
        logger.info("Create AsyncCheckpointSaverHook.")
        super().__init__(checkpoint_dir, save_secs=save_secs, save_steps=save_steps,
                         saver=saver, checkpoint_basename=checkpoint_basename,
                         scaffold=scaffold, listeners=listeners)
