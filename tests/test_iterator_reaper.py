"""Finished iterators are destroyed off the caller's thread, and only where nothing else holds
them: a released iterator's pipeline is torn down (its generator closed), one still held
elsewhere keeps yielding."""
import threading
import time
import types

import numpy as np
import tensorflow as tf

import estimator_compat as ec
from estimator_compat.engine import iterator_reaper
from helpers import linear_model_fn


def _closed_when_torn_down(closed, n=1000):
    """A dataset whose generator records, on `closed`, when its iterator is destroyed."""
    def gen():
        try:
            for i in range(n):
                yield np.float32(i)
        finally:
            closed.set()
    return tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.float32))


def _wait(event, seconds=20.0):
    deadline = time.monotonic() + seconds
    while not event.is_set() and time.monotonic() < deadline:
        time.sleep(0.01)
    return event.is_set()


def test_released_iterator_is_torn_down_in_the_background():
    closed = threading.Event()
    owner = types.SimpleNamespace(it=iter(_closed_when_torn_down(closed).prefetch(2)))
    assert float(next(owner.it)) == 0.0
    iterator_reaper.release(owner, "it")
    assert owner.it is None
    assert _wait(closed), "the released iterator's pipeline was never destroyed"


def test_iterator_held_elsewhere_keeps_working():
    closed = threading.Event()
    mine = iter(_closed_when_torn_down(closed))
    owner = types.SimpleNamespace(it=mine)
    next(mine)
    iterator_reaper.release(owner, "it")
    time.sleep(0.2)
    assert owner.it is None and not closed.is_set()
    assert [float(next(mine)) for _ in range(3)] == [1.0, 2.0, 3.0]


def test_evaluate_tears_down_the_last_calls_pipeline():
    """Each evaluate call reads a new iterator: the previous call's is destroyed (here: by the
    next call, in the background) instead of living on with its threads and buffers."""
    events = []

    def input_fn():
        events.append(threading.Event())
        ds = _closed_when_torn_down(events[-1], n=64)
        return ds.map(lambda x: ({"x": tf.stack([x, 1.0, -x])}, tf.reshape(2.0 * x, [1]))).batch(16)

    est = ec.Estimator(linear_model_fn, params={"lr": 0.01})
    est.train(input_fn, steps=2)
    first = est.evaluate(input_fn)
    second = est.evaluate(input_fn)
    assert first["global_step"] == second["global_step"] == 2
    assert np.isclose(first["loss"], second["loss"])
    assert _wait(events[1]), "the first evaluate call's iterator was never destroyed"
