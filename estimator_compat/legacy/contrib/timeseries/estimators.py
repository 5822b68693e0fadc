"""The time series Estimators (TF 1.15's `estimators.TimeSeriesRegressor`, `ARRegressor`):
a `TimeSeriesRegressionHead` over a model, with input statistics from the training batches,
on estimator_compat's Estimator. `evaluate` returns the end state as the `start_tuple`
tuple that `predict_continuation_input_fn` reads; the serving receiver fns export the
predict / filter / cold_start_filter signatures that `saved_model_utils` runs.

ARRegressor with `anomaly_prior_probability` trains an `AnomalyMixtureARModel`
(anomaly_mixture.py); tensorflow_estimator 2.15's `LSTMAutoRegressor` its LSTM ARModel
(lstm_prediction.py)."""
import functools

import tensorflow as tf

from estimator_compat.estimator import Estimator
from estimator_compat.export.receivers import ServingInputReceiver
from estimator_compat.legacy.contrib.timeseries import feature_keys
from estimator_compat.legacy.contrib.timeseries.anomaly_mixture import AnomalyMixtureARModel
from estimator_compat.legacy.contrib.timeseries.ar_model import ARModel, FlatPredictionModel
from estimator_compat.legacy.contrib.timeseries.head import (
    STATE_PART, FilteringOnlyStateManager, OneShotPredictionHead, PassthroughStateManager,
    TimeSeriesRegressionHead, state_to_dictionary)
from estimator_compat.legacy.contrib.timeseries.input_statistics import (
    InputStatisticsFromMiniBatch)

v1 = tf.compat.v1


class TimeSeriesRegressor(Estimator):
    """An Estimator training `model` (an ARModel) with `optimizer` (default Adam 0.02)."""

    def __init__(self, model, state_manager=None, optimizer=None, model_dir=None, config=None,
                 head_type=TimeSeriesRegressionHead):
        statistics = InputStatisticsFromMiniBatch(dtype=model.dtype,
                                                  num_features=model.num_features)
        if state_manager is None:
            state_manager = (FilteringOnlyStateManager() if isinstance(model, ARModel)
                             else PassthroughStateManager())
        if optimizer is None:
            optimizer = v1.train.AdamOptimizer(0.02)
        self._model = model
        head = head_type(model=model, state_manager=state_manager, optimizer=optimizer,
                         input_statistics_generator=statistics)
        super().__init__(model_fn=head.create_estimator_spec, model_dir=model_dir,
                         config=config)

    def _regroup_eval_results(self, results):
        """The evaluation's `start_tuple_0..N` metrics (the end state's parts) put back
        together as the `start_tuple` tuple, as TF 1.15's evaluate returned it (called by the
        eval loop before it writes the summaries, which leave a tuple out as tf.estimator
        did)."""
        results = dict(results)
        parts, number = [], 0
        while STATE_PART.format(number) in results:
            parts.append(results.pop(STATE_PART.format(number)))
            number += 1
        if parts:
            with tf.Graph().as_default():
                self._model.initialize_graph()
                structure = self._model.get_start_state()
            results[feature_keys.FilteringResults.STATE_TUPLE] = tf.nest.pack_sequence_as(
                structure, parts)
        return results

    def _model_start_state_placeholders(self, batch_size_tensor, static_batch_size=None):
        """{`model_state_NN`: placeholder defaulting to the model's start state, tiled}."""
        with tf.Graph().as_default():
            self._model.initialize_graph()
            start_state = tf.nest.map_structure(
                lambda t: tf.get_static_value(tf.zeros_like(t)), self._model.get_start_state())
        placeholders = {}
        for name, state in state_to_dictionary(start_state).items():
            tiled = tf.tile(state[None, ...], tf.concat(
                [batch_size_tensor[None], tf.ones(len(state.shape), dtype=tf.int32)], axis=0))
            placeholders[name] = v1.placeholder_with_default(
                tiled, name=name,
                shape=tf.TensorShape((static_batch_size,)).concatenate(state.shape))
        return placeholders

    def _exogenous_shapes(self):
        """{key: (shape with the batch dimension, dtype)} the exogenous columns parse to."""
        with tf.Graph().as_default():
            spec = v1.feature_column.make_parse_example_spec(self._model.exogenous_feature_columns)
            parsed = tf.io.parse_example(v1.placeholder(shape=[None], dtype=tf.string), spec)
            return {key: (value.shape, value.dtype) for key, value in parsed.items()}

    def build_raw_serving_input_receiver_fn(self, default_batch_size=None,
                                            default_series_length=None):
        """A serving receiver of raw `times` / `values` tensors (`values` may be left out to
        predict), exogenous features, and the state (`model_state_NN`, defaulting to the
        model's start state): the export serves predict, filter and cold_start_filter."""
        def _serving_input_receiver_fn():
            placeholders = {}
            times = v1.placeholder(name=feature_keys.TrainEvalFeatures.TIMES, dtype=tf.int64,
                                   shape=[default_batch_size, default_series_length])
            placeholders[feature_keys.TrainEvalFeatures.TIMES] = times
            placeholders[feature_keys.TrainEvalFeatures.VALUES] = v1.placeholder_with_default(
                name=feature_keys.TrainEvalFeatures.VALUES,
                input=tf.zeros([default_batch_size or 0, default_series_length or 0,
                                self._model.num_features], dtype=self._model.dtype),
                shape=(default_batch_size, default_series_length, self._model.num_features))
            if self._model.exogenous_feature_columns:
                for key, (shape, dtype) in self._exogenous_shapes().items():
                    shape = shape.with_rank_at_least(1).as_list()
                    placeholders[key] = v1.placeholder(
                        dtype=dtype, name=key,
                        shape=[default_batch_size, default_series_length] + shape[1:])
            placeholders.update(self._model_start_state_placeholders(
                tf.shape(times)[0], static_batch_size=default_batch_size))
            return ServingInputReceiver(placeholders, placeholders)
        return _serving_input_receiver_fn

    def build_one_shot_parsing_serving_input_receiver_fn(
            self, filtering_length, prediction_length, default_batch_size=None,
            values_input_dtype=None, truncate_values=False):
        """A serving receiver parsing tf.Examples (`input`) of `filtering_length +
        prediction_length` times and `filtering_length` values (all of them with
        `truncate_values`, the last ones cut off), from the model's start state."""
        if values_input_dtype is None:
            values_input_dtype = tf.float32
        values_length = (filtering_length + prediction_length if truncate_values
                         else filtering_length)
        total = filtering_length + prediction_length

        def _serving_input_receiver_fn():
            columns = list(self._model.exogenous_feature_columns) + [
                v1.feature_column.numeric_column(feature_keys.TrainEvalFeatures.TIMES,
                                                 dtype=tf.int64),
                v1.feature_column.numeric_column(feature_keys.TrainEvalFeatures.VALUES,
                                                 dtype=values_input_dtype,
                                                 shape=(self._model.num_features,))]
            spec = {}
            for key, feature in v1.feature_column.make_parse_example_spec(columns).items():
                if isinstance(feature, tf.io.FixedLenFeature):
                    length = (values_length if key == feature_keys.TrainEvalFeatures.VALUES
                              else total)
                    spec[key] = feature._replace(shape=(length,) + tuple(feature.shape))
                elif feature.dtype == tf.string:
                    spec[key] = tf.io.FixedLenFeature(shape=(total,), dtype=tf.string)
                else:
                    raise ValueError(f"VarLenFeatures not supported, got {feature} for key "
                                     f"{key}")
            examples = v1.placeholder(shape=[default_batch_size], dtype=tf.string,
                                      name="input")
            features = tf.io.parse_example(examples, spec)
            times = feature_keys.TrainEvalFeatures.TIMES
            values = feature_keys.TrainEvalFeatures.VALUES
            features[times] = tf.squeeze(features[times], axis=-1)
            features[values] = tf.cast(features[values],
                                       self._model.dtype)[:, :filtering_length]
            features.update(self._model_start_state_placeholders(
                tf.shape(features[times])[0], static_batch_size=default_batch_size))
            return ServingInputReceiver(features, {"examples": examples})
        return _serving_input_receiver_fn


class ARRegressor(TimeSeriesRegressor):
    """TimeSeriesRegressor over an ARModel with a FlatPredictionModel (default optimizer
    Adagrad 0.1); with `anomaly_prior_probability` (and `anomaly_distribution`, which TF 1.15
    required then), an AnomalyMixtureARModel."""

    def __init__(self, periodicities, input_window_size, output_window_size, num_features,
                 exogenous_feature_columns=None, num_time_buckets=10,
                 loss=ARModel.NORMAL_LIKELIHOOD_LOSS, hidden_layer_sizes=None,
                 anomaly_prior_probability=None, anomaly_distribution=None, optimizer=None,
                 model_dir=None, config=None):
        if anomaly_prior_probability is None and anomaly_distribution is not None:
            raise ValueError("anomaly_prior_probability is required if anomaly_distribution "
                             "is specified.")
        if optimizer is None:
            optimizer = v1.train.AdagradOptimizer(0.1)
        factory = functools.partial(FlatPredictionModel, hidden_layer_sizes=hidden_layer_sizes)
        if anomaly_prior_probability is None:
            model = ARModel(
                periodicities=periodicities, num_features=num_features,
                prediction_model_factory=factory,
                exogenous_feature_columns=exogenous_feature_columns,
                num_time_buckets=num_time_buckets, input_window_size=input_window_size,
                output_window_size=output_window_size, loss=loss)
        else:
            if loss != ARModel.NORMAL_LIKELIHOOD_LOSS:
                raise ValueError("AnomalyMixtureARModel only supports "
                                 "ar_model.ARModel.NORMAL_LIKELIHOOD_LOSS for its loss argument.")
            model = AnomalyMixtureARModel(
                periodicities=periodicities, num_features=num_features,
                prediction_model_factory=factory,
                exogenous_feature_columns=exogenous_feature_columns,
                num_time_buckets=num_time_buckets, input_window_size=input_window_size,
                output_window_size=output_window_size,
                anomaly_prior_probability=anomaly_prior_probability,
                anomaly_distribution=anomaly_distribution)
        super().__init__(model=model, state_manager=FilteringOnlyStateManager(),
                         optimizer=optimizer, model_dir=model_dir, config=config)


class LSTMAutoRegressor(TimeSeriesRegressor):
    """tensorflow_estimator 2.15's LSTM autoregression: its ARModel (an encoder-decoder LSTM
    of `num_units`, `num_timesteps` time buckets per periodicity, `extra_feature_columns` as
    exogenous features) with a OneShotPredictionHead; `optimizer` a tf.compat.v1 optimizer,
    or its name with learning rate 0.01 (default "Adam")."""

    def __init__(self, periodicities, input_window_size, output_window_size, model_dir=None,
                 num_features=1, extra_feature_columns=None, num_timesteps=10,
                 loss=ARModel.NORMAL_LIKELIHOOD_LOSS, num_units=128, optimizer="Adam",
                 config=None):
        from estimator_compat.legacy.contrib.timeseries import lstm_prediction
        from estimator_compat.legacy.estimator_tree.optimizers import get_optimizer_instance
        optimizer = get_optimizer_instance(optimizer, learning_rate=0.01)
        model = lstm_prediction.ARModel(
            periodicities=periodicities, input_window_size=input_window_size,
            output_window_size=output_window_size, num_features=num_features,
            exogenous_feature_columns=extra_feature_columns, num_time_buckets=num_timesteps,
            loss=loss, prediction_model_factory=functools.partial(
                lstm_prediction.LSTMPredictionModel, num_units=num_units))
        super().__init__(model=model, state_manager=FilteringOnlyStateManager(),
                         optimizer=optimizer, model_dir=model_dir, config=config,
                         head_type=OneShotPredictionHead)
