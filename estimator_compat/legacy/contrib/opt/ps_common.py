"""What the parameter-server averaging optimizers (`elastic_average.py`, `model_average.py`,
`agn.py`) share: the worker's `local_step` counter, the "every `period` local steps" condition
built with TF1's control flow (their branches update reference variables), and the session hook
that builds the initialization ops and, for EASGD and AGN, copies the global centre variables into
the worker's local ones once the session exists (so a worker starts from the ps's model, restored
or freshly initialized)."""
import tensorflow as tf

from estimator_compat.legacy.contrib.opt.graph_cond import tf1_control_flow

_v1 = tf.compat.v1
LOCAL = _v1.GraphKeys.LOCAL_VARIABLES
GLOBAL = _v1.GraphKeys.GLOBAL_VARIABLES


def local_step(worker_device):
    """The worker's own step count, `local_step` (a local int32 variable, as TF 1.15 made it)."""
    with tf.device(worker_device):
        return _v1.get_variable("local_step", initializer=0, trainable=False,
                                collections=[LOCAL])


def apply_locally(apply):
    """`apply()`, whose new global variables (the wrapped optimizer's slots and accumulators for
    the worker's local variables) are moved to LOCAL_VARIABLES, in order, as TF 1.15's EASGD and
    AGN did: they belong to this worker, the ps neither holds nor checkpoints them."""
    graph = _v1.get_default_graph()
    before = set(id(v) for v in graph.get_collection(GLOBAL))
    result = apply()
    global_ref = graph.get_collection_ref(GLOBAL)
    new = [v for v in global_ref if id(v) not in before]
    global_ref[:] = [v for v in global_ref if id(v) in before]
    for v in new:
        graph.add_to_collection(LOCAL, v)
    return result


def check_period(owner, name, value):
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{owner}: {name} must be a positive int (a number of local steps), "
                         f"got {value!r}")


def every(step_var, period, true_fn, after):
    """`cond(step_var % period == 0, true_fn, no_op)`, reading `step_var` after `after`."""
    with tf1_control_flow():
        with tf.control_dependencies(after):
            due = tf.equal(tf.math.floormod(step_var, period), 0)
        return _v1.cond(due, true_fn, tf.no_op)


def check_getter(owner, getter, kind):
    if not isinstance(getter, kind):
        raise TypeError(f"{owner} needs the {kind.__name__} its variables were created with "
                        f"(`tf.variable_scope('', custom_getter=getter)`), got {getter!r}")


class InitHook(_v1.train.SessionRunHook):
    """Builds the local, global (chief only) and local-from-global init ops at `begin`; runs the
    last once the session is created when `runs_init` (EASGD, AGN; TF 1.15's model-average hook
    built its ops and ran none of them)."""

    def __init__(self, make_init_op, is_chief, runs_init=True):
        self._make_init_op = make_init_op
        self._is_chief = is_chief
        self._runs_init = runs_init
        self._local_init_op = self._global_init_op = self._variable_init_op = None

    def begin(self):
        self._local_init_op = _v1.local_variables_initializer()
        if self._is_chief:
            self._global_init_op = _v1.global_variables_initializer()
        self._variable_init_op = self._make_init_op()

    def after_create_session(self, session, coord):
        if self._runs_init:
            session.run(self._variable_init_op)


def unreplicated(getter, worker_device, name, args, kwargs, trainable, collections):
    """A variable a custom getter does not replicate, made as asked (on the worker where it
    is a local one)."""
    if collections and LOCAL in collections:
        with tf.device(worker_device):
            return getter(name, *args, trainable=trainable, collections=collections, **kwargs)
    return getter(name, *args, trainable=trainable, collections=collections, **kwargs)
