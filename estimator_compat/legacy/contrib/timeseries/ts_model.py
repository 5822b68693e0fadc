"""The time series model base (TF 1.15's `model.TimeSeriesModel`, `ModelOutputs`): what the
head needs of a model (`initialize_graph` with the input statistics, `define_loss`,
`predict`, `get_start_state`), the normalization by the statistics' overall moments, and
exogenous feature columns embedded per time step."""
import abc
import collections

import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.feature_keys import TrainEvalFeatures

v1 = tf.compat.v1

ModelOutputs = collections.namedtuple(
    "ModelOutputs", ["loss", "end_state", "predictions", "prediction_times"])


def replicate_state(start_state, batch_size):
    """Each state element tiled along a new leading batch dimension."""
    def tile(state):
        return tf.tile(state[None], tf.concat([[batch_size], tf.ones([tf.rank(state)],
                                                                       tf.int32)], 0))
    return tf.nest.map_structure(tile, start_state)


class TimeSeriesModel(metaclass=abc.ABCMeta):
    """Base class of the models a TimeSeriesRegressor trains."""

    def __init__(self, num_features, exogenous_feature_columns=None, dtype=tf.float32):
        self._exogenous_feature_columns = list(exogenous_feature_columns or [])
        self.num_features = num_features
        self.dtype = tf.as_dtype(dtype)
        self._input_statistics = None
        self._graph_initialized = False
        self._stats_means = None
        self._stats_sigmas = None

    @property
    def exogenous_feature_columns(self):
        return self._exogenous_feature_columns

    def generate(self, number_of_series, series_length, model_parameters=None, seed=None):
        raise NotImplementedError("This model does not support generation.")

    def initialize_graph(self, input_statistics=None):
        """Per graph (each Estimator call): the statistics to normalize with, or None."""
        self._graph_initialized = True
        self._input_statistics = input_statistics
        if input_statistics:
            self._stats_means, variances = input_statistics.overall_feature_moments
            self._stats_sigmas = tf.sqrt(variances)

    def _scale_data(self, data):
        if self._input_statistics is None:
            return data
        return (data - self._stats_means) / self._stats_sigmas

    def _scale_variance(self, variance):
        if self._input_statistics is None:
            return variance
        return variance / self._input_statistics.overall_feature_moments.variance

    def _scale_back_data(self, data):
        if self._input_statistics is None:
            return data
        return data * self._stats_sigmas + self._stats_means

    def _scale_back_variance(self, variance):
        if self._input_statistics is None:
            return variance
        return variance * self._input_statistics.overall_feature_moments.variance

    def _check_graph_initialized(self):
        if not self._graph_initialized:
            raise ValueError(
                "TimeSeriesModels require initialize_graph() to be called before use. This "
                "defines variables and ops in the default graph, and allows Tensor-valued "
                "input statistics to be specified.")

    def define_loss(self, features, mode):
        """get_batch_loss from the start state, replicated over the batch."""
        self._check_graph_initialized()
        state = replicate_state(self.get_start_state(),
                                tf.shape(features[TrainEvalFeatures.TIMES])[0])
        return self.get_batch_loss(features=features, mode=mode, state=state)

    @abc.abstractmethod
    def get_start_state(self):
        """The state before any data, without a batch dimension."""

    @abc.abstractmethod
    def get_batch_loss(self, features, mode, state):
        """ModelOutputs for a batch of windows."""

    @abc.abstractmethod
    def predict(self, features):
        """Predictions for PredictionFeatures.TIMES after PredictionFeatures.STATE_TUPLE."""

    def _get_exogenous_embedding_shape(self):
        """The embedded exogenous features' shape, without the batch dimension."""
        if not self._exogenous_feature_columns:
            return (0,)
        with tf.Graph().as_default():
            spec = tf.compat.v1.feature_column.make_parse_example_spec(
                self._exogenous_feature_columns)
            parsed = tf.io.parse_example(
                serialized=v1.placeholder(shape=[None], dtype=tf.string), features=spec)
            embedded = v1.feature_column.input_layer(
                features=parsed, feature_columns=self._exogenous_feature_columns)
            return embedded.shape.as_list()[1:]

    def _process_exogenous_features(self, times, features):
        """The exogenous columns embedded as `[batch, window, size]`, or None."""
        if not self._exogenous_feature_columns:
            return None
        flat = {}
        for name, tensor in features.items():
            if tensor.shape.ndims is None:
                raise ValueError(f"Features with unknown rank are not supported. Got shape "
                                 f"{tensor.shape} for feature {name}.")
            shape = tf.shape(tensor)
            tensor = tf.reshape(tensor, tf.concat([[shape[0] * shape[1]], shape[2:]], axis=0))
            flat[name] = (tensor[:, None] if tensor.shape.ndims == 1
                          and tensor.dtype != tf.string else tensor)
        embedded = v1.feature_column.input_layer(
            features=flat, feature_columns=self._exogenous_feature_columns, trainable=True)
        regressors = tf.reshape(embedded, tf.concat(
            [tf.shape(times), tf.shape(embedded)[1:]], axis=0))
        regressors.set_shape(times.shape.concatenate(embedded.shape[1:]))
        return tf.cast(regressors, self.dtype)
