"""The tf.distribute strategies the engine runs, and TF 1.x's V1 strategy objects mapped onto them.

The engine runs one device, Mirrored, MultiWorkerMirrored and ParameterServerStrategy (training,
on the chief). A TF 1.x program hands RunConfig a V1 object
(`tf.compat.v1.distribute.MirroredStrategy()`, `tf.contrib.distribute.MirroredStrategy` in
1.x); it is replaced by the TensorFlow 2 strategy of the same kind over the same devices, as
tf.estimator ran V1 strategies on the same machinery.
"""
import logging
import weakref

import tensorflow as tf

logger = logging.getLogger("tensorflow")
_CONVERTED = weakref.WeakKeyDictionary()  # one V2 strategy per V1 object


def _v2_of(strategy):
    name = type(strategy).__name__
    devices = list(strategy.extended.worker_devices)
    if name == "MirroredStrategyV1":
        return tf.distribute.MirroredStrategy(devices=devices)
    if name == "OneDeviceStrategyV1":
        return tf.distribute.OneDeviceStrategy(devices[0])
    if name == "CentralStorageStrategyV1":
        return tf.distribute.experimental.CentralStorageStrategy(compute_devices=devices)
    if name == "CollectiveAllReduceStrategyV1":
        return tf.distribute.MultiWorkerMirroredStrategy()
    raise ValueError(f"RunConfig: the V1 strategy {name} has no TensorFlow 2 counterpart the "
                     "Estimator runs; for parameter servers give the cluster in TF_CONFIG "
                     "(estimator_compat starts tf.distribute.experimental."
                     "ParameterServerStrategy itself).")


def check(strategy):
    """`strategy` if the engine runs it, its TensorFlow 2 counterpart for a V1 one; a clear
    error otherwise."""
    if isinstance(strategy, tf.distribute.Strategy):
        return strategy
    if isinstance(strategy, tf.compat.v1.distribute.Strategy):
        if strategy not in _CONVERTED:
            _CONVERTED[strategy] = _v2_of(strategy)
            logger.info("estimator_compat: %s runs as TensorFlow 2's %s over the same devices.",
                        type(strategy).__name__, type(_CONVERTED[strategy]).__name__)
        return _CONVERTED[strategy]
    raise ValueError("RunConfig train_distribute/eval_distribute must be a tf.distribute "
                     f"strategy, given: {strategy!r}")
