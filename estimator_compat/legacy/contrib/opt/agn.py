"""Accumulated Gradient Normalization (`AGNOptimizer`, `AGNCustomGetter`; Hermans, ACML 2017):
each worker trains its own copy and sums its gradients; every `communication_period` local steps
it applies the mean of those gradients to the parameter servers' centre copy with the same
optimizer, then restarts from the centre with the sum cleared.

Names, as TF 1.15 made them: a trainable `<name>` is the worker's local variable (LOCAL_VARIABLES
and TRAINABLE_VARIABLES, on `worker_device`), `global_center_variable/<name>` the centre copy
(GLOBAL_VARIABLES, placed by the enclosing `replica_device_setter`) and `grad_variable/<name>`
the worker's gradient sum (local); non-trainable variables are left to the plain getter.
"""
import tensorflow as tf

from estimator_compat.legacy.contrib.opt import ps_common

_v1 = tf.compat.v1
GLOBAL_VARIABLE_NAME = "global_center_variable"
GRAD_VARIABLE_NAME = "grad_variable"


class AGNCustomGetter:
    """Custom getter placing each trainable variable and its gradient sum on the worker, with a
    centre copy on the ps (use with `tf.get_variable`, under a `replica_device_setter`)."""

    def __init__(self, worker_device):
        self._worker_device = worker_device
        self._global_map = {}
        self._grad_map = {}

    def __call__(self, getter, name, *args, **kwargs):
        trainable = kwargs.pop("trainable", True)
        collections = kwargs.pop("collections", None)
        if not trainable:
            return getter(name, *args, trainable=trainable, collections=collections, **kwargs)
        with tf.device(self._worker_device):
            local_var = getter(name, *args, trainable=True, collections=[ps_common.LOCAL],
                               **kwargs)
        if kwargs.get("reuse") is True:
            return local_var
        global_center = getter(f"{GLOBAL_VARIABLE_NAME}/{name}", *args, trainable=False,
                               collections=[ps_common.GLOBAL], **kwargs)
        with tf.device(self._worker_device):
            grad_var = getter(f"{GRAD_VARIABLE_NAME}/{name}", *args, trainable=False,
                              collections=[ps_common.LOCAL], **kwargs)
        self._global_map[local_var] = global_center
        self._grad_map[local_var] = grad_var
        return local_var


class AGNOptimizer(_v1.train.Optimizer):
    """Wraps `optimizer`, which updates the worker's variables every step and the centre every
    `communication_period` steps."""

    def __init__(self, optimizer, num_worker, custom_getter, communication_period=10,
                 use_locking=True, name="AGNOptimizer"):
        super().__init__(use_locking, name)
        owner = "AGNOptimizer"
        ps_common.check_getter(owner, custom_getter, AGNCustomGetter)
        ps_common.check_period(owner, "communication_period", communication_period)
        ps_common.check_period(owner, "num_worker", num_worker)
        self._opt = optimizer
        self._num_worker = num_worker
        self._period = communication_period
        self._global_map = custom_getter._global_map
        self._grad_map = custom_getter._grad_map
        self._local_step = ps_common.local_step(custom_getter._worker_device)

    def compute_gradients(self, *args, **kwargs):
        return self._opt.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """`optimizer`'s update of the local variables and `grad_variable += gradient`, then
        `local_step += 1`; every `communication_period` local steps: divide the sums by the
        period, apply them with `optimizer` to the centre, add one to `global_step`, copy the
        centre into the local variables and clear the sums."""
        grads_and_vars = list(grads_and_vars)
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        missing = [v.op.name for _, v in pairs if v not in self._global_map]
        if missing:
            raise ValueError(f"AGNOptimizer: {missing} were not created through its "
                             "AGNCustomGetter (use tf.get_variable under "
                             "tf.variable_scope('', custom_getter=custom_getter))")
        apply_updates = ps_common.apply_locally(
            lambda: self._opt.apply_gradients(grads_and_vars))
        sums = [self._grad_map[v].assign_add(g) for g, v in pairs]
        local_update = _v1.assign_add(self._local_step, 1, name="local_step_update").op

        def communicate():
            means = [self._grad_map[v].assign(self._grad_map[v] / float(self._period))
                     for _, v in pairs]
            with tf.control_dependencies(means):
                global_update = self._opt.apply_gradients(
                    [(mean, self._global_map[v]) for mean, (_, v) in zip(means, pairs)])
            with tf.control_dependencies([global_update]):
                ops = []
                if global_step is not None:
                    ops.append(_v1.assign_add(global_step, 1))
                for _, v in pairs:
                    ops.append(v.assign(self._global_map[v].read_value()))
                ops += [self._grad_map[v].assign(tf.zeros_like(v)) for _, v in pairs]
            return tf.group(global_update, *ops)

        with tf.control_dependencies([apply_updates] + sums):
            return ps_common.every(self._local_step, self._period, communicate, [local_update])

    def get_init_op(self, task_index):
        """Sets every local variable to its centre and clears its gradient sum."""
        assigns = []
        for v, centre in self._global_map.items():
            assigns += [v.assign(centre), self._grad_map[v].assign(tf.zeros_like(v))]
        return tf.group(*assigns)

    def make_session_run_hook(self, is_chief, task_index):
        return ps_common.InitHook(lambda: self.get_init_op(task_index), is_chief)
