"""tensorflow_estimator 2.15's queue feeding of in-memory data (`inputs.queues.
feeding_functions` and `feeding_queue_runner`), which TF 1.x input code (tf.contrib.learn's
dataframe and io helpers, hand-written input_fns) built its input queues with. They run in a
TF1 graph with a session, where estimator_compat runs an input_fn that needs one
(engine/session_input.py starts the QUEUE_RUNNERS); its own numpy_input_fn and
pandas_input_fn use tf.data instead.

- `_ArrayFeedFn`, `_OrderedDictNumpyFeedFn`, `_PandasFeedFn`, `_GeneratorFeedFn`: callables
  giving the next batch's feed dict ({placeholder: rows}), the row index first for the array
  and frame kinds; `num_epochs` ends them with OutOfRangeError; `random_start` begins at a row
  drawn from Python's `random` seeded with `seed`, as 2.15 did (it seeds the module);
- `_FeedingQueueRunner`: tf.contrib.training's FeedingQueueRunner (one class, as in TF);
- `_enqueue_data(data, capacity, ...)`: the FIFO / padding FIFO / random-shuffle queue of
  (index, columns...) filled that way, registered in QUEUE_RUNNERS, with its fullness
  summary `queue/<queue>fraction_over_<min>_of_<n>_full`.
"""
import collections
import random
import types

import numpy as np
import tensorflow as tf

from estimator_compat.legacy.contrib.training.feeding_queue_runner import _FeedingQueueRunner
from estimator_compat.legacy.estimator_tree.input_privates import (
    _get_integer_indices_for_next_batch, _pad_if_needed)

v1 = tf.compat.v1


class _RowBatches:
    """The next rows of a `length`-row source, wrapping round over `num_epochs` epochs."""

    def __init__(self, length, batch_size, random_start, seed, num_epochs):
        self._max, self._batch_size, self._num_epochs = length, batch_size, num_epochs
        self._epoch = 0
        random.seed(seed)
        self._trav = random.randrange(self._max) if random_start else 0
        self._epoch_end = (self._trav - 1) % self._max

    def next_rows(self):
        rows, self._epoch = _get_integer_indices_for_next_batch(
            batch_indices_start=self._trav, batch_size=self._batch_size,
            epoch_end=self._epoch_end, array_length=self._max, current_epoch=self._epoch,
            total_epochs=self._num_epochs)
        self._trav = (rows[-1] + 1) % self._max
        return rows


class _ArrayFeedFn(_RowBatches):
    """Feed dicts {index placeholder: rows, array placeholder: array[rows]}."""

    def __init__(self, placeholders, array, batch_size, random_start=False, seed=None,
                 num_epochs=None):
        if len(placeholders) != 2:
            raise ValueError(f"_array_feed_fn expects 2 placeholders; got {len(placeholders)}.")
        self._placeholders, self._array = placeholders, array
        super().__init__(len(array), batch_size, random_start, seed, num_epochs)

    def __call__(self):
        rows = self.next_rows()
        return {self._placeholders[0]: rows, self._placeholders[1]: self._array[rows]}


class _OrderedDictNumpyFeedFn(_RowBatches):
    """Feed dicts {index placeholder: rows, then one placeholder per array: array[rows]}."""

    def __init__(self, placeholders, ordered_dict_of_arrays, batch_size, random_start=False,
                 seed=None, num_epochs=None):
        if len(placeholders) != len(ordered_dict_of_arrays) + 1:
            raise ValueError(f"Expected {len(ordered_dict_of_arrays)} placeholders; got "
                             f"{len(placeholders)}.")
        self._index_placeholder, self._col_placeholders = placeholders[0], placeholders[1:]
        self._ordered_dict_of_arrays = ordered_dict_of_arrays
        length = len(next(iter(ordered_dict_of_arrays.values())))
        if any(len(v) != length for v in ordered_dict_of_arrays.values()):
            raise ValueError("Array lengths must match.")
        super().__init__(length, batch_size, random_start, seed, num_epochs)

    def __call__(self):
        rows = self.next_rows()
        feed = {self._index_placeholder: rows}
        feed.update(zip(self._col_placeholders,
                        [column[rows] for column in self._ordered_dict_of_arrays.values()]))
        return feed


class _PandasFeedFn(_RowBatches):
    """Feed dicts {index placeholder: the rows' index values, then one placeholder per
    column: its values}."""

    def __init__(self, placeholders, dataframe, batch_size, random_start=False, seed=None,
                 num_epochs=None):
        if len(placeholders) != len(dataframe.columns) + 1:
            raise ValueError(f"Expected {len(dataframe.columns) + 1} placeholders; got "
                             f"{len(placeholders)}.")
        self._index_placeholder, self._col_placeholders = placeholders[0], placeholders[1:]
        self._dataframe = dataframe
        super().__init__(len(dataframe), batch_size, random_start, seed, num_epochs)

    def __call__(self):
        result = self._dataframe.iloc[self.next_rows()]
        feed = dict(zip(self._col_placeholders,
                        [result[column].values for column in result.columns]))
        feed[self._index_placeholder] = result.index.values
        return feed


class _GeneratorFeedFn:
    """Feed dicts {one placeholder per key of the dicts `generator()` yields, in sorted key
    order: the values of the next rows}, the generator restarted at each epoch's end. As in
    2.15, each key of a row counts towards `batch_size` (a batch of `batch_size` values
    altogether); `pad_value` pads rows of unequal length (`_pad_if_needed`)."""

    def __init__(self, placeholders, generator, batch_size, random_start=False, seed=None,
                 num_epochs=None, pad_value=None):
        first = next(generator())
        if len(placeholders) != len(first):
            raise ValueError(f"Expected {len(first)} placeholders; got {len(placeholders)}.")
        self._keys = sorted(first.keys())
        self._col_placeholders, self._generator_function = placeholders, generator
        self._iterator = generator()
        self._batch_size, self._num_epochs = batch_size, num_epochs
        self._epoch, self._pad_value = 0, pad_value
        random.seed(seed)

    def __call__(self):
        if self._num_epochs and self._epoch >= self._num_epochs:
            raise tf.errors.OutOfRangeError(None, None,
                                            f"Already emitted {self._epoch} epochs.")
        values, size = {}, 0
        while size < self._batch_size:
            try:
                row = next(self._iterator)
            except StopIteration:
                self._epoch += 1
                self._iterator = self._generator_function()
                row = next(self._iterator)
            for index, key in enumerate(self._keys):
                if key not in row.keys():
                    raise KeyError("key mismatch between dicts emitted by GenFun Expected "
                                   f"{self._keys} keys; got {row.keys()}")
                values.setdefault(self._col_placeholders[index], []).append(row[key])
                size += 1
        if self._pad_value is not None:
            return {k: np.asarray(_pad_if_needed(v, self._pad_value))
                    for k, v in values.items()}
        return {k: np.asarray(v) for k, v in values.items()}


def _source(data):
    """(dtypes, shapes, feed function class) of a queue over `data`."""
    if isinstance(data, np.ndarray):
        return [tf.int64, tf.as_dtype(data.dtype)], [(), data.shape[1:]], _ArrayFeedFn
    if isinstance(data, collections.OrderedDict):
        return ([tf.int64] + [tf.as_dtype(c.dtype) for c in data.values()],
                [()] + [c.shape[1:] for c in data.values()], _OrderedDictNumpyFeedFn)
    if isinstance(data, types.FunctionType):
        first = next(data())
        values = [first[key] for key in sorted(first.keys())]
        return ([tf.as_dtype(c.dtype) for c in values], [c.shape for c in values],
                _GeneratorFeedFn)
    try:
        import pandas as pd
    except ImportError:
        pd = None
    if pd is not None and isinstance(data, pd.DataFrame):
        dtypes = [tf.as_dtype(t) for t in [data.index.dtype] + list(data.dtypes)]
        return dtypes, [() for _ in dtypes], _PandasFeedFn
    raise TypeError("data must be either a numpy array or pandas DataFrame if pandas is "
                    f"installed; got {type(data).__name__}")


def _warn_threads(shuffle, num_threads, num_epochs):
    warn = v1.logging.warn
    if num_threads > 1 and num_epochs is not None:
        warn("enqueue_data was called with num_epochs and num_threads > 1. num_epochs is "
             "applied per thread, so this will produce more epochs than you probably intend. "
             "If you want to limit epochs, use one thread.")
    if shuffle and num_threads > 1 and num_epochs is not None:
        warn("enqueue_data was called with shuffle=True, num_threads > 1, and num_epochs. "
             "This will create multiple threads, all reading the array/dataframe in order "
             "adding to the same shuffling queue; the results will likely not be "
             "sufficiently shuffled.")
    if not shuffle and num_threads > 1:
        warn("enqueue_data was called with shuffle=False and num_threads > 1. This will "
             "create multiple threads, all reading the array/dataframe in order. If you want "
             "examples read in order, use one thread; if you want multiple threads, enable "
             "shuffling.")


def _enqueue_data(data, capacity, shuffle=False, min_after_dequeue=None, num_threads=1,
                  seed=None, name="enqueue_input", enqueue_size=1, num_epochs=None,
                  pad_value=None):
    """A queue filled from `data` (a numpy array, an OrderedDict of arrays, a generator
    function of dicts, or a pandas DataFrame) by `num_threads` feeding threads of
    `enqueue_size` rows (a _FeedingQueueRunner in QUEUE_RUNNERS): a RandomShuffleQueue with
    `shuffle` (min_after_dequeue: capacity / 4 by default), a PaddingFIFOQueue with
    `pad_value` (generators only), else a FIFOQueue. Its components: the row index (not for
    generators), then the columns."""
    with tf.name_scope(name):
        dtypes, shapes, feed_fn_class = _source(data)
        padded = pad_value is not None
        if padded and feed_fn_class is not _GeneratorFeedFn:
            raise NotImplementedError("padding is only available with generator usage")
        if shuffle and padded:
            raise NotImplementedError("padding and shuffling data at the same time is not "
                                      "implemented")
        _warn_threads(shuffle, num_threads, num_epochs)
        if shuffle:
            min_after_dequeue = int(capacity / 4 if min_after_dequeue is None
                                    else min_after_dequeue)
            queue = tf.queue.RandomShuffleQueue(capacity, min_after_dequeue, dtypes=dtypes,
                                                shapes=shapes, seed=seed)
        elif padded:
            min_after_dequeue = 0
            shapes = [tuple(list(s[:-1]) + [None]) if len(s) > 0 else s for s in shapes]
            queue = tf.queue.PaddingFIFOQueue(capacity, dtypes=dtypes, shapes=shapes)
        else:
            min_after_dequeue = 0
            queue = tf.queue.FIFOQueue(capacity, dtypes=dtypes, shapes=shapes)
        enqueue_ops, feed_fns = [], []
        for i in range(num_threads):
            placeholders = [v1.placeholder(t) for t in dtypes]
            enqueue_ops.append(queue.enqueue_many(placeholders))
            extra = dict(pad_value=pad_value) if padded else {}
            feed_fns.append(feed_fn_class(
                placeholders, data, enqueue_size, random_start=shuffle,
                seed=None if seed is None else (i + 1) * seed, num_epochs=num_epochs,
                **extra))
        v1.train.add_queue_runner(_FeedingQueueRunner(queue=queue, enqueue_ops=enqueue_ops,
                                                      feed_fns=feed_fns))
        waiting = capacity - min_after_dequeue
        full = tf.cast(tf.maximum(0, queue.size() - min_after_dequeue),
                       tf.float32) * (1.0 / waiting)
        v1.summary.scalar(f"queue/{queue.name}fraction_over_{min_after_dequeue}_of_"
                          f"{waiting}_full", full)
        return queue
