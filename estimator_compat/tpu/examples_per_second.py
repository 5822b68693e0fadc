"""`tpu.tpu_estimator.ExamplesPerSecondHook` (tensorflow_estimator 2.15): the step counter
hook that also reports `examples/sec` (steps/sec times `batch_size`), each logged and written
as a `simple_value` summary at the global step, as TPU programs used it with any Estimator."""
import logging

import tensorflow as tf

from estimator_compat.hooks.builtin import StepCounterHook

logger = logging.getLogger("tensorflow")


class ExamplesPerSecondHook(StepCounterHook):
    """Logs and records `global_step/sec` and `examples/sec` every `every_n_steps` steps or
    `every_n_secs` seconds (to `summary_writer`, or `output_dir`'s cached writer)."""

    def __init__(self, batch_size, every_n_steps=100, every_n_secs=None, output_dir=None,
                 summary_writer=None):
        super().__init__(every_n_steps=every_n_steps, every_n_secs=every_n_secs,
                         output_dir=output_dir, summary_writer=summary_writer)
        self._batch_size = batch_size

    def _log_and_record(self, elapsed_steps, elapsed_time, global_step):
        steps_per_sec = elapsed_steps / elapsed_time
        examples_per_sec = self._batch_size * steps_per_sec
        if self._summary_writer is not None:
            for tag, value in (("global_step/sec", steps_per_sec),
                               ("examples/sec", examples_per_sec)):
                summary = tf.compat.v1.Summary(value=[tf.compat.v1.Summary.Value(
                    tag=tag, simple_value=value)])
                self._summary_writer.add_summary(summary, global_step)
        logger.info("global_step/sec: %g", steps_per_sec)
        logger.info("examples/sec: %g", examples_per_sec)
