"""tensorflow_estimator 2.15's `early_stopping` privates: `_summaries` (the Event protos of an
eval dir's `events.out.tfevents.*` files, a cut-off file's rest skipped with a warning) and
`_CheckForStoppingHook` (requests a stop once the `signal_early_stopping/STOP` variable,
set by another task's early-stopping hook, is true)."""
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
