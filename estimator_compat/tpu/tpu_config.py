"""tpu.RunConfig and TPUConfig: TPUEstimator's run settings."""
import collections

from estimator_compat.run_config import RunConfig as _CoreRunConfig


class InputPipelineConfig:
    """How TPUEstimator fed the TPU (kept for API compatibility; CPU/GPU runs ignore it)."""
    PER_SHARD_V1 = 1
    PER_HOST_V1 = 2
    PER_HOST_V2 = 3
    BROADCAST = 4
    SLICED = 5


_TPU_CONFIG_FIELDS = [
    "iterations_per_loop", "num_shards", "num_cores_per_replica", "per_host_input_for_training",
    "tpu_job_name", "initial_infeed_sleep_secs", "input_partition_dims",
    "eval_training_input_configuration", "experimental_host_call_every_n_steps",
    "experimental_allow_per_host_v2_parallel_get_next", "experimental_feed_hook"]


class TPUConfig(collections.namedtuple("TPUConfig", _TPU_CONFIG_FIELDS)):
    """TPU settings; `iterations_per_loop` is the number of steps per compiled call on TPU."""

    def __new__(cls, iterations_per_loop=2, num_shards=None, num_cores_per_replica=None,
                per_host_input_for_training=True, tpu_job_name=None,
                initial_infeed_sleep_secs=None, input_partition_dims=None,
                eval_training_input_configuration=InputPipelineConfig.PER_HOST_V1,
                experimental_host_call_every_n_steps=1,
                experimental_allow_per_host_v2_parallel_get_next=False,
                experimental_feed_hook=None):
        if not isinstance(iterations_per_loop, int) or iterations_per_loop < 1:
            raise ValueError(f"iterations_per_loop must be positive, given: {iterations_per_loop}")
        if num_shards is not None and num_shards < 1:
            raise ValueError(f"num_shards must be positive, given: {num_shards}")
        return super().__new__(cls, iterations_per_loop, num_shards, num_cores_per_replica,
                               per_host_input_for_training, tpu_job_name,
                               initial_infeed_sleep_secs, input_partition_dims,
                               eval_training_input_configuration,
                               experimental_host_call_every_n_steps,
                               experimental_allow_per_host_v2_parallel_get_next,
                               experimental_feed_hook)


class RunConfig(_CoreRunConfig):
    """tf.estimator's RunConfig plus `tpu_config`, `master`, `evaluation_master`, `cluster`."""

    def __init__(self, tpu_config=None, evaluation_master=None, master=None, cluster=None,
                 **kwargs):
        super().__init__(**kwargs)
        self._tpu = dict(tpu_config=tpu_config or TPUConfig(), tpu_master=master,
                         tpu_evaluation_master=evaluation_master, tpu_cluster=cluster)

    tpu_config = property(lambda self: self._tpu["tpu_config"])
    cluster = property(lambda self: self._tpu["tpu_cluster"])

    @property
    def master(self):
        return self._tpu["tpu_master"] if self._tpu["tpu_master"] is not None else super().master

    @property
    def evaluation_master(self):
        given = self._tpu["tpu_evaluation_master"]
        return given if given is not None else self.master

    def replace(self, **kwargs):
        tpu = {k: kwargs.pop(k) for k in ("tpu_config",) if k in kwargs}
        new = super().replace(**kwargs)
        new._tpu = dict(self._tpu, **tpu)
        return new
