"""Synchronous model averaging (`ModelAverageOptimizer`, `ModelAverageCustomGetter`): each worker
trains its own copy; every `interval_steps` local steps all workers hand their variables to a
`ConditionalAccumulator` per variable on the ps, the chief writes the average into the global
copy and releases the others through a token queue, and every worker restarts from it.

Names, as TF 1.15 made them: a trainable `<name>` is the worker's local variable (LOCAL_VARIABLES
and TRAINABLE_VARIABLES, on `worker_device`) and `global_center_variable/<name>` its global copy
(a `tf.Variable` initialized from the local one's initial value, so a second `get_variable` of
the name, even with reuse, makes `global_center_variable/<name>_1` as TF 1.15 did); the
accumulators are shared as `<global variable>:0/var_accum` and the tokens as `sync_queue`.
"""
import tensorflow as tf

from estimator_compat.legacy.contrib.opt import ps_common
from estimator_compat.legacy.contrib.opt.graph_cond import tf1_control_flow

_v1 = tf.compat.v1
GLOBAL_VARIABLE_NAME = "global_center_variable"


def _initialized_value(var):
    """`var`'s value once initialized: its current value if it is, else its initial value (the
    chief's global copy starts from the local variable's initializer, run or not)."""
    return _v1.cond(_v1.is_variable_initialized(var), var.read_value, lambda: var.initial_value)


class ModelAverageCustomGetter:
    """Custom getter placing each trainable variable on the worker, with a global copy placed
    by the enclosing `replica_device_setter` (use with `tf.get_variable`)."""

    def __init__(self, worker_device):
        self._worker_device = worker_device
        self._local_2_global = {}

    def __call__(self, getter, name, *args, **kwargs):
        trainable = kwargs.pop("trainable", True)
        collections = kwargs.pop("collections", None)
        if trainable:
            with tf.device(self._worker_device):
                local_var = getter(name, *args, trainable=True,
                                   collections=[ps_common.LOCAL], **kwargs)
            with tf1_control_flow():  # "initialized yet?" must not read the local variable
                global_var = _v1.Variable(name=f"{GLOBAL_VARIABLE_NAME}/{name}",
                                          initial_value=_initialized_value(local_var),
                                          trainable=False, collections=[ps_common.GLOBAL])
            self._local_2_global[local_var] = global_var
            return local_var
        return ps_common.unreplicated(getter, self._worker_device, name, args, kwargs,
                                      trainable, collections)


class ModelAverageOptimizer(_v1.train.Optimizer):
    """Wraps `opt` (which updates the worker's variables) with a synchronous average of all
    workers' variables every `interval_steps` local steps."""

    def __init__(self, opt, num_worker, is_chief, ma_custom_getter, interval_steps=100,
                 use_locking=True, name="ModelAverageOptimizer"):
        super().__init__(use_locking, name)
        owner = "ModelAverageOptimizer"
        ps_common.check_getter(owner, ma_custom_getter, ModelAverageCustomGetter)
        ps_common.check_period(owner, "interval_steps", interval_steps)
        ps_common.check_period(owner, "num_worker", num_worker)
        self._opt = opt
        self._num_worker = num_worker
        self._is_chief = is_chief
        self._local_2_global = ma_custom_getter._local_2_global
        self._interval_steps = interval_steps
        self._accumulator_list = []
        self._local_step = ps_common.local_step(ma_custom_getter._worker_device)

    def compute_gradients(self, *args, **kwargs):
        return self._opt.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """`opt`'s update of the local variables, then `local_step += 1`; every
        `interval_steps` local steps: every worker applies its variables to the accumulators,
        the chief averages `num_worker` of them into the global copies, adds one to
        `global_step` and enqueues `num_worker - 1` tokens, the others take a token, and all
        copy the global variables into their local ones."""
        if global_step is None:
            raise ValueError("Global step is required")
        grads_and_vars = list(grads_and_vars)
        apply_updates = self._opt.apply_gradients(grads_and_vars)
        with tf.control_dependencies([apply_updates]):
            local_update = _v1.assign_add(self._local_step, 1, name="local_step_update").op
        local_vars = [v for g, v in grads_and_vars if g is not None]
        missing = [v.op.name for v in local_vars if v not in self._local_2_global]
        if missing:
            raise ValueError(f"ModelAverageOptimizer: {missing} were not created through its "
                             "ModelAverageCustomGetter (use tf.get_variable under "
                             "tf.variable_scope('', custom_getter=ma_custom_getter))")
        global_vars = [self._local_2_global[v] for v in local_vars]

        def average():
            with tf.device(global_step.device):
                sync_queue = _v1.FIFOQueue(-1, [tf.bool], shapes=[[]], shared_name="sync_queue")
            applied, averages = [], []
            with tf.name_scope(self._name + "/global"):
                for var, global_var in zip(local_vars, global_vars):
                    with tf.device(global_var.device):
                        accum = _v1.ConditionalAccumulator(
                            var.dtype.base_dtype, shape=var.get_shape(),
                            shared_name=global_var.name + "/var_accum")
                        applied.append(accum.apply_grad(var, local_step=global_step))
                        averages.append(accum.take_grad(self._num_worker))
                        self._accumulator_list.append((accum, global_var.device))
            if self._is_chief:
                with tf.control_dependencies(applied):
                    updates = []
                    for avg, global_var in zip(averages, global_vars):
                        with tf.device(global_var.device):
                            updates.append(global_var.assign(avg))
                    with tf.device(global_step.device):
                        updates.append(_v1.assign_add(global_step, 1))
                with tf.control_dependencies(updates), tf.device(global_step.device):
                    tokens = tf.fill([self._num_worker - 1], tf.constant(False))
                    sync_op = sync_queue.enqueue_many(tokens)
            else:
                with tf.control_dependencies(applied), tf.device(global_step.device):
                    sync_op = sync_queue.dequeue()
            with tf.control_dependencies([sync_op]):
                copies = [var.assign(global_var.read_value())
                          for var, global_var in zip(local_vars, global_vars)]
            return tf.group(*copies)

        with tf.control_dependencies([local_update]):
            return ps_common.every(self._local_step, self._interval_steps, average,
                                   [local_update])

    def get_init_op(self):
        """Sets every local variable to its global copy."""
        return tf.group(*[var.assign(global_var.read_value())
                          for var, global_var in self._local_2_global.items()])

    def make_session_run_hook(self):
        """TF 1.15's hook: builds the init ops at `begin` and runs none of them (the chief's
        global copies start equal to its local variables)."""
        return ps_common.InitHook(self.get_init_op, self._is_chief, runs_init=False)
