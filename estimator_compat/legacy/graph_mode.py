"""TF 1.x's graph mode for the program's own thread, leaving TensorFlow 2's runtime on.

TensorFlow 1.15 ran a program's top-level code in graph mode with reference variables: ops
went to the default graph, `tf.Session().run` evaluated them, `tf.gradients` and
`tf.placeholder` worked, and `tf.test.TestCase` sessions ran the graph each test built.
TensorFlow 2 has the same machinery, switched off by eager execution and resource variables.
`tf.compat.v1.disable_v2_behavior()` turns it back on for the whole process, which would also
take the engine's eager runtime (tf.function steps, tf.distribute, datasets) away. Here the
switch is per thread: the program's thread (and the threads it starts: a Supervisor's, queue
runners') builds graphs (with reference variables, where TF 1.15 made them), and every
estimator_compat entry point runs eagerly, with resource variables, for its duration
(`estimator_compat.eager_calls`).

`estimator-compat run` starts a TF 1.x program this way (`tf1_thread()`); in code under
`install()`, `tf.compat.v1.disable_v2_behavior()` does it for the calling thread (the one-line
port), `disable_eager_execution()` gives graph mode alone, and the `enable_*` / `*_resource_
variables` calls switch back. The process-wide parts of `disable_v2_behavior()` that would break
Keras 3 (V1 tensor shapes, V1 control flow) are left out; shapes keep `Dimension.value` through
`dimension_value.py` instead. Keras 3 objects the program builds at its top level keep eager
variables (Keras 3 has no graph mode), as a TF 1.x program's Keras model given to
model_to_estimator needs.
"""
import logging
import threading

from tensorflow.python.eager import context
from tensorflow.python.framework import ops
from tensorflow.python.ops import resource_variables_toggle

from estimator_compat.eager_calls import eager, in_engine_call, in_program_code
from estimator_compat.legacy import eager_options

logger = logging.getLogger("tensorflow")
_THREAD = threading.local()  # .ref_variables: this thread's program asked for them


def _set(graph=None, ref_variables=None):
    if graph is not None:
        context.context()._thread_local_data.is_eager = not graph
    if ref_variables is not None:
        _THREAD.ref_variables = ref_variables


def tf1_thread():
    """The calling thread runs as TF 1.15 ran a program: graph mode, reference variables."""
    _set(graph=True, ref_variables=True)


def tf2_thread():
    """The calling thread runs as TensorFlow 2 does (eager, resource variables)."""
    _set(graph=False, ref_variables=False)


def tf1_behavior():
    """Whether the calling thread runs a TF 1.x program (`estimator-compat run`, or
    `disable_v2_behavior()`)."""
    return bool(getattr(_THREAD, "ref_variables", False))


def resource_variables_enabled():
    """`tf.compat.v1.resource_variables_enabled()`, per thread: False in the program's own
    graph building once it asked for TF1's variables; True in functions, eager code and the
    engine's graphs, which need resource variables."""
    if not tf1_behavior() or in_engine_call():
        return True
    return context.executing_eagerly() or ops.get_default_graph().building_function


def _switch(name, options=None, **mode):
    def call(*args, **kwargs):
        if options is not None:  # what the call's arguments ask besides the switch
            options(*args, **kwargs)
        _set(**mode)
        logger.info("estimator_compat: tf.%s() applies to this thread only; the Estimator "
                    "engine keeps TensorFlow 2's eager runtime.", name)
    call.__name__ = name
    call.__doc__ = f"`tf.compat.v1.{name}()` for the calling thread ({__name__})."
    return call


SWITCHES = {
    "disable_v2_behavior": _switch("disable_v2_behavior", graph=True, ref_variables=True),
    "enable_v2_behavior": _switch("enable_v2_behavior", graph=False, ref_variables=False),
    "disable_eager_execution": _switch("disable_eager_execution", graph=True),
    "enable_eager_execution": _switch("enable_eager_execution", eager_options.apply,
                                      graph=False),
    "disable_resource_variables": _switch("disable_resource_variables", ref_variables=True),
    "enable_resource_variables": _switch("enable_resource_variables", ref_variables=False),
    "resource_variables_enabled": resource_variables_enabled,
}


def _keras_variables_eager():
    """Keras 3 objects made by a TF 1.x program's own top-level graph-mode code (a Keras model
    built there, then given to model_to_estimator) get eager variables: the engine runs its
    steps on them. Inside a model_fn (a trace, or the TF1 graph of a .meta) Keras is left as
    it is."""
    from keras.src.backend.tensorflow import core

    def eager_outside_functions(method):
        if getattr(method, "__estimator_compat__", False):
            return method

        def call(*args, **kwargs):
            if not (tf1_behavior() and in_program_code()):
                return method(*args, **kwargs)
            with eager():
                return method(*args, **kwargs)
        call.__estimator_compat__ = True
        return call
    for name in ("__init__", "_initialize"):  # (the second: a deferred initialization)
        setattr(core.Variable, name, eager_outside_functions(getattr(core.Variable, name)))


_THREAD_START = threading.Thread.start


def _start_inheriting_mode(self):
    """`Thread.start`: a thread the program's TF 1.x code starts runs in that code's mode, as
    every thread did in TF 1.15 (slim.learning's Supervisor, queue runners, a program's own
    worker threads). Threads started by the engine's calls, or by TF 2 code, are unchanged."""
    if tf1_behavior() and not in_engine_call() and not getattr(self, "_ec_mode", False):
        graph = not context.executing_eagerly()
        run = self.run

        def run_in_program_mode():
            _set(graph=graph, ref_variables=True)
            return run()
        self._ec_mode = True
        self.run = run_in_program_mode
    return _THREAD_START(self)


def use():
    """TensorFlow's own variable creation asks the per-thread answer, Keras 3's makes eager
    variables outside functions, threads the program starts inherit its mode (idempotent)."""
    resource_variables_toggle.resource_variables_enabled = resource_variables_enabled
    _keras_variables_eager()
    threading.Thread.start = _start_inheriting_mode
