"""tf.contrib.timeseries against TF 1.15.5: the cases of tests/tf115_cases/contrib_timeseries.py
(feature keys, readers, input fns, predict_continuation_input_fn) run here and compared with
TF 1.15's record (tests/fixtures/tf115_cases/contrib_timeseries.json); the input fns feeding an
Estimator; the deep import paths."""

import numpy as np
import tensorflow as tf
from tf115_cases import harness

MODULE = "contrib_timeseries"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def _model_fn(features, labels, mode):
    """values = w * times, fit by gradient descent; predictions continue the times."""
    import estimator_compat as ec
    w = tf.compat.v1.get_variable("w", [], initializer=tf.compat.v1.zeros_initializer())
    times = tf.cast(features["times"], tf.float32)
    if mode == ec.ModeKeys.PREDICT:
        return ec.EstimatorSpec(mode, predictions={"mean": w * times, "times": features["times"]})
    loss = tf.reduce_mean(tf.square(w * times[..., None] - features["values"]))
    step = tf.compat.v1.train.get_global_step()
    train = tf.compat.v1.train.GradientDescentOptimizer(1e-3).minimize(loss, step)
    return ec.EstimatorSpec(mode, loss=loss, train_op=train, eval_metric_ops={
        "mean_times": tf.compat.v1.metrics.mean(times),
        "windows": tf.compat.v1.metrics.mean(tf.cast(tf.shape(times)[0], tf.float32))})


def test_input_fns_feed_an_estimator(tmp_path):
    """Train on random windows of a CSV file, evaluate the whole series from numpy arrays and
    predict on with predict_continuation_input_fn: the queue pipelines run in the input's own
    TF1 session (engine/session_input.py), the continuation as one batch that ends predict."""
    import estimator_compat as ec
    from estimator_compat.legacy.contrib import timeseries
    ts = timeseries.build()
    csv = tmp_path / "series.csv"
    csv.write_text("".join(f"{t},{0.5 * t}\n" for t in range(40)))
    est = ec.Estimator(_model_fn, model_dir=str(tmp_path / "model"))
    est.train(ts.RandomWindowInputFn(ts.CSVReader(str(csv)), window_size=8, batch_size=3),
              steps=20)
    series = {"times": np.arange(40), "values": 0.5 * np.arange(40, dtype=np.float32)}
    whole = est.evaluate(ts.WholeDatasetInputFn(ts.NumpyReader(series)), steps=1)
    assert whole["global_step"] == 20 and whole["mean_times"] == 19.5
    assert whole["loss"] < 1e-3 and whole["windows"] == 1
    windows = est.evaluate(ts.RandomWindowInputFn(ts.NumpyReader(series), window_size=8,
                                                  batch_size=3), steps=2)
    assert windows["windows"] == 3
    evaluation = {"times": np.array([[38, 39]]), "start_tuple": (np.zeros([1, 2]),)}
    predictions = list(est.predict(ts.predict_continuation_input_fn(evaluation, steps=3)))
    assert len(predictions) == 1 and predictions[0]["times"].tolist() == [40, 41, 42]
    np.testing.assert_allclose(predictions[0]["mean"], [20.0, 20.5, 21.0], rtol=1e-3)


def test_deep_import_paths():
    from estimator_compat.legacy import contrib
    ts = contrib.build().timeseries
    from tensorflow.contrib.timeseries.python.timeseries import feature_keys, input_pipeline
    assert input_pipeline.NumpyReader is ts.NumpyReader
    assert feature_keys.PredictionFeatures.STATE_TUPLE == "start_tuple"
    from tensorflow.contrib.timeseries.python.timeseries.state_space_models import (
        structural_ensemble)
    assert structural_ensemble.MultiResolutionStructuralEnsemble is not None
    from tensorflow.contrib.timeseries.python.timeseries import estimators, saved_model_utils
    assert estimators.ARRegressor is ts.ARRegressor
    assert saved_model_utils.cold_start_filter is ts.saved_model_utils.cold_start_filter
