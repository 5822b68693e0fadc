"""`tf.contrib.summary`: TF 1.15's graph-mode summary API (the "V2" summary ops of TF 1.x).

TensorFlow 2.21 still carries TF 1.15's implementation of these functions
(`tensorflow.python.ops.summary_ops_v2`: the legacy resource writer, `scalar(name, tensor,
family, step)`, the recording conditions, the `_SUMMARY_V2` collection), so they are served
from there and write the event files TF 1.15 wrote: a `<logdir>/events.out.tfevents.*.v2`
file, scalars as `simple_value`, under the tags and steps given. Where each name lives:

- `scalar`, `histogram`, `image`, `audio`, `generic`, `import_event`, `flush`, `eval_dir`,
  `always_record_summaries`, `never_record_summaries`, `record_summaries_every_n_global_steps`,
  `summary_writer_initializer_op`, `initialize`, `SummaryWriter`: TensorFlow's own;
- `all_summary_ops`: `all_v2_summary_ops`; `graph`: its TF1 form `graph_v1(param, step)`;
  `should_record_summaries`: TF 1.15's condition (recording switched on; no writer needed);
- `create_file_writer` (and its old name `create_summary_file_writer`): in a TF1 graph as
  TF 1.15 made it (its initializer in the collection `summary_writer_initializer_op()` reads);
  inside a compiled step (a TPUEstimator `host_call`, traced once by estimator_compat's engine)
  the writer of that logdir is made once, outside the step, and kept, so that every step writes
  to the same file, as TF 1.15's session-long writer did. `as_default()` flushes it at the end
  of each step's block.
- `create_db_writer`: TensorFlow's SQLite summary writer kernel (`CreateSummaryDbWriter`,
  still in 2.21) behind the same legacy writer, with TF 1.15's defaults and name checks.
"""
import __future__
import functools
import getpass
import os
import re
import threading
import time

import tensorflow as tf
from tensorflow.python.ops import summary_ops_v2 as _ops

from estimator_compat.legacy.namespaces import namespace

_writers = {}
_lock = threading.Lock()


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None):
    """A summary file writer of `logdir` (None: one that writes nothing); `max_queue`
    summaries are buffered (10), flushed at least every `flush_millis` (2 minutes), the file
    name ending in `filename_suffix` ('.v2')."""
    if isinstance(logdir, (str, bytes, os.PathLike)) and tf.inside_function():
        with tf.init_scope():
            if tf.executing_eagerly():
                return _step_writer(os.fsdecode(logdir), max_queue, flush_millis,
                                    filename_suffix, name)
    return _ops.create_file_writer(logdir, max_queue, flush_millis, filename_suffix, name)


def _step_writer(logdir, max_queue, flush_millis, filename_suffix, name):
    """The writer of `logdir` for compiled steps: made eagerly once, kept for the process."""
    key = (logdir, name)
    with _lock:
        writer = _writers.get(key)
        if writer is None:
            writer = _ops.create_file_writer(logdir, max_queue, flush_millis, filename_suffix,
                                             name)
            _writers[key] = writer
        return writer


def should_record_summaries():
    """A bool tensor: whether summaries are recorded here (the `always_` / `never_` /
    `record_summaries_every_n_global_steps` condition in force, False outside them), whether
    or not a writer is set (TensorFlow 2's own answer is False without a writer)."""
    state = _ops._summary_state
    condition = state.is_recording
    condition = condition() if callable(condition) else condition
    replica = state.is_recording_distribution_strategy
    replica = replica() if callable(replica) else replica
    return tf.logical_and(replica, False if condition is None else condition)


def create_summary_file_writer(*args, **kwargs):
    """TF 1.x's older name of `create_file_writer`."""
    return create_file_writer(*args, **kwargs)


_DB_NAMES = re.compile(r"^[^\x00-\x1f<>]{0,256}$")
_USER_NAME = re.compile(r"^[a-z]([-a-z0-9]{0,29}[a-z0-9])?$")


def _checked(what, pattern, value, rule):
    if not isinstance(value, str) or not pattern.match(value):
        raise ValueError(f"{what} must be {rule}; given {value!r}")
    return value


def create_db_writer(db_uri, experiment_name=None, run_name=None, user_name=None, name=None):
    """A writer of summaries into the SQLite database `db_uri` (TensorBoard's DB mode):
    `experiment_name` defaults to today's date, `run_name` to the local time, `user_name` to
    the system user; an empty string leaves that level out."""
    names = "a string of at most 256 characters without control characters, '<' or '>'"
    with tf.device("cpu:0"):
        experiment_name = _checked(
            "experiment_name", _DB_NAMES, time.strftime("%Y-%m-%d") if experiment_name is None
            else experiment_name, names)
        run_name = _checked("run_name", _DB_NAMES, time.strftime("%H:%M:%S")
                            if run_name is None else run_name, names)
        user = getpass.getuser() if user_name is None else user_name
        if user != "":
            _checked("user_name", _USER_NAME, user, "a valid DNS label and Linux user name "
                     "(lower-case letters, digits and '-', at most 31 characters)")
        resource = tf.raw_ops.SummaryWriter(shared_name=name or "")
        return _ops._LegacyResourceSummaryWriter(resource, functools.partial(
            _create_db_writer, db_uri=db_uri, experiment_name=experiment_name,
            run_name=run_name, user_name=user))


def _create_db_writer(writer, db_uri, experiment_name, run_name, user_name):
    return tf.raw_ops.CreateSummaryDbWriter(writer=writer, db_uri=db_uri,
                                            experiment_name=experiment_name,
                                            run_name=run_name, user_name=user_name)


def build():
    return namespace(
        "tensorflow.contrib.summary", "tf.contrib.summary", __served_whole__=True,
        absolute_import=__future__.absolute_import, division=__future__.division,
        print_function=__future__.print_function,
        SummaryWriter=_ops.SummaryWriter, all_summary_ops=_ops.all_v2_summary_ops,
        always_record_summaries=_ops.always_record_summaries,
        never_record_summaries=_ops.never_record_summaries,
        record_summaries_every_n_global_steps=_ops.record_summaries_every_n_global_steps,
        should_record_summaries=should_record_summaries,
        scalar=_ops.scalar, histogram=_ops.histogram, image=_ops.image, audio=_ops.audio,
        generic=_ops.generic, graph=_ops.graph_v1, import_event=_ops.import_event,
        flush=_ops.flush, eval_dir=_ops.eval_dir, initialize=_ops.initialize,
        summary_writer_initializer_op=_ops.summary_writer_initializer_op,
        create_file_writer=create_file_writer,
        create_summary_file_writer=create_summary_file_writer,
        create_db_writer=create_db_writer)
