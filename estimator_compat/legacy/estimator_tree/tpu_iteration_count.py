"""`tpu.iteration_count_estimator` (tensorflow_estimator 2.15): `IterationCountEstimator` and its
`RuntimeCounter` samples, which turn a time budget (TPUConfig's `iterations_per_loop='60s'`)
into a number of steps from the loop runtimes seen so far. Pure Python: it behaves the same
with or without a TPU."""
import collections
import logging

import numpy as np

logger = logging.getLogger("tensorflow")

RuntimeCounter = collections.namedtuple("RuntimeCounter",
                                        ["runtime_secs", "steps", "step_time_secs"])
_STABLE_STEP_TIME_STD_SECS = 0.03  # step times vary less than this: the estimate has settled
_REUSE_PERCENTAGE = 10  # loops that already last within 10% of the budget keep their count


class IterationCountEstimator:
    """Estimates how many iterations fit in `total_secs` from the last `capacity` loops'
    (runtime, steps) samples, kept FIFO; 1 until a sample is in."""

    def __init__(self, capacity=20):
        if capacity <= 0:
            raise ValueError("IterationCountEstimator `capacity` must be positive. "
                             f"Actual:{capacity}.")
        self._reset(capacity=capacity)

    def _reset(self, capacity=20):
        """Empties the samples and forgets the last estimate."""
        self._buffer_wheel = collections.deque([])
        self._capacity = capacity
        self._min_iterations = 1
        self._last_iterations = self._min_iterations
        self._sample_count = 0

    def _mean_runtime_secs(self):
        return np.mean([s.runtime_secs for s in self._buffer_wheel]) if self._buffer_wheel else 0

    def _mean_step_time_secs(self):
        return (np.mean([s.step_time_secs for s in self._buffer_wheel])
                if self._buffer_wheel else 0)

    def _std_step_time_secs(self):
        return (np.std([s.step_time_secs for s in self._buffer_wheel])
                if self._buffer_wheel else 0)

    def _diff_less_than_percentage(self, actual, target, percentage):
        """Whether |actual - target| is at most `percentage` percent of |target|."""
        if actual == 0:
            raise ValueError("Invalid `actual` value. Value must not be zero.")
        if target == 0:
            raise ValueError("Invalid `target` value. Value must not be zero.")
        return abs(actual - target) / abs(target) * 100 <= percentage

    def _is_step_time_stable(self):
        """True once more than `capacity` samples came and their step times' standard
        deviation is under 0.03 s."""
        if self._sample_count <= self._capacity:
            return False
        return self._std_step_time_secs() < _STABLE_STEP_TIME_STD_SECS

    def update(self, runtime_secs, count):
        """Adds a loop of `count` iterations that took `runtime_secs`; non-positive values are
        ignored."""
        if runtime_secs <= 0 or count <= 0:
            logger.warning("Invalid IterationCountEstimator sample: runtime_secs=%s, count=%s; "
                           "both must be positive. Ignored.", runtime_secs, count)
            return
        if len(self._buffer_wheel) >= self._capacity:
            self._buffer_wheel.popleft()
        self._buffer_wheel.append(RuntimeCounter(runtime_secs=runtime_secs, steps=count,
                                                 step_time_secs=runtime_secs / count))
        self._sample_count += 1

    def get(self, total_secs):
        """The iterations to run in `total_secs` (rounded, at least 1): kept from the last
        call while step times are stable and loops already last within 10% of `total_secs`,
        else moved to `total_secs` over the mean step time."""
        if total_secs <= 0:
            raise ValueError(f"Invalid `total_secs`. It must be positive number. "
                             f"Actual:{total_secs}")
        if not self._buffer_wheel:
            return self._last_iterations
        if not (self._is_step_time_stable() and self._diff_less_than_percentage(
                self._mean_runtime_secs(), total_secs, _REUSE_PERCENTAGE)):
            expected = total_secs / self._mean_step_time_secs()
            self._last_iterations += expected - self._last_iterations  # moved by the delta
            self._last_iterations = max(self._last_iterations, self._min_iterations)
        return round(self._last_iterations)
