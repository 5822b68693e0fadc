"""Hooks that evaluate during training or follow another worker's checkpoints."""
import logging
import time

from estimator_compat import checkpoints
from estimator_compat.hooks import SessionRunHook
from estimator_compat.hooks.builtin import StopAtStepHook

logger = logging.getLogger("tensorflow")


class InMemoryEvaluatorHook(SessionRunHook):
    """Evaluates the model being trained, with its in-memory variables (no checkpoint), before
    the first step, every `every_n_iter` iterations and at the end; results go to the eval dir
    as evaluate() writes."""

    def __init__(self, estimator, input_fn, steps=None, hooks=None, name=None, every_n_iter=100):
        if every_n_iter is None or every_n_iter <= 0:
            raise ValueError(f"invalid every_n_iter={every_n_iter}.")
        self._estimator, self._input_fn, self._steps = estimator, input_fn, steps
        self._hooks, self._name, self._every = list(hooks or ()), name, every_n_iter
        self.results = []

    def begin(self):
        self._iter = 0

    def after_create_session(self, session, coord):
        """TF's first evaluation, before training: the starting variables' metrics."""
        self._evaluate(session)

    def after_run(self, run_context, run_values):
        self._iter += 1
        if self._iter % self._every == 0:
            self._evaluate(run_context.session)

    def end(self, session):
        self._evaluate(session)

    def _evaluate(self, session):
        from estimator_compat.engine import eval_loop  # the loop imports the hook machinery
        self.results.append(eval_loop.evaluate(
            session.state, self._input_fn, steps=self._steps, hooks=self._hooks,
            name=self._name, in_memory=True))


class _StopAtCheckpointStepHook(SessionRunHook):
    """Stops a non-chief worker once the chief's checkpoint reaches `last_step`."""

    def __init__(self, model_dir, last_step, wait_after_file_check_secs):
        self._model_dir, self._last_step = model_dir, last_step
        self._wait = wait_after_file_check_secs
        self._last_check = None

    def after_run(self, run_context, run_values):
        now = time.time()
        if self._last_check is not None and now - self._last_check < self._wait:
            return
        self._last_check = now
        path = checkpoints.latest_checkpoint(self._model_dir)
        if path is not None and checkpoints.checkpoint_step(path) >= self._last_step:
            logger.info("Checkpoint %s reached step %d: stopping.", path, self._last_step)
            run_context.request_stop()


def make_stop_at_checkpoint_step_hook(estimator, last_step, wait_after_file_check_secs=30):
    """StopAtStepHook on the chief; elsewhere, stop when the chief's checkpoint reaches last_step."""
    if estimator.config.is_chief:
        return StopAtStepHook(last_step=last_step)
    return _StopAtCheckpointStepHook(estimator.model_dir, last_step, wait_after_file_check_secs)
