"""`tf.contrib.testing`'s helpers (TF 1.15's fake_summary_writer and util_test): a FileWriter
stand-in for unit tests that keeps what it was given, and readers of event files."""
import glob
import os

import numpy as np
from tensorflow.core.framework import summary_pb2
from tensorflow.python.framework import test_util
from tensorflow.python.summary import summary_iterator

from estimator_compat.hooks import fake_summary_writer


class FakeSummaryWriter(fake_summary_writer.FakeSummaryWriter):
    """Keeps summaries, graphs, meta graphs and session logs in memory; `install()` puts it in
    place of `FileWriter` (also for `FileWriterCache`), `uninstall()` puts it back. TF 1.15's
    differs from tensorflow_estimator 2.15's (hooks/fake_summary_writer.py) where it is
    overridden here: serialized summaries parsed, negative steps refused, every meta graph
    kept, `global_step/sec` left out of the compared values."""

    _replaced_summary_writer = None

    def _simple_values(self, step):
        return {tag: value for tag, value in super()._simple_values(step).items()
                if tag != "global_step/sec"}

    @staticmethod
    def _assert_meta_graph_equal(test_case, expected, actual):
        test_util.assert_meta_graph_protos_equal(test_case, expected, actual)

    def add_summary(self, summ, current_global_step):
        if isinstance(summ, bytes):
            proto = summary_pb2.Summary()
            proto.ParseFromString(summ)
            summ = proto
        super().add_summary(summ, current_global_step)

    def add_graph(self, graph, global_step=None, graph_def=None):
        _check_step(global_step)
        super().add_graph(graph, graph_def=graph_def)

    def add_meta_graph(self, meta_graph_def, global_step=None):
        _check_step(global_step)
        self._added_meta_graphs.append(meta_graph_def)

    def add_run_metadata(self, run_metadata, tag, global_step=None):
        _check_step(global_step)
        super().add_run_metadata(run_metadata, tag)


def _check_step(global_step):
    if (global_step is not None) and (global_step < 0):
        raise ValueError("Invalid global_step %s." % global_step)


def assert_summary(expected_tags, expected_simple_values, summary_proto):
    """Asserts `summary_proto` has exactly `expected_tags` and these simple values (2 decimals)."""
    actual_tags = set()
    for value in summary_proto.value:
        actual_tags.add(value.tag)
        if value.tag in expected_simple_values:
            np.testing.assert_almost_equal(value.simple_value,
                                           expected_simple_values[value.tag], decimal=2,
                                           err_msg=value.tag)
    expected_tags = set(expected_tags)
    if expected_tags != actual_tags:
        raise ValueError("Expected tags %s, got %s." % (expected_tags, actual_tags))


def to_summary_proto(summary_str):
    """The `Summary` proto of a serialized summary."""
    summary = summary_pb2.Summary()
    summary.ParseFromString(summary_str)
    return summary


def latest_event_file(base_dir):
    """The last `events.*` file of `base_dir` by name, or None."""
    paths = glob.glob(os.path.join(base_dir, "events.*"))
    return sorted(paths)[-1] if paths else None


def latest_events(base_dir):
    """The events of the latest event file of `base_dir` (an iterator), or []."""
    path = latest_event_file(base_dir)
    return summary_iterator.summary_iterator(path) if path else []


def latest_summaries(base_dir):
    """The events with a summary in the latest event file of `base_dir`."""
    return [e for e in latest_events(base_dir) if e.HasField("summary")]


def simple_values_from_events(events, tags):
    """{tag: simple_value} for `tags`, each from its event of the highest step."""
    step_by_tag, value_by_tag = {}, {}
    for e in events:
        if e.HasField("summary"):
            for v in e.summary.value:
                if v.tag in tags:
                    if not v.HasField("simple_value"):
                        raise ValueError("Summary for %s is not a simple_value." % v.tag)
                    if v.tag not in step_by_tag or e.step > step_by_tag[v.tag]:
                        step_by_tag[v.tag] = e.step
                        value_by_tag[v.tag] = v.simple_value
    return value_by_tag
