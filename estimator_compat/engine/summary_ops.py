"""The train step's summaries, written as tf.estimator wrote them.

The model_fn's `tf.compat.v1.summary.*` ops are built as TF1 ops (into the SUMMARIES collection,
so `merge_all()` and `SummarySaverHook(summary_op=...)` work as in TF1); the step adds `loss`
unless the model_fn made a summary of that name, merges them and writes the merged proto every
`save_summary_steps` at global_step + 1. TF2 `tf.summary.*` calls go to the same writer.
"""
import contextlib

import tensorflow as tf
from tensorflow.python.summary import summary as _tf1_summary

_GraphKeys = tf.compat.v1.GraphKeys


@contextlib.contextmanager
def tf1_summary_ops(build=True):
    """Makes compat.v1 summary ops build TF1 ops even where a TF2 default writer is set; or,
    `build=False`, build nothing (TF2 ops with no writer: constants, which XLA compiles)."""
    saved = _tf1_summary._should_invoke_v2_op
    _tf1_summary._should_invoke_v2_op = lambda: not build
    try:
        yield
    finally:
        _tf1_summary._should_invoke_v2_op = saved


def train_scope(writer, step_before, every, build=True):
    """Where the train model_fn runs: the writer at global_step + 1, recording when due.
    `build=False` (XLA): no summary ops at all."""
    scope = contextlib.ExitStack()
    scope.enter_context(tf1_summary_ops(build))
    if not build:
        return scope
    if writer is not None and every:
        scope.enter_context(writer.as_default(step=step_before + 1))
        scope.enter_context(tf.summary.record_if(tf.equal(step_before % every, 0)))
    else:
        scope.enter_context(tf.summary.record_if(False))
    return scope


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
    return tf.cond(step_before % every < window, lambda: merged, lambda: tf.constant(""))


def _merged_with_loss(graph, loss):
    if not any(op.op.name == "loss" for op in graph.get_collection(_GraphKeys.SUMMARIES)):
        tf.compat.v1.summary.scalar("loss", loss)
    return tf.compat.v1.summary.merge_all()
