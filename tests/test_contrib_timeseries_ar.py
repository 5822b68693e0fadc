"""tf.contrib.timeseries' autoregressive model and Estimators against TF 1.15.5: the ARModel
cases of tests/tf115_cases/contrib_timeseries_ar.py (fixed weights: training and evaluation
losses, predictions, end states, `predict`, errors) compared with TF 1.15's record, and
ARRegressor / TimeSeriesRegressor through this Estimator (tests/fixtures/tf115_cases/
contrib_timeseries_ar_estimators.json), and the program tests/programs/timeseries/."""
import json
import pathlib

import numpy as np
import pytest
import tensorflow as tf
from helpers import signature_summary
from tf115_cases import harness

MODULE = "contrib_timeseries_ar"

ours, test_case_matches_tf115 = harness.case_tests(MODULE)

FIXTURE = harness.FIXTURES + "/contrib_timeseries_ar_estimators.json"


def _shapes(value):
    if isinstance(value, tuple):
        return [list(np.shape(x)) for x in value]
    return list(np.shape(value))


def test_regressors_train_evaluate_predict_as_tf115(tmp_path):
    """ARRegressor (hidden layers, an embedded exogenous column, Adagrad) and
    TimeSeriesRegressor (ARModel with SQUARED_LOSS, Adam, random windows; with
    OneShotPredictionHead) as TF 1.15 ran them (tests/tf115_cases/
    timeseries_ar_estimators_record.py): the same checkpoint names and shapes, the same input
    statistics after 2 steps on one whole window, the same evaluate and predict keys and
    shapes, the same exported signatures and saved_model_utils outputs."""
    from estimator_compat.legacy import contrib
    ts = contrib.build().timeseries
    want = json.loads(pathlib.Path(FIXTURE).read_text())
    t = np.arange(12) * 2 + 5
    data = {"times": t, "c": (t % 3).astype(np.int64),
            "values": np.stack([np.sin(t / 3.0), np.cos(t / 5.0) * 2], -1).astype(np.float32)}
    column = tf.compat.v1.feature_column.embedding_column(
        tf.compat.v1.feature_column.categorical_column_with_identity("c", 3), 2)
    path = str(tmp_path / "a")
    est = ts.ARRegressor(periodicities=6, input_window_size=8, output_window_size=4,
                         num_features=2, hidden_layer_sizes=[3, 2],
                         exogenous_feature_columns=[column], model_dir=path)
    reader = ts.NumpyReader(data)
    est.train(ts.WholeDatasetInputFn(reader), steps=2)
    names = {n: s for n, s in tf.train.list_variables(path)}
    assert names == want["names"]
    for name, value in want["stats"].items():
        np.testing.assert_allclose(tf.train.load_variable(path, name), value, rtol=1e-6)
    evaluation = est.evaluate(ts.WholeDatasetInputFn(reader), steps=1)
    assert {k: _shapes(v) for k, v in evaluation.items()} == want["eval"]
    (prediction,) = est.predict(ts.predict_continuation_input_fn(
        evaluation, steps=3, exogenous_features={"c": np.array([[0, 1, 2]])}))
    assert {k: _shapes(v) for k, v in prediction.items()} == want["pred"]
    _served_as_tf115(ts, est, data, evaluation, prediction, str(tmp_path / "export"), want)

    model = ts.ARModel(periodicities=None, input_window_size=3, output_window_size=1,
                       num_features=2, loss=ts.ARModel.SQUARED_LOSS)
    est = ts.TimeSeriesRegressor(model=model, model_dir=str(tmp_path / "b"))
    est.train(ts.RandomWindowInputFn(reader, window_size=4, batch_size=2), steps=2)
    assert sorted(n for n, _ in tf.train.list_variables(str(tmp_path / "b"))) == want["names2"]
    evaluation = est.evaluate(ts.WholeDatasetInputFn(reader), steps=1)
    assert {k: _shapes(v) for k, v in evaluation.items()} == want["eval2"]
    (prediction,) = est.predict(ts.predict_continuation_input_fn(evaluation, times=[[30, 32]]))
    assert {k: _shapes(v) for k, v in prediction.items()} == want["pred2"]
    _one_shot_as_tf115(ts, data, str(tmp_path), want)
    with pytest.raises(ValueError, match="anomaly_prior_probability is required"):
        ts.ARRegressor(6, 8, 4, 2, anomaly_distribution="gaussian")


def _served_as_tf115(ts, est, data, evaluation, prediction, export_base, want):
    """The export of build_raw_serving_input_receiver_fn has TF 1.15's signatures; through
    saved_model_utils in a TF1 session it filters to the evaluation's state and predicts
    what Estimator.predict did."""
    v1 = tf.compat.v1
    export = est.export_saved_model(export_base, est.build_raw_serving_input_receiver_fn())
    served = dict(data, c=data["c"][:, None])  # the exported `c` is [batch, length, 1]
    with tf.Graph().as_default(), v1.Session() as sess:
        meta = v1.saved_model.loader.load(sess, ["serve"], export)
        assert signature_summary(meta) == want["signatures"]
        utils = ts.saved_model_utils
        cold = utils.cold_start_filter(meta, sess, {k: v[:9] for k, v in served.items()})
        assert {k: _shapes(v) for k, v in cold.items()} == want["cold_start_filter"]
        more = utils.filter_continuation(cold, meta, sess,
                                         {k: v[9:] for k, v in served.items()})
        assert {k: _shapes(v) for k, v in more.items()} == want["filter_continuation"]
        exogenous = {"c": np.array([[[0], [1], [2]]])}
        again = utils.predict_continuation(more, meta, sess, steps=3,
                                           exogenous_features=exogenous)
        assert {k: _shapes(v) for k, v in again.items()} == want["predict_continuation"]
        whole = utils.cold_start_filter(meta, sess, served)
        for number, part in enumerate(evaluation["start_tuple"]):
            np.testing.assert_allclose(whole[f"model_state_{number:02d}"], part, rtol=1e-5,
                                       atol=1e-6)
        from_evaluation = utils.predict_continuation(evaluation, meta, sess, steps=3,
                                                     exogenous_features=exogenous)
        np.testing.assert_allclose(from_evaluation["mean"][0], prediction["mean"], rtol=1e-5,
                                   atol=1e-6)
        np.testing.assert_allclose(again["mean"], from_evaluation["mean"], rtol=1e-4,
                                   atol=1e-5)


def _one_shot_as_tf115(ts, data, directory, want):
    """OneShotPredictionHead: no `start_tuple` in evaluate; the one-shot parsing receiver's
    export serves tf.Examples (8 values, 11 times) to 3 predictions, as TF 1.15's did, and
    they are the Estimator's own predictions after evaluating those 8 values."""
    v1 = tf.compat.v1
    series = {k: data[k] for k in ("times", "values")}
    est = ts.TimeSeriesRegressor(
        model=ts.ARModel(periodicities=6, input_window_size=4, output_window_size=2,
                         num_features=2),
        head_type=ts.OneShotPredictionHead, model_dir=directory + "/c")
    est.train(ts.RandomWindowInputFn(ts.NumpyReader(series), window_size=6, batch_size=2),
              steps=2)
    evaluation = est.evaluate(ts.WholeDatasetInputFn(ts.NumpyReader(series)), steps=1)
    assert sorted(evaluation) == want["one_shot_eval"]
    export = est.export_saved_model(directory + "/export_c",
                                    est.build_one_shot_parsing_serving_input_receiver_fn(
                                        filtering_length=8, prediction_length=3))
    t = data["times"]
    example = tf.train.Example(features=tf.train.Features(feature={
        "times": tf.train.Feature(int64_list=tf.train.Int64List(value=t[:11])),
        "values": tf.train.Feature(float_list=tf.train.FloatList(
            value=data["values"][:8].ravel()))})).SerializeToString()
    with tf.Graph().as_default(), v1.Session() as sess:
        meta = v1.saved_model.loader.load(sess, ["serve"], export)
        sig = meta.signature_def["serving_default"]
        assert {"method": sig.method_name,
                "inputs": {k: [v.dtype, [d.size for d in v.tensor_shape.dim]]
                           for k, v in sig.inputs.items()},
                "outputs": {k: v.dtype for k, v in sig.outputs.items()}} == want[
                    "one_shot_signature"]
        got = sess.run({k: v.name for k, v in sig.outputs.items()},
                       {sig.inputs["examples"].name: [example] * 2})
    assert {k: _shapes(v) for k, v in got.items()} == want["one_shot_served"]
    first = {k: v[:8] for k, v in series.items()}
    state = est.evaluate(lambda: ({k: v[None] for k, v in first.items()}, None), steps=1)
    assert "start_tuple" not in state
    regressor = ts.TimeSeriesRegressor(model=ts.ARModel(
        periodicities=6, input_window_size=4, output_window_size=2, num_features=2),
        model_dir=directory + "/c")
    state = regressor.evaluate(lambda: ({k: v[None] for k, v in first.items()}, None), steps=1)
    (predicted,) = regressor.predict(ts.predict_continuation_input_fn(state, times=[t[8:11]]))
    np.testing.assert_allclose(got["mean"][0], predicted["mean"], rtol=1e-5, atol=1e-6)


def test_timeseries_program_as_tf115(tmp_path):
    """tests/programs/timeseries/predict.py (TF 1.15's examples/predict.py style: ARRegressor,
    periodicity 20, windows 30 + 10, 100 steps of RandomWindowInputFn with one thread and a
    shuffle seed) through `estimator-compat run`. TF 1.15.5 on the same program: evaluation
    loss 0.720-0.755 in 5 runs (its initial weights are unseeded; here 0.714-0.807 in 8), the
    same evaluation keys and shapes, predictions (5, 1) and these 21 checkpoint names."""
    import os
    from helpers import PROGRAMS, run_program
    out, _ = run_program(os.path.join(PROGRAMS, "timeseries", "predict.py"),
                         "--model_dir", tmp_path / "model")
    result = json.loads([x for x in out.splitlines() if x.startswith("RESULT ")][-1][7:])
    assert 0.65 < result["loss"] < 0.85, result["loss"]
    assert result["global_step"] == 100
    assert result["evaluation"] == {
        "average_loss": [], "covariance": [1, 170, 1], "global_step": [], "loss": [],
        "mean": [1, 170, 1], "observed": [1, 170, 1],
        "start_tuple": [[1, 30], [1, 30, 1], [1, 30, 0]], "times": [1, 170]}
    assert result["predictions"] == {"covariance": [5, 1], "mean": [5, 1], "times": [5]}
    model = "model/flat_prediction_model/"
    assert result["variables"] == sorted(
        ["global_step"]
        + ["input_statistics/" + n for n in (
            "overall_feature_mean", "overall_feature_var", "series_start_mean",
            "series_start_variance", "start_time", "total_observation_count")]
        + ["input_statistics_auxiliary/" + n for n in (
            "chunk_count", "example_count", "inter_observation_duration_sum",
            "max_time_seen", "overall_feature_sum", "overall_feature_sum_of_squares")]
        + [model + f"{layer}/{v}{slot}" for layer in ("predicted_mean", "log_sigma_square")
           for v in ("kernel", "bias") for slot in ("", "/Adagrad")])
    # The series rises again after its last values (TF 1.15: 1.91, 2.18, 2.63, 2.79, 2.83).
    assert 1.5 < result["mean"][0] < result["mean"][-1] < 3.3


def test_served_under_tensorflow_estimator_215_paths():
    import estimator_compat
    estimator_compat.install()
    from tensorflow_estimator.python.estimator.canned.timeseries import (
        estimators, math_utils, state_management)
    from tensorflow.contrib.timeseries.python.timeseries import ar_model
    from estimator_compat.legacy.contrib.timeseries import estimators as ours
    assert estimators.TimeSeriesRegressor is ours.TimeSeriesRegressor
    assert math_utils.InputStatisticsFromMiniBatch is not None
    assert state_management.FilteringOnlyStateManager is not None
    assert ar_model.ARModel is not None
    assert estimators.LSTMAutoRegressor is ours.LSTMAutoRegressor  # tests: ..._anomaly.py
