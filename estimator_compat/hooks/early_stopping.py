"""Early stopping on evaluation metrics, read from the eval dir's event files as tf.estimator did
(so it works with evaluations written by any process: train_and_evaluate, an evaluator task, or
tf.estimator 2.15 itself)."""
import logging
import operator

from estimator_compat import summaries
from estimator_compat.hooks import SecondOrStepTimer, SessionRunHook

logger = logging.getLogger("tensorflow")


def read_eval_metrics(eval_dir):
    """{global_step: {metric: value}} of every evaluation in `eval_dir`, steps ascending."""
    return summaries.read_scalars(eval_dir)


def make_early_stopping_hook(estimator, should_stop_fn, run_every_secs=60, run_every_steps=None):
    """A hook that stops training once `should_stop_fn()` returns True (checked periodically)."""
    if not callable(should_stop_fn):
        raise TypeError(f"`should_stop_fn` must be callable, given: {should_stop_fn!r}")
    if run_every_secs is not None and run_every_steps is not None:
        raise ValueError("Only one of `run_every_secs` and `run_every_steps` can be set "
                         f"(given {run_every_secs} secs and {run_every_steps} steps); pass "
                         "run_every_secs=None to check by steps.")
    return _StopOnPredicateHook(should_stop_fn, run_every_secs, run_every_steps)


class _StopOnPredicateHook(SessionRunHook):
    def __init__(self, should_stop_fn, run_every_secs, run_every_steps):
        self._should_stop_fn = should_stop_fn
        self._timer = SecondOrStepTimer(every_secs=run_every_secs, every_steps=run_every_steps)

    def begin(self):
        self._timer.reset()

    def after_run(self, run_context, run_values):
        step = int(run_context.session.state.global_step.numpy())
        if self._timer.should_trigger_for_step(step):
            self._timer.update_last_triggered_step(step)
            if self._should_stop_fn():
                logger.info("Requesting early stopping at global step %d", step)
                run_context.request_stop()


def _metric(metrics, name, eval_dir, step):
    if name not in metrics:
        raise ValueError(f"metric_name {name!r} not found in the evaluation at step {step} in "
                         f"{eval_dir}; it has: {sorted(metrics)}")
    return metrics[name]


def _threshold_hook(better, kind, estimator, metric_name, threshold, eval_dir, min_steps,
                    run_every_secs, run_every_steps):
    eval_dir = eval_dir or estimator.eval_dir()

    def stop_if_threshold_crossed():
        for step, metrics in read_eval_metrics(eval_dir).items():
            if step < min_steps:
                continue
            value = _metric(metrics, metric_name, eval_dir, step)
            if better(value, threshold):
                logger.info('At step %s, metric "%s" has value %s which is %s than the '
                            "configured threshold (%s) for early stopping.", step, metric_name,
                            value, kind, threshold)
                return True
        return False
    return make_early_stopping_hook(estimator, stop_if_threshold_crossed, run_every_secs,
                                    run_every_steps)


def _no_improvement_hook(better, kind, estimator, metric_name, max_steps, eval_dir, min_steps,
                         run_every_secs, run_every_steps):
    eval_dir = eval_dir or estimator.eval_dir()

    def stop_if_no_improvement():
        best, best_step = None, None
        for step, metrics in read_eval_metrics(eval_dir).items():
            if step < min_steps:
                continue
            value = _metric(metrics, metric_name, eval_dir, step)
            if best is None or better(value, best):
                best, best_step = value, step
            if step - best_step >= max_steps:
                logger.info('No %s in metric "%s" for %s steps, which is greater than or equal '
                            "to max steps (%s) configured for early stopping.", kind,
                            metric_name, step - best_step, max_steps)
                return True
        return False
    return make_early_stopping_hook(estimator, stop_if_no_improvement, run_every_secs,
                                    run_every_steps)


def stop_if_higher_hook(estimator, metric_name, threshold, eval_dir=None, min_steps=0,
                        run_every_secs=60, run_every_steps=None):
    """Stops once `metric_name` in an evaluation is higher than `threshold`."""
    return _threshold_hook(operator.gt, "higher", estimator, metric_name, threshold, eval_dir,
                           min_steps, run_every_secs, run_every_steps)


def stop_if_lower_hook(estimator, metric_name, threshold, eval_dir=None, min_steps=0,
                       run_every_secs=60, run_every_steps=None):
    """Stops once `metric_name` in an evaluation is lower than `threshold`."""
    return _threshold_hook(operator.lt, "lower", estimator, metric_name, threshold, eval_dir,
                           min_steps, run_every_secs, run_every_steps)


def stop_if_no_increase_hook(estimator, metric_name, max_steps_without_increase, eval_dir=None,
                             min_steps=0, run_every_secs=60, run_every_steps=None):
    """Stops once `metric_name` has not increased for `max_steps_without_increase` steps."""
    return _no_improvement_hook(operator.gt, "increase", estimator, metric_name,
                                max_steps_without_increase, eval_dir, min_steps, run_every_secs,
                                run_every_steps)


def stop_if_no_decrease_hook(estimator, metric_name, max_steps_without_decrease, eval_dir=None,
                             min_steps=0, run_every_secs=60, run_every_steps=None):
    """Stops once `metric_name` has not decreased for `max_steps_without_decrease` steps."""
    return _no_improvement_hook(operator.lt, "decrease", estimator, metric_name,
                                max_steps_without_decrease, eval_dir, min_steps, run_every_secs,
                                run_every_steps)
