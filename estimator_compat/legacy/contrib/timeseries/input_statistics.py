"""Input statistics of a time series model (TF 1.15's `math_utils.InputStatisticsFromMiniBatch`,
`InputStatistics`, `Moments`): non-trainable variables under `input_statistics/` (the moments
the model normalizes its values with, the series' start time and length) kept up to date by
every training batch from running sums under `input_statistics_auxiliary/`, so a checkpoint
holds the same 12 names TF 1.15's did and evaluation / prediction read the trained values."""
import collections

import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.feature_keys import TrainEvalFeatures

v1 = tf.compat.v1

Moments = collections.namedtuple("Moments", ["mean", "variance"])
InputStatistics = collections.namedtuple("InputStatistics", [
    "series_start_moments", "overall_feature_moments", "start_time", "total_observation_count"])
Auxiliary = collections.namedtuple("Auxiliary", [
    "max_time_seen", "chunk_count", "inter_observation_duration_sum", "example_count",
    "overall_feature_sum", "overall_feature_sum_of_squares"])


def _variable(name, shape, dtype, initializer):
    return v1.get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                           trainable=False)


class InputStatisticsFromMiniBatch:
    """Statistics estimated from the training mini-batches (`starting_variance_window_size`
    values of the earliest chunk give the series' start moments)."""

    def __init__(self, num_features, dtype, starting_variance_window_size=16):
        self._starting_variance_window_size = starting_variance_window_size
        self._num_features = num_features
        self._dtype = tf.as_dtype(dtype)

    def initialize_graph(self, features, update_statistics=True):
        """The `InputStatistics` variables (created here); in training, read after this
        batch's update (with `start_time` at most the batch's earliest time)."""
        times = features.get(TrainEvalFeatures.TIMES)
        values = features.get(TrainEvalFeatures.VALUES)
        if values is None:
            times = None
        n, dtype = self._num_features, self._dtype
        with v1.variable_scope("input_statistics", use_resource=True):
            statistics = InputStatistics(
                series_start_moments=Moments(
                    _variable("series_start_mean", [n], dtype, v1.zeros_initializer()),
                    _variable("series_start_variance", [n], dtype, v1.ones_initializer())),
                overall_feature_moments=Moments(
                    _variable("overall_feature_mean", [n], dtype, v1.zeros_initializer()),
                    _variable("overall_feature_var", [n], dtype, v1.ones_initializer())),
                start_time=_variable("start_time", None, tf.int64, tf.int64.max),
                total_observation_count=_variable("total_observation_count", [], tf.int64,
                                                  v1.ones_initializer()))
        with v1.variable_scope("input_statistics_auxiliary", use_resource=True):
            auxiliary = Auxiliary(
                max_time_seen=_variable("max_time_seen", None, tf.int64, tf.int64.min),
                chunk_count=_variable("chunk_count", [], tf.int64, v1.zeros_initializer()),
                inter_observation_duration_sum=_variable(
                    "inter_observation_duration_sum", [], dtype, v1.zeros_initializer()),
                example_count=_variable("example_count", [], tf.int64, v1.zeros_initializer()),
                overall_feature_sum=_variable("overall_feature_sum", [n], dtype,
                                              v1.zeros_initializer()),
                overall_feature_sum_of_squares=_variable(
                    "overall_feature_sum_of_squares", [n], dtype, v1.zeros_initializer()))
        if not (update_statistics and times is not None):
            return statistics
        update = self._update(statistics, auxiliary, times, values)
        with tf.control_dependencies([update]):
            read = tf.nest.map_structure(tf.identity, statistics)
        return read._replace(start_time=tf.minimum(read.start_time, tf.reduce_min(times)))

    def _update(self, statistics, aux, times, values):
        """Add the batch to the running sums, then recompute the statistics from them."""
        dtype = self._dtype
        values = tf.cast(values, dtype)
        durations = (tf.cast(tf.reduce_max(times, axis=1) - tf.reduce_min(times, axis=1), dtype)
                     / tf.cast(tf.shape(times)[1] - 1, dtype))
        max_time = aux.max_time_seen.assign(
            tf.maximum(aux.max_time_seen, tf.reduce_max(times)))
        sums = tf.group(
            max_time,
            aux.chunk_count.assign_add(tf.shape(times, out_type=tf.int64)[0]),
            aux.inter_observation_duration_sum.assign_add(tf.reduce_sum(durations)),
            aux.example_count.assign_add(tf.size(times, out_type=tf.int64)),
            aux.overall_feature_sum.assign_add(tf.reduce_sum(values, axis=[0, 1])),
            aux.overall_feature_sum_of_squares.assign_add(
                tf.reduce_sum(values ** 2, axis=[0, 1])))
        with tf.control_dependencies([sums]):
            count = tf.cast(aux.example_count.read_value(), dtype)
            mean = aux.overall_feature_sum.read_value() / count
            mean_update = statistics.overall_feature_moments.mean.assign(mean)
            var_update = statistics.overall_feature_moments.variance.assign(
                count / (count - 1.0)
                * (aux.overall_feature_sum_of_squares.read_value() / count - mean ** 2))
            earliest = tf.cast(tf.argmin(times[:, 0]), tf.int32)

            def start_moments():
                start_mean, start_var = tf.nn.moments(
                    values[earliest, :self._starting_variance_window_size], axes=[0])
                return tf.group(statistics.series_start_moments.mean.assign(start_mean),
                                statistics.series_start_moments.variance.assign(start_var))
            start_update = tf.cond(times[earliest, 0] <= statistics.start_time,
                                   start_moments, tf.no_op)
            with tf.control_dependencies([start_update]):
                start_time = statistics.start_time.assign(
                    tf.minimum(statistics.start_time, tf.reduce_min(times)))
            duration = (aux.inter_observation_duration_sum.read_value()
                        / tf.cast(aux.chunk_count.read_value(), dtype))
            count_update = statistics.total_observation_count.assign(tf.cast(tf.round(
                tf.cast(max_time - start_time + 1, dtype) / duration), tf.int64))
            return tf.group(mean_update, var_update, start_update, start_time, count_update)
