"""tensorflow_estimator 2.15's `training` privates: the spec validators (`_validate_input_fn`,
`_validate_hooks`, `_validate_saving_listeners`, `_validate_exporters`), `_StopAtSecsHook`,
the continuous-evaluation pieces (`_EvalResult`, `_ContinuousEvalListener`,
`_NewCheckpointListenerForEvaluate`) and `_TrainingExecutor`, whose `run_<task>` methods
frameworks (yarn / Determined / Cloud launchers) called to drive one task of
train_and_evaluate with their own train hooks and continuous-eval listener.

`_TrainingExecutor` runs estimator_compat's training: a chief / worker / master task trains as
training.train_and_evaluate's distributed path does (a parameter-server cluster's `ps` and
`worker` tasks serve the chief's steps, so no TF1 std server is started for them; a worker
of another cluster waits (index + 1) x 5 s, at most 60 s, as 2.15's), the evaluator evaluates
each new checkpoint until one at max_steps, run_local trains evaluating after each checkpoint.
"""
import collections
import os
import time

import tensorflow as tf

from estimator_compat.legacy.estimator_tree.imported_privates import (
    _assert_eval_spec,
    _EvalStatus,
    _is_google_env,
)
from estimator_compat.legacy.estimator_tree.reasons import instances_of

v1 = tf.compat.v1
_MAX_DELAY_SECS = 60
_DELAY_SECS_PER_WORKER = 5


def _validate_input_fn(input_fn):
    """TypeError unless `input_fn` is callable."""
    if not callable(input_fn):
        raise TypeError(f"`input_fn` must be callable, given: {input_fn}")


def _validate_hooks(hooks):
    """`hooks` as a tuple, TypeError for one that is not a SessionRunHook."""
    return instances_of(v1.train.SessionRunHook, hooks,
                        "All hooks must be `SessionRunHook` instances", tuple)


def _validate_saving_listeners(saving_listeners):
    """`saving_listeners` as a tuple, TypeError for one that is not a CheckpointSaverListener."""
    return instances_of(v1.train.CheckpointSaverListener, saving_listeners,
                        "All saving_listeners must be `CheckpointSaverListener` instances",
                        tuple)


def _validate_exporters(exporters):
    """`exporters` (one Exporter or an iterable of them; None or empty gives ()) as a tuple:
    TypeError for anything else, ValueError for an empty, non-string or repeated name."""
    from estimator_compat.exporters import Exporter
    if not exporters:
        return ()
    if isinstance(exporters, Exporter):
        exporters = [exporters]
    bad_type = TypeError("`exporters` must be an Exporter, an iterable of Exporter, or "
                         f"`None`, found {exporters}.")
    seen = []
    try:
        for exporter in exporters:
            if not isinstance(exporter, Exporter):
                raise bad_type
            if not exporter.name:
                raise ValueError("An Exporter cannot have a name that is `None` or empty. All "
                                 f"exporter names: {[e.name for e in exporters]}")
            if not isinstance(exporter.name, str):
                raise ValueError(f"An Exporter must have a string name. Given: "
                                 f"{type(exporter.name)}")
            if exporter.name in seen:
                raise ValueError("`exporters` must have unique names. Such a name cannot be "
                                 f"`None`. All exporter names: {[e.name for e in exporters]}")
            seen.append(exporter.name)
    except TypeError:  # not iterable, or not Exporters
        raise bad_type from None
    return tuple(exporters)


class _StopAtSecsHook(v1.train.SessionRunHook):
    """Requests a stop after the first run ending `stop_after_secs` after begin()."""

    def __init__(self, stop_after_secs):
        self._stop_after_secs = stop_after_secs
        self._start_time = None

    def begin(self):
        self._start_time = time.time()

    def after_run(self, run_context, run_values):
        del run_values
        if time.time() - self._start_time >= self._stop_after_secs:
            run_context.request_stop()


class _EvalResult(collections.namedtuple("EvalResult",
                                         ["status", "metrics", "checkpoint_path"])):
    """One continuous-evaluation round: its _EvalStatus and, when EVALUATED (only then),
    the metrics (a dict with 'global_step') and the checkpoint evaluated."""

    def __new__(cls, status, metrics=None, checkpoint_path=None):
        if status != _EvalStatus.EVALUATED:
            if metrics:
                raise ValueError(f"metrics must be `None` if status is not "
                                 f"{_EvalStatus.EVALUATED}; got status {status}, metrics "
                                 f"{metrics}")
            if checkpoint_path:
                raise ValueError(f"checkpoint must be `None` if status is not "
                                 f"{_EvalStatus.EVALUATED}; got status {status}, "
                                 f"checkpoint_path {checkpoint_path}")
            return super().__new__(cls, status, metrics, checkpoint_path)
        if not metrics:
            raise ValueError("Internal error: `Estimator.evaluate` should never return empty "
                             "metrics.")
        if not isinstance(metrics, dict):
            raise TypeError(f"`Estimator.evaluate` should return dict. Given {type(metrics)}.")
        if v1.GraphKeys.GLOBAL_STEP not in metrics:
            raise ValueError("Internal error: `Estimator.evaluate` result should have "
                             f"`global_step` in result. Given {metrics}")
        if not checkpoint_path:
            raise ValueError("Internal error: `checkpoint_path` should never be empty.")
        return super().__new__(cls, status, metrics, checkpoint_path)


class _ContinuousEvalListener:
    """Told before and after each evaluation; returning False from either stops evaluating."""

    def before_eval(self):
        return True

    def after_eval(self, eval_result):
        del eval_result
        return True


class _NewCheckpointListenerForEvaluate(v1.train.CheckpointSaverListener):
    """Evaluates (`evaluator.evaluate_and_export()`) after each checkpoint save but the first,
    at most every `eval_throttle_secs`, and at the end unless that step was evaluated; the
    continuous-eval listener may stop training (after_save returns True)."""

    def __init__(self, evaluator, eval_throttle_secs, continuous_eval_listener):
        self._evaluator = evaluator
        self._eval_throttle_secs = eval_throttle_secs
        self._continuous_eval_listener = continuous_eval_listener
        self.eval_result, self.export_results = None, None

    def begin(self):
        self._timer = v1.train.SecondOrStepTimer(every_secs=self._eval_throttle_secs)
        self._is_first_run = True

    def after_save(self, session, global_step_value):
        del session
        if self._is_first_run:
            self._is_first_run = False
            return None
        if not self._continuous_eval_listener.before_eval():
            v1.logging.info("Exiting training and evaluation loop, as requested by "
                            "_ContinuousEvalListener.before_eval.")
            return True
        if self._timer.should_trigger_for_step(global_step_value):
            self._evaluate(global_step_value)
            if not self._continuous_eval_listener.after_eval(self.eval_result):
                v1.logging.info("Exiting evaluation, as requested by "
                                "_ContinuousEvalListener.after_eval.")
                return True
        else:
            v1.logging.info("Skip the current checkpoint eval due to throttle secs "
                            f"({self._eval_throttle_secs} secs).")
        return None

    def end(self, session, global_step_value):
        del session
        if global_step_value != self._timer.last_triggered_step() and \
                self._continuous_eval_listener.before_eval():
            self._evaluate(global_step_value)
            self._continuous_eval_listener.after_eval(self.eval_result)

    def _evaluate(self, global_step_value):
        self._timer.update_last_triggered_step(global_step_value)
        self.eval_result, self.export_results = self._evaluator.evaluate_and_export()
        if self.eval_result.status != _EvalStatus.EVALUATED:
            raise RuntimeError("There was no new checkpoint after the training. Eval status: "
                               f"{self.eval_result.status}")


class _Evaluator:
    """Evaluates the latest checkpoint once (an _EvalResult with the exporters' results)."""

    def __init__(self, estimator, eval_spec, max_training_steps):
        _assert_eval_spec(eval_spec)
        self._estimator, self._eval_spec = estimator, eval_spec
        self._max_training_steps = max_training_steps
        self._is_final_export_triggered = False
        self._previous_ckpt_path = None
        self._last_warning_time = 0

    @property
    def is_final_export_triggered(self):
        return self._is_final_export_triggered

    def evaluate_and_export(self):
        latest = self._estimator.latest_checkpoint()
        if not latest:
            self._log_err_msg("Estimator is not trained yet. Will start an evaluation when a "
                              "checkpoint is ready.")
            return _EvalResult(status=_EvalStatus.MISSING_CHECKPOINT), []
        if latest == self._previous_ckpt_path:
            self._log_err_msg("No new checkpoint ready for evaluation. Skip the current "
                              "evaluation pass as evaluation results are expected to be same "
                              "for the same checkpoint.")
            return _EvalResult(status=_EvalStatus.NO_NEW_CHECKPOINT), []
        spec = self._eval_spec
        metrics = self._estimator.evaluate(input_fn=spec.input_fn, steps=spec.steps,
                                           name=spec.name, checkpoint_path=latest,
                                           hooks=spec.hooks)
        result = _EvalResult(status=_EvalStatus.EVALUATED, metrics=metrics,
                             checkpoint_path=latest)
        final = bool(self._max_training_steps) and \
            result.metrics[v1.GraphKeys.GLOBAL_STEP] >= self._max_training_steps
        base = os.path.join(tf.compat.as_str_any(self._estimator.model_dir), "export")
        exports = [exporter.export(estimator=self._estimator,
                                   export_path=os.path.join(base, exporter.name),
                                   checkpoint_path=latest, eval_result=result.metrics,
                                   is_the_final_export=final)
                   for exporter in spec.exporters]
        if final:
            self._is_final_export_triggered = True
        self._last_warning_time = 0
        self._previous_ckpt_path = latest
        return result, exports

    def _log_err_msg(self, message):
        now = time.time()
        if now - self._last_warning_time > 600:
            v1.logging.warning(message)
            self._last_warning_time = now


class _TrainingExecutor:
    """Runs one task of train_and_evaluate: `run()` picks `run_<task type>` from the
    Estimator's RunConfig (run_local without a cluster)."""

    _Evaluator = _Evaluator

    def __init__(self, estimator, train_spec, eval_spec, train_hooks=None,
                 continuous_eval_listener=None):
        from estimator_compat.estimator import Estimator
        from estimator_compat.training import EvalSpec, TrainSpec
        if not isinstance(estimator, Estimator):
            raise TypeError("`estimator` must have type `tf.estimator.Estimator`. Got: "
                            f"{type(estimator)}")
        if not isinstance(train_spec, TrainSpec):
            raise TypeError("`train_spec` must have type `tf.estimator.TrainSpec`. Got: "
                            f"{type(train_spec)}")
        if eval_spec and not isinstance(eval_spec, EvalSpec):
            raise TypeError("`eval_spec` must be either `None` or have type "
                            f"`tf.estimator.EvalSpec`. Got: {type(eval_spec)}")
        if continuous_eval_listener and not isinstance(continuous_eval_listener,
                                                       _ContinuousEvalListener):
            raise TypeError("`continuous_eval_listener` must have type "
                            "`_ContinuousEvalListener`.")
        self._estimator, self._train_spec, self._eval_spec = estimator, train_spec, eval_spec
        self._train_hooks = _validate_hooks(train_hooks)
        self._continuous_eval_listener = continuous_eval_listener or _ContinuousEvalListener()

    @property
    def estimator(self):
        return self._estimator

    def run(self):
        config = self._estimator.config
        if not config.cluster_spec.as_dict() and config.task_type != "evaluator":
            v1.logging.info("Running training and evaluation locally (non-distributed).")
            return self.run_local()
        if not config.task_type:
            raise ValueError("`estimator.config` must have task_type set. This usually means "
                             "TF_CONFIG environment is not set correctly.")
        if config.task_type == "local":
            raise ValueError("`task.type` in TF_CONFIG cannot be `local`. Leaving `cluster` "
                             "and `task` properties in TF_CONFIG absent triggers train and "
                             "evaluate `Estimator` locally (non-distributed).")
        tasks = [n for n in dir(self) if n.startswith("run_") and n != "run_local"
                 and callable(getattr(self, n))]
        if "run_" + config.task_type not in tasks:
            raise ValueError(f"Task type {config.task_type} is not supported. Supported task "
                             f"types are {[n[len('run_'):] for n in tasks]}")
        getattr(self, "run_" + config.task_type)()
        return None

    def run_chief(self):
        return self._start_distributed_training(
            saving_listeners=self._train_spec.saving_listeners)

    def run_worker(self):
        return self._start_distributed_training()

    def run_master(self):
        _assert_eval_spec(self._eval_spec)
        evaluator = _Evaluator(self._estimator, self._eval_spec, self._train_spec.max_steps)
        listeners = tuple(self._train_spec.saving_listeners) + (_NewCheckpointListenerForEvaluate(
            evaluator, self._eval_spec.throttle_secs, _ContinuousEvalListener()),)
        self._start_distributed_training(saving_listeners=listeners)

    def run_evaluator(self):
        return self._start_continuous_evaluation()

    def run_ps(self):
        """Serves the cluster: a parameter-server cluster's ps task until the chief is done;
        otherwise this task's tf.distribute.Server, joined."""
        from estimator_compat.cluster import parameter_servers
        config = self._estimator.config
        if parameter_servers.is_parameter_server_cluster(config):
            parameter_servers.serve(config)
            return
        tf.distribute.Server(config.cluster_spec, job_name=config.task_type,
                             task_index=config.task_id, protocol=config.protocol).join()

    def run_local(self):
        _assert_eval_spec(self._eval_spec)
        config = self._estimator.config
        v1.logging.info("Start train and evaluate loop. The evaluate will happen after every "
                        "checkpoint. Checkpoint frequency is determined based on RunConfig "
                        f"arguments: save_checkpoints_steps {config.save_checkpoints_steps} or "
                        f"save_checkpoints_secs {config.save_checkpoints_secs}.")
        evaluator = _Evaluator(self._estimator, self._eval_spec, self._train_spec.max_steps)
        listener = _NewCheckpointListenerForEvaluate(evaluator, self._eval_spec.throttle_secs,
                                                     self._continuous_eval_listener)
        self._estimator.train(
            input_fn=self._train_spec.input_fn, max_steps=self._train_spec.max_steps,
            hooks=list(self._train_spec.hooks) + list(self._train_hooks),
            saving_listeners=tuple(self._train_spec.saving_listeners) + (listener,))
        result = listener.eval_result or _EvalResult(status=_EvalStatus.MISSING_CHECKPOINT)
        return result.metrics, listener.export_results

    def _start_distributed_training(self, saving_listeners=None):
        from estimator_compat import training
        from estimator_compat.cluster import parameter_servers
        config = self._estimator.config
        if config.task_type == "worker" and not parameter_servers.serves(config) \
                and not _is_google_env():
            limit = _MAX_DELAY_SECS if config.experimental_max_worker_delay_secs is None \
                else int(config.experimental_max_worker_delay_secs)
            delay = min(limit, (config.task_id + 1) * _DELAY_SECS_PER_WORKER)
            if delay > 0:
                v1.logging.info("Waiting %d secs before starting training.", delay)
                time.sleep(delay)
        spec = self._train_spec._replace(
            hooks=tuple(self._train_spec.hooks) + tuple(self._train_hooks),
            saving_listeners=tuple(saving_listeners or ()))
        training._run_distributed_training(self._estimator, spec)

    def _start_continuous_evaluation(self):
        _assert_eval_spec(self._eval_spec)
        if self._eval_spec.start_delay_secs:
            v1.logging.info("Waiting %f secs before starting eval.",
                            self._eval_spec.start_delay_secs)
            time.sleep(self._eval_spec.start_delay_secs)
        evaluator = _Evaluator(self._estimator, self._eval_spec, self._train_spec.max_steps)
        latest, stop = None, False
        while not stop:
            if latest and latest.status == _EvalStatus.EVALUATED:
                step = latest.metrics.get(v1.GraphKeys.GLOBAL_STEP)
                if step and self._train_spec.max_steps and step >= self._train_spec.max_steps:
                    v1.logging.info("Exiting evaluation, global_step=%s >= train max_steps=%s",
                                    step, self._train_spec.max_steps)
                    return
            latest, stop = self._execute_evaluator_once(evaluator,
                                                        self._continuous_eval_listener,
                                                        self._eval_spec.throttle_secs)

    def _execute_evaluator_once(self, evaluator, continuous_eval_listener, throttle_secs):
        _assert_eval_spec(self._eval_spec)
        start = time.time()
        if not continuous_eval_listener.before_eval():
            v1.logging.info("Exiting evaluation, as requested by "
                            "_ContinuousEvalListener.before_eval.")
            return None, True
        result, _ = evaluator.evaluate_and_export()
        if not self._continuous_eval_listener.after_eval(result):
            v1.logging.info("Exiting evaluation, as requested by "
                            "_ContinuousEvalListener.after_eval.")
            return result, True
        wait = throttle_secs - (time.time() - start)
        if wait > 0:
            v1.logging.info("Waiting %f secs before starting next eval run.", wait)
            time.sleep(wait)
        elif throttle_secs == 0 and result.status != _EvalStatus.EVALUATED:
            v1.logging.warning("EvalSpec.throttle_secs is set as 0. This might overload the "
                               "job before finding (next) new checkpoint. Please consider to "
                               "increase it.")
        return result, False
