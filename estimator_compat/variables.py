"""The name-keyed variable store: TF1 graph-building code inside tf.function, sharing by name.

Every trace of a model_fn (each mode, each retrace) runs inside `VariableStore.trace_scope()`.
A variable is created once, eagerly (under `tf.init_scope`, so it outlives the trace), and every
later request for the same TF1 name returns it, as a fresh tf.Graph with a restored checkpoint
gave in tf.estimator. The trace graph's collections are rebuilt per trace, so compat.v1 optimizers,
metrics and `get_global_step` find what TF1 code expects.
"""
import collections
import contextlib
import re
import threading

import tensorflow as tf
from tensorflow.python.training import checkpoint_utils, training_util
from keras.src.backend.common import global_state
from keras.src.backend.common.name_scope import current_path as keras_path

from estimator_compat import partitioned
from estimator_compat.engine import imported_variables, tf1_equality, trace_savers
from estimator_compat.tf_modules import set_attr

_GraphKeys = tf.compat.v1.GraphKeys


class VariableStore:
    """Variables by TF1 name, shared by all traces of one Estimator's model_fn."""

    def __init__(self):
        self._vars = {}
        self._collections = {}
        self._local = set()
        self._unsaved = set()  # neither saved nor reset (see mark_unsaved)
        self._tables = {}  # checkpoint name: a mutable lookup table (SDCA's example states)
        self._state = threading.local()
        self.init_from_checkpoint_calls = []  # (ckpt, assignment_map) asked for in model_fn
        self.object_checkpoints = {}  # mode: Scaffold(saver=tf.train.Checkpoint) of its trace

    # -- lookup -------------------------------------------------------------------------------
    def get(self, name):
        return self._vars.get(name)

    def _is_local(self, name):
        cols = self._collections[name]
        return (name in self._local or _GraphKeys.LOCAL_VARIABLES in cols
                or _GraphKeys.METRIC_VARIABLES in cols)

    def saveable(self):
        """{name: variable} of what a checkpoint holds: global, non-metric variables."""
        return {n: v for n, v in self._vars.items()
                if not self._is_local(n) and n not in self._unsaved}

    def table(self, name, make):
        """The mutable lookup table saved under `name`, made by `make()` on first request
        (outside the trace, so it outlives it, as variables do)."""
        if name not in self._tables:
            with outside_trace():
                self._tables[name] = make()
        return self._tables[name]

    def tables(self):
        """{checkpoint name: table}; a table is saved as `<name>-keys` and `<name>-values`."""
        return dict(self._tables)

    def local(self):
        """Metric and local variables: reset at the start of each evaluation, never saved."""
        return [v for n, v in self._vars.items() if self._is_local(n)]

    def _names_of(self, variables):
        by_id = {id(v): n for n, v in self._vars.items()}
        for v in variables:
            v = getattr(v, "value", v) if not isinstance(v, tf.Variable) else v
            if id(v) in by_id:
                yield by_id[id(v)]

    def note_object_checkpoint(self, mode, scaffold):
        """Keeps `Scaffold(saver=tf.train.Checkpoint(...))` of a mode's trace: model_dir's
        checkpoints are then object-based, as tf.estimator wrote them for such a scaffold."""
        saver = getattr(scaffold, "saver", None)
        if isinstance(saver, tf.train.Checkpoint):
            self.object_checkpoints[mode] = saver

    def mark_local(self, variables):
        self._local.update(self._names_of(variables))

    def create_global_step(self):
        """The int64 `global_step` every Estimator has, created before any trace."""
        if "global_step" not in self._vars:
            with tf.init_scope():
                v = tf.compat.v1.Variable(
                    0, name="global_step", dtype=tf.int64, trainable=False,
                    aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
            self._vars["global_step"] = v
            self._collections["global_step"] = {_GraphKeys.GLOBAL_VARIABLES, _GraphKeys.GLOBAL_STEP}
        return self._vars["global_step"]

    # -- tracing ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def trace_scope(self, step_read=None):
        """Enter in a trace graph before calling model_fn; fresh collections, shared variables.

        `step_read` (global_step read at the start of the step) is what TF1 code gets as the
        cached global-step read (`training_util._get_or_create_global_step_read`).
        """
        graph = tf.compat.v1.get_default_graph()
        graph._collections = {}  # FuncGraph shares the outer graph's (incl. the TF1 var store)
        graph._estimator_compat_store = self  # for current_store()
        step = self.create_global_step()
        graph.add_to_collections([_GraphKeys.GLOBAL_VARIABLES, _GraphKeys.GLOBAL_STEP], step)
        if step_read is not None:
            graph.add_to_collection(training_util.GLOBAL_STEP_READ_KEY, step_read)
        self._state.used = {"global_step"}
        imported_variables.patch()  # import_meta_graph and Savers in the trace (hub.Module)
        trace_savers.patch()
        try:
            with fresh_keras_names(), tf.variable_creator_scope(self._creator), \
                    self._recording_init_from_checkpoint(), \
                    tf1_equality.identity_equality():  # `v in var_list`, as TF1 graphs had it
                yield graph
        finally:
            self._state.used = None

    def merge_call_scope(self):
        """Enter (inside the strategy's scope) around running the replicas: a compat.v1
        optimizer under MirroredStrategy creates its slots in a merge call, which runs on the
        calling thread, outside the replica threads' trace_scope."""
        return tf.variable_creator_scope(self._creator)

    @contextlib.contextmanager
    def _recording_init_from_checkpoint(self):
        """`init_from_checkpoint` in a trace would set initializers of variables that live
        outside it: record the request instead; the engine applies it before the first step."""
        def record(ckpt_dir_or_file, assignment_map):
            call = (ckpt_dir_or_file, dict(assignment_map))
            if not any(_same_request(call, c) for c in self.init_from_checkpoint_calls):
                self.init_from_checkpoint_calls.append(call)
        saved = checkpoint_utils.init_from_checkpoint
        checkpoint_utils.init_from_checkpoint = record
        set_attr("tensorflow.compat.v1.train", "init_from_checkpoint", record)
        try:
            yield
        finally:
            checkpoint_utils.init_from_checkpoint = saved
            set_attr("tensorflow.compat.v1.train", "init_from_checkpoint", saved)

    def _creator(self, next_creator, **kwargs):
        graph = tf.compat.v1.get_default_graph()
        name = self._unique_in_trace(_full_name(graph, kwargs.get("name")))
        cols = kwargs.pop("collections", None)
        trainable = kwargs.get("trainable")
        if trainable is None:
            trainable = kwargs.get("synchronization") != tf.VariableSynchronization.ON_READ
        if cols is None:
            cols = [_GraphKeys.GLOBAL_VARIABLES]
        cols = list(cols)
        if trainable and _GraphKeys.TRAINABLE_VARIABLES not in cols:
            cols.append(_GraphKeys.TRAINABLE_VARIABLES)
        var = self._vars.get(name)
        if var is None:
            kwargs["name"] = name.rsplit("/", 1)[-1]
            scope = name.rsplit("/", 1)[0] + "/" if "/" in name else ""
            var = self._create_outside_trace(kwargs, scope)
            actual = var.name.split(":")[0]
            if partitioned.is_sharded(var):  # split by a ParameterServerStrategy's
                partitioned.set_shard_slices(name, var)  # variable_partitioner
            elif actual != name:  # a name scope we did not foresee: keep what TF made
                name = actual
            self._vars[name] = var
            self._collections[name] = set(cols)
            if name.rsplit("/", 1)[-1] == "seed_generator_state":  # a Keras layer's RNG
                self._unsaved.add(name)  # state (dropout): never in tf.estimator's checkpoints
        else:
            self._collections[name].update(cols)
        for part in partitioned.shards(var):  # a ShardedVariable's (ParameterServerStrategy's
            for col in cols:  # variable_partitioner): compat.v1. Once: a TF1 graph's variable
                listed = graph.get_collection_ref(col)  # (export) is listed as it is made
                if not any(x is part for x in listed):
                    listed.append(part)
        self._name_in_trace(graph, name, var)
        return var  # optimizers update its shards

    def _name_in_trace(self, graph, name, var):
        """The variable's value under its TF1 name in the trace (`dense/kernel:0`), as a TF1
        graph had it: programs look variables up with `get_tensor_by_name` to log them. A
        read with no consumer is left out of the compiled step (tf.function runs a variable
        read only where its value is used)."""
        if getattr(self._state, "used", None) is None or partitioned.is_sharded(var):
            return
        scope, _, base = name.rpartition("/")
        try:
            graph.get_operation_by_name(name)
            return  # the name is taken in this trace (a second request for the variable)
        except KeyError:
            pass
        with graph.name_scope(scope + "/" if scope else ""):
            tf.raw_ops.ReadVariableOp(resource=var.handle, dtype=var.dtype, name=base)

    def _create_outside_trace(self, kwargs, scope):
        """Creates the variable eagerly through the creators outside tf.function (a strategy's
        included) but not tf.function's own, which would make it retrace the whole step.

        An initial value computed in the trace from constants (as Keras makes an optimizer's
        `iterations` with `tf.cast(0, "int64")`) is taken as its constant value; one computed
        by other ops that need no input (TF1's `tf.Variable(tf.random_normal([3, 2]))`) is
        computed once, from those ops."""
        if callable(kwargs.get("caching_device")):  # TF1 RNNs set `lambda op: op.device`:
            kwargs.pop("caching_device")  # a graph-mode read cache, which eager cannot place
        initial = kwargs.get("initial_value")
        if isinstance(initial, tf.Tensor) and hasattr(initial, "graph") \
                and not tf.executing_eagerly():
            while initial.op.type in ("PlaceholderWithDefault", "Identity"):  # k-means'
                initial = initial.op.inputs[0]  # `clusters` starts as placeholder_with_default
            take_initial_value(kwargs, initial)
        if kwargs.get("validate_shape") is False and kwargs.get("shape") is None:
            kwargs["shape"] = tf.TensorShape(None)  # eager would fix the initial value's shape
        with outside_trace(), tf.name_scope(scope):
            return tf.compat.v1.Variable(**kwargs)

    def _unique_in_trace(self, name):
        used = getattr(self._state, "used", None)
        if used is None:
            return name
        unique, i = name, 0
        while unique in used:
            i += 1
            unique = f"{name}_{i}"
        used.add(unique)
        return unique


def _same_request(a, b):
    """Two init_from_checkpoint requests alike: variables compared by identity (`==` on two
    variables is an op; hub maps each module instance's variables)."""
    return a[0] == b[0] and a[1].keys() == b[1].keys() and all(
        x is y or (isinstance(x, str) and x == y) for x, y in ((a[1][k], b[1][k]) for k in a[1]))


def take_initial_value(kwargs, initial):
    """Sets a variable's `initial_value` (in `kwargs`) to the value of `initial`, a tensor of
    a graph being traced: its constant value, or computed once from its ops where they need
    no input (else left as it was)."""
    value = tf.get_static_value(initial)
    if value is None:
        value = _computed_once(initial)
    if value is not None:
        kwargs["initial_value"] = value
        kwargs["dtype"] = kwargs.get("dtype") or initial.dtype


def _computed_once(initial):
    """The value of a trace tensor that needs no step input, computed now from its ops; None
    where it needs the input (or cannot be cut out of the trace)."""
    from estimator_compat.hooks import graph_reader
    try:
        reader = graph_reader.make_reader(initial.graph, [initial])
        with outside_trace():
            return reader()[0]
    except Exception:  # noqa: BLE001 - left to the variable's own initialization
        return None


@contextlib.contextmanager
def fresh_keras_names():
    """Keras 3 layers named from "dense" again ("dense", "dense_1", ...), as each new tf.Graph
    named them in TF1: every trace of a model_fn gives its layers the same names."""
    old_uids = global_state.get_global_attribute("object_name_uids")
    global_state.set_global_attribute("object_name_uids", collections.defaultdict(int))
    try:
        yield
    finally:
        global_state.set_global_attribute("object_name_uids", old_uids)


@contextlib.contextmanager
def outside_trace():
    """Eager, with the variable creators outside tf.function (a strategy's included) but not
    the store's or tf.function's own, which would make a step retrace (or rename)."""
    with tf.init_scope():
        graph = tf.compat.v1.get_default_graph()
        saved = graph._variable_creator_stack
        graph._variable_creator_stack = [
            (p, c) for p, c in saved
            if getattr(c, "__func__", None) is not VariableStore._creator
            and getattr(c, "__name__", "") != "variable_capturing_scope"]
        try:
            yield
        finally:
            graph._variable_creator_stack = saved


def current_store():
    """The VariableStore whose model_fn trace is the default graph, or None outside one."""
    return getattr(tf.compat.v1.get_default_graph(), "_estimator_compat_store", None)


def adopt(named_variables, trainable_names=()):
    """Saves and restores variables made outside any trace (a Keras model that
    `model_to_estimator` built eagerly) under the given names, like the store's own; they are
    put in the trace graph's GLOBAL (and TRAINABLE) collections."""
    graph = tf.compat.v1.get_default_graph()
    store = current_store()
    if store is None:
        raise RuntimeError("adopt() is called in a trace of a model_fn, inside an Estimator.")
    for name, var in named_variables.items():
        cols = [_GraphKeys.GLOBAL_VARIABLES]
        if name in trainable_names:
            cols.append(_GraphKeys.TRAINABLE_VARIABLES)
        if store._vars.setdefault(name, var) is not var:
            raise ValueError(f"Two variables are named {name!r} in one model_fn.")
        store._collections.setdefault(name, set()).update(cols)
        graph.add_to_collections(cols, var)


def mark_unsaved(variables):
    """Variables made in the current trace that checkpoints must not hold (e.g. a Keras
    optimizer's, made in model_fn and converted to a compat.v1 one)."""
    store = current_store()
    if store is not None:
        store._unsaved.update(store._names_of(variables))


_REPLICA_SCOPE = re.compile(r"^replica_\d+(/|$)")


def _full_name(graph, name):
    name = name or "Variable"
    if name.endswith("/"):  # an absolute scope name, as TF1 slot variables pass it
        return name[:-1]
    # A Keras 3 layer's variable: its Keras path ("dense_1/kernel"), which a graph name scope
    # would uniquify differently ("dense_1_1") once Keras reopens the layer's scope.
    scope = keras_path() if "/" not in name else ""
    # MirroredStrategy traces replica i > 0 under "replica_i/": the same variable for all.
    scope = scope or _REPLICA_SCOPE.sub("", graph.get_name_scope())
    return f"{scope}/{name}" if scope else name
