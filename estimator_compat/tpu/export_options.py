"""TPUEstimator's export settings, as tensorflow_estimator 2.15's `tpu.tpu_estimator` defined
them: `ExportSavedModelApiVersion` (V1 / V2, the `export_saved_model_api_version` argument)
and `BatchConfig`, the server-side batching options of a TPU export. Off TPU,
estimator_compat's TPUEstimator exports the CPU graph only, so both are accepted values that
change nothing in what it writes."""
import collections
import enum


class ExportSavedModelApiVersion(enum.Enum):
    """Which TPU export API a model_fn is written for (V1: TPUEstimator builds the TPU
    computation; V2: the model_fn calls `tpu.rewrite` itself)."""
    V1 = 1
    V2 = 2


class BatchConfig(collections.namedtuple("BatchConfig", [
        "num_batch_threads", "max_batch_size", "batch_timeout_micros", "allowed_batch_sizes",
        "max_enqueued_batches"])):
    """The batching function's settings for an exported TPU model (fields as TF's
    `batch_function`)."""

    __slots__ = ()

    def __new__(cls, num_batch_threads, max_batch_size, batch_timeout_micros,
                allowed_batch_sizes, max_enqueued_batches=100):
        return super().__new__(cls, num_batch_threads, max_batch_size, batch_timeout_micros,
                               allowed_batch_sizes, max_enqueued_batches)
