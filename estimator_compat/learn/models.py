"""`tf.contrib.learn.models`: TF 1.x's skflow model functions.

`linear_regression(x, y)` / `logistic_regression(x, y)` (and their `_zero_init` forms) make
`weights` and `bias` in the `linear_regression` / `logistic_regression` variable scope, with
histogram summaries of x, y and the variables, and return (predictions, loss) from
`ops.mean_squared_error_regressor` / `ops.softmax_classifier`. `get_rnn_model` and
`bidirectional_rnn` are not served: their error names the replacement.
"""
import tensorflow as tf

from estimator_compat.learn import ops

v1 = tf.compat.v1

__all__ = ["linear_regression", "linear_regression_zero_init", "logistic_regression",
           "logistic_regression_zero_init", "get_rnn_model", "bidirectional_rnn"]


def _variables(x, output_size, dtype, init_mean, init_stddev):
    initializer = None if init_mean is None else v1.random_normal_initializer(
        init_mean, init_stddev, dtype=dtype)
    weights = v1.get_variable("weights", [x.shape[1], output_size], dtype=dtype,
                              initializer=initializer)
    bias = v1.get_variable("bias", [output_size], dtype=dtype, initializer=initializer)
    return weights, bias


def linear_regression(x, y, init_mean=None, init_stddev=1.0):
    """(predictions, mean squared error) of a linear model of `x` for `y`."""
    with v1.variable_scope("linear_regression"):
        scope = v1.get_variable_scope().name
        v1.summary.histogram(f"{scope}.x", x)
        v1.summary.histogram(f"{scope}.y", y)
        output_size = 1 if y.shape.rank == 1 else y.shape[1]
        weights, bias = _variables(x, output_size, x.dtype.base_dtype, init_mean, init_stddev)
        v1.summary.histogram(f"{scope}.weights", weights)
        v1.summary.histogram(f"{scope}.bias", bias)
        return ops.mean_squared_error_regressor(x, y, weights, bias)


def linear_regression_zero_init(x, y):
    return linear_regression(x, y, init_mean=0.0, init_stddev=0.0)


def logistic_regression(x, y, class_weight=None, init_mean=None, init_stddev=1.0):
    """(softmax probabilities, cross entropy) of a linear model of `x` for one-hot `y`;
    `class_weight` (or the graph's `class_weight` collection) scales the logits."""
    with v1.variable_scope("logistic_regression"):
        scope = v1.get_variable_scope().name
        v1.summary.histogram(f"{scope}.x", x)
        v1.summary.histogram(f"{scope}.y", y)
        weights, bias = _variables(x, y.shape[-1], x.dtype.base_dtype, init_mean,
                                   init_stddev)
        v1.summary.histogram(f"{scope}.weights", weights)
        v1.summary.histogram(f"{scope}.bias", bias)
        if class_weight is None:
            collected = v1.get_collection("class_weight")
            class_weight = collected[0] if collected else None
        return ops.softmax_classifier(x, y, weights, bias, class_weight=class_weight)


def logistic_regression_zero_init(x, y):
    return logistic_regression(x, y, init_mean=0.0, init_stddev=0.0)


def get_rnn_model(*args, **kwargs):
    raise NotImplementedError(
        "tf.contrib.learn.models.get_rnn_model (TF 1.x's skflow RNN model_fn) is not provided "
        "by estimator_compat; in TensorFlow 2 use tf.estimator's RNNClassifier "
        "(tf.contrib.estimator.RNNClassifier here) or a Keras model of tf.keras.layers.RNN.")


def bidirectional_rnn(*args, **kwargs):
    raise NotImplementedError(
        "tf.contrib.learn.models.bidirectional_rnn is not provided by estimator_compat; in "
        "TensorFlow 2 use tf.compat.v1.nn.static_bidirectional_rnn (the same computation) or "
        "tf.keras.layers.Bidirectional.")
