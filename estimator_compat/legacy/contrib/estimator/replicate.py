"""tf.contrib.estimator's `replicate_model_fn` and `TowerOptimizer`, as TF 1.15 ran them on one
device (no GPU: the CPU; one GPU: that GPU).

On one device TF 1.15 built no towers: the model_fn ran once, placed on that device, under no
extra name scope, so variables, checkpoints and the loss are those of the plain model_fn; and a
`TowerOptimizer` forwarded every call to the optimizer it wraps. Towers over several devices
(sharded batches, gradients summed in the last tower) are not served: several devices given, or
found, is an error that names `tf.distribute.MirroredStrategy`, which replaced them.
"""
import copy
import weakref

import tensorflow as tf

from estimator_compat.fn_args import fn_args

_SUM_BY_NONZERO_WEIGHTS = tf.compat.v1.losses.Reduction.SUM_BY_NONZERO_WEIGHTS
_USED = weakref.WeakKeyDictionary()  # graph -> True once a TowerOptimizer computed gradients


def _local_devices():
    gpus = tf.config.list_logical_devices("GPU")
    return [d.name for d in gpus] or ["/device:CPU:0"]


def replicate_model_fn(model_fn, loss_reduction=_SUM_BY_NONZERO_WEIGHTS, devices=None):
    """`model_fn` replicated over `devices` (default: the local GPUs, else the CPU); served for
    one device, where TF 1.15 placed the model_fn there and ran it unchanged."""
    if loss_reduction == tf.compat.v1.losses.Reduction.NONE:
        raise ValueError("Tower losses need to be reduced in some way, yet none reduction is "
                         "specified.")
    if devices is not None and (isinstance(devices, str) or not list(devices)):
        raise ValueError(f"replicate_model_fn: devices must be a non-empty list of device "
                         f"strings, got {devices!r}")
    args = set(fn_args(model_fn))

    def replicated_model_fn(features, labels, mode, params=None, config=None):
        found = list(devices) if devices is not None else _local_devices()
        if len(found) != 1:
            raise ValueError(
                f"replicate_model_fn: towers over {len(found)} devices ({found}) are not served "
                "by estimator_compat (only one device, as TF 1.15 ran it without a GPU or with "
                "one); pass devices=[one device], or return the plain model_fn and set "
                "RunConfig(train_distribute=tf.distribute.MirroredStrategy()) to replicate it")
        kwargs = {}
        if "params" in args:
            kwargs["params"] = copy.deepcopy(params)
        if "config" in args:
            kwargs["config"] = config
        with tf.device(found[0]):
            spec = model_fn(features=features, labels=labels, mode=mode, **kwargs)
        _USED.pop(tf.compat.v1.get_default_graph(), None)  # TF 1.15 cleared it per model_fn
        return spec
    return replicated_model_fn


class TowerOptimizer(tf.compat.v1.train.Optimizer):
    """Wraps an optimizer (or a no-argument function returning one, called on first use) for
    replicate_model_fn's towers; with one tower every call goes to the wrapped optimizer."""

    COLLECTION_FOR_GRAPH_STATES = "replicate_model_fn_graph_states"

    def __init__(self, optimizer_or_optimizer_fn):
        self._optimizer_or_optimizer_fn = optimizer_or_optimizer_fn
        self._optimizer = None

    def _get_optimizer(self):
        if self._optimizer is None:
            made = self._optimizer_or_optimizer_fn
            if not isinstance(made, tf.compat.v1.train.Optimizer):
                if not callable(made):
                    raise TypeError("TowerOptimizer: give a tf.compat.v1.train.Optimizer or a "
                                    f"function returning one, got {made!r}")
                made = made()
                if not isinstance(made, tf.compat.v1.train.Optimizer):
                    raise TypeError("TowerOptimizer: the optimizer function must return a "
                                    f"tf.compat.v1.train.Optimizer, got {made!r}")
            self._optimizer = made
        return self._optimizer

    @staticmethod
    def has_been_used():
        """Whether a TowerOptimizer computed or applied gradients in the default graph."""
        return _USED.get(tf.compat.v1.get_default_graph(), False)

    def get_slot(self, *args, **kwargs):
        return self._get_optimizer().get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._get_optimizer().get_slot_names(*args, **kwargs)

    def get_name(self, *args, **kwargs):
        return self._get_optimizer().get_name(*args, **kwargs)

    def variables(self, *args, **kwargs):
        return self._get_optimizer().variables(*args, **kwargs)

    def compute_gradients(self, loss, *args, **kwargs):
        _USED[tf.compat.v1.get_default_graph()] = True
        return self._get_optimizer().compute_gradients(loss, *args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, **kwargs):
        _USED[tf.compat.v1.get_default_graph()] = True
        return self._get_optimizer().apply_gradients(grads_and_vars, global_step, **kwargs)


NAMES = {"replicate_model_fn": replicate_model_fn, "TowerOptimizer": TowerOptimizer}
