"""Sequential models (TF 1.15's `model.SequentialTimeSeriesModel`): a window is walked one
time step at a time (a `tf.while_loop` over TensorArrays, or unrolled for short static windows
with `static_unrolling_window_size_threshold`), each step imputing the state across the gap
since the last time, applying exogenous features, predicting, then filtering the observation.
`per_step_batch_loss` returns the state after every step (what ChainingStateManager caches);
`get_batch_loss` the last one."""
import abc

import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.feature_keys import (
    PredictionFeatures, TrainEvalFeatures)
from estimator_compat.legacy.contrib.timeseries.ts_model import ModelOutputs, TimeSeriesModel

v1 = tf.compat.v1


class _ListArray:
    """A Python list with TensorArray's `write`, for statically unrolled windows."""

    def __init__(self):
        self.values = []

    def write(self, position, value):
        del position
        self.values.append(value)
        return self


class SequentialTimeSeriesModel(TimeSeriesModel, metaclass=abc.ABCMeta):
    """A recurrent generative model: subclasses give the filtering, prediction, imputation
    and exogenous steps."""

    def __init__(self, train_output_names, predict_output_names, num_features,
                 normalize_features=False, dtype=tf.float32, exogenous_feature_columns=None,
                 exogenous_update_condition=None, static_unrolling_window_size_threshold=None):
        super().__init__(num_features=num_features, dtype=dtype,
                         exogenous_feature_columns=exogenous_feature_columns)
        self._exogenous_update_condition = exogenous_update_condition
        self._train_output_names = train_output_names
        self._predict_output_names = predict_output_names
        self._normalize_features = normalize_features
        self._static_unrolling_window_size_threshold = static_unrolling_window_size_threshold

    def _scale_back_predictions(self, predictions):
        raise NotImplementedError(
            "SequentialTimeSeriesModel normalized input data (normalize_features=True), but no "
            "method was provided to transform the predictions back to the input scale.")

    @abc.abstractmethod
    def _filtering_step(self, current_times, current_values, state, predictions):
        """(state given the values, outputs with a "loss")."""

    @abc.abstractmethod
    def _prediction_step(self, current_times, state):
        """(state at current_times, prediction outputs)."""

    @abc.abstractmethod
    def _imputation_step(self, current_times, state):
        """The state carried up to (not including) current_times."""

    @abc.abstractmethod
    def _exogenous_input_step(self, current_times, current_exogenous_regressors, state):
        """The state updated with this step's exogenous regressors."""

    def _loss_additions(self, times, values, mode):
        del times, values, mode
        return 0.

    def _window_initializer(self, times, state):
        pass

    def get_batch_loss(self, features, mode, state):
        loss, state, outputs = self.per_step_batch_loss(features, mode, state)
        state = tf.nest.pack_sequence_as(
            state, [element[:, -1] for element in tf.nest.flatten(state)])
        outputs["observed"] = features[TrainEvalFeatures.VALUES]
        return ModelOutputs(loss=loss, end_state=state, predictions=outputs,
                            prediction_times=features[TrainEvalFeatures.TIMES])

    def _apply_exogenous_update(self, current_times, step_number, state, raw_features,
                                embedded_exogenous_regressors):
        if embedded_exogenous_regressors is None:
            return state
        updated = self._exogenous_input_step(
            current_times=current_times,
            current_exogenous_regressors=embedded_exogenous_regressors[:, step_number, :],
            state=state)
        if self._exogenous_update_condition is None:
            return updated
        current_features = {
            key: value[:, step_number] for key, value in raw_features.items()
            if key not in (PredictionFeatures.STATE_TUPLE, TrainEvalFeatures.TIMES,
                           TrainEvalFeatures.VALUES)}
        condition = self._exogenous_update_condition(times=current_times,
                                                     features=current_features)
        return tf.nest.pack_sequence_as(state, [
            v1.where(condition, new, old)
            for new, old in zip(tf.nest.flatten(updated), tf.nest.flatten(state))])

    def per_step_batch_loss(self, features, mode, state):
        """(loss per observation plus `_loss_additions`, the state after each step
        `[batch, window, ...]`, the outputs of each step)."""
        self._check_graph_initialized()
        times = tf.cast(features[TrainEvalFeatures.TIMES], tf.int64)
        values = tf.cast(features[TrainEvalFeatures.VALUES], self.dtype)
        if self._normalize_features:
            values = self._scale_data(values)
        exogenous = self._process_exogenous_features(times=times, features={
            key: value for key, value in features.items()
            if key not in (TrainEvalFeatures.TIMES, TrainEvalFeatures.VALUES)})

        def _step(step_number, current_times, state):
            state = self._apply_exogenous_update(
                step_number=step_number, current_times=current_times, state=state,
                raw_features=features, embedded_exogenous_regressors=exogenous)
            predicted_state, predictions = self._prediction_step(
                current_times=current_times, state=state)
            return self._filtering_step(current_times=current_times,
                                        current_values=values[:, step_number, :],
                                        state=predicted_state, predictions=predictions)

        state, outputs = self._state_update_loop(
            times=times, state=state, state_update_fn=_step,
            outputs=["loss"] + self._train_output_names)
        outputs["loss"].set_shape(times.shape)
        loss = tf.reduce_sum(outputs.pop("loss")) / tf.cast(
            tf.reduce_prod(tf.shape(times)), self.dtype)
        loss += self._loss_additions(times, values, mode)
        if self._normalize_features:
            outputs = self._scale_back_predictions(outputs)
        return loss, state, outputs

    def predict(self, features):
        """The prediction step repeated over `PredictionFeatures.TIMES` from its state."""
        times = tf.cast(features[PredictionFeatures.TIMES], tf.int64)
        exogenous = self._process_exogenous_features(times=times, features={
            key: value for key, value in features.items()
            if key not in (PredictionFeatures.TIMES, PredictionFeatures.STATE_TUPLE)})

        def _step(step_number, current_times, state):
            state = self._apply_exogenous_update(
                step_number=step_number, current_times=current_times, state=state,
                raw_features=features, embedded_exogenous_regressors=exogenous)
            return self._prediction_step(current_times=current_times, state=state)

        _, predictions = self._state_update_loop(
            times=times, state=features[PredictionFeatures.STATE_TUPLE],
            state_update_fn=_step, outputs=self._predict_output_names)
        if self._normalize_features:
            predictions = self._scale_back_predictions(predictions)
        return predictions

    def _state_update_loop(self, times, state, state_update_fn, outputs):
        """(the state after each step, {output: [batch, window, ...]})."""
        times = tf.convert_to_tensor(times, dtype=tf.int64)
        static_window = times.shape[1]
        threshold = self._static_unrolling_window_size_threshold
        static_unroll = (threshold is not None and static_window is not None
                         and static_window <= threshold)
        self._window_initializer(times, state)
        window_size = tf.shape(times)[1]

        def _one_step(step_number, state, state_arrays, output_arrays, reuse=False):
            with v1.variable_scope("state_update_step", reuse=reuse):
                current_times = times[:, step_number]
                state = self._imputation_step(current_times=current_times, state=state)
                step_state, values = state_update_fn(step_number=step_number,
                                                     current_times=current_times, state=state)
                assert set(values) == set(outputs)
                output_arrays = [array.write(step_number, values[key])
                                 for key, array in zip(outputs, output_arrays)]
                flat = []
                new_arrays = []
                for value, array, original in zip(tf.nest.flatten(step_state), state_arrays,
                                                  tf.nest.flatten(state)):
                    value.set_shape(original.shape)
                    flat.append(value)
                    new_arrays.append(array.write(step_number, value))
                return (step_number + 1, tf.nest.pack_sequence_as(state, flat), new_arrays,
                        output_arrays)

        def _array(dtype):
            if static_unroll:
                return _ListArray()
            return tf.TensorArray(dtype=dtype, size=window_size, dynamic_size=False)

        arguments = [tf.zeros([], tf.int32), state,
                     [_array(element.dtype) for element in tf.nest.flatten(state)],
                     [_array(self.dtype) for _ in outputs]]
        if static_unroll:
            for step_number in range(static_window):
                arguments = _one_step(tf.constant(step_number, tf.int32), *arguments[1:],
                                      reuse=step_number > 0)
        else:
            arguments = tf.while_loop(cond=lambda step_number, *_: step_number < window_size,
                                      body=_one_step, loop_vars=arguments)
        _, _, state_arrays, output_arrays = arguments

        def _stack(array):
            if static_unroll:
                return tf.stack(array.values, axis=1)
            stacked = array.stack()
            return tf.transpose(stacked, tf.concat([[1, 0], tf.range(2, tf.rank(stacked))], 0))

        return (tf.nest.pack_sequence_as(state, [_stack(array) for array in state_arrays]),
                {key: _stack(array) for key, array in zip(outputs, output_arrays)})
