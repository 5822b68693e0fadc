"""The eager switches and helpers of `tf.contrib.eager` that TensorFlow 2 changed: eager mode
is per thread here (`legacy/graph_mode.py`), so `tfe.enable_eager_execution` is the view's
`tf.enable_eager_execution`, and what TF 1.15 built on it (remote eager, `tfe.run`, the
graph-and-eager test decorators, `defun`) is written on that switch."""
import unittest

import tensorflow as tf
from tensorflow.python.eager import context
from tensorflow.python.framework import ops

from estimator_compat.legacy import graph_mode

enable_eager_execution = graph_mode.SWITCHES["enable_eager_execution"]


def enable_remote_eager_execution(config=None, device_policy=None, execution_mode=None,
                                  server_def=None):
    """`enable_eager_execution`, then the cluster `server_def` made the eager context's."""
    enable_eager_execution(config=config, device_policy=device_policy,
                           execution_mode=execution_mode)
    if server_def is not None:
        context.set_server_def(server_def)


def run(main=None, argv=None):
    """Runs `main` (tf.app.run's way) with eager execution enabled."""
    enable_eager_execution()
    tf.compat.v1.app.run(main, argv)


def list_devices():
    """The full names of the devices eager ops may run on."""
    context.ensure_initialized()
    return context.context().devices()


def defun(func=None, input_signature=None, autograph=True, experimental_autograph_options=None,
          experimental_relax_shapes=False):
    """TF 1.15's `defun`: `func` compiled into a graph function, traced once per input
    signature (TensorFlow 2's `tf.function`; `experimental_relax_shapes` is its
    `reduce_retracing`)."""
    return tf.function(func, input_signature=input_signature, autograph=autograph,
                       experimental_autograph_options=experimental_autograph_options,
                       reduce_retracing=experimental_relax_shapes)


def run_test_in_graph_and_eager_modes(func=None, config=None, use_gpu=True, reset_test=True,
                                      assert_no_eager_garbage=False):
    """Runs a `tf.test.TestCase` method twice: in graph mode with the test's session (a
    SkipTest there skips that run only), then eagerly in a fresh graph (tearDown / setUp between them when `reset_test`)."""
    del assert_no_eager_garbage  # TF 1.15's debugging aid; the runs are the same without it

    def decorator(method):
        if isinstance(method, type):
            raise ValueError("`run_test_in_graph_and_eager_modes` only supports test methods. "
                             "Did you mean to use `run_all_tests_in_graph_and_eager_modes`?")

        def decorated(self, *args, **kwargs):
            try:
                with context.graph_mode():
                    with self.test_session(use_gpu=use_gpu, config=config):
                        method(self, *args, **kwargs)
            except unittest.SkipTest:
                pass  # the eager run still runs
            if reset_test:
                self.tearDown()
                self._tempdir = None
            with ops.Graph().as_default(), context.eager_mode():
                if reset_test:
                    self.setUp()
                if use_gpu:
                    method(self, *args, **kwargs)
                else:
                    with ops.device("/device:CPU:0"):
                        method(self, *args, **kwargs)
        decorated.__name__ = method.__name__
        decorated.__doc__ = method.__doc__
        return decorated
    return decorator(func) if func is not None else decorator


def run_all_tests_in_graph_and_eager_modes(cls):
    """Every test method of the TestCase class `cls` (but `testSkipEager*`) under
    `run_test_in_graph_and_eager_modes`."""
    for name in dir(cls):
        if (not name.startswith(unittest.TestLoader.testMethodPrefix) or name == "test_session"
                or name.startswith(("testSkipEager", "test_skip_eager"))):
            continue
        value = getattr(cls, name, None)
        if callable(value):
            setattr(cls, name, run_test_in_graph_and_eager_modes(value))
    return cls
