"""The time series input fns (TF 1.15's `TimeSeriesInputFn`, `WholeDatasetInputFn`,
`RandomWindowInputFn`): an Estimator's `input_fn` returning `(features, None)` with every
feature shaped `[batch, window, ...]`.

`WholeDatasetInputFn` is the reader's whole series as one window (batch 1), for evaluation
before `predict_continuation_input_fn`. `RandomWindowInputFn` cuts the reader's records, in
order, into `window_size` consecutive steps (`jitter` drops a random 0 or 1 record before each
group of windows so windows do not always start at the same offsets), drops windows whose times
decrease (the wrap-around at a series' end; `discard_out_of_order=False` sorts them instead),
and batches them through a shuffling queue (`num_threads=1` with a `shuffle_seed` is
deterministic), as TF 1.15's queues did."""
import abc

import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.feature_keys import TrainEvalFeatures

v1 = tf.compat.v1


class TimeSeriesInputFn(metaclass=abc.ABCMeta):
    """Base of the windowing input fns: calling one is `create_batch()`."""

    @abc.abstractmethod
    def create_batch(self):
        """(features, None), each feature `[batch, window, ...]`."""

    def __call__(self):
        return self.create_batch()


class WholeDatasetInputFn(TimeSeriesInputFn):
    """The reader's full series (`read_full`) as a batch of one window."""

    def __init__(self, time_series_reader):
        self._reader = time_series_reader
        super().__init__()

    def create_batch(self):
        features = self._reader.read_full()
        return {key: value[None, ...] for key, value in features.items()}, None


class RandomWindowInputFn(TimeSeriesInputFn):
    """Random batches of `batch_size` windows of `window_size` consecutive records."""

    def __init__(self, time_series_reader, window_size, batch_size,
                 queue_capacity_multiplier=1000, shuffle_min_after_dequeue_multiplier=2,
                 discard_out_of_order=True, discard_consecutive_batches_limit=1000,
                 jitter=True, num_threads=2, shuffle_seed=None):
        self._reader = time_series_reader
        self._window_size = window_size
        self._reader.check_dataset_size(minimum_dataset_size=window_size)
        self._batch_size = batch_size
        self._queue_capacity_multiplier = queue_capacity_multiplier
        self._shuffle_min_after_dequeue_multiplier = shuffle_min_after_dequeue_multiplier
        self._discard_out_of_order = discard_out_of_order
        self._discard_limit = discard_consecutive_batches_limit
        self._jitter = jitter
        self._num_threads = batch_size if num_threads is None else num_threads
        self._shuffle_seed = shuffle_seed
        super().__init__()

    def _windows(self, features):
        """`batch_size` windows of consecutive records ([batch_size, window_size, ...])."""
        records = self._batch_size * self._window_size
        skip = (tf.random.uniform([], maxval=2, dtype=tf.int32) if self._jitter else 0)
        grouped = v1.train.batch(
            features, batch_size=records + skip, enqueue_many=True,
            capacity=self._queue_capacity_multiplier * records, num_threads=self._num_threads)
        windows = {}
        for key, value in grouped.items():
            rest = value.shape[1:]
            if self._jitter:
                value = value[skip:]
            value = tf.reshape(value, tf.concat(
                [[self._batch_size, self._window_size], tf.shape(value)[1:]], axis=0))
            value.set_shape(tf.TensorShape([self._batch_size, self._window_size]).concatenate(
                rest))
            windows[key] = value
        return windows

    def _keep_in_order(self, windows):
        """(windows, keep): which windows have non-decreasing times; `discard_limit` batches
        in a row without one end the input (the series is too short for the windows)."""
        times = windows[TrainEvalFeatures.TIMES]
        if not self._discard_out_of_order:
            order = tf.argsort(times, axis=1, stable=True)
            return {key: tf.gather(value, order, batch_dims=1)
                    for key, value in windows.items()}, True
        in_order = tf.reduce_all(times[:, 1:] >= times[:, :-1], axis=1)
        limiter = v1.Variable(tf.constant(0, tf.int64), name="discarded_windows_limiter",
                              trainable=False, collections=[v1.GraphKeys.LOCAL_VARIABLES],
                              use_resource=True)  # count_up_to inside tf.cond

        def count_discards():
            return tf.cond(tf.reduce_any(in_order), lambda: limiter.assign(0),
                           lambda: limiter.count_up_to(self._discard_limit))
        checked = tf.cond(v1.is_variable_initialized(limiter), count_discards,
                          lambda: tf.constant(0, tf.int64))
        with tf.control_dependencies([checked]):
            return windows, tf.identity(in_order)

    def create_batch(self):
        windows, keep = self._keep_in_order(self._windows(self._reader.read()))
        batched = v1.train.maybe_shuffle_batch(
            windows, batch_size=self._batch_size, keep_input=keep, enqueue_many=True,
            capacity=self._queue_capacity_multiplier * self._batch_size,
            min_after_dequeue=self._shuffle_min_after_dequeue_multiplier * self._batch_size,
            num_threads=self._num_threads, seed=self._shuffle_seed)
        return batched, None
