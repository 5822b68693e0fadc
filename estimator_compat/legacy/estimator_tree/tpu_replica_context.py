"""`tpu.tpu_context._TPUEstimatorReplicaContext` (tensorflow_estimator 2.15): a
tf.distribute.ReplicaContext of the default strategy for replica `replica_id_in_sync`; inside
`with`, v2 summaries record only on replica 0 (the summary state's distribution-strategy check
becomes `replica_id == 0`), and the previous check comes back on exit. TPUEstimator entered one
per TPU replica; the context itself needs no TPU."""
import tensorflow as tf
from tensorflow.python.distribute import distribute_lib
from tensorflow.python.ops import summary_ops_v2


class _TPUEstimatorReplicaContext(tf.distribute.ReplicaContext):
    """Replica `replica_id_in_sync` of the default strategy, recording summaries on 0 only."""

    def __init__(self, replica_id_in_sync):
        # of the default strategy (TensorFlow 2.15 took None for it; 2.21 keeps None)
        super().__init__(distribute_lib._get_default_strategy(),
                         replica_id_in_sync_group=replica_id_in_sync)
        self._summary_recording_distribution_strategy = None

    def __enter__(self):
        def replica_id_is_zero():
            return tf.math.equal(self.replica_id_in_sync_group, tf.constant(0))

        state = summary_ops_v2._summary_state
        self._summary_recording_distribution_strategy = (
            state.is_recording_distribution_strategy)
        state.is_recording_distribution_strategy = replica_id_is_zero

    def __exit__(self, exception_type, exception_value, traceback):
        summary_ops_v2._summary_state.is_recording_distribution_strategy = (
            self._summary_recording_distribution_strategy)
