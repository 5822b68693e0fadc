"""`tf.contrib.learn.monitors`: TF 1.x's training monitors, run as SessionRunHooks.

A monitor is called per training step: `step_begin(step)` returns the tensor names it wants
(the step's number: the global step it is about to reach), `step_end(step, outputs)` gets
the values fetched for every monitor of that step and returns True to stop, `post_step(step,
session)` follows. `EveryN` calls `every_n_step_begin/_end/_post_step` on the first
`first_n_steps` steps and then every `every_n_steps` steps, and once more at `end()` when the
last step was not one of those. `fit(monitors=[...])` hands them to
`replace_monitors_with_hooks`, which keeps SessionRunHooks as they are and runs the monitors,
in order, in one `RunHookAdapterForMonitors` hook after them, as TF 1.15 did.

TF 1.15 name                          here
`BaseMonitor`, `EveryN`                below, with `RunHookAdapterForMonitors`
`StopAtStep`, `PrintTensor`,           below (monitors as TF 1.15 ran them)
`LoggingTrainable`, `CaptureVariable`,
`NanLoss`, `SummarySaver`, `StepCounter`,
`ValidationMonitor`
`CheckpointSaver`                      the engine's CheckpointSaverHook, same arguments
`ExportMonitor`, `GraphDump`           not served: the error names the replacement
"""
import logging
import time

import numpy as np
import tensorflow as tf

from estimator_compat import summaries
from estimator_compat.hooks import SessionRunArgs, SessionRunHook
from estimator_compat.learn.interfaces import NanLossDuringTrainingError

logger = logging.getLogger("tensorflow")

__all__ = ["BaseMonitor", "EveryN", "StopAtStep", "PrintTensor", "LoggingTrainable",
           "CaptureVariable", "NanLoss", "SummarySaver", "StepCounter", "ValidationMonitor",
           "CheckpointSaver", "ExportMonitor", "GraphDump", "RunHookAdapterForMonitors",
           "replace_monitors_with_hooks", "get_default_monitors", "Summary", "SessionLog"]

Summary = tf.compat.v1.Summary
SessionLog = tf.compat.v1.SessionLog


class BaseMonitor:
    """The monitor protocol: begin/end, step_begin/step_end/post_step (epoch_* unused)."""

    def __init__(self):
        self._begun = False
        self._current_epoch = None
        self._current_step = None
        self._max_steps = None
        self._estimator = None

    @property
    def run_on_all_workers(self):
        return False

    def set_estimator(self, estimator):
        if estimator is None:
            raise ValueError("Missing estimator.")
        self._estimator = estimator

    def begin(self, max_steps=None):
        if self._begun:
            raise ValueError("begin called twice without end.")
        self._max_steps = max_steps
        self._begun = True

    def end(self, session=None):
        _ = session
        if not self._begun:
            raise ValueError("end called without begin.")
        self._max_steps = None
        self._begun = False

    def epoch_begin(self, epoch):
        if self._current_epoch is not None:
            raise ValueError("epoch_begin called twice without epoch_end.")
        if epoch < 0:
            raise ValueError(f"Invalid epoch {epoch}.")
        self._current_epoch = epoch

    def epoch_end(self, epoch):
        if self._current_epoch != epoch:
            raise ValueError(f"epoch_end expected {self._current_epoch} but got {epoch}.")
        self._current_epoch = None

    def step_begin(self, step):
        """The tensor names to fetch at `step`."""
        if self._current_step is not None:
            raise ValueError("step_begin called twice without step_end.")
        if step < 0:
            raise ValueError(f"Invalid step {step}.")
        self._current_step = step
        return []

    def step_end(self, step, output):
        """True to stop training."""
        _ = output
        if self._current_step != step:
            raise ValueError(f"step_end expected {self._current_step} but got {step}.")
        self._current_step = None
        return False

    def post_step(self, step, session):
        _ = step, session


class EveryN(BaseMonitor):
    """Calls `every_n_step_begin/_end/_post_step` on the first `first_n_steps` steps, then every
    `every_n_steps` steps (and at `end()` when the last step was not one of them)."""

    def __init__(self, every_n_steps=100, first_n_steps=1):
        super().__init__()
        self._every_n_steps = every_n_steps
        self._first_n_steps = first_n_steps
        self._last_successful_step = None
        self._last_active_step = 0
        self._every_n_step_begin_called = False

    def every_n_step_begin(self, step):
        _ = step
        return []

    def every_n_step_end(self, step, outputs):
        _ = step, outputs
        return False

    def every_n_post_step(self, step, session):
        _ = step, session

    def step_begin(self, step):
        super().step_begin(step)
        if (step <= self._first_n_steps or
                step >= self._every_n_steps + self._last_active_step or
                step == self._max_steps):
            self._every_n_step_begin_called = True
            return self.every_n_step_begin(step)
        self._every_n_step_begin_called = False
        return []

    def step_end(self, step, output):
        super().step_end(step, output)
        if self._every_n_step_begin_called:
            return self.every_n_step_end(step, output)
        return False

    def post_step(self, step, session):
        super().post_step(step, session)
        if self._every_n_step_begin_called:
            self.every_n_post_step(step, session)
            self._last_active_step = step
        self._last_successful_step = step

    def end(self, session=None):
        super().end(session=session)
        if self._last_successful_step != self._last_active_step:
            self.every_n_post_step(self._last_successful_step, session)


class StopAtStep(BaseMonitor):
    """Stops after `num_steps` steps of this call, or at the global step `last_step`."""

    def __init__(self, num_steps=None, last_step=None):
        super().__init__()
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        self._num_steps = num_steps
        self._last_step = last_step

    @property
    def run_on_all_workers(self):
        return True

    def step_begin(self, step):
        super().step_begin(step)
        if self._last_step is None:
            self._last_step = step + self._num_steps - 1
        return []

    def step_end(self, step, output):
        super().step_end(step, output)
        return step >= self._last_step


def format_values(values):
    """TF 1.15's "%s = %s" (str: a float32 result reads 0.96, not format()'s 0.9599999785)."""
    return ", ".join(f"{tag} = {value!s}" for tag, value in values)


class PrintTensor(EveryN):
    """Logs the given tensors (`{tag: name}` or names) every N steps."""

    def __init__(self, tensor_names, every_n=100, first_n=1):
        super().__init__(every_n, first_n)
        if not isinstance(tensor_names, dict):
            tensor_names = {name: name for name in tensor_names}
        self._tensor_names = tensor_names

    def every_n_step_begin(self, step):
        super().every_n_step_begin(step)
        return list(self._tensor_names.values())

    def every_n_step_end(self, step, outputs):
        super().every_n_step_end(step, outputs)
        logger.info("Step %d: %s", step, format_values(
            (tag, outputs[name]) for tag, name in self._tensor_names.items()))
        return False


class LoggingTrainable(EveryN):
    """Logs the trainable variables (of `scope`) every N steps."""

    def __init__(self, scope=None, every_n=100, first_n=1):
        super().__init__(every_n, first_n)
        self._scope = scope
        self._names = {}

    def every_n_step_begin(self, step):
        super().every_n_step_begin(step)
        variables = tf.compat.v1.get_collection(
            tf.compat.v1.GraphKeys.TRAINABLE_VARIABLES, scope=self._scope)
        self._names = {v.op.name: v.name for v in variables}
        return list(self._names.values())

    def every_n_step_end(self, step, outputs):
        super().every_n_step_end(step, outputs)
        logger.info("Logging Trainable: Step %d: %s", step, format_values(
            (tag, outputs[name]) for tag, name in self._names.items()))
        return False


class CaptureVariable(EveryN):
    """Keeps the value of the variable `var_name` every N steps: `values` is {step: value}."""

    def __init__(self, var_name, every_n=100, first_n=1):
        super().__init__(every_n, first_n)
        self._var_name = var_name
        self._var_values = {}

    @property
    def values(self):
        return self._var_values

    def every_n_step_begin(self, step):
        super().every_n_step_begin(step)
        return [self._var_name]

    def every_n_step_end(self, step, outputs):
        super().every_n_step_end(step, outputs)
        self._var_values[step] = outputs[self._var_name]
        return False


class NanLoss(EveryN):
    """Every N steps, a NaN `loss_tensor` raises NanLossDuringTrainingError (or, with
    `fail_on_nan_loss=False`, logs and stops training)."""

    def __init__(self, loss_tensor, every_n_steps=100, fail_on_nan_loss=True):
        super().__init__(every_n_steps=every_n_steps)
        self._loss_tensor = loss_tensor
        self._fail_on_nan_loss = fail_on_nan_loss

    def every_n_step_begin(self, step):
        super().every_n_step_begin(step)
        return [self._loss_tensor]

    def every_n_step_end(self, step, outputs):
        super().every_n_step_end(step, outputs)
        if np.isnan(_fetched(outputs, self._loss_tensor)):
            failure = "Model diverged with loss = NaN."
            if self._fail_on_nan_loss:
                logger.error(failure)
                raise NanLossDuringTrainingError
            logger.warning(failure)
            return True
        return False


def _fetched(outputs, tensor):
    name = tensor if isinstance(tensor, str) else tensor.name
    return outputs[name] if name in outputs else outputs[tensor]


class SummarySaver(EveryN):
    """Writes `summary_op` (serialized Summary protos) every `save_steps` steps to
    `output_dir` (the estimator's model_dir by default)."""

    def __init__(self, summary_op, save_steps=100, output_dir=None, summary_writer=None,
                 scaffold=None):
        super().__init__(every_n_steps=save_steps)
        self._summary_op = summary_op
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._scaffold = scaffold

    def set_estimator(self, estimator):
        super().set_estimator(estimator)
        if self._output_dir is None:
            self._output_dir = estimator.model_dir

    def every_n_step_begin(self, step):
        super().every_n_step_begin(step)
        if self._summary_op is None and self._scaffold is not None:
            self._summary_op = self._scaffold.summary_op
        return [self._summary_op] if self._summary_op is not None else []

    def every_n_step_end(self, step, outputs):
        super().every_n_step_end(step, outputs)
        if self._summary_op is not None:
            serialized = _fetched(outputs, self._summary_op)
            if self._summary_writer is not None:
                self._summary_writer.add_summary(serialized, step)
            elif self._output_dir:
                summaries.write_raw(self._output_dir, step, serialized)
        return False


class StepCounter(EveryN):
    """Writes `global_step/sec` every N steps to `output_dir` (the estimator's model_dir)."""

    def __init__(self, every_n_steps=100, output_dir=None, summary_writer=None):
        super().__init__(every_n_steps=every_n_steps)
        self._summary_tag = "global_step/sec"
        self._last_reported_step = None
        self._last_reported_time = None
        self._summary_writer = summary_writer
        self._output_dir = output_dir

    def set_estimator(self, estimator):
        super().set_estimator(estimator)
        if self._output_dir is None:
            self._output_dir = estimator.model_dir

    def every_n_step_end(self, current_step, outputs):
        current_time = time.time()
        if self._last_reported_time is not None and current_step > self._last_reported_step:
            steps_per_sec = (current_step - self._last_reported_step) / (
                current_time - self._last_reported_time)
            summary = Summary(value=[Summary.Value(tag=self._summary_tag,
                                                   simple_value=steps_per_sec)])
            if self._summary_writer is not None:
                self._summary_writer.add_summary(summary, current_step)
            elif self._output_dir:
                summaries.write_raw(self._output_dir, current_step,
                                    summary.SerializeToString())
        self._last_reported_step = current_step
        self._last_reported_time = current_time
        return False


class ValidationMonitor(EveryN):
    """Every N steps, evaluates the newest checkpoint on (x, y) or `input_fn`; with
    `early_stopping_rounds`, stops when `early_stopping_metric` has not improved for that
    many steps. `best_step`, `best_value`, `best_metrics` and `early_stopped` say how it went."""

    def __init__(self, x=None, y=None, input_fn=None, batch_size=None, eval_steps=None,
                 every_n_steps=100, metrics=None, hooks=None, early_stopping_rounds=None,
                 early_stopping_metric="loss", early_stopping_metric_minimize=True, name=None,
                 check_interval_secs=5):
        super().__init__(every_n_steps=every_n_steps, first_n_steps=-1)
        if x is None and input_fn is None:
            raise ValueError("Either x or input_fn should be provided.")
        self.x, self.y, self.input_fn, self.batch_size = x, y, input_fn, batch_size
        self.eval_steps, self.metrics, self.hooks = eval_steps, metrics, hooks
        self.early_stopping_rounds = early_stopping_rounds
        self.early_stopping_metric = early_stopping_metric
        self.early_stopping_metric_minimize = early_stopping_metric_minimize
        self.name = name
        self._check_interval_secs = check_interval_secs
        self._best_value_step = None
        self._best_value = None
        self._best_metrics = None
        self._early_stopped = False
        self._latest_path = None
        self._latest_path_step = None
        self._last_checked = None

    early_stopped = property(lambda self: self._early_stopped)
    best_step = property(lambda self: self._best_value_step)
    best_value = property(lambda self: self._best_value)
    best_metrics = property(lambda self: self._best_metrics)

    def _evaluate_estimator(self):
        from estimator_compat.learn.estimator import ContribAPI
        if not isinstance(self._estimator, ContribAPI):  # a tf.estimator.Estimator
            given = [n for n in ("x", "y", "batch_size", "metrics")
                     if getattr(self, n) is not None]
            if given:
                raise ValueError(f"ValidationMonitor({', '.join(given)}=...) needs a "
                                 "tf.contrib.learn Estimator; a tf.estimator.Estimator "
                                 "evaluates input_fn with its model_fn's eval_metric_ops.")
            return self._estimator.evaluate(input_fn=self.input_fn, steps=self.eval_steps,
                                            hooks=self.hooks, name=self.name)
        return self._estimator.evaluate(x=self.x, y=self.y, input_fn=self.input_fn,
                                        batch_size=self.batch_size, steps=self.eval_steps,
                                        metrics=self.metrics, hooks=self.hooks, name=self.name)

    def every_n_step_end(self, step, outputs):
        super().every_n_step_end(step, outputs)
        if self._estimator is None:
            raise ValueError("Missing call to set_estimator.")
        now = time.time()
        if (self._last_checked is not None and
                now - self._last_checked < self._check_interval_secs):
            return False
        self._last_checked = now
        latest_path = tf.train.latest_checkpoint(self._estimator.model_dir)
        if latest_path is None or latest_path == self._latest_path:
            logger.debug("Skipping evaluation: no new checkpoint at step %d.", step)
            return False
        self._latest_path, self._latest_path_step = latest_path, step
        outputs = self._evaluate_estimator()
        logger.info("Validation (step %d): %s", step,
                    format_values(outputs.items()))  # TF 1.15: the results' own order
        if self.early_stopping_rounds is None:
            return False
        if self.early_stopping_metric not in outputs:
            raise ValueError(f"Metric {self.early_stopping_metric!r} missing from outputs "
                             f"{sorted(outputs)}.")
        value = outputs[self.early_stopping_metric]
        if (self._best_value is None or
                (self.early_stopping_metric_minimize and value < self._best_value) or
                (not self.early_stopping_metric_minimize and value > self._best_value)):
            self._best_value, self._best_metrics = value, outputs
            self._best_value_step = step
        if step - self._best_value_step >= self.early_stopping_rounds:
            logger.info("Stopping. Best step: %s with %s = %s.", self._best_value_step,
                        self.early_stopping_metric, self._best_value)
            self._early_stopped = True
            return True
        return False


class CheckpointSaver(BaseMonitor):
    """Saves checkpoints every `save_secs` seconds or `save_steps` steps (and at the end):
    runs as the engine's CheckpointSaverHook with the same arguments."""

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
                 checkpoint_basename="model.ckpt", scaffold=None):
        super().__init__()
        if save_secs is None and save_steps is None:
            save_secs = 600  # TF 1.15's default when neither is given
        self._arguments = dict(checkpoint_dir=checkpoint_dir, save_secs=save_secs,
                               save_steps=save_steps, saver=saver,
                               checkpoint_basename=checkpoint_basename, scaffold=scaffold)

    def as_hook(self):
        from estimator_compat.hooks.builtin import CheckpointSaverHook
        return CheckpointSaverHook(**self._arguments)


class ExportMonitor(EveryN):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            "tf.contrib.learn.monitors.ExportMonitor wrote TF 1.x session bundles, which "
            "TensorFlow 2 cannot write: export SavedModels with Experiment(export_strategies="
            "[saved_model_export_utils.make_export_strategy(serving_input_fn)]) or a "
            "tf.estimator.LatestExporter in train_and_evaluate.")


class GraphDump(BaseMonitor):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            "tf.contrib.learn.monitors.GraphDump fetched every tensor of the TF 1.x training "
            "graph, which a compiled step does not keep: fetch the tensors you need with "
            "tf.train.LoggingTensorHook or PrintTensor.")


def _global_step(session):
    """The global step, from the engine's hook session or a TF 1.x session."""
    state = getattr(session, "state", None)
    if state is not None:
        return int(state.global_step.numpy())
    return int(session.run(tf.compat.v1.train.get_global_step(session.graph)))


def _name(fetch):
    return fetch if isinstance(fetch, str) else fetch.name


def _graph_element(name):
    """The tensor of a name as TF 1.x's session.run read it ('w' is 'w:0')."""
    if isinstance(name, str) and ":" not in name:
        return name + ":0"
    return name


class RunHookAdapterForMonitors(SessionRunHook):
    """Runs contrib.learn monitors as one SessionRunHook."""

    def __init__(self, monitors):
        self._monitors = list(monitors)

    def begin(self):
        self._last_step = None
        for monitor in self._monitors:
            # the engine replays begin() when it retraces the step: a monitor begins once
            if not getattr(monitor, "_begun", False):
                monitor.begin(max_steps=None)

    def before_run(self, run_context):
        if self._last_step is None:
            self._last_step = _global_step(run_context.session)
        self._step = self._last_step + 1
        wanted = {}
        for monitor in self._monitors:
            for fetch in monitor.step_begin(self._step) or []:
                wanted[_name(fetch)] = _graph_element(fetch)
        return SessionRunArgs(wanted) if wanted else None

    def after_run(self, run_context, run_values):
        outputs = run_values.results or {}
        stop = False
        for monitor in self._monitors:
            stop = bool(monitor.step_end(self._step, outputs)) or stop
        for monitor in self._monitors:
            monitor.post_step(self._step, run_context.session)
        self._last_step = self._step
        if stop:
            run_context.request_stop()

    def end(self, session):
        for monitor in self._monitors:
            monitor.end(session=session)


def replace_monitors_with_hooks(monitors_or_hooks, estimator):
    """The SessionRunHooks of `monitors_or_hooks` as they are, then one hook running the
    monitors (each given `estimator`), as `fit(monitors=...)` runs them."""
    items = list(monitors_or_hooks or [])
    hooks = [m for m in items if isinstance(m, SessionRunHook)]
    monitors = []
    for item in items:
        if isinstance(item, SessionRunHook):
            continue
        if isinstance(item, CheckpointSaver):
            hooks.append(item.as_hook())
            continue
        if not isinstance(item, BaseMonitor):
            raise ValueError(f"monitors must hold contrib.learn monitors or SessionRunHooks, "
                             f"given {item!r}")
        if estimator is not None:
            item.set_estimator(estimator)
        monitors.append(item)
    if monitors:
        hooks.append(RunHookAdapterForMonitors(monitors))
    return hooks


def get_default_monitors(loss_op=None, summary_op=None, save_summary_steps=100,
                         output_dir=None, summary_writer=None):
    """PrintTensor of the loss every 100 steps, and SummarySaver of `summary_op`."""
    monitors = []
    if loss_op is not None:
        monitors.append(PrintTensor(tensor_names={"loss": loss_op.name}))
    if summary_op is not None:
        monitors.append(SummarySaver(summary_op, save_steps=save_summary_steps,
                                     output_dir=output_dir, summary_writer=summary_writer))
    return monitors


