"""`tf.contrib.cloud`, served whole: `BlockCacheParams` as TF 1.15 had it; the rest declined.

TensorFlow 2 removed the ops under the other names: the BigQuery reader kernel, the Bigtable
client kernels and the GCS credential / block-cache configuration ops (`GcsConfigureCredentials`,
`GcsConfigureBlockCache`, which `configure_gcs`, `ConfigureGcsHook` and
`configure_colab_session` ran). Each raises the error naming what to use
(`missing.REPLACEMENTS`): the BigQuery and Bigtable clients or tensorflow-io, and for GCS the
`GOOGLE_APPLICATION_CREDENTIALS` file and the `GCS_READ_CACHE_*` variables TensorFlow 2's GCS
file system reads.
"""
from estimator_compat.legacy.namespaces import namespace

_MB = 1024 * 1024


class BlockCacheParams:
    """The GCS block cache's settings (TF 1.15's struct): a block of 128 MB and twice that in
    all unless given, entries never stale (`max_staleness` 0)."""

    def __init__(self, block_size=None, max_bytes=None, max_staleness=None):
        self._block_size = block_size or 128 * _MB
        self._max_bytes = max_bytes or 2 * self._block_size
        self._max_staleness = max_staleness or 0

    @property
    def block_size(self):
        return self._block_size

    @property
    def max_bytes(self):
        return self._max_bytes

    @property
    def max_staleness(self):
        return self._max_staleness


def build():
    return namespace("tensorflow.contrib.cloud",
                     "tf.contrib.cloud: BlockCacheParams (the other names' ops are gone)",
                     __served_whole__=True, BlockCacheParams=BlockCacheParams)
