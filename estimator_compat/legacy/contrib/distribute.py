"""`tf.contrib.distribute`, served whole: TF 1.15's names on TensorFlow 2.21's `tf.distribute`.

- The V1 strategies: `MirroredStrategy` (TF 1.15's `num_gpus` / `cross_tower_ops` arguments
  kept), `OneDeviceStrategy`, `CollectiveAllReduceStrategy` (`tf.compat.v1.distribute.
  experimental.MultiWorkerMirroredStrategy`), `ParameterServerStrategy` (its V1 class, cluster
  from TF_CONFIG), `TPUStrategy`; `DistributionStrategy` is `tf.compat.v1.distribute.Strategy`.
  A RunConfig given one runs it as the TensorFlow 2 strategy of the same kind
  (`engine/strategies.py`).
- Contexts and lookups (`ReplicaContext`, `get_replica_context`, `get_strategy`...), cross-device
  reductions (`CrossDeviceOps`, `AllReduceCrossDeviceOps`), `DistributeConfig`,
  `run_standard_tensorflow_server`, `initialize_tpu_system`: TensorFlow 2.21's own.
- `Step`, `StandardInputStep`, `StandardSingleLossStep`: TensorFlow 2.21's graph-mode step
  functions (`tensorflow.python.distribute.step_fn`); `Monitor` (contrib only) runs them.
- Declined (`missing.REPLACEMENTS`): `MultiWorkerAllReduce`, `UpdateContext`.
"""
import tensorflow as tf
from tensorflow.python.distribute import cross_device_ops as _cross_device_ops
from tensorflow.python.distribute import distribute_config as _distribute_config
from tensorflow.python.distribute import distribute_coordinator as _coordinator
from tensorflow.python.distribute import distribute_lib as _lib
from tensorflow.python.distribute import step_fn as _step_fn

v1 = tf.compat.v1


def _local_gpus():
    return len(tf.config.list_physical_devices("GPU"))


def _check_gpus_per_worker(strategy, num_gpus_per_worker):
    """TensorFlow 2's multi-worker strategies use every local GPU: say so when asked for fewer."""
    if num_gpus_per_worker is not None and num_gpus_per_worker != _local_gpus():
        raise ValueError(
            f"{strategy}(num_gpus_per_worker={num_gpus_per_worker}): TensorFlow 2's strategy "
            f"uses every GPU this worker sees ({_local_gpus()}); choose them with "
            "CUDA_VISIBLE_DEVICES (e.g. CUDA_VISIBLE_DEVICES='' for none) and leave "
            "num_gpus_per_worker out.")


class MirroredStrategyV1(v1.distribute.MirroredStrategy):
    """Synchronous training on this machine's devices, one replica each (TF 1.15's arguments).

    `num_gpus` (or `num_gpus_per_worker`) picks GPUs 0..n-1 (the CPU for 0);
    `cross_tower_ops` is the old name of `cross_device_ops`; `auto_shard_dataset` is accepted
    (one worker reads the whole dataset, as TF 1.15 did with one worker).
    """

    def __init__(self, devices=None, num_gpus=None, num_gpus_per_worker=None,
                 cross_device_ops=None, auto_shard_dataset=False, cross_tower_ops=None):
        del auto_shard_dataset
        if num_gpus is not None and num_gpus_per_worker is not None:
            raise ValueError("You cannot specify both `num_gpus` and `num_gpus_per_worker`.")
        num_gpus = num_gpus if num_gpus is not None else num_gpus_per_worker
        if devices is not None and num_gpus is not None:
            raise ValueError("Must only specify one of `devices` and `num_gpus`.")
        if cross_device_ops is not None and cross_tower_ops is not None:
            raise ValueError("Pass cross_device_ops (cross_tower_ops is its old name), not both.")
        if num_gpus is not None:
            if num_gpus < 0:
                raise ValueError(f"num_gpus must be 0 or more, got {num_gpus}")
            devices = [f"/device:GPU:{i}" for i in range(num_gpus)] or ["/device:CPU:0"]
        super().__init__(devices=devices, cross_device_ops=cross_device_ops or cross_tower_ops)


class CollectiveAllReduceStrategyV1(v1.distribute.experimental.MultiWorkerMirroredStrategy):
    """Synchronous training on the workers of TF_CONFIG with collective all-reduce."""

    def __init__(self, num_gpus_per_worker=0, communication=None):
        _check_gpus_per_worker("CollectiveAllReduceStrategy", num_gpus_per_worker)
        if communication is None:
            communication = tf.distribute.experimental.CommunicationImplementation.AUTO
        super().__init__(communication=communication)


class ParameterServerStrategyV1(v1.distribute.experimental.ParameterServerStrategy):
    """Variables on the TF_CONFIG cluster's `ps` tasks, computation on each worker."""

    def __init__(self, num_gpus_per_worker=0):
        _check_gpus_per_worker("ParameterServerStrategy", num_gpus_per_worker)
        super().__init__()


class AllReduceCrossDeviceOps(_cross_device_ops.AllReduceCrossDeviceOps):
    """All-reduce across devices (`all_reduce_alg` 'nccl' or 'hierarchical_copy').

    TF 1.15's `agg_small_grads_*` arguments only batched small gradients for speed (the sums
    are the same): they are accepted and not used.
    """

    def __init__(self, all_reduce_alg="nccl", num_packs=1, agg_small_grads_max_bytes=0,
                 agg_small_grads_max_group=10):
        del agg_small_grads_max_bytes, agg_small_grads_max_group
        super().__init__(all_reduce_alg=all_reduce_alg, num_packs=num_packs)


class Monitor:
    """Runs a training `Step` (graph mode: in `session`) until `num_steps` or its input ends."""

    def __init__(self, step_callable, session=None):
        if tf.executing_eagerly():
            if session is not None:
                raise ValueError("Should not provide a `session` in Eager mode.")
            self._run_step = step_callable
        else:
            if session is None:
                raise ValueError("Should provide a `session` in Graph mode.")
            session.run(step_callable.initialize())
            self._run_step = session.make_callable(step_callable())
            session.run(v1.global_variables_initializer())

    def run_steps(self, num_steps=None):
        """Run `num_steps` steps (all of them if None), stopping early at the input's end."""
        done = 0
        while num_steps is None or done < num_steps:
            try:
                self._run_step()
            except tf.errors.OutOfRangeError:
                break
            done += 1


def initialize_tpu_system(cluster_resolver=None):
    """Initialize the TPU system of `cluster_resolver` (a TPU is needed)."""
    if cluster_resolver is None and not tf.config.list_logical_devices("TPU"):
        raise ValueError(
            "initialize_tpu_system needs a TPU: pass tf.distribute.cluster_resolver."
            "TPUClusterResolver(tpu=...) for a TPU this program can reach (there is no TPU "
            "device here).")
    return tf.tpu.experimental.initialize_tpu_system(cluster_resolver)


ATTRS = dict(
    AllReduceCrossDeviceOps=AllReduceCrossDeviceOps,
    CollectiveAllReduceStrategy=CollectiveAllReduceStrategyV1,
    CrossDeviceOps=tf.distribute.CrossDeviceOps,
    DistributeConfig=_distribute_config.DistributeConfig,
    DistributionStrategy=v1.distribute.Strategy,
    MirroredStrategy=MirroredStrategyV1,
    Monitor=Monitor,
    OneDeviceStrategy=v1.distribute.OneDeviceStrategy,
    ParameterServerStrategy=ParameterServerStrategyV1,
    ReplicaContext=v1.distribute.ReplicaContext,
    StandardInputStep=_step_fn.StandardInputStep,
    StandardSingleLossStep=_step_fn.StandardSingleLossStep,
    Step=_step_fn.Step,
    TPUStrategy=v1.distribute.experimental.TPUStrategy,
    get_cross_replica_context=_lib.get_cross_replica_context,
    get_distribution_strategy=v1.distribute.get_strategy,
    get_loss_reduction=v1.distribute.get_loss_reduction,
    get_replica_context=v1.distribute.get_replica_context,
    get_strategy=v1.distribute.get_strategy,
    has_distribution_strategy=v1.distribute.has_strategy,
    has_strategy=v1.distribute.has_strategy,
    in_cross_replica_context=v1.distribute.in_cross_replica_context,
    initialize_tpu_system=initialize_tpu_system,
    require_replica_context=_lib.require_replica_context,
    run_standard_tensorflow_server=_coordinator.run_standard_tensorflow_server)


def build():
    from estimator_compat.legacy.namespaces import namespace
    return namespace("tensorflow.contrib.distribute", "tf.contrib.distribute",
                     __served_whole__=True, **ATTRS)
