"""`tpu.tpu_estimator._OpQueueContext` / `_OpSignalOnceQueueContext` (tensorflow_estimator
2.15): a daemon thread running `target(context, *args)` that reads iteration counts from a
queue (`read_iteration_counts()`) until `stop()`. TPUEstimator ran its infeed and outfeed
loops in them; the class itself is plain Python threads and works for any loop."""
import logging
import queue
import threading

from estimator_compat.legacy.estimator_tree.tpu_estimator_helpers import _SIGNAL

logger = logging.getLogger("tensorflow")


class _OpQueueContext:
    """A work queue and the daemon thread (named `name`) that consumes it."""

    def __init__(self, name, target, args):
        self._name = name
        self._queue = queue.Queue()
        args = (self,) + args
        self._thread = threading.Thread(name=name, target=target, args=args, daemon=True)
        self._thread.start()

    def stop(self):
        self._queue.put(_SIGNAL.STOP)

    def send_next_batch_signal(self, iterations):
        self._queue.put(iterations)

    def read_iteration_counts(self):
        """Yields each iteration count sent, until stop()."""
        while True:
            iterations = self._queue.get(block=True)
            logger.debug("%s read iterations %s", self._name, iterations)
            if iterations == _SIGNAL.STOP:
                logger.info("%s received shutdown signal, stopping.", self._name)
                return
            yield iterations

    def join(self):
        logger.info("Shutting down %s thread.", self._name)
        self.stop()
        self._thread.join()


class _OpSignalOnceQueueContext(_OpQueueContext):
    """An _OpQueueContext whose thread is sent only the first iteration count."""

    def __init__(self, name, target, args):
        super().__init__(name, target, args)
        self._has_signaled = False

    def send_next_batch_signal(self, iterations):
        if not self._has_signaled:
            self._queue.put(iterations)
            self._has_signaled = True
