"""FeedingQueueRunner (tf.contrib.training; tf.estimator's `inputs.queues`): a QueueRunner
whose threads run each enqueue op with the feed dict its feed function returns, as
`numpy_input_fn` / `pandas_input_fn` fed their queues in TF 1.x."""
import logging
import threading

import tensorflow as tf

logger = logging.getLogger("tensorflow")


class _FeedingQueueRunner(tf.compat.v1.train.QueueRunner):
    """QueueRunner(queue, enqueue_ops, close_op, cancel_op, ...) plus `feed_fns`: one function
    per enqueue op, called before each run for its `feed_dict` (None: no feed). One class
    under both names, as in TensorFlow (its errors name `_FeedingQueueRunner`)."""

    def __init__(self, queue=None, enqueue_ops=None, close_op=None, cancel_op=None,
                 feed_fns=None, queue_closed_exception_types=None):
        super().__init__(queue, enqueue_ops, close_op, cancel_op,
                         queue_closed_exception_types=queue_closed_exception_types)
        if feed_fns is None:
            self._feed_fns = [None] * len(self._enqueue_ops)
        else:
            if len(feed_fns) != len(self._enqueue_ops):
                raise ValueError("If feed_fns is not None, it must have the same length as "
                                 "enqueue_ops.")
            self._feed_fns = list(feed_fns)

    @property
    def feed_fns(self):
        return self._feed_fns

    def _run_feeding(self, sess, enqueue_op, feed_fn, coord=None):
        """Runs `enqueue_op` with `feed_fn()`'s feed until the queue closes (the last thread
        then closes it for the readers) or the coordinator stops."""
        done = False
        try:
            while not (coord and coord.should_stop()):
                try:
                    sess.run(enqueue_op, feed_dict=None if feed_fn is None else feed_fn())
                except self._queue_closed_exception_types:
                    with self._lock:
                        self._runs_per_session[sess] -= 1
                        done = True
                        if self._runs_per_session[sess] == 0:
                            try:
                                sess.run(self._close_op)
                            except Exception as error:  # noqa: BLE001 - as QueueRunner
                                logger.debug("Ignored exception: %s", error)
                    return
        except Exception as error:  # noqa: BLE001 - reported to the coordinator, as QueueRunner
            if coord:
                coord.request_stop(error)
            else:
                logger.error("Exception in QueueRunner: %s", error)
                with self._lock:
                    self._exceptions_raised.append(error)
                raise
        finally:
            if not done:
                with self._lock:
                    self._runs_per_session[sess] -= 1

    def create_threads(self, sess, coord=None, daemon=False, start=False):
        """One thread per (enqueue op, feed function), and one that cancels the queue when
        `coord` stops; as QueueRunner, none if this session's threads still run."""
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        threads = [threading.Thread(target=self._run_feeding, args=(sess, op, feed_fn, coord),
                                    name=f"FeedingQueueRunnerThread-{self.name}-{op.name}")
                   for op, feed_fn in zip(self._enqueue_ops, self._feed_fns)]
        if coord:
            threads.append(threading.Thread(target=self._close_on_stop,
                                            args=(sess, self._cancel_op, coord)))
        for thread in threads:
            if coord:
                coord.register_thread(thread)
            thread.daemon = daemon
            if start:
                thread.start()
        return threads

    def _init_from_proto(self, queue_runner_def):
        raise NotImplementedError(f"{type(self).__name__} does not support initialization "
                                  "from proto.")

    def to_proto(self):
        raise NotImplementedError(f"{type(self).__name__} does not support serialization to "
                                  "proto.")


FeedingQueueRunner = _FeedingQueueRunner
