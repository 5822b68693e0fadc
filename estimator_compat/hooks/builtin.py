"""tf.estimator's built-in hooks, working around compiled steps.

Most are TensorFlow's own classes, which run as they are here (their `begin()` runs inside the
trace, their fetches come back from the step, and `session.run` serves what they read):
LoggingTensorHook (a subclass taking TF 1.x's list of Tensors too), StopAtStepHook,
NanTensorHook, FinalOpsHook, FeedFnHook (its feeds get a clear error), GlobalStepWaiterHook. Others need the engine and are ours: CheckpointSaverHook,
SummarySaverHook and StepCounterHook (subclasses of TensorFlow's, so an instance of e.g.
`tf.compat.v1.train.CheckpointSaverHook` given to us is converted by `adapt`), and ProfilerHook
(TensorFlow's cannot be built in eager mode), which writes a trace for TensorBoard's profile
plugin with `tf.profiler.experimental`.
"""
import itertools
import os

import tensorflow as tf
from tensorflow.python.training import basic_session_run_hooks as _tf_hooks
from tensorflow.python.training import training_util

from estimator_compat import checkpoints, summaries
from estimator_compat.callbacks.checkpoint_saver import CheckpointSaver
from estimator_compat.hooks import SecondOrStepTimer, SessionRunArgs, SessionRunHook

StopAtStepHook = _tf_hooks.StopAtStepHook
NanTensorHook = _tf_hooks.NanTensorHook
FinalOpsHook = _tf_hooks.FinalOpsHook
FeedFnHook = _tf_hooks.FeedFnHook
GlobalStepWaiterHook = _tf_hooks.GlobalStepWaiterHook


class _Tag:
    """A list-form LoggingTensorHook's key for a Tensor (TensorFlow 2 Tensors are unhashable
    inside a function); it prints as the Tensor did in TF 1.x's log lines, and sorts in the
    order the tags were made (fetch dicts are flattened in key order)."""
    _made = itertools.count()

    def __init__(self, tensor):
        self.tensor = tensor
        self._index = next(self._made)

    def __str__(self):
        return str(self.tensor)

    def __lt__(self, other):
        return (self._index < other._index if isinstance(other, _Tag)
                else str(self) < str(other))


class LoggingTensorHook(_tf_hooks.LoggingTensorHook):
    """TensorFlow's hook; `tensors` may also be a list of Tensors, as in TF 1.x."""

    def __init__(self, tensors, every_n_iter=None, every_n_secs=None, at_end=False,
                 formatter=None):
        if not isinstance(tensors, dict):  # TF keys them by themselves, in the given order
            tensors = [t if isinstance(t, str) else _Tag(t) for t in tensors]
        super().__init__(tensors, every_n_iter=every_n_iter, every_n_secs=every_n_secs,
                         at_end=at_end, formatter=formatter)
        self._tensors = {tag: tag.tensor if isinstance(tag, _Tag) else tensor
                         for tag, tensor in self._tensors.items()}


def _global_step(session):
    return int(session.state.global_step.numpy())


class CheckpointSaverHook(_tf_hooks.CheckpointSaverHook):
    """Saves name-based checkpoints of the engine's variables every N steps/secs and at the end."""

    def begin(self):
        pass  # listeners' begin() runs in after_create_session, through CheckpointSaver

    def after_create_session(self, session, coord):
        state = session.state
        same_dir = os.path.abspath(self._checkpoint_dir) == os.path.abspath(state.estimator.model_dir)
        basename = os.path.basename(self._save_path)
        io = state.io if same_dir and basename == checkpoints.CHECKPOINT_BASENAME else \
            checkpoints.CheckpointIO(self._checkpoint_dir, state.store, basename=basename)
        self._impl = CheckpointSaver(io, self._timer._every_steps, self._timer._every_secs,
                                     self._listeners, session)
        self._impl.begin(_global_step(session))

    def before_run(self, run_context):
        return None

    def after_run(self, run_context, run_values):
        self._impl.after_step(_global_step(run_context.session))
        if self._impl.stop_requested:
            run_context.request_stop()

    def end(self, session):
        self._impl.end(_global_step(session))


class SummarySaverHook(_tf_hooks.SummarySaverHook):
    """Writes `summary_op` (serialized Summary protos, e.g. `merge_all()`) every N steps/secs."""

    def begin(self):
        if self._summary_op is None:  # a scaffold: its summary_op is merge_all() of the graph
            self._summary_op = tf.compat.v1.summary.merge_all()
        self._next_step = None

    def after_create_session(self, session, coord):
        pass

    def before_run(self, run_context):
        step = _global_step(run_context.session)
        self._request = (self._next_step is None or
                         self._timer.should_trigger_for_step(step + 1)) and self._summary_op is not None
        if self._request:
            ops = self._summary_op if isinstance(self._summary_op, (list, tuple)) else [self._summary_op]
            return SessionRunArgs({"summary": list(ops)})
        return None

    def after_run(self, run_context, run_values):
        step = _global_step(run_context.session)
        if self._next_step is None:  # TensorBoard drops a restarted run's events past here
            if self._summary_writer is not None:
                self._summary_writer.add_session_log(
                    tf.compat.v1.SessionLog(status=tf.compat.v1.SessionLog.START), step)
            else:
                summaries.write_session_log(self._output_dir, step, "START")
        if self._request:
            self._timer.update_last_triggered_step(step)
            for serialized in run_values.results["summary"]:
                if isinstance(serialized, bytes):
                    if self._summary_writer is not None:
                        self._summary_writer.add_summary(serialized, step)
                    else:
                        summaries.write_raw(self._output_dir, step, serialized)
        self._next_step = step + 1

    def end(self, session=None):
        if self._summary_writer is not None:
            self._summary_writer.flush()


class StepCounterHook(_tf_hooks.StepCounterHook):
    """TensorFlow's, with the summary tag fixed to tf.estimator's `global_step/sec` (its own
    begin() derives the tag from `global_step.op`, which an eager variable does not have), and
    its events flushed when the call ends: the writer's own thread flushes only every 120 s,
    so a reader right after `train()` could miss the last values."""

    def begin(self):
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = _tf_hooks.SummaryWriterCache.get(self._output_dir)
        self._global_step_tensor = training_util._get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use StepCounterHook.")
        self._summary_tag = "global_step/sec"

    def end(self, session):
        if self._summary_writer is not None:
            self._summary_writer.flush()


class ProfilerHook(SessionRunHook):
    """Profiles one step every `save_steps`/`save_secs` into `output_dir/plugins/profile/`."""

    def __init__(self, save_steps=None, save_secs=None, output_dir="", show_dataflow=True,
                 show_memory=False):
        self._output_dir = output_dir
        self._show_dataflow, self._show_memory = show_dataflow, show_memory
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._active = False

    def begin(self):
        self._next_step = None

    def before_run(self, run_context):
        step = _global_step(run_context.session)
        if self._next_step is None or self._timer.should_trigger_for_step(step + 1):
            tf.profiler.experimental.start(self._output_dir or run_context.session.state.estimator.model_dir)
            self._active = True
        return None

    def after_run(self, run_context, run_values):
        step = _global_step(run_context.session)
        if self._active:
            tf.profiler.experimental.stop()
            self._active = False
            self._timer.update_last_triggered_step(step)
        self._next_step = step + 1

    def end(self, session):
        if self._active:
            tf.profiler.experimental.stop()
            self._active = False


_CONVERSIONS = {_tf_hooks.CheckpointSaverHook: CheckpointSaverHook,
                _tf_hooks.SummarySaverHook: SummarySaverHook,
                _tf_hooks.StepCounterHook: StepCounterHook}


def adapt(hook):
    """TensorFlow's CheckpointSaverHook/SummarySaverHook need a Session: swap in ours."""
    ours = _CONVERSIONS.get(type(hook))
    if ours is None:
        return hook
    converted = ours.__new__(ours)
    converted.__dict__.update(vars(hook))
    return converted
