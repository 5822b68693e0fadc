"""tf.contrib.timeseries' anomaly mixture against TF 1.15.5, and tensorflow_estimator 2.15's
canned.timeseries names against 2.15: the AnomalyMixtureARModel cases of
tests/tf115_cases/contrib_timeseries_anomaly.py (fixed weights: Gaussian and Cauchy mixture
losses in training and evaluation, predictions, end state, `predict`, the anomaly scale's
variable, ARRegressor's model and errors) compared with TF 1.15's record
(tests/fixtures/tf115_cases/contrib_timeseries_anomaly.json); ARRegressor with the mixture
trained, evaluated (its eval event file's tags) and predicting as TF 1.15 did
(contrib_timeseries_anomaly_estimator.json); 2.15's timeseries privates, and its LSTM ARModel
and LSTMAutoRegressor (timeseries_lstm_215.json)."""
import json
import os
import pathlib
import re

import numpy as np
import pytest
import tensorflow as tf
from tf115_cases import harness

MODULE = "contrib_timeseries_anomaly"
FIXTURE = harness.FIXTURES + "/contrib_timeseries_anomaly_estimator.json"
LSTM_FIXTURE = harness.FIXTURES + "/timeseries_lstm_215.json"

ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_anomaly_regressor_program_as_tf115(tmp_path):
    """ARRegressor(anomaly_prior_probability=0.001, Gaussian anomalies) on a periodic series
    with three spikes, 200 steps of random windows (tests/tf115_cases/
    timeseries_anomaly_record.py): TF 1.15.5's 23 checkpoint names and shapes (with
    `model/anomaly_log_param` and its Adagrad slot), an evaluation loss in TF 1.15's range
    (0.68-0.91 over 4 runs of each of graph seeds 1-5: the reader threads make runs differ as
    much as seeds do; here 0.67-0.82 over 20 runs of seed 1, and 0.904 once in CI) and a
    learned anomaly scale (TF 1.15: log 0.62-1.22 over 20 runs), the same evaluate / predict
    keys and shapes, and the eval event file's tags as TF 1.15 wrote them: scalars, the
    predictions and times as tensors, no `start_tuple`."""
    import estimator_compat
    from estimator_compat.legacy import contrib
    from tf115_cases import timeseries_anomaly_record as record
    want = json.loads(pathlib.Path(FIXTURE).read_text())
    model_dir, evaluation, prediction = record.run(contrib.build().timeseries,
                                                   estimator_compat.RunConfig, seed=1)
    assert {n: s for n, s in tf.train.list_variables(model_dir)} == want["names"]
    losses = [loss for runs in want["loss"].values() for loss in runs]
    assert min(losses) - 0.08 < evaluation["loss"] < max(losses) + 0.08, evaluation["loss"]
    assert 0.4 < tf.train.load_variable(model_dir, "model/anomaly_log_param") < 1.6
    assert record.shapes(evaluation) == want["eval"]
    assert record.shapes(prediction) == want["pred"]
    assert record.event_tags(os.path.join(model_dir, "eval")) == want["events"]


def test_tensorflow_estimator_215_timeseries_privates():
    """tensorflow_estimator 2.15's canned.timeseries privates as 2.15 ran them (TF 2.15.1,
    graph mode): `model_utils.fully_connected`'s `<name>_weight` / `<name>_bias` (Glorot
    uniform, zeros; relu by default), the identity metrics' local variables
    `<name>_identity_metric` and `<name>_<i>_identity_metric`, the feature checks' messages,
    `_OverridableStateManager` (a given state to `get_batch_loss`, not in training) under
    FilteringOnlyStateManager. (2.15's own
    `_identity_metric_single` fails on a non-scalar with resource variables and its
    `_canonicalize_numpy_data` raises NameError: TF 1.15's working behaviour is served.)"""
    import estimator_compat
    estimator_compat.install()
    from tensorflow_estimator.python.estimator.canned.timeseries import (
        head, model_utils, saved_model_utils, state_management)
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 30])
        relu = model_utils.fully_connected(x, 30, 40, "fc")
        affine = model_utils.fully_connected(x, 30, 2, "fc2", activation=None)
        assert [(v.op.name, v.shape.as_list()) for v in v1.trainable_variables()] == [
            ("fc_weight", [30, 40]), ("fc_bias", [40]), ("fc2_weight", [30, 2]),
            ("fc2_bias", [2])]
        value, update = head._identity_metric_single("m", tf.constant([[1., 2.]]))
        nested, nested_update = head._identity_metric_nested(
            "st", (tf.constant(4, tf.int64), (tf.constant(1.), tf.constant([2., 3.]))))
        assert [v.op.name for v in v1.local_variables()] == [
            "m_identity_metric", "st_0_identity_metric", "st_1_identity_metric",
            "st_2_identity_metric"]
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
            weight, bias = sess.run(v1.trainable_variables()[:2])
            assert np.abs(weight).max() <= np.sqrt(6 / 70) and not bias.any()
            ones = np.ones([1, 30], np.float32)
            np.testing.assert_allclose(sess.run(relu, {x: ones}),
                                       np.maximum(ones @ weight, 0), rtol=1e-5)
            assert sess.run(affine, {x: ones}).shape == (1, 2)
            sess.run([update, nested_update])
            assert sess.run(value).tolist() == [[1., 2.]]
            got = sess.run(nested)
            assert got[0] == 4 and got[1][0] == 1. and got[1][1].tolist() == [2., 3.]

        features = {"times": tf.zeros([2, 5], tf.int64), "values": tf.zeros([2, 5, 2]),
                    "x": tf.zeros([2, 4])}
        with pytest.raises(ValueError, match=re.escape(
                "Features must have shape (batch dimension, window size, ...) where batch "
                "dimension and window size match the 'times' feature (got shape (2, 4) for "
                "feature 'x' but shape (2, 5) for feature 'times')")):
            head._check_feature_shapes_compatible_with(features, "times", features["times"])
        head._check_feature_shapes_compatible_with(features, "times", features["times"],
                                                   ignore=["x"])
        head._check_feature_shapes_compatible_with(
            {"t": v1.placeholder(tf.int64)}, "times", features["times"])  # unknown rank: ok

        class Model:
            num_features = 2
        for bad, message in [
                (dict(values=features["values"]), "Expected a 'times' feature for "
                 "training/evaluation."),
                (dict(times=features["times"]), "Expected a 'values' feature for "
                 "training/evaluation."),
                (dict(times=tf.zeros([2], tf.int64), values=tf.zeros([2, 5, 1])),
                 "Expected shape (batch dimension, window size) for feature 'times' (got "
                 "shape (2,))"),
                (dict(times=features["times"], values=tf.zeros([2, 5])),
                 "Expected shape (batch dimension, window size, 2) for feature 'values', "
                 "since the model was configured with num_features=2 (got shape (2, 5))"),
                (dict(times=features["times"], values=features["values"],
                      e=tf.zeros([2])), "Features must have shape (batch "
                 "dimension, window size, ...) (got rank 1 for feature 'e')")]:
            with pytest.raises(ValueError, match=re.escape(message)):
                head._check_train_eval_features(bad, Model())
        head._check_train_eval_features({k: features[k] for k in ("times", "values")},
                                        Model())
    assert issubclass(state_management.FilteringOnlyStateManager,
                      state_management._OverridableStateManager)

    class Fake:  # 2.15: a given state goes to get_batch_loss, else to define_loss
        def get_batch_loss(self, features, mode, state):
            return ("batch", sorted(features), mode, state)

        def define_loss(self, features, mode):
            return ("plain", sorted(features), mode)
    base, filtering = (state_management._OverridableStateManager(),
                       state_management.FilteringOnlyStateManager())
    for manager in (base, filtering):
        assert manager.define_loss(Fake(), {"times": 1, "start_tuple": (1,)}, "eval") == (
            "batch", ["times"], "eval", (1,))
        with pytest.raises(ValueError, match="Overriding saved state for training"):
            manager.define_loss(Fake(), {"times": 1, "start_tuple": (1,)}, "train")
    assert filtering.define_loss(Fake(), {"times": 1}, "train") == ("plain", ["times"], "train")
    with pytest.raises(NotImplementedError, match="_define_loss_with_saved_state"):
        base.define_loss(Fake(), {"times": 1}, "eval")  # 2.15: returned None
    assert issubclass(state_management._OverridableStateManager,
                      state_management.PassthroughStateManager)
    data = saved_model_utils._canonicalize_numpy_data(
        {"times": np.arange(3), "values": np.arange(3.)}, require_single_batch=True)
    assert data["times"].shape == (1, 3) and data["values"].shape == (1, 3, 1)
    assert head._NoStatePredictOutput.__mro__[1].__name__ == "PredictOutput"


def test_tensorflow_estimator_215_lstm_autoregression(tmp_path):
    """tensorflow_estimator 2.15's canned.timeseries ARModel (its LSTMPredictionModel, 3 units)
    and LSTMAutoRegressor as 2.15 ran them (tests/tf115_cases/timeseries_lstm_record_215.py):
    with every weight fixed, the same variables (2.15's Keras 2 names), training and
    evaluation losses, predictions, end state and predict continuation; LSTMAutoRegressor's
    checkpoint after 3 Adam steps has 2.15's 46 names and shapes (`head/beta1_power` too)."""
    import estimator_compat
    estimator_compat.install()
    from tensorflow_estimator.python.estimator.canned.timeseries import ar_model, estimators
    from tf115_cases import timeseries_lstm_record_215 as record
    want = json.loads(pathlib.Path(LSTM_FIXTURE).read_text())
    got = record.run(tf, ar_model, estimators, str(tmp_path))
    assert got["variables"] == want["variables"]
    for key, value in want["values"].items():
        harness._close(got["values"][key], value, key, {"rtol": 1e-5, "atol": 1e-6})
    assert got["names"] == want["names"]
    with tf.Graph().as_default():  # 2.15: Keras' LSTM fails on the empty input window
        model = ar_model.ARModel(periodicities=5, input_window_size=0, output_window_size=2,
                                 num_features=1)
        model.initialize_graph()
        with pytest.raises(ValueError, match="input_window_size > 0"):
            model.define_loss({"times": np.arange(2)[None],
                               "values": np.ones([1, 2, 1], np.float32)}, "train")
