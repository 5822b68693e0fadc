"""The periodic training log lines and the `global_step/sec` summary of tf.estimator."""
import logging
import time

import numpy as np

from estimator_compat import summaries
from estimator_compat.hooks import SecondOrStepTimer

logger = logging.getLogger("tensorflow")


class StepLogger:
    """`loss = …, step = …` every N iterations and `global_step/sec: …` every N steps."""

    def __init__(self, every_n_steps, summary_dir=None, step_after=False):
        """`step_after`: the line shows the global step after the step, as TF 1.15's did (its
        reference variable, fetched in the run that increments it, was read at the run's
        end: `step = 1, 101, …`); tf.estimator 2.x's showed the step it started at (0, 100)."""
        self._step_after = step_after
        self._every = every_n_steps
        self._summary_dir = summary_dir
        self._iter = 0
        self._last_log_time = None
        self._timer = SecondOrStepTimer(every_steps=every_n_steps) if every_n_steps else None

    def on_step(self, step_before, loss, steps=1):
        """After the call whose last step started at global step `step_before`; the call ran
        `steps` steps (steps_per_execution)."""
        if not self._every:
            return
        # log when this call's iterations [iter, iter + steps) include a multiple of every
        if (self._iter + steps - 1) // self._every > (self._iter - 1) // self._every:
            now = time.time()
            shown = step_before + 1 if self._step_after else step_before
            if self._last_log_time is None:
                logger.info("loss = %s, step = %d", _fmt(loss), shown)
            else:
                logger.info("loss = %s, step = %d (%.3f sec)", _fmt(loss), shown,
                            now - self._last_log_time)
            self._last_log_time = now
        self._iter += steps
        step = step_before + 1
        if self._timer.should_trigger_for_step(step):
            elapsed, steps = self._timer.update_last_triggered_step(step)
            if elapsed is not None and elapsed > 0:
                rate = steps / elapsed
                logger.info("global_step/sec: %g", rate)
                if self._summary_dir is not None:
                    summaries.write_scalars(self._summary_dir, step, {"global_step/sec": rate})


def _fmt(value):
    """As TF printed the fetched loss: its numpy scalar's str (float32: `3.5813897`)."""
    return str(value if isinstance(value, np.generic) else np.float32(value))
