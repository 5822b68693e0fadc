"""tensorflow_estimator 2.15's autoregressive model (`canned.timeseries.ar_model.ARModel` and
its default `LSTMPredictionModel`; `LSTMAutoRegressor` in estimators.py trains them).

2.15's ARModel is TF 1.15's (ar_model.py here) with the exact normal negative log likelihood as
its loss and an encoder-decoder LSTM as its default prediction model: an LSTM reads the input
window's features (time features, values, exogenous features), its final state starts a second
LSTM over the output window's features, and two dense layers map each output step to a mean and
a log variance. 2.15 built it of Keras 2 layers; here the same arithmetic (Keras' LSTM: gates
i, f, c, o, sigmoid and tanh, `unit_forget_bias`) runs on `get_variable`s carrying the Keras 2
names, so checkpoints are 2.15's:
`model/lstm_prediction_model/{encoder,decoder}/lstm_cell/{kernel,recurrent_kernel,bias}`,
`model/lstm_prediction_model/{mean,covariance}_transform/{kernel,bias}`."""
import numpy as np
import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries import ar_model

v1 = tf.compat.v1


def _forget_bias_ones(units):
    """Keras' `unit_forget_bias`: zeros, but ones for the forget gate's slice."""
    def initializer(shape, dtype=tf.float32, partition_info=None):
        del shape, partition_info
        return tf.concat([tf.zeros([units], dtype), tf.ones([units], dtype),
                          tf.zeros([2 * units], dtype)], axis=0)
    return initializer


def _lstm(name, inputs, units, initial_state=None):
    """(outputs `[batch, time, units]`, (h, c) after the last step) of a Keras-style LSTM
    over `inputs` `[batch, time, features]` (a static number of steps)."""
    size, dtype = int(inputs.shape[-1]), inputs.dtype
    with v1.variable_scope(name), v1.variable_scope("lstm_cell"):
        kernel = v1.get_variable("kernel", [size, 4 * units], dtype,
                                 initializer=v1.glorot_uniform_initializer())
        recurrent = v1.get_variable("recurrent_kernel", [units, 4 * units], dtype,
                                    initializer=v1.orthogonal_initializer())
        bias = v1.get_variable("bias", [4 * units], dtype, initializer=_forget_bias_ones(units))
    if initial_state is None:
        zeros = tf.zeros(tf.stack([tf.shape(inputs)[0], units]), dtype)
        initial_state = (zeros, zeros)
    h, c = initial_state
    outputs = []
    for step in tf.unstack(inputs, axis=1):
        gates = tf.matmul(step, kernel) + tf.matmul(h, recurrent) + bias
        i, f, candidate, o = tf.split(gates, 4, axis=1)
        c = tf.sigmoid(f) * c + tf.sigmoid(i) * tf.tanh(candidate)
        h = tf.sigmoid(o) * tf.tanh(c)
        outputs.append(h)
    return tf.stack(outputs, axis=1), (h, c)


def _dense(name, inputs, units):
    """A Keras-style Dense on the last axis: `name/kernel`, `name/bias`."""
    size, dtype = int(inputs.shape[-1]), inputs.dtype
    with v1.variable_scope(name):
        kernel = v1.get_variable("kernel", [size, units], dtype,
                                 initializer=v1.glorot_uniform_initializer())
        bias = v1.get_variable("bias", [units], dtype, initializer=v1.zeros_initializer())
    return tf.tensordot(inputs, kernel, axes=[[inputs.shape.ndims - 1], [0]]) + bias


class LSTMPredictionModel:
    """Encoder-decoder LSTM of `num_units`: {"mean", "covariance"} `[batch,
    output_window_size, num_features]` from the input and output windows' features."""

    def __init__(self, num_features, input_window_size, output_window_size, num_units=128):
        self._num_features = num_features
        self._input_window_size = input_window_size
        self._output_window_size = output_window_size
        self._num_units = num_units
        self.name = "lstm_prediction_model"

    def __call__(self, input_window_features, output_window_features):
        if int(input_window_features.shape[1]) == 0:
            raise ValueError("LSTMPredictionModel's encoder needs an input window: use "
                             "input_window_size > 0 (2.15's Keras LSTM failed on an empty "
                             "sequence too).")
        with v1.variable_scope(self.name):
            _, state = _lstm("encoder", input_window_features, self._num_units)
            decoded, _ = _lstm("decoder", output_window_features, self._num_units,
                               initial_state=state)
            mean = _dense("mean_transform", decoded, self._num_features)
            covariance = tf.exp(_dense("covariance_transform", decoded, self._num_features))
        return {"mean": mean, "covariance": covariance}


class ARModel(ar_model.ARModel):
    """2.15's ARModel: TF 1.15's, with LSTMPredictionModel as its default prediction model
    and the exact normal likelihood."""

    def __init__(self, periodicities, input_window_size, output_window_size, num_features,
                 prediction_model_factory=LSTMPredictionModel, num_time_buckets=10,
                 loss=ar_model.ARModel.NORMAL_LIKELIHOOD_LOSS, exogenous_feature_columns=None):
        super().__init__(periodicities=periodicities, input_window_size=input_window_size,
                         output_window_size=output_window_size, num_features=num_features,
                         prediction_model_factory=prediction_model_factory,
                         num_time_buckets=num_time_buckets, loss=loss,
                         exogenous_feature_columns=exogenous_feature_columns)

    def loss_op(self, targets, prediction_ops):
        """2.15's NORMAL_LIKELIHOOD_LOSS is the normal's true negative log density (TF 1.15's
        `normal_log_prob` took half the log of the scale); the squared loss is TF 1.15's."""
        if self.loss != self.NORMAL_LIKELIHOOD_LOSS:
            return super().loss_op(targets, prediction_ops)
        sigma = tf.sqrt(tf.maximum(prediction_ops["covariance"], 1e-5))
        z = (targets - prediction_ops["mean"]) / sigma
        log_prob = -0.5 * tf.square(z) - tf.math.log(sigma) - 0.5 * float(np.log(2.0 * np.pi))
        loss = -tf.reduce_sum(log_prob)
        return loss / tf.cast(tf.reduce_prod(tf.shape(targets)), loss.dtype)
