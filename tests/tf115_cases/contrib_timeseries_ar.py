"""tf.contrib.timeseries.ARModel cases (TF 1.x style; Python 3.7 syntax: they also run in TF
1.15.5): the model built in a graph of its own, its variables set to fixed values, then its
training and evaluation losses, predictions, end state and `predict` continuation compared;
with and without time features, input windows shorter and longer than output windows, both
losses; and the errors of misuse.
"""
import numpy as np


def _series(batch, length, features, offset=0):
    times = np.tile(np.arange(length, dtype=np.int64) * 3 + 2 + offset, [batch, 1])
    values = np.sin(times[..., None] / 4.0 + np.arange(features) + np.arange(batch)[:, None, None])
    return {"times": times, "values": values.astype(np.float32)}


def _fixed_weights(tf, fetches):
    """`run(sess)`: every global variable set to a fixed pattern, then `fetches` run."""
    variables = sorted(tf.global_variables(), key=lambda v: v.op.name)
    assigns = []
    for number, variable in enumerate(variables):
        shape = variable.shape.as_list()
        size = int(np.prod(shape))
        value = np.cos(np.arange(size) * 0.37 + number).reshape(shape) * 0.3
        dtype = variable.dtype.base_dtype.as_numpy_dtype
        assigns.append(tf.assign(variable, value.astype(dtype)))

    def run(sess):
        sess.run(assigns)
        return sess.run(fetches)
    return run


def _outputs(tf, outputs):
    return {"loss": outputs.loss, "predictions": outputs.predictions,
            "times": outputs.prediction_times, "state_times": outputs.end_state[0],
            "state_values": outputs.end_state[1],
            "state_exogenous_shape": tf.shape(outputs.end_state[2])}


def _model(tf, **kwargs):
    args = dict(periodicities=[5, 7], input_window_size=4, output_window_size=2, num_features=2,
                num_time_buckets=3)
    args.update(kwargs)
    model = tf.contrib.timeseries.ARModel(**args)
    model.initialize_graph()
    return model


def case_ar_model_train_window(tf):
    model = _model(tf)
    outputs = model.define_loss(_series(3, 6, 2), tf.estimator.ModeKeys.TRAIN)
    return _fixed_weights(tf, _outputs(tf, outputs))


def case_ar_model_train_squared_loss(tf):
    model = _model(tf, loss=tf.contrib.timeseries.ARModel.SQUARED_LOSS)
    outputs = model.define_loss(_series(2, 6, 2), tf.estimator.ModeKeys.TRAIN)
    return _fixed_weights(tf, _outputs(tf, outputs))


def case_ar_model_evaluate_long_series(tf):
    model = _model(tf)
    outputs = model.define_loss(_series(2, 13, 2), tf.estimator.ModeKeys.EVAL)
    return _fixed_weights(tf, _outputs(tf, outputs))


def case_ar_model_evaluate_squared_loss(tf):
    model = _model(tf, loss=tf.contrib.timeseries.ARModel.SQUARED_LOSS, periodicities=9,
                   output_window_size=3)
    outputs = model.define_loss(_series(1, 12, 2), tf.estimator.ModeKeys.EVAL)
    return _fixed_weights(tf, _outputs(tf, outputs))


def case_ar_model_time_features_only(tf):
    model = _model(tf, input_window_size=0, output_window_size=3, num_features=1,
                   periodicities=4)
    outputs = model.define_loss(_series(2, 9, 1), tf.estimator.ModeKeys.EVAL)
    predicted = model.predict({"times": np.array([[30, 31, 32, 33]]),
                               "start_tuple": tuple(np.zeros([1, 0] + s, np.float32)
                                                    for s in ([], [1], [0]))})
    fetches = _outputs(tf, outputs)
    fetches["predict"] = predicted
    return _fixed_weights(tf, fetches)


def case_ar_model_predict_continues(tf):
    model = _model(tf)
    series = _series(2, 8, 2)
    state = (series["times"][:, -4:], series["values"][:, -4:], np.zeros([2, 4, 0], np.float32))
    predicted = model.predict({"times": series["times"][:, -1:] + 3 * np.arange(1, 6),
                               "start_tuple": state})
    return _fixed_weights(tf, predicted)


def case_ar_model_predict_long_output_window(tf):
    model = _model(tf, input_window_size=2, output_window_size=3, periodicities=[])
    series = _series(1, 5, 2)
    state = (series["times"], series["values"], np.zeros([1, 5, 0], np.float32))
    predicted = model.predict({"times": series["times"][:, -1:] + np.arange(1, 8),
                               "start_tuple": state})
    return _fixed_weights(tf, predicted)


def case_ar_model_window_mismatch_raises(tf):
    model = _model(tf)
    model.define_loss(_series(1, 7, 2), tf.estimator.ModeKeys.TRAIN)


def case_ar_model_short_evaluation_raises(tf):
    model = _model(tf)
    model.define_loss(_series(1, 5, 2), tf.estimator.ModeKeys.EVAL)


def case_ar_model_needs_inputs_or_periods(tf):
    tf.contrib.timeseries.ARModel(periodicities=None, input_window_size=0,
                                  output_window_size=1, num_features=1)
