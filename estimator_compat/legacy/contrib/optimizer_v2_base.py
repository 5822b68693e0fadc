"""`tf.contrib.optimizer_v2.OptimizerV2`: TF 1.15's optimizer whose hyperparameters may be
callables (evaluated at each `apply_gradients`), with its state (slots, non-slot variables,
the hyperparameters' tensors) kept per graph in a `_OptimizerV2State` that subclasses are
handed: `_create_vars(var_list, state)`, `_prepare(state)`, `_apply_dense(grad, var, state)`,
`_resource_apply_dense(grad, var, state)`, `_apply_sparse(grad, var, state)`,
`_resource_apply_sparse(grad, var, indices, state)`, `_finish(state)`.

Variables are made as TF 1.15 made them: slots by `slot_creator` under the optimizer's name
(`<var>/<name>`, `<var>/<name>_1`, ...), non-slot variables (`beta1_power`, ...) colocated
with the first variable by name; updates in `<name>/update_<var>` scopes; the step op joins
the TRAIN_OP collection.
"""
import tensorflow as tf
from tensorflow.python.distribute import distribute_lib
from tensorflow.python.distribute import reduce_util
from tensorflow.python.eager import context
from tensorflow.python.framework import indexed_slices, ops
from tensorflow.python.ops import control_flow_ops, gradients
from tensorflow.python.training import optimizer as optimizer_v1
from tensorflow.python.training import slot_creator


def _var_key(var):
    container = getattr(var, "_distributed_container", None)
    if container is not None:
        container = container()
        return container._unique_id if context.executing_eagerly() else container._shared_name
    return var._unique_id if context.executing_eagerly() else var.op.name


def _is_resource(var):
    return context.executing_eagerly() or var.op.type == "VarHandleOp"


def _hyper_tensor(value, name):
    return ops.convert_to_tensor(value() if callable(value) else value, name=name)


class _OptimizerV2State:
    """One graph's optimizer state: slots {slot name: {var key: slot}}, non-slot variables,
    and the hyperparameters as tensors (static ones made once, dynamic ones each step)."""

    def __init__(self, op_name):
        self._op_name = op_name

    def _init_with_static_hyper(self, hyper):
        with ops.init_scope():
            self._hyper = {name: {None: ops.convert_to_tensor(value, name=name)}
                           for name, (dynamic, value) in sorted(hyper.items()) if not dynamic}
        self._slots = {}
        self._non_slot_dict = {}
        self._deferred_dependencies = {}
        self._deferred_slot_restorations = {}

    def _copy_with_dynamic_hyper(self, hyper, distribution, non_slot_devices):
        step = _OptimizerV2State(self._op_name)
        for shared in ("_slots", "_non_slot_dict", "_deferred_dependencies",
                       "_deferred_slot_restorations"):
            setattr(step, shared, getattr(self, shared))
        step._hyper = {name: {None: _hyper_tensor(value, name)}
                       for name, (dynamic, value) in sorted(hyper.items()) if dynamic}
        step._hyper.update(self._hyper)
        step._non_slot_devices = non_slot_devices
        step._distribution = distribution
        return step

    def _variables(self):
        found = list(self._non_slot_dict.values())
        for slots in self._slots.values():
            found.extend(slots.values())
        return sorted(found, key=lambda v: v.name)

    def _slot(self, var, slot_name, make):
        named = self._slots.setdefault(slot_name, {})
        key = _var_key(var)
        if key not in named:
            slot = make()
            self._restore_slot_variable(slot_name, var, slot)
            named[key] = slot
        return named[key]

    def create_slot(self, var, val, slot_name, optional_op_name=None):
        return self._slot(var, slot_name, lambda: slot_creator.create_slot(
            var, val, optional_op_name or self._op_name))

    def create_slot_with_initializer(self, var, initializer, shape, dtype, slot_name,
                                     optional_op_name=None):
        return self._slot(var, slot_name, lambda: slot_creator.create_slot_with_initializer(
            var, initializer, shape, dtype, optional_op_name or self._op_name))

    def zeros_slot(self, var, slot_name, optional_op_name=None):
        return self._slot(var, slot_name, lambda: slot_creator.create_zeros_slot(
            var, optional_op_name or self._op_name))

    def _create_or_restore_slot_variable(self, slot_variable_position, slot_name, variable,
                                         optional_op_name=None):
        slot = self.get_slot(var=variable, name=slot_name)
        if slot is not None:
            slot_variable_position.restore(slot)
        else:
            self._deferred_slot_restorations.setdefault(slot_name, {}).setdefault(
                _var_key(variable), []).append(slot_variable_position)

    def get_slot(self, var, name):
        named = self._slots.get(name)
        return named.get(_var_key(var)) if named else None

    def get_slot_names(self):
        return sorted(self._slots)

    def create_non_slot(self, initial_value, name, colocate_with=None):
        v = self._non_slot_dict.get(name)
        if v is None:
            devices = self._non_slot_devices if colocate_with is None else colocate_with
            with self._distribution.extended.colocate_vars_with(devices):
                v = tf.compat.v1.Variable(initial_value, name=name, trainable=False)
            self._non_slot_dict[name] = v
            for position in sorted(self._deferred_dependencies.pop(name, ()),
                                   key=lambda p: p.checkpoint.restore_uid, reverse=True):
                position.restore(v)
        return v

    def _restore_slot_variable(self, slot_name, variable, slot_variable):
        waiting = self._deferred_slot_restorations.get(slot_name, {}).pop(_var_key(variable), [])
        for position in sorted(waiting, key=lambda p: p.restore_uid, reverse=True):
            position.restore(slot_variable)

    def get_non_slot(self, name):
        return self._non_slot_dict.get(name)

    def get_hyper(self, name, dtype=None):
        """The hyperparameter `name` as a tensor (cast to `dtype` once per dtype)."""
        by_dtype = self._hyper[name]
        if dtype not in by_dtype:
            by_dtype[dtype] = tf.cast(by_dtype[None], dtype)
        return by_dtype[dtype]


class OptimizerV2(optimizer_v1.Optimizer):
    """The base of the contrib optimizer_v2 optimizers (see the module's docstring)."""

    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking, name):  # pylint: disable=super-init-not-called
        if type(self)._create_slots.__code__ is not OptimizerV2._create_slots.__code__:
            raise RuntimeError("Override _create_vars instead of _create_slots when descending "
                               "from OptimizerV2 (class %s)" % type(self).__name__)
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking = use_locking
        self._name = name
        replica = distribute_lib.get_replica_context()
        self._per_graph_state = {} if replica is None else replica.merge_call(lambda _: {})
        self._hyper = {}

    def _set_hyper(self, name, value):
        dynamic = callable(value) or (context.executing_eagerly()
                                      and isinstance(value, tf.Variable))
        self._hyper[name] = (dynamic, value)

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP,
                 aggregation_method=None, name=None, grad_loss=None, stop_gradients=None,
                 scale_loss_by_num_replicas=False):
        """compute_gradients, then apply_gradients."""
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method, grad_loss=grad_loss,
            stop_gradients=stop_gradients, scale_loss_by_num_replicas=scale_loss_by_num_replicas)
        if not [v for g, v in grads_and_vars if g is not None]:
            raise ValueError(
                "No gradients provided for any variable, check your graph for ops that do not "
                "support gradients, between variables %s and loss %s."
                % ([str(v) for _, v in grads_and_vars], loss))
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP,
                          aggregation_method=None, grad_loss=None, stop_gradients=None,
                          scale_loss_by_num_replicas=False):
        """[(gradient, variable)] of `loss` (a tensor, or a callable under eager execution)."""
        if callable(loss):
            with tf.GradientTape() as tape:
                if var_list is not None:
                    tape.watch(var_list)
                value = self._scale_loss(loss(), scale_loss_by_num_replicas)
            if var_list is None:
                var_list = tape.watched_variables()
            return list(zip(tape.gradient(value, var_list, grad_loss), var_list))
        if context.executing_eagerly():
            raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a "
                               "function when eager execution is enabled.")
        loss = self._scale_loss(loss, scale_loss_by_num_replicas)
        if gate_gradients not in (self.GATE_NONE, self.GATE_OP, self.GATE_GRAPH):
            raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, "
                             "Optimizer.GATE_OP, Optimizer.GATE_GRAPH.  Not %s"
                             % gate_gradients)
        self._assert_valid_dtypes([loss])
        if grad_loss is not None:
            self._assert_valid_dtypes([grad_loss])
        if var_list is None:
            var_list = (tf.compat.v1.trainable_variables()
                        + ops.get_collection(ops.GraphKeys.TRAINABLE_RESOURCE_VARIABLES))
        else:
            var_list = tf.nest.flatten(var_list)
        var_list += ops.get_collection(ops.GraphKeys._STREAMING_MODEL_PORTS)
        if not var_list:
            raise ValueError("No variables to optimize.")
        targets = [v if _is_resource(v) or not isinstance(v, tf.Variable) else v._ref()
                   for v in var_list]
        grads = gradients.gradients(loss, targets, grad_ys=grad_loss,
                                    gate_gradients=(gate_gradients == self.GATE_OP),
                                    aggregation_method=aggregation_method,
                                    stop_gradients=stop_gradients)
        if gate_gradients == self.GATE_GRAPH:
            grads = control_flow_ops.tuple(grads)
        grads_and_vars = list(zip(grads, var_list))
        self._assert_valid_dtypes([v for g, v in grads_and_vars
                                   if g is not None and v.dtype != tf.resource])
        return grads_and_vars

    @staticmethod
    def _scale_loss(loss_value, scale_loss_by_num_replicas):
        if scale_loss_by_num_replicas:
            replicas = distribute_lib.get_strategy().num_replicas_in_sync
            if replicas > 1:
                loss_value *= 1. / replicas
        return loss_value

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """The op applying the (gradient, variable) pairs (and incrementing `global_step`)."""
        grads_and_vars = tuple(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("No variables provided.")
        filtered = tuple((g, v) for g, v in grads_and_vars if g is not None)
        if not filtered:
            raise ValueError("No gradients provided for any variable: %s."
                             % ([str(v) for _, v in grads_and_vars],))
        return distribute_lib.get_replica_context().merge_call(
            self._distributed_apply, args=(filtered,),
            kwargs={"global_step": global_step, "name": name})

    def _get_or_create_state(self, var_list=None):
        if context.executing_eagerly() or var_list is None:
            graph = ops.get_default_graph()
        else:
            graph = ops._get_graph_from_inputs(var_list)  # pylint: disable=protected-access
        key = graph._graph_key  # pylint: disable=protected-access
        if key not in self._per_graph_state:
            state = _OptimizerV2State(self._name)
            state._init_with_static_hyper(self._hyper)
            self._per_graph_state[key] = state
        return self._per_graph_state[key]

    def _update(self, var, grad, state):
        """The update of one variable by its gradient, by the subclass's hooks."""
        try:
            grad = indexed_slices.convert_to_tensor_or_indexed_slices(grad)
        except TypeError:
            raise TypeError("Gradient must be convertible to a Tensor or IndexedSlices, or "
                            "None: %s" % grad) from None
        if not isinstance(grad, (tf.Tensor, indexed_slices.IndexedSlices)):
            raise TypeError("Gradient must be a Tensor, IndexedSlices, or None: %s" % grad)
        if not isinstance(var, tf.Variable):
            raise NotImplementedError("Trying to update a Tensor ", var)
        sparse = isinstance(grad, indexed_slices.IndexedSlices)
        if sparse and var.constraint is not None:
            raise RuntimeError("Cannot use a constraint function on a sparse variable.")
        if _is_resource(var):
            op = (self._resource_apply_sparse_duplicate_indices(grad.values, var, grad.indices,
                                                                state) if sparse
                  else self._resource_apply_dense(grad, var, state))
        else:
            op = (self._apply_sparse_duplicate_indices(grad, var, state) if sparse
                  else self._apply_dense(grad, var, state))
        if var.constraint is None:
            return op
        with ops.control_dependencies([op]):
            return var.assign(var.constraint(var))

    def _distributed_apply(self, distribution, grads_and_vars, global_step, name):
        reduced = distribution.extended.batch_reduce_to(reduce_util.ReduceOp.SUM,
                                                        grads_and_vars)
        var_list = [v for _, v in grads_and_vars]
        grads_and_vars = zip(reduced, var_list)
        local_vars = [x for v in var_list for x in distribution.experimental_local_results(v)]
        eager = context.executing_eagerly()
        with ops.name_scope(name, self._name) as name:
            graph_state = self._get_or_create_state(var_list=local_vars)
            non_slot_devices = distribution.extended.non_slot_devices(var_list)
            state = graph_state._copy_with_dynamic_hyper(self._hyper, distribution,
                                                         non_slot_devices)
        with ops.init_scope():
            self._create_vars(var_list, state)
        with ops.name_scope(name):
            self._prepare(state)

            def update(v, g):
                scope = "" if eager else v.op.name
                with ops.name_scope("update_" + scope), \
                        context.device_policy(context.DEVICE_PLACEMENT_SILENT):
                    return self._update(v, g, state)
            update_ops = []
            for grad, var in grads_and_vars:
                update_ops.extend(distribution.extended.update(var, update, args=(grad,),
                                                               group=False))

            def finish():
                with context.device_policy(context.DEVICE_PLACEMENT_SILENT):
                    return self._finish(state)
            update_ops = control_flow_ops.group(update_ops)
            with ops.control_dependencies([update_ops]):
                finish_updates = distribution.extended.update_non_slot(non_slot_devices, finish,
                                                                       group=False)
            if finish_updates == (None,):
                finish_updates = (update_ops,)
            if global_step is None:
                apply_updates = distribution.group(finish_updates, name=name)
            else:
                with ops.control_dependencies(finish_updates):
                    apply_updates = distribution.extended.update(
                        global_step, lambda step, op_name: step.assign_add(
                            1, read_value=False, name=op_name), args=(name,))
            if not eager:
                if isinstance(apply_updates, tf.Tensor):
                    apply_updates = apply_updates.op
                train_ops = ops.get_collection_ref(ops.GraphKeys.TRAIN_OP)
                if apply_updates not in train_ops:
                    train_ops.append(apply_updates)
            return apply_updates

    def get_slot(self, var, name):
        state = self._per_graph_state.get(var._graph_key)  # pylint: disable=protected-access
        return state.get_slot(var, name) if state is not None else None

    def get_slot_names(self):
        state = self._get_per_graph_state()
        return state.get_slot_names() if state is not None else []

    def variables(self):
        """The optimizer's variables in the default graph (slots and non-slot), by name."""
        state = self._get_per_graph_state()
        return state._variables() if state is not None else []

    def _create_vars(self, var_list, state):
        """Makes the slots and non-slot variables the updates use (subclasses)."""

    def _prepare(self, state):
        """Runs once per apply, before the updates (subclasses)."""

    def _apply_dense(self, grad, var, state):
        raise NotImplementedError()

    def _resource_apply_dense(self, grad, handle, state):
        raise NotImplementedError()

    def _resource_apply_sparse_duplicate_indices(self, grad, handle, indices, state):
        summed, unique = optimizer_v1._deduplicate_indexed_slices(values=grad, indices=indices)
        return self._resource_apply_sparse(summed, handle, unique, state)

    def _resource_apply_sparse(self, grad, handle, indices, state):
        raise NotImplementedError()

    def _apply_sparse_duplicate_indices(self, grad, var, state):
        summed, unique = optimizer_v1._deduplicate_indexed_slices(values=grad.values,
                                                                  indices=grad.indices)
        return self._apply_sparse(indexed_slices.IndexedSlices(
            indices=unique, values=summed, dense_shape=grad.dense_shape), var, state)

    def _apply_sparse(self, grad, var, state):
        raise NotImplementedError()

    def _finish(self, state):
        """The op run after every update (subclasses), or None."""
        return None

    def _get_per_graph_state(self):
        return self._per_graph_state.get(ops.get_default_graph()._graph_key)

    def _track_trackable(self, *args, **kwargs):
        raise NotImplementedError("Optimizers may not have dependencies. File a feature "
                                  "request if this limitation bothers you.")

    def _trackable_children(self, save_type="checkpoint", **kwargs):
        state = self._get_per_graph_state()
        return dict(sorted(state._non_slot_dict.items())) if state is not None else {}

    def _lookup_dependency(self, name, cached_dependencies=None):
        state = self._get_per_graph_state()
        return None if state is None else state.get_non_slot(name)

    @property
    def _deferred_dependencies(self):
        return self._get_or_create_state()._deferred_dependencies

    def _create_or_restore_slot_variable(self, slot_variable_position, slot_name, variable):
        self._get_or_create_state(var_list=[variable])._create_or_restore_slot_variable(
            slot_variable_position=slot_variable_position, slot_name=slot_name,
            variable=variable, optional_op_name=self._name)

    def _unsupported(self, method):
        raise NotImplementedError("%s() method unsupported in OptimizerV2" % method)

    def _slot_dict(self, slot_name):
        self._unsupported("_slot_dict")

    def _get_or_make_slot(self, var, val, slot_name, op_name):
        self._unsupported("_get_or_make_slot")

    def _get_or_make_slot_with_initializer(self, var, initializer, shape, dtype, slot_name,
                                           op_name):
        self._unsupported("_get_or_make_slot_with_initializer")

    def _create_non_slot_variable(self, initial_value, name, colocate_with):
        self._unsupported("_create_non_slot_variable")

    def _get_non_slot_variable(self, name, graph=None):
        self._unsupported("_get_non_slot_variable")

    def _non_slot_variables(self):
        self._unsupported("_non_slot_variables")
