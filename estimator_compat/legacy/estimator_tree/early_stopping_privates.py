"""tensorflow_estimator 2.15's `early_stopping` privates: `_summaries` (the Event protos of an
eval dir's `events.out.tfevents.*` files, a cut-off file's rest skipped with a warning) and
`_CheckForStoppingHook` (requests a stop once the `signal_early_stopping/STOP` variable,
set by another task's early-stopping hook, is true) and `_MultiWorkerEarlyStoppingHook` (sets
that variable's SUM-aggregated int32 twin through `session.run(feed_dict=...)`, which the hooks'
session serves: hooks/feeds.py)."""
import os

import tensorflow as tf

from estimator_compat.legacy.estimator_tree.imported_privates import (
    _get_or_create_stop_var,
)

v1 = tf.compat.v1
_EVENT_FILE_GLOB_PATTERN = "events.out.tfevents.*"


def _summaries(eval_dir):
    """Yields the Event protos of `eval_dir`'s event files (nothing when it does not exist)."""
    if not tf.io.gfile.exists(eval_dir):
        return
    for path in tf.io.gfile.glob(os.path.join(eval_dir, _EVENT_FILE_GLOB_PATTERN)):
        try:
            yield from v1.train.summary_iterator(path)
        except tf.errors.DataLossError as e:
            v1.logging.warning("Skipping rest of the file due to encountering data corruption "
                               "error; file path: %s; original error raised by "
                               "`tf.train.summary_iterator`: %s", path, e)


class _CheckForStoppingHook(v1.train.SessionRunHook):
    """Fetches the early-stopping variable each run and requests a stop once it is true."""

    def __init__(self):
        self._stop_var = None

    def begin(self):
        self._stop_var = _get_or_create_stop_var()

    def before_run(self, run_context):
        del run_context
        return v1.train.SessionRunArgs(self._stop_var)

    def after_run(self, run_context, run_values):
        if run_values.results:
            v1.logging.info("Early stopping requested, suspending run.")
            run_context.request_stop()


class _MultiWorkerEarlyStoppingHook(v1.train.SessionRunHook):
    """2.15's early stopping under a distribution strategy: every `run_every_steps` steps it
    calls `should_stop_fn()` and adds its answer (1 or 0), fed into a `stop_value`
    placeholder_with_default, to the SUM-aggregated int32 `signal_early_stopping/STOP`; the
    next step that reads STOP > 0 requests the stop (so every worker stops). The step itself
    adds the placeholder's default, 0. 2.15 asserted a cross-replica context in begin(); here
    begin() runs inside the traced step, where the stop op is made in the replica directly."""

    def __init__(self, should_stop_fn, run_every_steps=None):
        if not callable(should_stop_fn):
            raise TypeError("`should_stop_fn` must be callable.")
        self._should_stop_fn = should_stop_fn
        self._timer = v1.train.SecondOrStepTimer(every_secs=None, every_steps=run_every_steps)
        self._global_step_tensor = None
        self._stop_var = None
        self._stop_op = None
        self._stop_placeholder = None

    def _get_or_create_stop_var_with_aggregation(self):
        with v1.variable_scope("signal_early_stopping", values=[], reuse=v1.AUTO_REUSE):
            return v1.get_variable(
                "STOP", shape=[], dtype=tf.int32, initializer=v1.constant_initializer(0),
                collections=[v1.GraphKeys.GLOBAL_VARIABLES],
                synchronization=tf.VariableSynchronization.ON_WRITE,
                aggregation=tf.VariableAggregation.SUM, trainable=False)

    def begin(self):
        self._global_step_tensor = v1.train.get_global_step()
        self._stop_var = self._get_or_create_stop_var_with_aggregation()
        self._stop_placeholder = None

        def stop_op_fn(var):
            placeholder = v1.placeholder_with_default(0, (), name="stop_value")
            if self._stop_placeholder is None:
                self._stop_placeholder = placeholder
            return var.assign_add(placeholder)

        if tf.distribute.in_cross_replica_context():
            self._stop_op = tf.distribute.get_strategy().run(stop_op_fn, args=(self._stop_var,))
        else:
            self._stop_op = stop_op_fn(self._stop_var)

    def before_run(self, run_context):
        del run_context
        return v1.train.SessionRunArgs({"global_step": self._global_step_tensor,
                                        "stop_var": self._stop_var})

    def after_run(self, run_context, run_values):
        global_step = run_values.results["global_step"]
        if run_values.results["stop_var"] > 0:
            v1.logging.info("Early stopping requested, suspending run.")
            run_context.request_stop()
            return
        if self._timer.should_trigger_for_step(global_step):
            self._timer.update_last_triggered_step(global_step)
            # keyed by name: outside the trace TensorFlow 2's tensors are not hashable
            feed = self._stop_placeholder.name
            if self._should_stop_fn():
                run_context.session.run(self._stop_op, feed_dict={feed: 1})
                v1.logging.info("Requesting early stopping at global step %d", global_step)
            else:
                run_context.session.run(self._stop_op, feed_dict={feed: 0})
