"""`tpu.tpu_estimator.PeriodicLogger` (tensorflow_estimator 2.15): logs a message at INFO at
most once every `seconds` (the first call always), as TPUEstimator's loops reported
progress."""
import logging
import time

logger = logging.getLogger("tensorflow")


class PeriodicLogger:
    def __init__(self, seconds):
        self._log_every_n_seconds = seconds
        self._last_log_time = 0

    def log(self, msg, *args, **kw):
        """`logger.info(msg, *args, **kw)` unless the last logged call was under `seconds`
        ago."""
        if time.time() - self._last_log_time > self._log_every_n_seconds:
            self._last_log_time = time.time()
            logger.info(msg, *args, **kw)
