"""TrainSpec, EvalSpec and train_and_evaluate (local): train, evaluating each new checkpoint."""
import collections
import logging
import os
import time

import tensorflow as tf

from estimator_compat.cluster import parameter_servers
from estimator_compat.eager_calls import eager_entry
from estimator_compat.exporters import Exporter
from estimator_compat.hooks import CheckpointSaverListener, SecondOrStepTimer
from estimator_compat.run_config import TaskType

logger = logging.getLogger("tensorflow")


def _check_hooks(hooks, what):
    hooks = tuple(hooks or ())
    import keras
    for hook in hooks:
        if not isinstance(hook, (tf.compat.v1.train.SessionRunHook, keras.callbacks.Callback)):
            raise TypeError(f"All hooks must be SessionRunHook instances, given: {hook!r} "
                            f"(in {what}).")
    return hooks


class TrainSpec(collections.namedtuple("TrainSpec",
                                       ["input_fn", "max_steps", "hooks", "saving_listeners"])):
    """What train_and_evaluate trains on, and for how long."""

    def __new__(cls, input_fn, max_steps=None, hooks=None, saving_listeners=None):
        if not callable(input_fn):
            raise TypeError(f"`input_fn` must be callable, given: {input_fn!r}")
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        listeners = tuple(saving_listeners or ())
        for listener in listeners:
            if not isinstance(listener, CheckpointSaverListener):
                raise TypeError("All saving_listeners must be CheckpointSaverListener "
                                f"instances, given: {listener!r}")
        return super().__new__(cls, input_fn, max_steps, _check_hooks(hooks, "TrainSpec.hooks"),
                               listeners)


class EvalSpec(collections.namedtuple("EvalSpec", ["input_fn", "steps", "name", "hooks",
                                                   "exporters", "start_delay_secs",
                                                   "throttle_secs"])):
    """What train_and_evaluate evaluates on, how often, and which exporters run after."""

    def __new__(cls, input_fn, steps=100, name=None, hooks=None, exporters=None,
                start_delay_secs=120, throttle_secs=600):
        if not callable(input_fn):
            raise TypeError(f"`input_fn` must be callable, given: {input_fn!r}")
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"`name` must be string, given: {name!r}")
        if start_delay_secs < 0:
            raise ValueError(f"Must specify start_delay_secs >= 0, given: {start_delay_secs}")
        if throttle_secs < 0:
            raise ValueError(f"Must specify throttle_secs >= 0, given: {throttle_secs}")
        return super().__new__(cls, input_fn, steps, name, _check_hooks(hooks, "EvalSpec.hooks"),
                               _check_exporters(exporters), start_delay_secs, throttle_secs)


def _check_exporters(exporters):
    if exporters is None:
        return ()
    if isinstance(exporters, Exporter):
        exporters = (exporters,)
    exporters = tuple(exporters)
    names = set()
    for exporter in exporters:
        if not isinstance(exporter, Exporter):
            raise TypeError(f"`exporters` must be an Exporter, an iterable of Exporter, or "
                            f"None, found {exporter!r}.")
        if not exporter.name or not exporter.name.strip():
            raise ValueError("An Exporter cannot have a name that is `None` or empty.")
        if exporter.name in names:
            raise ValueError(f"`exporters` must have unique names. Such a name cannot be `None`. "
                             f"{exporter.name} already exists.")
        names.add(exporter.name)
    return exporters


class Evaluator:
    """Evaluates the latest checkpoint and runs the exporters on the result."""

    def __init__(self, estimator, eval_spec, max_steps):
        self._estimator, self._spec, self._max_steps = estimator, eval_spec, max_steps
        self.result, self.export_results = None, []

    def evaluate_and_export(self):
        est = self._estimator
        path = est.latest_checkpoint()
        if path is None:
            logger.info("Skipping evaluation: no checkpoint in %s yet.", est.model_dir)
            return None, []
        result = est.evaluate(input_fn=self._spec.input_fn, steps=self._spec.steps,
                              hooks=self._spec.hooks, name=self._spec.name, checkpoint_path=path)
        step = int(result["global_step"])
        final = self._max_steps is not None and step >= self._max_steps
        exports = []
        for exporter in self._spec.exporters:
            export_path = os.path.join(est.model_dir, "export", exporter.name)
            exports.append(exporter.export(est, export_path, path, result, final))
        self.result, self.export_results = result, exports
        return result, exports


class EvaluateOnCheckpoint(CheckpointSaverListener):
    """Evaluates after each checkpoint save but the first of the run, at most every
    `throttle_secs` (or `every_steps`: contrib.learn's min_eval_frequency; 0 = only at the end),
    and at the end unless the last checkpoint was just evaluated."""

    def __init__(self, evaluator, throttle_secs=None, every_steps=None):
        self._evaluator = evaluator
        if every_steps == 0:
            every_steps = float("inf")
        self._timer = SecondOrStepTimer(every_secs=throttle_secs, every_steps=every_steps)
        self._first = True

    def after_save(self, session, global_step_value):
        if self._first:
            self._first = False
            return False
        if self._timer.should_trigger_for_step(global_step_value):
            self._timer.update_last_triggered_step(global_step_value)
            self._evaluator.evaluate_and_export()
        return False

    def end(self, session, global_step_value):
        if global_step_value != self._timer.last_triggered_step():
            self._evaluator.evaluate_and_export()


@eager_entry
def train_and_evaluate(estimator, train_spec, eval_spec):
    """Trains `estimator` per `train_spec`, evaluating and exporting per `eval_spec`.

    Returns (eval_result, export_results) of the last evaluation, as tf.estimator 2.x did.
    """
    from estimator_compat.estimator import Estimator
    if not isinstance(estimator, Estimator):
        raise TypeError(f"`estimator` must have type `tf.estimator.Estimator`, given "
                        f"{type(estimator)}")
    if not isinstance(train_spec, TrainSpec):
        raise TypeError(f"`train_spec` must have type `tf.estimator.TrainSpec`, given "
                        f"{type(train_spec)}")
    if not isinstance(eval_spec, EvalSpec):
        raise TypeError(f"`eval_spec` must have type `tf.estimator.EvalSpec`, given "
                        f"{type(eval_spec)}")
    config = estimator.config
    if config.task_type == TaskType.EVALUATOR:
        return _run_evaluator(estimator, train_spec, eval_spec)
    if config.cluster_spec.as_dict():
        return _run_distributed_training(estimator, train_spec)
    if config.save_checkpoints_steps is None and config.save_checkpoints_secs is None:
        raise ValueError("train_and_evaluate needs checkpoints: set save_checkpoints_steps or "
                         "save_checkpoints_secs in RunConfig.")
    evaluator = Evaluator(estimator, eval_spec, train_spec.max_steps)
    listener = EvaluateOnCheckpoint(evaluator, throttle_secs=eval_spec.throttle_secs)
    logger.info("Not using Distribute Coordinator.")
    logger.info("Running training and evaluation locally (non-distributed).")
    logger.info("Start train and evaluate loop. The evaluate will happen after every checkpoint. "
                "Checkpoint frequency is determined based on RunConfig arguments: "
                "save_checkpoints_steps %s or save_checkpoints_secs %s.",
                config.save_checkpoints_steps, config.save_checkpoints_secs)
    estimator.train(train_spec.input_fn, hooks=train_spec.hooks, max_steps=train_spec.max_steps,
                    saving_listeners=list(train_spec.saving_listeners) + [listener])
    if evaluator.result is None:  # training was already past max_steps: evaluate once
        evaluator.evaluate_and_export()
    return evaluator.result, evaluator.export_results


def _run_distributed_training(estimator, train_spec):
    """A task of a TF_CONFIG cluster other than the evaluator. With chief + workers it trains
    (synchronously, under the RunConfig's train_distribute); with `ps` tasks the chief trains
    and `ps` / `worker` tasks serve its steps (estimator.train does both). Returns None, as
    tf.estimator did."""
    config = estimator.config
    if config.train_distribute is None and config.num_worker_replicas > 1 and \
            not parameter_servers.is_parameter_server_cluster(config):
        raise ValueError("TF_CONFIG describes several workers but RunConfig has no "
                         "train_distribute: pass train_distribute=tf.distribute."
                         "MultiWorkerMirroredStrategy() (created before other TF calls), or "
                         "add `ps` tasks for parameter-server training.")
    logger.info("Running training as task %s:%d of the cluster.", config.task_type, config.task_id)
    estimator.train(train_spec.input_fn, hooks=train_spec.hooks, max_steps=train_spec.max_steps,
                    saving_listeners=list(train_spec.saving_listeners))
    return None


def _run_evaluator(estimator, train_spec, eval_spec):
    """The evaluator task: evaluates (and exports) each new checkpoint of the chief, at most
    every throttle_secs, until one at train_spec.max_steps has been evaluated."""
    time.sleep(eval_spec.start_delay_secs)
    evaluator = Evaluator(estimator, eval_spec, train_spec.max_steps)
    last = None
    while True:
        started = time.time()
        latest = estimator.latest_checkpoint()
        if latest is None or latest == last:
            logger.info("No new checkpoint ready for evaluation. Skip the current evaluation "
                        "pass as evaluation results are expected to be same for the same "
                        "checkpoint.")
        else:
            result, exports = evaluator.evaluate_and_export()
            last = latest
            if train_spec.max_steps is not None and result["global_step"] >= train_spec.max_steps:
                logger.info("Exiting evaluation, global_step=%d >= train max_steps=%d",
                            result["global_step"], train_spec.max_steps)
                return result, exports
        time.sleep(max(1.0, eval_spec.throttle_secs - (time.time() - started)))
