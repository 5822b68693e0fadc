"""`hooks.*` and `early_stopping`: the SessionRunHook protocol, the basic hooks, the
in-training evaluator, the early-stopping hooks (and the stop variable programs created), and
the FakeSummaryWriter test double, as tf.estimator exported them; early_stopping's
`_summaries`, `_CheckForStoppingHook` and `_MultiWorkerEarlyStoppingHook` are
early_stopping_privates.py."""
import types


_BASIC = ("CheckpointSaverHook", "CheckpointSaverListener", "FeedFnHook", "FinalOpsHook",
          "GlobalStepWaiterHook", "LoggingTensorHook", "NanLossDuringTrainingError",
          "NanTensorHook", "ProfilerHook", "SecondOrStepTimer", "StepCounterHook",
          "StopAtStepHook", "SummarySaverHook")
_PROTOCOL = ("SessionRunArgs", "SessionRunContext", "SessionRunHook", "SessionRunValues")


def _public(module):
    return {n: getattr(module, n) for n in dir(module) if not n.startswith("_")
            and not isinstance(getattr(module, n), types.ModuleType)}


def modules():
    import estimator_compat as api
    from estimator_compat.hooks import builtin, early_stopping, evaluation, fake_summary_writer
    from estimator_compat.legacy.estimator_tree.early_stopping_privates import (
        _CheckForStoppingHook, _MultiWorkerEarlyStoppingHook, _summaries)
    from estimator_compat.legacy.estimator_tree.imported_privates import \
        _get_or_create_stop_var

    class _StopOnPredicateHook(early_stopping._StopOnPredicateHook):
        """Stops training once `should_stop_fn()` is true, checked every `run_every_secs`
        seconds or `run_every_steps` steps."""

        def __init__(self, should_stop_fn, run_every_secs=60, run_every_steps=None):
            super().__init__(should_stop_fn, run_every_secs, run_every_steps)

    def _stop_if_threshold_crossed_hook(estimator, metric_name, threshold, higher_is_better,
                                        eval_dir, min_steps, run_every_secs, run_every_steps):
        make = early_stopping.stop_if_higher_hook if higher_is_better else \
            early_stopping.stop_if_lower_hook
        return make(estimator, metric_name, threshold, eval_dir, min_steps, run_every_secs,
                    run_every_steps)

    def _stop_if_no_metric_improvement_hook(estimator, metric_name,
                                            max_steps_without_improvement, higher_is_better,
                                            eval_dir, min_steps, run_every_secs,
                                            run_every_steps):
        make = early_stopping.stop_if_no_increase_hook if higher_is_better else \
            early_stopping.stop_if_no_decrease_hook
        return make(estimator, metric_name, max_steps_without_improvement, eval_dir, min_steps,
                    run_every_secs, run_every_steps)

    stopping = dict(_public(early_stopping), _StopOnPredicateHook=_StopOnPredicateHook,
                    _get_or_create_stop_var=_get_or_create_stop_var,
                    _CheckForStoppingHook=_CheckForStoppingHook, _summaries=_summaries,
                    _MultiWorkerEarlyStoppingHook=_MultiWorkerEarlyStoppingHook,
                    _stop_if_threshold_crossed_hook=_stop_if_threshold_crossed_hook,
                    _stop_if_no_metric_improvement_hook=_stop_if_no_metric_improvement_hook)
    return {
        "hooks": dict(_public(builtin), **_public(early_stopping)),
        "hooks.session_run_hook": {n: getattr(api, n) for n in _PROTOCOL},
        "hooks.basic_session_run_hooks": {n: getattr(api, n) for n in _BASIC},
        "hooks.hooks": dict(
            InMemoryEvaluatorHook=evaluation.InMemoryEvaluatorHook,
            _StopAtCheckpointStepHook=evaluation._StopAtCheckpointStepHook,
            make_stop_at_checkpoint_step_hook=evaluation.make_stop_at_checkpoint_step_hook),
        "hooks.fake_summary_writer": dict(
            FakeSummaryWriter=fake_summary_writer.FakeSummaryWriter),
        "early_stopping": stopping,
    }


DECLINED = {}
