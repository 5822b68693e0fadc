"""tf.contrib.timeseries' AnomalyMixtureARModel cases (TF 1.x style; Python 3.7 syntax: they
also run in TF 1.15.5), the model ARRegressor builds for `anomaly_prior_probability`: built in a
graph of its own, its variables set to fixed values, then its training and evaluation losses
(the normal / anomaly mixture likelihood, Gaussian and Cauchy anomalies), predictions, end state
and `predict` compared; the anomaly scale's variable and initial value; the errors of misuse.
"""
import numpy as np

from tf115_cases.contrib_timeseries_ar import _fixed_weights, _outputs


def _series(batch, length, features, offset=0):
    times = np.tile(np.arange(length, dtype=np.int64) * 3 + 2 + offset, [batch, 1])
    values = np.sin(times[..., None] / 4.0 + np.arange(features) + np.arange(batch)[:, None, None])
    values[:, length // 2] += 4.0  # a spike the anomaly component explains
    return {"times": times, "values": values.astype(np.float32)}


def _model(tf, **kwargs):
    from tensorflow.contrib.timeseries.python.timeseries import ar_model
    args = dict(periodicities=[5, 7], anomaly_prior_probability=0.1, input_window_size=4,
                output_window_size=2, num_features=2, num_time_buckets=3)
    args.update(kwargs)
    model = ar_model.AnomalyMixtureARModel(**args)
    model.initialize_graph()
    return model


def case_gaussian_anomaly_train_window(tf):
    model = _model(tf)
    outputs = model.define_loss(_series(3, 6, 2), tf.estimator.ModeKeys.TRAIN)
    return _fixed_weights(tf, _outputs(tf, outputs))


def case_cauchy_anomaly_train_window(tf):
    model = _model(tf, anomaly_distribution="cauchy", anomaly_prior_probability=0.01)
    outputs = model.define_loss(_series(2, 6, 2), tf.estimator.ModeKeys.TRAIN)
    return _fixed_weights(tf, _outputs(tf, outputs))


def case_gaussian_anomaly_evaluate_long_series(tf):
    model = _model(tf)
    outputs = model.define_loss(_series(2, 13, 2), tf.estimator.ModeKeys.EVAL)
    return _fixed_weights(tf, _outputs(tf, outputs))


def case_cauchy_anomaly_evaluate_one_feature(tf):
    model = _model(tf, anomaly_distribution="cauchy", num_features=1, periodicities=4,
                   input_window_size=3, output_window_size=3)
    outputs = model.define_loss(_series(1, 12, 1), tf.estimator.ModeKeys.EVAL)
    return _fixed_weights(tf, _outputs(tf, outputs))


def case_anomaly_predict_continues(tf):
    model = _model(tf)
    series = _series(2, 8, 2)
    state = (series["times"][:, -4:], series["values"][:, -4:], np.zeros([2, 4, 0], np.float32))
    predicted = model.predict({"times": series["times"][:, -1:] + 3 * np.arange(1, 6),
                               "start_tuple": state})
    return _fixed_weights(tf, predicted)


def case_anomaly_scale_starts_at_one(tf):
    """The anomaly scale's log starts at 0 (the other weights are random: not fetched)."""
    model = _model(tf)
    model.define_loss(_series(1, 6, 2), tf.estimator.ModeKeys.TRAIN)
    (param,) = [v for v in tf.global_variables() if "anomaly" in v.op.name]
    return {"anomaly_log_param": param}


def case_regressor_anomaly_model(tf):
    """ARRegressor's model for anomaly_prior_probability: the mixture, with its loss."""
    est = tf.contrib.timeseries.ARRegressor(
        periodicities=4, input_window_size=2, output_window_size=1, num_features=1,
        anomaly_prior_probability=0.2, anomaly_distribution="cauchy")
    return {"model": type(est._model).__name__, "distribution": est._model._anomaly_distribution,
            "loss": est._model.loss}


def case_regressor_anomaly_needs_distribution(tf):
    """TF 1.15's ARRegressor passes anomaly_distribution=None on: the model's assert fails."""
    tf.contrib.timeseries.ARRegressor(
        periodicities=4, input_window_size=2, output_window_size=1, num_features=1,
        anomaly_prior_probability=0.2)


def case_regressor_anomaly_squared_loss_raises(tf):
    tf.contrib.timeseries.ARRegressor(
        periodicities=4, input_window_size=2, output_window_size=1, num_features=1,
        anomaly_prior_probability=0.2, loss="squared_loss")


def case_anomaly_prior_zero_raises(tf):
    _model(tf, anomaly_prior_probability=0.0)


def case_anomaly_prior_one_raises(tf):
    _model(tf, anomaly_prior_probability=1.0)


def case_anomaly_unknown_distribution_raises(tf):
    _model(tf, anomaly_distribution="laplace")
