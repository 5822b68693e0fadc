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

At interpreter exit the same join made programs hang: every iterator still alive was destroyed
during finalization, each waiting out its autotune thread's sleep (20-42 s after a 15 s
program, up to a minute per iterator after a long one). The iterators the engine made, and the
reaper, are left alive at exit instead (`track`): the process ends, and the OS frees them.
Destructions already handed to the reaper get up to 10 s to finish first: one still running a
generator's Python finalizer (a TF1 input_fn's session, engine/session_input.py) when the
interpreter finalized aborted the process, 1 exit in 6 under load. A 2 s wait made that 0 in 10
here, but CI's two loaded cores still aborted one exit of that program (TF-Ranking's hook-fed
one, right after its last evaluate; not reproduced here in 44 runs under load). A destruction
waits out its iterator's autotune sleep, which grows with the iterator's life, so the wait is
longer now; it lasts only while a destruction is pending.

The iterator's dataset stays referenced from Python until its destruction is done, and is let
go on a Python thread: a dataset's functions carry Python stack traces, and their destruction
on the reaper's thread while the interpreter was finalizing aborted the process ("terminate
called without an active exception": 1 exit in 4 of a short program, before this).
"""
import atexit
import ctypes
import sys
import threading
import time
import weakref

import tensorflow as tf

try:  # private TensorFlow modules: without them iterators are dropped as before
    from tensorflow.python.eager import context, executor as executor_lib
except ImportError:  # pragma: no cover
    context = executor_lib = None

_lock = threading.Lock()
_reaper = None
_tracked = weakref.WeakSet()
_exiting = False
_EXIT_WAIT_SECS = 10.0


def track(iterator):
    """Leaves `iterator` alive at interpreter exit if it still is then (see above)."""
    try:
        _tracked.add(iterator)
    except TypeError:  # not weak-referenceable: destroyed at exit as before
        pass


@atexit.register
def _keep_alive_at_exit():
    global _exiting
    _exiting = True  # generators finished during finalization release nothing more
    if _reaper is not None:  # a destruction still running Python (a generator's finalizer)
        _reaper.wait(_EXIT_WAIT_SECS)  # when the interpreter finalizes aborted the process
    for obj in list(_tracked) + ([_reaper] if _reaper is not None else []):
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(obj))  # never freed: the process ends


def release(owner, name):
    """Sets `owner.<name>` (an iterator, or None) to None, destroying the iterator in the
    background where `owner` held its last reference."""
    iterator = getattr(owner, name)
    setattr(owner, name, None)
    if _exiting:
        return
    handle = getattr(iterator, "_iterator_resource", None)
    # held here only: `iterator` (this frame, the argument); `handle` (this frame, the
    # iterator's attribute, the argument)
    if (executor_lib is None or not isinstance(iterator, tf.data.Iterator)
            or not isinstance(handle, tf.Tensor) or sys.getrefcount(iterator) > 2
            or sys.getrefcount(handle) > 3):
        return
    with _lock:
        reaper = _get()
        reaper.collect()
        reaper.hold(handle, getattr(iterator, "_dataset", None))
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
        self._kept = {}  # release number: the iterator's dataset, until its iterator is gone
        self._count = 0
        self._finished = 0  # releases whose iterator is gone and collected
        with tf.init_scope(), tf.device("/cpu:0"):
            self._gate = tf.queue.FIFOQueue(2 ** 20, [tf.int32], shapes=[[]])
            self._done = tf.queue.FIFOQueue(2 ** 20, [tf.int32], shapes=[[]])

    def hold(self, handle, dataset):
        """Queues an op holding `handle` that runs once the gate opens; `dataset` is kept until
        the op after it says the handle is gone."""
        self._count += 1
        self._kept[self._count] = dataset
        with tf.init_scope():
            number = tf.constant(self._count)  # made here: the async executor is gated
            with context.executor_scope(self._executor):
                self._gate.dequeue()
                tf.raw_ops.Shape(input=handle)
                tf.raw_ops.QueueEnqueueV2(handle=self._done.queue_ref, components=[number])

    def collect(self):
        """Lets go (here, on a Python thread) of the datasets whose iterators are gone."""
        with tf.init_scope():
            ready = int(self._done.size())
            if ready:
                for number in self._done.dequeue_many(ready).numpy():
                    self._kept.pop(int(number), None)
                self._finished += ready

    def wait(self, seconds):
        """Waits, at most `seconds`, for every released iterator to be destroyed."""
        deadline = time.monotonic() + seconds
        with tf.init_scope():
            while (self._finished + int(self._done.size()) < self._count
                   and time.monotonic() < deadline):
                time.sleep(0.01)

    def open(self):
        with tf.init_scope():
            self._gate.enqueue(0)
