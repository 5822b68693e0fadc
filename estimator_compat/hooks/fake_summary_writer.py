"""`hooks.fake_summary_writer.FakeSummaryWriter` (tensorflow_estimator 2.15): the test double
hook tests used for TF1's FileWriter. `FakeSummaryWriter.install()` makes
`tf.compat.v1.summary.FileWriterCache` (and TF's `writer.FileWriter`) create fakes that keep
what is added in memory, `assert_summaries(test_case, ...)` checks it, `uninstall()` puts the
real writer back. Hooks that write through FileWriterCache (StepCounterHook,
ExamplesPerSecondHook, a SummarySaverHook given no writer in a TF1 session) are recorded;
estimator_compat's Estimator writes its own event files directly, so these are not."""
from tensorflow.python.summary.writer import writer, writer_cache


class FakeSummaryWriter:
    """Records summaries by step, graphs, meta graphs, session logs and run metadata."""

    _replaced_summary_writer = None

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
        """{step: [the Summary protos (or bytes) added at that step, in order]}."""
        return self._summaries

    def assert_summaries(self, test_case, expected_logdir=None, expected_graph=None,
                         expected_summaries=None, expected_added_graphs=None,
                         expected_added_meta_graphs=None, expected_session_logs=None):
        """Asserts with `test_case` (a tf.test.TestCase) that what was added is as expected:
        `expected_summaries` is {step: {tag: simple_value}} over every value at that step."""
        if expected_logdir is not None:
            test_case.assertEqual(expected_logdir, self._logdir)
        if expected_graph is not None:
            test_case.assertTrue(expected_graph is self._graph)
        for step, expected in (expected_summaries or {}).items():
            test_case.assertTrue(step in self._summaries,
                                 f"Missing step {step} from {self._summaries.keys()}.")
            test_case.assertEqual(expected, self._simple_values(step))
        if expected_added_graphs is not None:
            test_case.assertEqual(expected_added_graphs, self._added_graphs)
        if expected_added_meta_graphs is not None:
            test_case.assertEqual(len(expected_added_meta_graphs), len(self._added_meta_graphs))
            for expected, actual in zip(expected_added_meta_graphs, self._added_meta_graphs):
                self._assert_meta_graph_equal(test_case, expected, actual)
        if expected_session_logs is not None:
            test_case.assertEqual(expected_session_logs, self._added_session_logs)

    def _simple_values(self, step):
        """{tag: simple_value} of what was added at `step`."""
        return {value.tag: value.simple_value
                for summary in self._summaries[step] for value in summary.value}

    @staticmethod
    def _assert_meta_graph_equal(test_case, expected, actual):
        test_case.assertProtoEquals(expected, actual)

    def add_summary(self, summ, current_global_step):
        """Keeps `summ` (as given) under `current_global_step`."""
        self._summaries.setdefault(current_global_step, []).append(summ)

    def add_graph(self, graph, global_step=None, graph_def=None):
        """Keeps `graph`; a `graph_def` is an error (TF1's FileWriter took one or the other)."""
        del global_step
        if graph_def is not None:
            raise ValueError(f"Unexpected graph_def {graph_def}.")
        self._added_graphs.append(graph)

    def add_meta_graph(self, meta_graph_def, global_step=None):
        """Keeps `meta_graph_def` when no global_step is given (as 2.15's, which kept only
        those)."""
        if global_step is None:
            self._added_meta_graphs.append(meta_graph_def)

    def add_run_metadata(self, run_metadata, tag, global_step=None):
        del global_step
        self._added_run_metadata[tag] = run_metadata

    def add_session_log(self, session_log, global_step=None):
        del global_step
        self._added_session_logs.append(session_log)

    def flush(self):
        pass

    def reopen(self):
        pass

    def close(self):
        pass

    @classmethod
    def install(cls):
        """Makes TF's FileWriter (and so FileWriterCache) create this class's writers."""
        if cls._replaced_summary_writer:
            raise ValueError("FakeSummaryWriter already installed.")
        cls._replaced_summary_writer = writer.FileWriter
        writer.FileWriter = cls
        writer_cache.FileWriter = cls

    @classmethod
    def uninstall(cls):
        """Puts TF's FileWriter back."""
        if not cls._replaced_summary_writer:
            raise ValueError("FakeSummaryWriter not installed.")
        writer.FileWriter = cls._replaced_summary_writer
        writer_cache.FileWriter = cls._replaced_summary_writer
        cls._replaced_summary_writer = None
