"""Experiment (tf.contrib.learn): an Estimator, its input_fns and a training schedule."""
import logging
import time

import tensorflow as tf

from estimator_compat import checkpoints
from estimator_compat.cluster import parameter_servers
from estimator_compat.exporters import Exporter
from estimator_compat.hooks import CheckpointSaverListener
from estimator_compat.learn.export_strategy import ExportStrategy, as_exporter
from estimator_compat.learn.monitors import format_values
from estimator_compat.training import EvalSpec, EvaluateOnCheckpoint, Evaluator

logger = logging.getLogger("tensorflow")


class Experiment:
    """What learn_runner.run schedules: train, evaluate, or both, for one Estimator."""

    def __init__(self, estimator, train_input_fn, eval_input_fn, eval_metrics=None,
                 train_steps=None, eval_steps=100, train_monitors=None, eval_hooks=None,
                 local_eval_frequency=None, eval_delay_secs=120, continuous_eval_throttle_secs=60,
                 min_eval_frequency=None, delay_workers_by_global_step=False,
                 export_strategies=None, train_steps_per_iteration=None,
                 checkpoint_and_export=False, saving_listeners=None, check_interval_secs=5):
        from estimator_compat.estimator import Estimator
        if not isinstance(estimator, Estimator):
            raise ValueError(f"`estimator` must be a tf.estimator.Estimator, given "
                             f"{type(estimator).__name__}")
        if eval_metrics is not None:
            if not hasattr(estimator, "default_metrics"):
                raise ValueError("`eval_metrics` (contrib MetricSpecs) are not supported with "
                                 "core Estimators: return them from model_fn's "
                                 "eval_metric_ops, or use a tf.contrib.learn Estimator.")
            estimator.default_metrics = eval_metrics  # as contrib passed them to evaluate
        if train_steps_per_iteration is not None and train_steps_per_iteration <= 0:
            raise ValueError(f"train_steps_per_iteration must be positive, given "
                             f"{train_steps_per_iteration}")
        self._estimator = estimator
        self._train_input_fn, self._eval_input_fn = train_input_fn, eval_input_fn
        self._train_steps, self._eval_steps = train_steps, eval_steps
        self._train_monitors = list(train_monitors or [])
        self._eval_hooks = list(eval_hooks or [])
        self._eval_delay_secs = eval_delay_secs
        self._continuous_eval_throttle_secs = continuous_eval_throttle_secs
        self._min_eval_frequency = (local_eval_frequency if min_eval_frequency is None
                                    else min_eval_frequency)
        self._train_steps_per_iteration = train_steps_per_iteration
        self._export_strategies = _strategies(export_strategies)
        self._saving_listeners = list(saving_listeners or [])
        self._check_interval_secs = check_interval_secs
        self._checkpoint_and_export = checkpoint_and_export

    estimator = property(lambda self: self._estimator)
    eval_metrics = property(lambda self: getattr(self._estimator, "default_metrics", None))
    train_steps = property(lambda self: self._train_steps)
    eval_steps = property(lambda self: self._eval_steps)

    # -- schedules ----------------------------------------------------------------------------
    def train(self, delay_secs=None):
        """Trains up to train_steps (a worker first waits delay_secs, 5 s per task index)."""
        config = self._estimator.config
        if delay_secs is None:  # (parameter servers: a worker only serves the chief's steps)
            delay_secs = 0 if config.is_chief or parameter_servers.serves(config) else \
                min(60, config.task_id * 5)
        _sleep(delay_secs, "training")
        self._estimator.train(self._train_input_fn, hooks=self._train_monitors,
                              max_steps=self._train_steps,
                              saving_listeners=self._saving_listeners)
        return self._estimator

    def evaluate(self, delay_secs=None, name=None):
        """Evaluates the latest checkpoint on eval_input_fn for eval_steps."""
        _sleep(self._eval_delay_secs if delay_secs is None else delay_secs, "evaluation")
        return self._estimator.evaluate(self._eval_input_fn, steps=self._eval_steps,
                                        hooks=self._eval_hooks, name=name)

    def train_and_evaluate(self):
        """Trains; with min_eval_frequency, evaluates (without exporting) each checkpoint
        saved at least min_eval_frequency steps and check_interval_secs after the last
        evaluation, logging "Validation (step N)" as TF 1.15's ValidationMonitor did; then
        evaluates the final checkpoint and exports, as TF 1.15's Experiment did.
        (checkpoint_and_export=True: evaluates and exports at each checkpoint instead.)

        Returns (eval_result, export_results)."""
        evaluator = self._evaluator(self._eval_input_fn, name=None)
        listeners = list(self._saving_listeners)
        if self._checkpoint_and_export:
            every = 1 if self._min_eval_frequency is None else self._min_eval_frequency
            listeners.append(EvaluateOnCheckpoint(evaluator, every_steps=every))
        elif self._min_eval_frequency:
            listeners.append(_Validation(self, self._min_eval_frequency))
        self._estimator.train(self._train_input_fn, hooks=self._train_monitors,
                              max_steps=self._train_steps, saving_listeners=listeners)
        if evaluator.result is None or not self._checkpoint_and_export:
            evaluator.evaluate_and_export()
        return evaluator.result, evaluator.export_results

    local_run = train_and_evaluate

    def continuous_eval(self, delay_secs=None, throttle_delay_secs=None,
                        evaluate_checkpoint_only_once=True, continuous_eval_predicate_fn=None,
                        name="continuous"):
        """Evaluates each new checkpoint until train_steps is reached or the predicate says stop."""
        return self._continuous_eval(self._eval_input_fn, name, delay_secs, throttle_delay_secs,
                                     evaluate_checkpoint_only_once, continuous_eval_predicate_fn)

    def continuous_eval_on_train_data(self, delay_secs=None, throttle_delay_secs=None,
                                      continuous_eval_predicate_fn=None,
                                      name="continuous_on_train_data"):
        return self._continuous_eval(self._train_input_fn, name, delay_secs, throttle_delay_secs,
                                     True, continuous_eval_predicate_fn)

    def continuous_train_and_eval(self, continuous_eval_predicate_fn=None):
        """Alternates training for train_steps_per_iteration steps and evaluating."""
        steps = self._train_steps_per_iteration or self._min_eval_frequency or 1000
        evaluator = self._evaluator(self._eval_input_fn, name=None)
        result, exports = None, []
        while True:
            latest = self._estimator.latest_checkpoint()
            step = checkpoints.checkpoint_step(latest) if latest else 0
            if self._train_steps is not None and step >= self._train_steps:
                break
            target = step + steps if self._train_steps is None else min(step + steps,
                                                                       self._train_steps)
            self._estimator.train(self._train_input_fn, hooks=self._train_monitors,
                                  max_steps=target, saving_listeners=self._saving_listeners)
            result, exports = evaluator.evaluate_and_export()
            if continuous_eval_predicate_fn is not None and not continuous_eval_predicate_fn(result):
                break
        return result, exports

    def run_std_server(self):
        """Starts this task's tf.distribute.Server and blocks (the schedule of `ps` tasks);
        in a parameter-server cluster, until the chief is done."""
        config = self._estimator.config
        if parameter_servers.is_parameter_server_cluster(config):
            parameter_servers.serve(config)
            return
        self._start_server().join()

    def test(self):
        """A smoke test: one train step and one eval step."""
        self._estimator.train(self._train_input_fn, hooks=self._train_monitors, steps=1)
        return self._estimator.evaluate(self._eval_input_fn, steps=1, hooks=self._eval_hooks,
                                        name="one_pass")

    def extend_train_hooks(self, additional_hooks):
        self._train_monitors.extend(additional_hooks)

    def reset_export_strategies(self, new_export_strategies=None):
        old = self._export_strategies
        self._export_strategies = _strategies(new_export_strategies)
        return old

    # -- helpers ------------------------------------------------------------------------------
    def _evaluator(self, input_fn, name):
        exporters = [as_exporter(s) for s in self._export_strategies]
        spec = EvalSpec(input_fn, steps=self._eval_steps, name=name, hooks=self._eval_hooks,
                        exporters=exporters, throttle_secs=0)
        return Evaluator(self._estimator, spec, self._train_steps)

    def _continuous_eval(self, input_fn, name, delay_secs, throttle_delay_secs, only_once,
                         predicate):
        _sleep(self._eval_delay_secs if delay_secs is None else delay_secs, "evaluation")
        throttle = (self._continuous_eval_throttle_secs if throttle_delay_secs is None
                    else throttle_delay_secs)
        evaluator = self._evaluator(input_fn, name)
        last, result = None, None
        while True:
            started = time.time()
            latest = self._estimator.latest_checkpoint()
            if latest is not None and (latest != last or not only_once):
                result, _ = evaluator.evaluate_and_export()
                last = latest
                if predicate is not None and not predicate(result):
                    return result
                if self._train_steps is not None and checkpoints.checkpoint_step(latest) >= \
                        self._train_steps:
                    return result
            time.sleep(max(self._check_interval_secs if latest is None else 0,
                           throttle - (time.time() - started)))

    def _start_server(self):
        config = self._estimator.config
        if not config.cluster_spec.as_dict() or config.task_type is None:
            raise ValueError("Could not start server; be sure to specify cluster_spec, "
                             "task_type and task_id in RunConfig (TF_CONFIG).")
        server = tf.distribute.Server(config.cluster_spec, job_name=config.task_type,
                                      task_index=config.task_id,
                                      protocol=config.protocol or "grpc", start=True)
        logger.info("Started server for %s:%d at %s", config.task_type, config.task_id,
                    server.target)
        return server


class _Validation(CheckpointSaverListener):
    """TF 1.15's Experiment evaluated during train_and_evaluate with a ValidationMonitor: the
    newest checkpoint, every min_eval_frequency steps, at most every check_interval_secs,
    nothing exported. Here at the checkpoint saves (the same checkpoints where
    save_checkpoints_steps divides min_eval_frequency), outside the training step."""

    def __init__(self, experiment, every_steps):
        self._experiment = experiment
        self._every = every_steps
        self._last_step = 0
        self._last_checked = None

    def after_save(self, session, global_step_value):
        if global_step_value - self._last_step < self._every:
            return False
        now = time.time()
        if (self._last_checked is not None and
                now - self._last_checked < self._experiment._check_interval_secs):
            return False
        self._last_checked, self._last_step = now, global_step_value
        experiment = self._experiment
        outputs = experiment.estimator.evaluate(
            input_fn=experiment._eval_input_fn, steps=experiment._eval_steps,
            hooks=experiment._eval_hooks)
        logger.info("Validation (step %d): %s", global_step_value,
                    format_values(outputs.items()))
        return False


def _strategies(export_strategies):
    """A list of ExportStrategies (contrib accepted one alone too), each checked."""
    if export_strategies is None:
        return []
    if isinstance(export_strategies, (ExportStrategy, Exporter)) or not isinstance(
            export_strategies, (list, tuple)):  # (an ExportStrategy is a namedtuple)
        export_strategies = [export_strategies]
    for strategy in export_strategies:
        as_exporter(strategy)
    return list(export_strategies)


def _sleep(secs, what):
    if secs:
        logger.info("Waiting %d secs before starting %s.", secs, what)
        time.sleep(secs)



