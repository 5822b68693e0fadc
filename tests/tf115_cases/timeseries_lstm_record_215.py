"""Records tensorflow_estimator 2.15's LSTM autoregression (canned.timeseries: ARModel with
its LSTMPredictionModel, LSTMAutoRegressor) for tests/test_contrib_timeseries_anomaly.py:
the model in a graph of its own with every variable set to a fixed pattern (by name), its
variables' names and shapes, training and evaluation losses (both losses), predictions and end
state, and `predict`'s continuation; then LSTMAutoRegressor's checkpoint names and shapes after
3 steps.
(2.15's LSTMAutoRegressor cannot evaluate: its identity metrics fail on non-scalar values.)
In the TF 2.15 side venv (TF 2.15.1, tensorflow-estimator 2.15), from the project root:

    python tests/tf115_cases/timeseries_lstm_record_215.py \
        > tests/fixtures/tf115_cases/timeseries_lstm_215.json

`run(tf, ar_model, estimators, model_dir)` is shared with the test, which runs it on the
modules estimator_compat serves at the same paths.
"""
import functools
import json
import sys
import tempfile

import numpy as np


def series(batch, length, features, offset=0):
    times = np.tile(np.arange(length, dtype=np.int64) * 3 + 2 + offset, [batch, 1])
    values = np.sin(times[..., None] / 4.0 + np.arange(features) + np.arange(batch)[:, None, None])
    return {"times": times, "values": values.astype(np.float32)}


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in sorted(value.items())}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return np.asarray(value, np.float64).tolist()


def _model_outputs(tf, ar_model, loss="normal_likelihood_loss"):
    """{name: fetched value} of the fixed-weight model, and its variables."""
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        model = ar_model.ARModel(
            periodicities=[5, 7], input_window_size=4, output_window_size=2, num_features=2,
            num_time_buckets=3, loss=loss, prediction_model_factory=functools.partial(
                ar_model.LSTMPredictionModel, num_units=3))
        model.initialize_graph()
        train = model.define_loss(series(3, 6, 2), "train")
        evaluation = model.define_loss(series(2, 13, 2), "eval")
        data = series(2, 8, 2)
        state = (data["times"][:, -4:], data["values"][:, -4:], np.zeros([2, 4, 0], np.float32))
        predicted = model.predict({"times": data["times"][:, -1:] + 3 * np.arange(1, 6),
                                   "start_tuple": state})
        variables = sorted(v1.global_variables(), key=lambda v: v.op.name)
        assigns = []
        for number, variable in enumerate(variables):
            shape = variable.shape.as_list()
            value = np.cos(np.arange(int(np.prod(shape))) * 0.37 + number).reshape(shape) * 0.3
            assigns.append(v1.assign(variable, value.astype(np.float32)))
        fetches = {"train_loss": train.loss, "train_mean": train.predictions["mean"],
                   "train_covariance": train.predictions["covariance"],
                   "eval_loss": evaluation.loss, "eval_mean": evaluation.predictions["mean"],
                   "eval_covariance": evaluation.predictions["covariance"],
                   "eval_state_values": evaluation.end_state[1], "predict": predicted}
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(assigns)
            values = sess.run(fetches)
        names = [[v.op.name, v.shape.as_list()] for v in v1.global_variables()]
    return _plain(values), names


def run(tf, ar_model, estimators, model_dir):
    out = {}
    out["values"], out["variables"] = _model_outputs(tf, ar_model)
    squared, _ = _model_outputs(tf, ar_model, loss="squared_loss")
    out["values"].update({"squared_" + k: squared[k] for k in ("train_loss", "eval_loss")})
    est = estimators.LSTMAutoRegressor(periodicities=12, input_window_size=6,
                                       output_window_size=2, num_units=4, model_dir=model_dir)
    t = np.arange(60)
    v = np.sin(2 * np.pi * t / 12).astype(np.float32)
    starts = [0, 10, 20, 33]
    windows = {"times": np.stack([t[s:s + 8] for s in starts]),
               "values": np.stack([v[s:s + 8] for s in starts])[..., None]}
    est.train(lambda: tf.data.Dataset.from_tensors((windows, None)).repeat(), steps=3)
    out["names"] = {n: s for n, s in tf.train.list_variables(model_dir)}
    return out


def main():
    import tensorflow as tf
    from tensorflow_estimator.python.estimator.canned.timeseries import ar_model, estimators
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
    json.dump(run(tf, ar_model, estimators, tempfile.mkdtemp()), sys.stdout, indent=1,
              sort_keys=True)


if __name__ == "__main__":
    main()
