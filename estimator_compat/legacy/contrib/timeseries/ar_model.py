"""The autoregressive model (TF 1.15's `ar_model.ARModel` and `FlatPredictionModel`): each
window's last `output_window_size` values are predicted (a mean and, for
`NORMAL_LIKELIHOOD_LOSS`, a variance) from its first `input_window_size` values and from
time-bucket features of every time, on values normalized by the input statistics.

Evaluation walks a longer series in non-overlapping output windows; prediction feeds its own
means back in. Variables are TF 1.15's: `model/flat_prediction_model/{predicted_mean,
log_sigma_square}/{kernel,bias}` (hidden layers `.../sequential/dense[_N]/`)."""
import numpy as np
import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.feature_keys import (
    PredictionFeatures, TrainEvalFeatures)
from estimator_compat.legacy.contrib.timeseries.ts_model import ModelOutputs, TimeSeriesModel

v1 = tf.compat.v1
TRAIN, EVAL = "train", "eval"
_NON_EXOGENOUS = (TrainEvalFeatures.TIMES, TrainEvalFeatures.VALUES,
                  PredictionFeatures.STATE_TUPLE)


def _dense(inputs, units, name, activation=None):
    """A Keras-style Dense layer's variables (`name/kernel`, `name/bias`) by get_variable."""
    with v1.variable_scope(name):
        kernel = v1.get_variable("kernel", [int(inputs.shape[-1]), units], inputs.dtype,
                                 initializer=v1.glorot_uniform_initializer())
        bias = v1.get_variable("bias", [units], inputs.dtype,
                               initializer=v1.zeros_initializer())
    out = tf.nn.bias_add(tf.matmul(inputs, kernel), bias)
    return activation(out) if activation else out


class FlatPredictionModel:
    """Flattened input and output windows through dense layers (optional relu hidden layers),
    to a mean and `exp(log_sigma_square)` variance per output step and feature."""

    def __init__(self, num_features, input_window_size, output_window_size,
                 hidden_layer_sizes=None):
        self._num_features = num_features
        self._output_window_size = output_window_size
        self._hidden_layer_sizes = list(hidden_layer_sizes or [])
        self.name = "flat_prediction_model"

    def __call__(self, input_window_features, output_window_features):
        parts = []
        if input_window_features.shape[1] != 0:
            parts.append(tf.reshape(input_window_features, [
                -1, int(np.prod(input_window_features.shape[1:]))]))
        if output_window_features.shape[2] != 0:
            parts.append(tf.reshape(output_window_features, [
                -1, int(np.prod(output_window_features.shape[1:]))]))
        activation = parts[0] if len(parts) == 1 else tf.concat(parts, axis=1)
        units = self._num_features * self._output_window_size
        shape = [-1, self._output_window_size, self._num_features]
        with v1.variable_scope(self.name):
            if self._hidden_layer_sizes:
                with v1.variable_scope("sequential"):
                    for number, size in enumerate(self._hidden_layer_sizes):
                        activation = _dense(activation, size,
                                            "dense" + (f"_{number}" if number else ""),
                                            activation=tf.nn.relu)
            mean = tf.reshape(_dense(activation, units, "predicted_mean"), shape)
            covariance = tf.reshape(
                tf.exp(_dense(activation, units, "log_sigma_square")), shape)
        return {"mean": mean, "covariance": covariance}


def normal_log_prob(loc, scale, x):
    """TF 1.15's (`math_utils.normal_log_prob`): `-0.5 * (z^2 + log(2 pi) + log(scale))`."""
    z = (x - loc) / scale
    return -0.5 * (tf.square(z) + np.log(2.0 * np.pi) + tf.math.log(scale))


class ARModel(TimeSeriesModel):
    """Autoregressive model over windows of `input_window_size + output_window_size` steps,
    with `num_time_buckets` time features per periodicity."""
    SQUARED_LOSS = "squared_loss"
    NORMAL_LIKELIHOOD_LOSS = "normal_likelihood_loss"

    def __init__(self, periodicities, input_window_size, output_window_size, num_features,
                 prediction_model_factory=FlatPredictionModel, num_time_buckets=10,
                 loss=NORMAL_LIKELIHOOD_LOSS, exogenous_feature_columns=None):
        self._model_factory = prediction_model_factory
        self.input_window_size = input_window_size
        self.output_window_size = output_window_size
        self.window_size = input_window_size + output_window_size
        if loss not in (self.SQUARED_LOSS, self.NORMAL_LIKELIHOOD_LOSS):
            raise ValueError(f"ARModel's loss must be ARModel.SQUARED_LOSS or "
                             f"ARModel.NORMAL_LIKELIHOOD_LOSS, got {loss!r}.")
        self.loss = loss
        super().__init__(num_features=num_features,
                         exogenous_feature_columns=exogenous_feature_columns)
        self.exogenous_size = (self._get_exogenous_embedding_shape()[-1]
                               if exogenous_feature_columns is not None else 0)
        # Bad arguments raise AssertionError (with a message), as TF 1.15's asserts did.
        if not num_time_buckets > 0:
            raise AssertionError(f"num_time_buckets must be positive, got {num_time_buckets}.")
        self._buckets = int(num_time_buckets)
        if not periodicities:
            periodicities = []
        elif not isinstance(periodicities, (list, tuple)):
            periodicities = [periodicities]
        self._periodicities = [int(p) for p in periodicities]
        if any(p <= 0 for p in self._periodicities):
            raise AssertionError(f"periodicities must be positive, got {periodicities}.")
        if not (self._periodicities or input_window_size):
            raise AssertionError("ARModel needs periodicities or a positive input_window_size.")
        if not output_window_size > 0:
            raise AssertionError(
                f"output_window_size must be positive, got {output_window_size}.")

    def initialize_graph(self, input_statistics=None):
        super().initialize_graph(input_statistics=input_statistics)
        with v1.variable_scope("model", use_resource=True) as scope:
            self._model_scope = scope  # absolute `model/`, wherever it is entered again
        self._model_instance = self._model_factory(
            num_features=self.num_features, input_window_size=self.input_window_size,
            output_window_size=self.output_window_size)

    def get_start_state(self):
        return (tf.zeros([self.input_window_size], dtype=tf.int64),
                tf.zeros([self.input_window_size, self.num_features], dtype=self.dtype),
                tf.zeros([self.input_window_size, self.exogenous_size], dtype=self.dtype))

    def random_model_parameters(self, seed=None):
        pass

    def generate(self, number_of_series, series_length, model_parameters=None, seed=None):
        pass

    def _compute_time_features(self, time):
        """(time / periodicities, [batch, window, periods, buckets] offsets into the bucket
        each time falls in, zero elsewhere)."""
        batch_size = tf.shape(time)[0]
        periods = tf.constant(self._periodicities, shape=[1, 1, len(self._periodicities), 1],
                              dtype=time.dtype)
        time = tf.reshape(time, [batch_size, -1, 1, 1])
        window_offset = time / self._periodicities
        mod = (tf.cast(time % periods, self.dtype) * self._buckets
               / tf.cast(periods, self.dtype))
        intervals = tf.reshape(tf.range(self._buckets, dtype=self.dtype),
                               [1, 1, 1, self._buckets])
        mod = tf.nn.relu(mod - intervals)
        return window_offset, tf.where(mod < 1.0, mod, tf.zeros_like(mod))

    def prediction_ops(self, times, values, exogenous_regressors):
        """{"mean", "covariance"} `[batch, output_window_size, num_features]` for windows of
        `times` `[batch, window_size]` and input `values` `[batch, input_window_size, n]`."""
        times.shape.assert_is_compatible_with([None, self.window_size])
        batch_size = tf.shape(times)[0]
        inputs, outputs, input_size, output_size = [], [], 0, 0
        if self._periodicities:
            _, time_features = self._compute_time_features(times)
            count = self._buckets * len(self._periodicities)
            time_features = tf.reshape(time_features, [batch_size, self.window_size, count])
            before, after = tf.split(
                time_features, (self.input_window_size, self.output_window_size), axis=1)
            inputs.append(before)
            outputs.append(after)
            input_size += count
            output_size += count
        if self.input_window_size:
            inputs.append(tf.reshape(values[:, :self.input_window_size, :],
                                     [batch_size, self.input_window_size, self.num_features]))
            input_size += self.num_features
        if self.exogenous_size:
            before, after = tf.split(exogenous_regressors,
                                     (self.input_window_size, self.output_window_size), axis=1)
            inputs.append(before)
            outputs.append(after)
            input_size += self.exogenous_size
            output_size += self.exogenous_size
        inputs = tf.concat(inputs, axis=2)
        outputs = (tf.concat(outputs, axis=2) if outputs else
                   tf.zeros([batch_size, self.output_window_size, 0], dtype=self.dtype))
        static_batch = times.shape[0]
        inputs.set_shape([static_batch, self.input_window_size, input_size])
        outputs.set_shape([static_batch, self.output_window_size, output_size])
        with v1.variable_scope(self._model_scope, reuse=v1.AUTO_REUSE):
            predictions = self._model_instance(inputs, outputs)
        for value in predictions.values():
            value.set_shape([None, self.output_window_size, self.num_features])
        return predictions

    def loss_op(self, targets, prediction_ops):
        """The per-value loss: a normal negative log likelihood or a squared error."""
        prediction = prediction_ops["mean"]
        if self.loss == self.NORMAL_LIKELIHOOD_LOSS:
            sigma = tf.sqrt(tf.maximum(prediction_ops["covariance"], 1e-5))
            loss = -tf.reduce_sum(normal_log_prob(targets, sigma, prediction))
        else:
            loss = tf.reduce_sum(tf.math.squared_difference(prediction, targets))
        return loss / tf.cast(tf.reduce_prod(tf.shape(targets)), loss.dtype)

    def _process_exogenous_features(self, times, features):
        embedded = super()._process_exogenous_features(times=times, features=features)
        if embedded is None:
            return tf.zeros(tf.concat([tf.shape(times), [0]], axis=0))
        return embedded

    def _exogenous(self, times, features):
        return self._process_exogenous_features(
            times=times, features={k: v for k, v in features.items()
                                   if k not in _NON_EXOGENOUS})

    def _process_window(self, features, mode, exogenous_regressors):
        """ModelOutputs of one window of exactly `window_size` steps."""
        times = tf.cast(features[TrainEvalFeatures.TIMES], tf.int64)
        original_values = tf.cast(features[TrainEvalFeatures.VALUES], self.dtype)
        exogenous_regressors = tf.cast(exogenous_regressors, self.dtype)
        if not times.shape.is_compatible_with([None, self.window_size]):
            raise ValueError(
                f"ARModel with input_window_size={self.input_window_size} and "
                f"output_window_size={self.output_window_size} expects feature "
                f"'{TrainEvalFeatures.TIMES}' to have shape (batch_size, {self.window_size}) "
                f"(for any batch_size), but got shape {times.shape}. If you are using "
                f"RandomWindowInputFn, set window_size={self.window_size} or adjust the "
                f"input_window_size and output_window_size arguments to ARModel.")
        values = self._scale_data(original_values)
        inputs = values[:, :self.input_window_size, :] if self.input_window_size else None
        predictions = self.prediction_ops(times, inputs, exogenous_regressors)
        targets = values[:, self.input_window_size:, :]
        if mode == EVAL and self.loss == self.SQUARED_LOSS:
            loss = self.loss_op(self._scale_back_data(targets),
                                {"mean": self._scale_back_data(predictions["mean"])})
        else:
            loss = self.loss_op(targets, predictions)
        return ModelOutputs(
            loss=loss,
            end_state=(times[:, -self.input_window_size:],
                       values[:, -self.input_window_size:, :],
                       exogenous_regressors[:, -self.input_window_size:, :]),
            predictions={"mean": self._scale_back_data(predictions["mean"]),
                         "covariance": self._scale_back_variance(predictions["covariance"]),
                         "observed": original_values[:, -self.output_window_size:]},
            prediction_times=times[:, -self.output_window_size:])

    def get_batch_loss(self, features, mode, state):
        """Train: one window. Eval: the series' last whole output windows, one after the
        other, with the loss averaged over them and the state its last input window."""
        features = {k: tf.convert_to_tensor(v) for k, v in features.items()}
        times = features[TrainEvalFeatures.TIMES]
        exogenous = self._exogenous(times, features)
        if mode == TRAIN:
            return self._process_window(features, mode=mode, exogenous_regressors=exogenous)
        if mode != EVAL:
            raise ValueError(f"Unknown mode '{mode}' passed to get_batch_loss.")
        times.shape.assert_has_rank(2)
        if times.shape[1] is not None and times.shape[1] < self.window_size:
            raise ValueError(
                f"ARModel requires a window of at least input_window_size + "
                f"output_window_size to evaluate on (input_window_size="
                f"{self.input_window_size}, output_window_size={self.output_window_size}, "
                f"and got shape {times.shape} for feature '{TrainEvalFeatures.TIMES}' (batch "
                f"size, window size)).")
        iterations = (tf.shape(times)[1] - self.input_window_size) // self.output_window_size
        output_size = iterations * self.output_window_size
        crop = output_size + self.input_window_size
        features = {k: v[:, -crop:] for k, v in features.items()}
        exogenous = exogenous[:, -crop:]

        def body(i, losses, means, covariances):
            start = i * self.output_window_size
            window = self._process_window(
                {k: v[:, start:start + self.window_size] for k, v in features.items()},
                mode=mode, exogenous_regressors=exogenous[:, start:start + self.window_size])
            return (i + 1, losses.write(i, window.loss),
                    means.write(i, window.predictions["mean"]),
                    covariances.write(i, window.predictions["covariance"]))
        arrays = [tf.TensorArray(self.dtype, size=iterations) for _ in range(3)]
        _, losses, means, covariances = tf.while_loop(
            lambda i, *_: i < iterations, body, [tf.constant(0)] + arrays)
        values = tf.cast(features[TrainEvalFeatures.VALUES], self.dtype)
        shape = [tf.shape(times)[0], output_size, self.num_features]
        state_times, state_values, state_exogenous = state
        if self.input_window_size > 0:
            keep = self.input_window_size
            state_times = tf.concat([state_times, tf.cast(features[TrainEvalFeatures.TIMES],
                                                          tf.int64)], axis=1)[:, -keep:]
            state_times.set_shape((None, keep))
            state_values = tf.concat([state_values, self._scale_data(values)],
                                     axis=1)[:, -keep:, :]
            state_values.set_shape((None, keep, self.num_features))
            state_exogenous = tf.concat([state_exogenous, exogenous], axis=1)[:, -keep:, :]
            state_exogenous.set_shape((None, keep, self.exogenous_size))

        def windows(array):
            return tf.reshape(tf.transpose(array.stack(), [1, 0, 2, 3]), shape)
        return ModelOutputs(
            loss=tf.reduce_mean(losses.stack(), axis=0),
            end_state=(state_times, state_values, state_exogenous),
            predictions={"mean": windows(means), "covariance": windows(covariances),
                         "observed": values[:, -output_size:]},
            prediction_times=features[TrainEvalFeatures.TIMES][:, -output_size:])

    def predict(self, features):
        """{"mean", "covariance"} `[batch, len(times), num_features]` for the
        `PredictionFeatures.TIMES` after the state's window, each output window's means
        fed back as the next inputs."""
        if not self._graph_initialized:
            self.initialize_graph()
        times = tf.cast(tf.convert_to_tensor(features[PredictionFeatures.TIMES]), tf.int32)
        exogenous = self._exogenous(times, features)
        with tf.control_dependencies([v1.assert_equal(tf.shape(times)[1],
                                                      tf.shape(exogenous)[1])]):
            exogenous = tf.identity(exogenous)
        batch_size, count = tf.shape(times)[0], tf.shape(times)[1]
        out = self.output_window_size
        iterations = (count + out - 1) // out
        padding = iterations * out - count
        times = tf.pad(times, [[0, 0], [0, padding]])
        exogenous = tf.pad(exogenous, [[0, 0], [0, padding], [0, 0]])
        state_times, state_values, state_exogenous = features[PredictionFeatures.STATE_TUPLE]
        state_times = tf.cast(tf.convert_to_tensor(state_times), tf.int32)
        state_values = tf.convert_to_tensor(state_values, dtype=self.dtype)
        state_exogenous = tf.convert_to_tensor(state_exogenous, dtype=self.dtype)
        first_times, first_exogenous = times[:, :out], exogenous[:, :out, :]
        first_values = 0
        keep = self.input_window_size
        if keep > 0:
            first_times = tf.concat([state_times[:, -keep:], first_times], 1)
            size = tf.shape(state_values)[1]
            with tf.control_dependencies([
                    v1.assert_greater_equal(size, keep),
                    v1.assert_equal(size, tf.shape(state_times)[1])]):
                first_values = state_values[:, -keep:, :]
                first_exogenous = tf.concat([state_exogenous[:, -keep:, :],
                                             first_exogenous[:, :out, :]], axis=1)
        squared = self.loss == self.SQUARED_LOSS

        def body(i, in_times, in_values, in_exogenous, means, covariances):
            predictions = self.prediction_ops(in_times, in_values, in_exogenous)
            mean = predictions["mean"]
            offset = out * tf.minimum(i + 1, iterations - 1)
            if keep > 0 and out < keep:
                new_values = tf.concat([in_values[:, out:, :], mean], 1)
                new_exogenous = tf.concat([in_exogenous[:, -keep:, :],
                                           exogenous[:, offset:offset + out, :]], axis=1)
                new_times = tf.concat([in_times[:, -keep:], times[:, offset:offset + out]], 1)
            elif keep > 0:
                new_values = mean[:, -keep:, :]
                new_exogenous = exogenous[:, offset - keep:offset + out, :]
                new_times = times[:, offset - keep:offset + out]
            else:
                new_values = in_values
                new_exogenous = exogenous[:, offset:offset + out, :]
                new_times = times[:, offset:offset + out]
            new_times.set_shape(first_times.shape)
            new_exogenous.set_shape(first_exogenous.shape)
            if not squared:
                covariances = covariances.write(i, predictions["covariance"])
            return (i + 1, new_times, new_values, new_exogenous, means.write(i, mean),
                    covariances)
        covariances = 0. if squared else tf.TensorArray(self.dtype, size=iterations)
        loop = tf.while_loop(
            lambda i, *_: i < iterations, body,
            [tf.constant(0), first_times, first_values, first_exogenous,
             tf.TensorArray(self.dtype, size=iterations), covariances])
        means, covariances = loop[4], loop[5]

        def unstack(array):
            stacked = tf.transpose(array.stack(), [1, 0, 2, 3])
            return tf.reshape(stacked, tf.stack([batch_size, iterations * out, -1]))[:, :count]
        mean = unstack(means)
        covariance = tf.ones_like(mean) if squared else unstack(covariances)
        return {"mean": self._scale_back_data(mean),
                "covariance": self._scale_back_variance(covariance)}
