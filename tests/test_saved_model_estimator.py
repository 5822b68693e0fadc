"""SavedModelEstimator (tf.contrib.estimator; tensorflow_estimator 2.15's
canned.saved_model_estimator) against TF 1.15.5.

`fixtures/saved_model_estimator/tf115_all_modes` is the SavedModel TF 1.15's
`experimental_export_all_saved_models` wrote for a `tf.layers.dense` regression (reference
variables); `tf115_results.json` what TF 1.15's SavedModelEstimator gave on it
(`make_tf115.py` there): evaluate before training, predictions, 2 train steps, evaluate
again, the checkpoint. TF 2.15's SavedModelEstimator gave the same numbers on the same kind
of program. `tf115_momentum` is one with momentum slots. The resource-variable SavedModel
estimator_compat's own export writes is evaluated and predicted from."""
import json
import os

import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from estimator_compat.legacy.contrib.estimator import saved_model_estimator as sme_module
from estimator_compat.legacy.contrib.estimator.saved_model_estimator import SavedModelEstimator

HERE = os.path.join(os.path.dirname(__file__), "fixtures", "saved_model_estimator")
X = np.array([[1., 2.], [3., 4.], [5., 6.], [7., 8.]], np.float32)
Y = np.array([[1.], [2.], [3.], [4.]], np.float32)


def input_fn():
    return tf.data.Dataset.from_tensor_slices(({"x": X}, Y)).batch(2)


def predict_input_fn():
    return tf.data.Dataset.from_tensor_slices({"x": X}).batch(2)


def test_tf115_saved_model_trains_evaluates_and_predicts_as_tf115(tmp_path):
    with open(os.path.join(HERE, "tf115_results.json")) as f:
        want = json.load(f)
    est = SavedModelEstimator(os.path.join(HERE, "tf115_all_modes"), str(tmp_path / "sme"))
    before = est.evaluate(input_fn)
    assert sorted(before) == sorted(want["evaluate_before"])  # loss, metrics/mae, global_step
    for key, value in want["evaluate_before"].items():
        assert before[key] == pytest.approx(value, rel=1e-5), key
    got = [float(p["pred"][0]) for p in est.predict(predict_input_fn)]
    np.testing.assert_allclose(got, want["predict"], rtol=1e-5)
    est.train(input_fn, steps=2)
    after = est.evaluate(input_fn)
    for key, value in want["evaluate_after"].items():
        assert after[key] == pytest.approx(value, rel=1e-5), key
    got = [float(p["pred"][0]) for p in est.predict(predict_input_fn)]
    np.testing.assert_allclose(got, want["predict_after"], rtol=1e-5)
    ckpt = tf.train.latest_checkpoint(est.model_dir)
    assert os.path.basename(ckpt) == want["checkpoint"]  # model.ckpt-4: it went on from step 2
    names = dict(tf.train.list_variables(ckpt))
    assert sorted(names) == sorted(want["variables"])
    for name, value in want["variables"].items():
        np.testing.assert_allclose(tf.train.load_variable(ckpt, name), value, rtol=1e-5)


def test_slot_variables_continue_as_the_original_estimator(tmp_path):
    """TF 1.15's SavedModelEstimator fails on a SavedModel with slot variables ("At least two
    variables have the same name: dense/bias/Momentum"); here the momentum slots come from the
    SavedModel, so 2 steps reach what the original Estimator reached from its checkpoint."""
    with open(os.path.join(HERE, "tf115_results.json")) as f:
        want = json.load(f)["momentum_continued"]
    est = SavedModelEstimator(os.path.join(HERE, "tf115_momentum"), str(tmp_path))
    est.train(input_fn, steps=2)
    got = est.evaluate(input_fn)
    assert got["global_step"] == want["global_step"] == 4
    assert got["loss"] == pytest.approx(want["loss"], rel=1e-5)
    assert got["metrics/mae"] == pytest.approx(want["mae"], rel=1e-5)
    assert sorted(n for n, _ in tf.train.list_variables(est.model_dir)) == [
        "dense/bias", "dense/bias/Momentum", "dense/kernel", "dense/kernel/Momentum",
        "global_step"]


def _model_fn(features, labels, mode):
    w = tf.compat.v1.get_variable("w", [2, 1],
                                  initializer=tf.compat.v1.constant_initializer(0.1))
    pred = tf.matmul(features["x"], w)
    if mode == ec.ModeKeys.PREDICT:
        return ec.EstimatorSpec(mode, predictions={"pred": pred})
    loss = tf.compat.v1.losses.mean_squared_error(labels, pred)
    train_op = tf.compat.v1.train.GradientDescentOptimizer(0.01).minimize(
        loss, global_step=tf.compat.v1.train.get_global_step())
    return ec.EstimatorSpec(mode, loss=loss, train_op=train_op,
                            eval_metric_ops={"mae": tf.compat.v1.metrics.mean_absolute_error(
                                labels, pred)})


def _supervised():
    x = tf.compat.v1.placeholder(tf.float32, [None, 2])
    y = tf.compat.v1.placeholder(tf.float32, [None, 1])
    return ec.experimental.build_raw_supervised_input_receiver_fn({"x": x}, y)()


def _serving():
    return ec.export.build_raw_serving_input_receiver_fn(
        {"x": tf.compat.v1.placeholder(tf.float32, [None, 2])})()


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    base = tmp_path_factory.mktemp("sme")
    est = ec.Estimator(_model_fn, str(base / "orig"))
    est.train(input_fn, steps=2)
    all_modes = est.experimental_export_all_saved_models(
        str(base / "all"), {"train": _supervised, "eval": _supervised, "infer": _serving})
    serve_only = est.export_saved_model(str(base / "serve"), _serving)
    return est, os.fsdecode(all_modes), os.fsdecode(serve_only)


def test_own_export_evaluates_and_predicts_as_the_estimator(exported, tmp_path):
    est, all_modes, _ = exported
    sme = SavedModelEstimator(all_modes, str(tmp_path))
    want = est.evaluate(input_fn)
    got = sme.evaluate(input_fn)
    assert got["global_step"] == want["global_step"] == 2
    assert got["loss"] == pytest.approx(want["loss"])
    assert got["metrics/mae"] == pytest.approx(want["mae"])
    np.testing.assert_allclose([p["pred"] for p in sme.predict(predict_input_fn)],
                               [p["pred"] for p in est.predict(predict_input_fn)], rtol=1e-6)


def test_missing_mode_and_bad_inputs_are_errors(exported):
    _, _, serve_only = exported
    sme = SavedModelEstimator(serve_only)  # model_dir: a temporary directory, as TF's
    assert sme.model_dir and os.path.isdir(sme.model_dir)
    with pytest.raises(RuntimeError, match="train mode is not available in the SavedModel"):
        sme.train(input_fn, steps=1)
    with pytest.raises(RuntimeError, match="eval mode is not available in the SavedModel"):
        sme.evaluate(input_fn)
    with pytest.raises(ValueError, match='Key "x" not found in features or labels'):
        list(sme.predict(lambda: tf.data.Dataset.from_tensor_slices({"y": X}).batch(2)))
    with pytest.raises(ValueError, match="Expected dtype: <dtype: 'float32'>"):
        list(sme.predict(lambda: tf.data.Dataset.from_tensor_slices(
            {"x": X.astype(np.float64)}).batch(2)))
    with pytest.raises(ValueError, match=r"Expected shape: \(None, 2\), Got: \(None, 1\)"):
        list(sme.predict(lambda: tf.data.Dataset.from_tensor_slices({"x": X[:, :1]}).batch(2)))
    with pytest.raises(OSError, match="SavedModel file does not exist"):
        SavedModelEstimator(os.path.join(serve_only, "nothing"))


def test_private_helpers_as_tf215():
    assert sme_module._extract_eval_metrics(
        {"metrics/a/value": 1, "metrics/a/update_op": 2, "metrics/b/value": 3}) == {
            "metrics/a": (1, 2)}
    assert sme_module._validate_and_extract_outputs(
        "train", {"loss": 1, "predictions/p": 2, "metrics/a/value": 3,
                  "metrics/a/update_op": 4, "other": 5}, "tensorflow/supervised/training") == (
            1, {"predictions/p": 2}, {"metrics/a": (3, 4)})
    assert sme_module._validate_and_extract_outputs(
        "infer", {"scores": 1}, "tensorflow/serving/classify") == (None, {"scores": 1}, None)
    with pytest.raises(RuntimeError, match="Invalid SignatureDef method name for mode train"):
        sme_module._validate_and_extract_outputs("train", {"loss": 1},
                                                 "tensorflow/serving/predict")
    path = os.path.join(HERE, "tf115_all_modes")
    assert sme_module._get_saved_model_ckpt(path) == os.path.join(path, "variables",
                                                                    "variables")
    with pytest.raises(ValueError, match="invalid SavedModel format"):
        sme_module._get_saved_model_ckpt(HERE)


def test_served_names():
    import importlib

    from estimator_compat.legacy import tf1_view
    assert tf1_view.build().contrib.estimator.SavedModelEstimator is SavedModelEstimator
    ec.install()
    module = importlib.import_module(
        "tensorflow_estimator.python.estimator.canned.saved_model_estimator")
    assert module.SavedModelEstimator is SavedModelEstimator
    assert module._get_saved_model_ckpt is sme_module._get_saved_model_ckpt
