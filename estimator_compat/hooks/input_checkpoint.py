"""`CheckpointInputPipelineHook` (TF 1.15's `tf.contrib.data` / `tf.data.experimental`, gone
from TensorFlow 2.16): the training input's position saved beside each model checkpoint and
restored when training starts again, so a job that trains in short `train()` calls between
evaluations (or is pre-empted) reads on where it stopped instead of from the start.

As TF 1.15 wrote them: `model_dir/input.ckpt-<global_step>` at the steps the model checkpoints
are saved (the first one when training starts), listed in the state file
`model_dir/checkpoint_input` with absolute paths; as many kept as `keep_checkpoint_max`. The
position is the tf.data iterator's own checkpoint (`tf.train.Checkpoint(iterator=...)`), so the
files are TensorFlow 2's and an input_fn must give a `tf.data.Dataset` (or a TF1 iterator over
one); a queue pipeline run in a TF1 session has no position to save (a clear error says so).
The engine (`engine/train_loop.py`) finds the hook among `train(hooks=...)` and calls it.
"""
import os

import tensorflow as tf

from estimator_compat.hooks import CheckpointSaverListener, SessionRunHook

STATE_FILE = "checkpoint_input"
PREFIX = "input.ckpt"
_POLICIES = (None, "warn", "ignore", "fail")


class CheckpointInputPipelineHook(SessionRunHook):
    """Saves the training input's position with every model checkpoint, and resumes from it."""

    def __init__(self, estimator, external_state_policy=None):
        if not hasattr(estimator, "model_dir") or not hasattr(estimator, "config"):
            raise TypeError(f"CheckpointInputPipelineHook takes the Estimator it trains, given "
                            f"{estimator!r}.")
        policy = getattr(external_state_policy, "name", external_state_policy)
        if isinstance(policy, str):
            policy = policy.lower()
        if policy not in _POLICIES:
            raise ValueError(f"external_state_policy must be one of 'warn', 'ignore', 'fail' "
                             f"(tf.data.experimental.ExternalStatePolicy), given "
                             f"{external_state_policy!r}.")
        self._model_dir = estimator.model_dir
        self._keep = estimator.config.keep_checkpoint_max or 0
        self._checkpoint = None

    # -- called by the engine --------------------------------------------------------------
    def attach(self, iterator):
        """Binds the call's input iterator and restores its last saved position, if any."""
        try:
            self._checkpoint = tf.train.Checkpoint(iterator=iterator)
        except (TypeError, ValueError) as e:
            raise ValueError(
                "CheckpointInputPipelineHook: this input has no position to save (" + str(e)
                + "). The input_fn must return a tf.data.Dataset (or a TF1 iterator over one); "
                "queue runners and placeholders fed by hooks cannot be checkpointed.") from None
        state = tf.train.get_checkpoint_state(self._model_dir, latest_filename=STATE_FILE)
        if state is not None and state.model_checkpoint_path:
            tf.compat.v1.logging.info("Restoring the input pipeline's position from %s",
                                      state.model_checkpoint_path)
            self._checkpoint.read(state.model_checkpoint_path).expect_partial()

    def listener(self):
        """A CheckpointSaverListener that saves the position after each model checkpoint."""
        return _SaveAfterModel(self)

    def save(self, step):
        if self._checkpoint is None:
            return
        path = self._checkpoint.write(os.path.join(self._model_dir, f"{PREFIX}-{int(step)}"))
        path = os.path.abspath(path)
        state = tf.train.get_checkpoint_state(self._model_dir, latest_filename=STATE_FILE)
        paths = [p for p in (state.all_model_checkpoint_paths if state else ()) if p != path]
        paths.append(path)
        if self._keep:
            for old in paths[:-self._keep]:
                for name in tf.io.gfile.glob(old + ".*"):
                    tf.io.gfile.remove(name)
            paths = paths[-self._keep:]
        tf.compat.v1.train.update_checkpoint_state(
            self._model_dir, path, all_model_checkpoint_paths=paths, latest_filename=STATE_FILE)


class _SaveAfterModel(CheckpointSaverListener):
    def __init__(self, hook):
        self._hook = hook

    def after_save(self, session, global_step_value):
        self._hook.save(global_step_value)

    def end(self, session, global_step_value):
        self._hook._checkpoint = None  # the call's iterator is let go (after the last save)


def attach(hooks, iterator):
    """The saving listeners of the CheckpointInputPipelineHooks among `hooks`, each attached
    to `iterator` (its position restored)."""
    found = [h for h in hooks or () if isinstance(h, CheckpointInputPipelineHook)]
    for hook in found:
        hook.attach(iterator)
    return [hook.listener() for hook in found]
