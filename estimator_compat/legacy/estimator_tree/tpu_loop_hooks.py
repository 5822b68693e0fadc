"""The SessionRunHooks of tensorflow_estimator 2.15's `tpu.tpu_estimator` that steer a loop of
`iterations_per_loop` steps per `Session.run` through the `tpu_estimator/iterations_per_loop`
variable (tpu_loops.py). They need no TPU: in a TF1 MonitoredSession they set the variable
that a `_wrap_computation_in_while_loop` loop reads.

- `_TPUStopAtStepHook(iterations_per_loop_counter, num_steps=None, final_step=None)`: each run
  gets min(steps left, iterations_per_loop) iterations (with `<N>s`/`m`/`h` counters, the
  IterationCountEstimator's estimate for that time) and stops at the final step;
- `_SetEvalIterationsHook(num_steps)`: `num_steps` iterations in the (one) evaluation run;
- `_StoppingPredictHook(scalar_stopping_signal)`: one iteration per run; the run whose
  batch's stopping signal says stop ends the session as an OutOfRangeError (end of input)."""
import time

import tensorflow as tf

from estimator_compat.hooks import SessionRunArgs, SessionRunHook
from estimator_compat.legacy.estimator_tree.tpu_iteration_count import (
    IterationCountEstimator,
)
from estimator_compat.legacy.estimator_tree.tpu_loops import (
    _create_or_get_iterations_per_loop,
    _StopSignals,
)

v1 = tf.compat.v1


class _TPUStopAtStepHook(SessionRunHook):
    """Sets iterations_per_loop before each run and requests stop at the final step."""

    def __init__(self, iterations_per_loop_counter, num_steps=None, final_step=None):
        if num_steps is None and final_step is None:
            raise ValueError("One of `num_steps` or `final_step` must be specified.")
        if num_steps is not None and final_step is not None:
            raise ValueError("Only one of `num_steps` or `final_step` can be specified.")
        self._iterations_per_loop_counter = iterations_per_loop_counter
        self._num_steps = num_steps
        self._final_step = final_step
        self._next_iteration_count = 1
        self._iteration_count_estimator = None
        if self._iterations_per_loop_counter.unit == "seconds":
            self._iteration_count_estimator = IterationCountEstimator()
        self._start_time = time.time()

    def _next_iterations(self, global_step, final_step):
        """The next run's iterations: the steps left, at most the loop's count (or what the
        estimator expects to fit in the loop's seconds)."""
        if self._iterations_per_loop_counter.unit == "count":
            iterations = self._iterations_per_loop_counter.value
        else:
            iterations = self._iteration_count_estimator.get(
                self._iterations_per_loop_counter.value)
        self._next_iteration_count = min(final_step - global_step, iterations)
        return self._next_iteration_count

    def begin(self):
        self._global_step_tensor = v1.train.get_global_step()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created.")
        self._iterations_per_loop_var = _create_or_get_iterations_per_loop()

    def after_create_session(self, session, coord):
        global_step = session.run(self._global_step_tensor)
        if self._final_step is None:
            self._final_step = global_step + self._num_steps
        iterations = self._next_iterations(global_step, self._final_step)
        self._iterations_per_loop_var.load(iterations, session=session)

    def before_run(self, run_context):
        if self._iteration_count_estimator is not None:
            self._start_time = time.time()

    def after_run(self, run_context, run_values):
        if self._iteration_count_estimator is not None:
            self._iteration_count_estimator.update(time.time() - self._start_time,
                                                   self._next_iteration_count)
        global_step = run_context.session.run(self._global_step_tensor)
        if global_step >= self._final_step:
            run_context.request_stop()
        else:
            iterations = self._next_iterations(global_step, self._final_step)
            self._iterations_per_loop_var.load(iterations, session=run_context.session)


class _SetEvalIterationsHook(SessionRunHook):
    """Sets iterations_per_loop to `num_steps` once the session exists."""

    def __init__(self, num_steps):
        self._num_steps = num_steps

    def begin(self):
        self._iterations_per_loop_var = _create_or_get_iterations_per_loop()

    def after_create_session(self, session, coord):
        self._iterations_per_loop_var.load(self._num_steps, session=session)


class _StoppingPredictHook(SessionRunHook):
    """One iteration per run; an OutOfRangeError once `scalar_stopping_signal` is True."""

    def __init__(self, scalar_stopping_signal):
        self._scalar_stopping_signal = scalar_stopping_signal

    def begin(self):
        self._iterations_per_loop_var = _create_or_get_iterations_per_loop()

    def after_create_session(self, session, coord):
        self._iterations_per_loop_var.load(1, session=session)

    def before_run(self, run_context):
        return SessionRunArgs(self._scalar_stopping_signal)

    def after_run(self, run_context, run_values):
        if _StopSignals.should_stop(run_values.results):
            # As the end of the input: the MonitoredSession ends without the run's results.
            raise tf.errors.OutOfRangeError(None, None, "Stopped by stopping signal.")
