"""Elastic Averaging SGD (`ElasticAverageOptimizer`, `ElasticAverageCustomGetter`): each worker
trains its own copy of the model and, every `communication_period` local steps, moves it and the
parameter servers' centre copy towards each other by `moving_rate` times their difference.

Names, as TF 1.15 made them: a trainable `<name>` is the worker's local variable (LOCAL_VARIABLES
and TRAINABLE_VARIABLES, on `worker_device`), `global_center_variable/<name>` the centre copy
(GLOBAL_VARIABLES: the only one checkpointed, placed by the enclosing `replica_device_setter`)
and `local_center_variable/<name>` the worker's snapshot of the centre (local); `local_step`
counts the worker's steps and the `global_step` passed to `apply_gradients` counts
communications.
"""
import tensorflow as tf

from estimator_compat.legacy.contrib.opt import ps_common

_v1 = tf.compat.v1
GLOBAL_VARIABLE_NAME = "global_center_variable"
LOCAL_VARIABLE_NAME = "local_center_variable"


class ElasticAverageCustomGetter:
    """Custom getter placing each trainable variable on the worker, with a centre copy on the
    ps and a local snapshot of it (use with `tf.get_variable`, under a `replica_device_setter`)."""

    def __init__(self, worker_device):
        self._worker_device = worker_device
        self._local_map = {}
        self._global_map = {}

    def __call__(self, getter, name, *args, **kwargs):
        trainable = kwargs.pop("trainable", True)
        collections = kwargs.pop("collections", None)
        if trainable:
            with tf.device(self._worker_device):
                local_var = getter(name, *args, trainable=True,
                                   collections=[ps_common.LOCAL], **kwargs)
            if kwargs.get("reuse") is True:
                return local_var
            global_center = getter(f"{GLOBAL_VARIABLE_NAME}/{name}", *args, trainable=False,
                                   collections=[ps_common.GLOBAL], **kwargs)
            with tf.device(self._worker_device):
                local_center = getter(f"{LOCAL_VARIABLE_NAME}/{name}", *args, trainable=False,
                                      collections=[ps_common.LOCAL], **kwargs)
            self._local_map[local_var] = local_center
            self._global_map[local_var] = global_center
            return local_var
        return ps_common.unreplicated(getter, self._worker_device, name, args, kwargs,
                                      trainable, collections)


class ElasticAverageOptimizer(_v1.train.Optimizer):
    """Wraps `opt` (which updates the worker's variables) with EASGD's elastic moves."""

    BETA = 0.9

    def __init__(self, opt, num_worker, ea_custom_getter, communication_period=10,
                 moving_rate=None, rho=None, use_locking=True, synchronous=False,
                 name="ElasticAverageOptimizer"):
        super().__init__(use_locking, name)
        owner = "ElasticAverageOptimizer"
        ps_common.check_getter(owner, ea_custom_getter, ElasticAverageCustomGetter)
        ps_common.check_period(owner, "communication_period", communication_period)
        ps_common.check_period(owner, "num_worker", num_worker)
        self._opt = opt
        self._num_worker = num_worker
        self._period = communication_period
        self._local_map = ea_custom_getter._local_map
        self._global_map = ea_custom_getter._global_map
        self._moving_rate = (self.BETA / communication_period / num_worker
                             if moving_rate is None else moving_rate)
        if rho is None:
            learning_rate = getattr(opt, "_learning_rate", getattr(opt, "_lr", None))
            if learning_rate is None:
                raise ValueError(f"ElasticAverageOptimizer: rho defaults to moving_rate / the "
                                 f"learning rate, which {type(opt).__name__} does not expose: "
                                 "pass rho= (0.0 is the usual choice for asynchronous training)")
            rho = self._moving_rate / learning_rate
        self._rho = rho
        self._synchronous = synchronous
        self._local_step = ps_common.local_step(ea_custom_getter._worker_device)

    def compute_gradients(self, loss, var_list=None,
                          gate_gradients=_v1.train.Optimizer.GATE_OP,
                          aggregation_method=None, colocate_gradients_with_ops=False,
                          grad_loss=None):
        """`opt`'s gradients of `loss + rho * sum(l2_loss(local - local centre))`: the pull
        towards the centre last seen lets a worker explore only so far."""
        if not var_list:
            var_list = _v1.trainable_variables()
        if self._local_map:
            elastic = tf.add_n([tf.nn.l2_loss(v - centre)
                                for v, centre in self._local_map.items()])
            loss = loss + self._rho * elastic
        return self._opt.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """`opt`'s update of the local variables, then `local_step += 1`; every
        `communication_period` local steps: snapshot the centre, move the local variables by
        `-moving_rate * (local - snapshot)` and the centre by the same amount the other way,
        and add one to `global_step`."""
        grads_and_vars = list(grads_and_vars)
        apply_updates = ps_common.apply_locally(
            lambda: self._opt.apply_gradients(grads_and_vars))
        with tf.control_dependencies([apply_updates]):
            local_update = _v1.assign_add(self._local_step, 1, name="local_step_update").op
        local_vars = [v for g, v in grads_and_vars if g is not None]
        missing = [v.op.name for v in local_vars if v not in self._global_map]
        if missing:
            raise ValueError(f"ElasticAverageOptimizer: {missing} were not created through its "
                             "ElasticAverageCustomGetter (use tf.get_variable under "
                             "tf.variable_scope('', custom_getter=ea_custom_getter))")

        def elastic_move():
            snapshots = [self._local_map[v].assign(self._global_map[v]) for v in local_vars]
            with tf.control_dependencies(snapshots):
                differences = [v - self._local_map[v] for v in local_vars]
            moves = [v.assign_sub(self._moving_rate * d, use_locking=self._use_locking)
                     for v, d in zip(local_vars, differences)]
            moves += [self._global_map[v].assign_add(self._moving_rate * d,
                                                     use_locking=self._use_locking)
                      for v, d in zip(local_vars, differences)]
            if global_step is not None:
                moves.append(_v1.assign_add(global_step, 1))
            return tf.group(*moves)

        with tf.control_dependencies([local_update]):
            return ps_common.every(self._local_step, self._period, elastic_move, [local_update])

    def get_init_op(self, task_index):
        """Sets every local variable and local centre to its global centre."""
        assigns = []
        for v, centre in self._local_map.items():
            assigns += [v.assign(self._global_map[v]), centre.assign(self._global_map[v])]
        return tf.group(*assigns)

    def make_session_run_hook(self, is_chief, task_index):
        def init_op():
            op = self.get_init_op(task_index)
            return self._sync_barrier(op, task_index) if self._synchronous else op
        return ps_common.InitHook(init_op, is_chief)

    def _sync_barrier(self, init_op, task_index):
        """Each worker, its init done, puts a token in every other worker's queue
        (`variable_init_sync_queue<i>`) and waits for one from each of them."""
        queues = [_v1.FIFOQueue(self._num_worker, [tf.bool], shapes=[[]],
                                shared_name=f"variable_init_sync_queue{i}")
                  for i in range(self._num_worker)]
        with tf.control_dependencies([init_op]):
            tokens = [q.enqueue(tf.constant(False)) if i != task_index else tf.no_op()
                      for i, q in enumerate(queues)]
        wait = queues[task_index].dequeue_many(self._num_worker - 1)
        return tf.group(*tokens, wait)

    def swapping_saver(self, var_list=None, name="swapping_saver", **kwargs):
        """A Saver writing each trainable variable's global centre under the variable's own
        name, for evaluation and inference jobs that build the model without the getter."""
        if var_list is None:
            var_list = _v1.trainable_variables()
        if not isinstance(var_list, dict):
            var_list = {v.op.name: v for v in var_list}
        by_name = {v.op.name: v for v in self._global_map}
        swapped = {}
        for key, var in var_list.items():
            local = by_name.get(getattr(var, "op", None) and var.op.name)
            swapped[key] = self._global_map[local] if local is not None else var
        return _v1.train.Saver(swapped, name=name, **kwargs)
