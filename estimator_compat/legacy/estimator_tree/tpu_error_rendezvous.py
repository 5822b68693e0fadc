"""`tpu.error_handling.ErrorRendezvous` (tensorflow_estimator 2.15): collects the errors of the
threads that feed and drain a training loop (one "source" each) and raises the most telling
one in the main thread. Pure Python and threads: usable by any multi-threaded loop."""
import contextlib
import logging
import sys
import threading
import time

import tensorflow as tf

logger = logging.getLogger("tensorflow")
_UNINTERESTING_ERRORS = (tf.errors.CancelledError,)
_SESSION_CLOSE_DELAY_SECS = 5


class ErrorRendezvous:
    """Errors from `num_sources` sources; `raise_errors()` raises the first that is not a
    CancelledError (else the first). AbortedErrors are not recorded (a preemption is handled
    by the loop, not raised)."""

    def __init__(self, num_sources):
        self._errors = {}
        self._num_sources = num_sources
        self._session_cancel_timer = None

    def record_error(self, source, exc_info, session=None):
        """Records `exc_info` (`sys.exc_info()`'s triple) for `source`; with `session`, the
        first error also closes it after 5 seconds so that no thread hangs on it."""
        _, value, _ = exc_info
        if isinstance(value, tf.errors.AbortedError):
            logger.info("Ignoring an AbortedError from %s: %s", source, value)
            return
        self._errors[source] = exc_info
        logger.info("Error recorded from %s: %s", source, value)
        if session is not None and self._session_cancel_timer is None:
            def _cancel_session():
                time.sleep(_SESSION_CLOSE_DELAY_SECS)
                logger.error("Closing session due to error %s", value)
                try:
                    session.close()
                except Exception:  # noqa: BLE001 - the loop must not die here
                    logger.error("\n\n\nFailed to close session after error."
                                 "Other threads may hang.\n\n\n")
            self._session_cancel_timer = threading.Thread(target=_cancel_session, daemon=True)
            self._session_cancel_timer.start()

    def record_done(self, source):
        """Marks `source` finished without error."""
        logger.info("%s marked as finished", source)
        if source not in self._errors:
            self._errors[source] = None

    @contextlib.contextmanager
    def catch_errors(self, source, session=None):
        """Records (and swallows) any exception raised in the block, for `source`."""
        try:
            yield
        except Exception:  # noqa: BLE001 - recorded, raised by raise_errors
            self.record_error(source, sys.exc_info(), session)

    def raise_errors(self, timeout_sec=0):
        """Waits up to `timeout_sec` (whole) seconds for every source to report, then raises
        the first interesting error recorded, if any."""
        for _ in range(timeout_sec):
            if len(self._errors) == self._num_sources:
                break
            time.sleep(1)
        kept = [info for info in self._errors.values() if info is not None]
        for _, value, traceback in kept:
            if not isinstance(value, _UNINTERESTING_ERRORS):
                raise value.with_traceback(traceback)
        if kept:
            _, value, traceback = kept[0]
            raise value.with_traceback(traceback)
