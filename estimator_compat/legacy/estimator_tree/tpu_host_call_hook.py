"""`tpu.tpu_estimator._OutfeedHostCallHook` (tensorflow_estimator 2.15): the hook TPUEstimator
used off TPU (use_tpu=False) to run `host_call`'s ops in each MonitoredSession step: it runs
the graph's summary-writer initializers when the session starts, the host-call tensors with
every run, and flushes each writer at the end. TPUEstimator here runs host_call inside its
traced step instead (TPUEstimatorSpec.as_estimator_spec); the hook serves TF1 session loops."""
import tensorflow as tf
from tensorflow.python.ops import summary_ops_v2
from tensorflow.python.util import deprecation

from estimator_compat.hooks import SessionRunArgs, SessionRunHook


class _OutfeedHostCallHook(SessionRunHook):
    """Runs `tensors` (a list or dict of host-call ops) with every session run."""

    @deprecation.deprecated(None, "TPUEstimator's host_call hook; run the ops yourself.")
    def __init__(self, tensors):
        self._tensors = tensors

    def begin(self):
        self._init_ops = summary_ops_v2.summary_writer_initializer_op()
        # a FlushSummaryWriter op on each writer resource the graph initializes
        self._finalize_ops = [tf.raw_ops.FlushSummaryWriter(writer=op.inputs[0])
                              for op in self._init_ops]

    def after_create_session(self, session, coord):
        session.run(self._init_ops)

    def before_run(self, run_context):
        return SessionRunArgs(self._tensors)

    def end(self, session):
        session.run(self._finalize_ops)
