"""The train step's summaries, written as tf.estimator wrote them.

The model_fn's `tf.compat.v1.summary.*` ops are built as TF1 ops (into the SUMMARIES collection,
so `merge_all()` and `SummarySaverHook(summary_op=...)` work as in TF1); the step adds `loss`
unless the model_fn made a summary of that name, merges them and writes the merged proto every
`save_summary_steps` at global_step + 1. TF2 `tf.summary.*` calls go to the same writer.

A TF1 session computed a summary only on the steps that fetched it; in one compiled step every
op feeding the merged summary runs each step, even where only its write is conditional. So the
costly ones are computed under a `tf.cond` on this step's summaries being written or fetched
(`when_due`): every model_fn's histograms and images (their op is given an empty slice on the
other steps), and the canned models' zero fractions (histograms and zero fractions were half
the wide & deep step).
"""
import contextlib
import threading

import tensorflow as tf
from tensorflow.python.summary import summary as _tf1_summary

_GraphKeys = tf.compat.v1.GraphKeys
_due = threading.local()  # per replica thread: whether this step's summaries are used
_SUMMARY_OP_TYPES = {"MergeSummary", "ScalarSummary", "HistogramSummary", "ImageSummary",
                     "AudioSummaryV2", "TensorSummary", "TensorSummaryV2"}


def is_summary(tensor):
    """Whether `tensor` is a TF1 summary op's output (a fetch that makes its step compute the
    deferred summary inputs, as a TF1 session computed them for that fetch)."""
    return tensor.op.type in _SUMMARY_OP_TYPES


def when_due(compute, otherwise):
    """`compute()` where this step's summaries are written or fetched, else `otherwise()`
    (cheap, same dtype); `compute()` outside a train step (nothing conditional there)."""
    due = getattr(_due, "value", None)
    if due is None or due is True:
        return compute()
    if due is False:
        return otherwise()
    return tf.cond(due, compute, otherwise)


@contextlib.contextmanager
def _summaries_due(value):
    saved = getattr(_due, "value", None)
    _due.value = value
    try:
        yield
    finally:
        _due.value = saved


class _DeferredInputOps:
    """TF1 summary ops whose costly input (histogram values, images) is the real one only
    where this step's summaries are used (`when_due`), an empty slice of it elsewhere: the op
    keeps its name and place in SUMMARIES, and costs nothing on the other steps."""

    def __init__(self, ops):
        self._ops = ops

    def __getattr__(self, name):
        return getattr(self._ops, name)

    def histogram_summary(self, tag, values, name=None):
        values = tf.convert_to_tensor(values)
        return self._ops.histogram_summary(tag=tag, values=when_due(
            lambda: values, lambda: tf.reshape(values, [-1])[:0]), name=name)

    def image_summary(self, tag, tensor, **kwargs):
        tensor = tf.convert_to_tensor(tensor)
        return self._ops.image_summary(tag=tag, tensor=when_due(
            lambda: tensor, lambda: tensor[:0]), **kwargs)


@contextlib.contextmanager
def tf1_summary_ops(build=True):
    """Makes compat.v1 summary ops build TF1 ops even where a TF2 default writer is set, their
    costly inputs deferred (_DeferredInputOps); or, `build=False`, build nothing (TF2 ops with
    no writer: constants, which XLA compiles)."""
    saved = _tf1_summary._should_invoke_v2_op
    ops = getattr(_tf1_summary, "_gen_logging_ops", None)  # private: absent, nothing deferred
    _tf1_summary._should_invoke_v2_op = lambda: not build
    if ops is not None and not isinstance(ops, _DeferredInputOps):
        _tf1_summary._gen_logging_ops = _DeferredInputOps(ops)
    try:
        yield
    finally:
        _tf1_summary._should_invoke_v2_op = saved
        if ops is not None:
            _tf1_summary._gen_logging_ops = ops


def train_scope(writer, step_before, every, build=True, due=None, origin=None):
    """Where the train model_fn runs: the writer at global_step + 1, recording when due (every
    `every` steps from `origin`, the call's first step, a variable; 0 where None).
    `build=False` (XLA): no summary ops at all. `due` (for `when_due`): True where a hook
    fetches summaries, else whether they are shipped (parameter servers); None: the writer's
    schedule."""
    scope = contextlib.ExitStack()
    scope.enter_context(tf1_summary_ops(build))
    if not build:
        return scope
    if writer is not None and every:
        since = step_before if origin is None else step_before - tf.cast(origin, step_before.dtype)
        recording = tf.equal(since % every, 0)
        scope.enter_context(writer.as_default(step=step_before + 1))
        scope.enter_context(tf.summary.record_if(recording))
        due = recording if due is None else due
    else:
        scope.enter_context(tf.summary.record_if(False))
        due = False if due is None else due  # nothing written: used only where fetched
    scope.enter_context(_summaries_due(due))
    return scope


def due_on_workers(step_before, every, window):
    """Whether a parameter-server step's summaries are shipped (see merged_when_due)."""
    return step_before % every < window if every else False


def write_merged(graph, loss):
    """Adds the `loss` summary (unless present), merges SUMMARIES and writes them if due."""
    merged = _merged_with_loss(graph, loss)
    if merged is not None and tf.summary.experimental.get_step() is not None:
        tf.summary.experimental.write_raw_pb(merged, step=tf.summary.experimental.get_step())


def merged_when_due(graph, loss, step_before, every, window=1):
    """The merged summaries (with `loss`) as a serialized proto when step_before is within
    `window` steps after a multiple of `every` (an empty string otherwise): for the chief to
    write, when the step runs on another task."""
    if not every:
        return tf.constant("")
    merged = _merged_with_loss(graph, loss)
    return tf.cond(due_on_workers(step_before, every, window), lambda: merged,
                   lambda: tf.constant(""))


def _merged_with_loss(graph, loss):
    if not any(op.op.name == "loss" for op in graph.get_collection(_GraphKeys.SUMMARIES)):
        tf.compat.v1.summary.scalar("loss", loss)
    return tf.compat.v1.summary.merge_all()
