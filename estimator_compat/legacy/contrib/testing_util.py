"""`tf.contrib.testing`'s helpers (TF 1.15's fake_summary_writer and util_test): a FileWriter
stand-in for unit tests that keeps what it was given, and readers of event files."""
import glob
import os

import numpy as np
from tensorflow.core.framework import summary_pb2
from tensorflow.python.framework import test_util
from tensorflow.python.summary import summary_iterator
from tensorflow.python.summary.writer import writer, writer_cache


class FakeSummaryWriter:
    """Keeps summaries, graphs, meta graphs and session logs in memory; `install()` puts it in
    place of `FileWriter` (also for `FileWriterCache`), `uninstall()` puts it back."""

    _replaced_summary_writer = None

    @classmethod
    def install(cls):
        if cls._replaced_summary_writer:
            raise ValueError("FakeSummaryWriter already installed.")
        cls._replaced_summary_writer = writer.FileWriter
        writer.FileWriter = FakeSummaryWriter
        writer_cache.FileWriter = FakeSummaryWriter

    @classmethod
    def uninstall(cls):
        if not cls._replaced_summary_writer:
            raise ValueError("FakeSummaryWriter not installed.")
        writer.FileWriter = cls._replaced_summary_writer
        writer_cache.FileWriter = cls._replaced_summary_writer
        cls._replaced_summary_writer = None

    def __init__(self, logdir, graph=None):
        self._logdir = logdir
        self._graph = graph
        self._summaries = {}
        self._added_graphs = []
        self._added_meta_graphs = []
        self._added_session_logs = []
        self._added_run_metadata = {}

    @property
    def summaries(self):
        return self._summaries

    def assert_summaries(self, test_case, expected_logdir=None, expected_graph=None,
                         expected_summaries=None, expected_added_graphs=None,
                         expected_added_meta_graphs=None, expected_session_logs=None):
        """Asserts (on `test_case`) what was added; `global_step/sec` values are ignored."""
        if expected_logdir is not None:
            test_case.assertEqual(expected_logdir, self._logdir)
        if expected_graph is not None:
            test_case.assertTrue(expected_graph is self._graph)
        for step, expected in (expected_summaries or {}).items():
            test_case.assertTrue(step in self._summaries,
                                 msg="Missing step %s from %s." % (step, self._summaries.keys()))
            actual = {}
            for summary in self._summaries[step]:
                for v in summary.value:
                    if v.tag != "global_step/sec":
                        actual[v.tag] = v.simple_value
            test_case.assertEqual(expected, actual)
        if expected_added_graphs is not None:
            test_case.assertEqual(expected_added_graphs, self._added_graphs)
        if expected_added_meta_graphs is not None:
            test_case.assertEqual(len(expected_added_meta_graphs), len(self._added_meta_graphs))
            for expected, actual in zip(expected_added_meta_graphs, self._added_meta_graphs):
                test_util.assert_meta_graph_protos_equal(test_case, expected, actual)
        if expected_session_logs is not None:
            test_case.assertEqual(expected_session_logs, self._added_session_logs)

    def add_summary(self, summ, current_global_step):
        if isinstance(summ, bytes):
            proto = summary_pb2.Summary()
            proto.ParseFromString(summ)
            summ = proto
        self._summaries.setdefault(current_global_step, []).append(summ)

    def add_graph(self, graph, global_step=None, graph_def=None):
        if (global_step is not None) and (global_step < 0):
            raise ValueError("Invalid global_step %s." % global_step)
        if graph_def is not None:
            raise ValueError("Unexpected graph_def %s." % graph_def)
        self._added_graphs.append(graph)

    def add_meta_graph(self, meta_graph_def, global_step=None):
        if (global_step is not None) and (global_step < 0):
            raise ValueError("Invalid global_step %s." % global_step)
        self._added_meta_graphs.append(meta_graph_def)

    def add_session_log(self, session_log, global_step=None):
        del global_step  # its value is not deterministic in the tests this serves
        self._added_session_logs.append(session_log)

    def add_run_metadata(self, run_metadata, tag, global_step=None):
        if (global_step is not None) and (global_step < 0):
            raise ValueError("Invalid global_step %s." % global_step)
        self._added_run_metadata[tag] = run_metadata

    def flush(self):
        pass

    def reopen(self):
        pass

    def close(self):
        pass


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
