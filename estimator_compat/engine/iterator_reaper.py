"""Finished tf.data iterators are destroyed off the caller's thread.

TensorFlow 2.21 destroys an iterator by joining its autotune thread, which notices only at the
end of its current sleep; the sleep doubles each round (10 ms, 20 ms, ... up to a minute). So
dropping an iterator's last reference blocked the caller, holding the GIL, until then: 0.56 s for
an iterator that had run 0.7 s (one drop in five), 4.2 s after 6 s, 75 ms in one evaluate call of
five on the canned wide & deep benchmark (gdb: the main thread in
`RootDataset::Iterator::~Iterator`, the autotune thread in `Model::OptimizeLoop`'s timed wait).

Here the last reference goes to an op on a private asynchronous executor, held back by a gate
until the caller's references are gone: the destruction then waits on that executor's thread,
without the GIL, and the next call starts at once.
"""
import sys
import threading

import tensorflow as tf

try:  # private TensorFlow modules: without them iterators are dropped as before
    from tensorflow.python.eager import context, executor as executor_lib
except ImportError:  # pragma: no cover
    context = executor_lib = None

_lock = threading.Lock()
_reaper = None


def release(owner, name):
    """Sets `owner.<name>` (an iterator, or None) to None, destroying the iterator in the
    background where `owner` held its last reference."""
    iterator = getattr(owner, name)
    setattr(owner, name, None)
    handle = getattr(iterator, "_iterator_resource", None)
    # held here only: `iterator` (this frame, the argument); `handle` (this frame, the
    # iterator's attribute, the argument)
    if (executor_lib is None or not isinstance(iterator, tf.data.Iterator)
            or not isinstance(handle, tf.Tensor) or sys.getrefcount(iterator) > 2
            or sys.getrefcount(handle) > 3):
        return
    with _lock:
        reaper = _get()
        reaper.hold(handle)
        del iterator, handle
        reaper.open()


def _get():
    global _reaper
    if _reaper is None:
        _reaper = _Reaper()
    return _reaper


class _Reaper:
    """An asynchronous executor whose ops each wait for a gate, then let go of a handle."""

    def __init__(self):
        self._executor = executor_lib.new_executor(enable_async=True)
        with tf.init_scope(), tf.device("/cpu:0"):
            self._gate = tf.queue.FIFOQueue(2 ** 20, [tf.int32], shapes=[[]])

    def hold(self, handle):
        """Queues an op holding `handle` that runs once the gate opens."""
        with tf.init_scope(), context.executor_scope(self._executor):
            self._gate.dequeue()
            tf.raw_ops.Shape(input=handle)

    def open(self):
        with tf.init_scope():
            self._gate.enqueue(0)
