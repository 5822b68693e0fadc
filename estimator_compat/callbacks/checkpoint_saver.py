"""Saves checkpoints every save_checkpoints_steps/secs and at the end (CheckpointSaverHook),
each save noted in model_dir's events as a CHECKPOINT SessionLog, as that hook noted it."""
import os

from estimator_compat import summaries
from estimator_compat.engine import session_log
from estimator_compat.hooks import SecondOrStepTimer


class CheckpointSaver:
    """Drives CheckpointIO by a step/second timer and tells saving listeners."""

    def __init__(self, io, save_steps=None, save_secs=None, listeners=(), hook_session=None,
                 summary_dir=None):
        self._io = io
        self._summary_dir = summary_dir
        self._timer = (SecondOrStepTimer(every_steps=save_steps, every_secs=save_secs)
                       if (save_steps or save_secs) else None)
        self._listeners = list(listeners)
        self._session = hook_session
        self.last_saved_step = None
        self.stop_requested = False

    def begin(self, step):
        """At session start: listeners begin, and the starting step is saved (tf.estimator did,
        also re-saving a restored step)."""
        for listener in self._listeners:
            listener.begin()
        if self._timer is not None:
            self._timer.update_last_triggered_step(step)
        self.save(step, first=True)

    def after_step(self, step):
        if self._timer is not None and self._timer.should_trigger_for_step(step):
            self._timer.update_last_triggered_step(step)
            self.save(step)

    def save(self, step, first=False):
        session_log.checkpoint_listeners("before", step)
        for listener in self._listeners:
            listener.before_save(self._session, step)
        path = self._io.save(step, first=first)
        self.last_saved_step = step
        if self._summary_dir is not None:
            summaries.write_session_log(self._summary_dir, step, "CHECKPOINT",
                                        os.path.join(self._summary_dir, "model.ckpt"))
        session_log.checkpoint_listeners("after", step)
        for listener in self._listeners:
            if listener.after_save(self._session, step):
                self.stop_requested = True
        return path

    def end(self, step, force=False):
        """The final save, unless this step is saved already (`force`: save anyway)."""
        if force or self.last_saved_step != step:
            self.save(step)
        if self._io.meta_graphs is not None:
            self._io.meta_graphs.flush()
        for listener in self._listeners:
            listener.end(self._session, step)
