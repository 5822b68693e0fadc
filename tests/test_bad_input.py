"""Misuse gets a clear error naming what is wrong; the last good checkpoint stays readable."""
import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from helpers import linear_input_fn, linear_model_fn

v1 = tf.compat.v1


@pytest.mark.parametrize("fn,match", [
    (lambda labels, mode: None, "must include features"),
    (lambda features, labels, mode, extra: None, "not expected args"),
    ("not callable", "callable"),
])
def test_wrong_model_fn_signature(tmp_path, fn, match):
    with pytest.raises(ValueError, match=match):
        ec.Estimator(fn, model_dir=str(tmp_path))


def test_params_given_but_not_accepted(tmp_path):
    with pytest.raises(ValueError, match="does not include params"):
        ec.Estimator(lambda features, labels, mode: None, model_dir=str(tmp_path), params={"a": 1})


def test_model_dir_that_is_a_file(tmp_path):
    path = tmp_path / "file"
    path.write_text("x")
    with pytest.raises(ValueError, match="is a file"):
        ec.Estimator(linear_model_fn, model_dir=str(path))


def test_conflicting_model_dirs(tmp_path):
    with pytest.raises(ValueError, match="both in constructor and RunConfig"):
        ec.Estimator(linear_model_fn, model_dir=str(tmp_path / "a"),
                     config=ec.RunConfig(model_dir=str(tmp_path / "b")))


def test_model_fn_not_returning_spec(tmp_path):
    est = ec.Estimator(lambda features, labels, mode: {"loss": 1}, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="should return an EstimatorSpec"):
        est.train(linear_input_fn(), steps=1)


def test_labels_returned_but_model_fn_takes_none(tmp_path):
    est = ec.Estimator(lambda features, mode: None, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="does not take labels"):
        est.train(linear_input_fn(), steps=1)


def other_model_fn(features, labels, mode):
    w = v1.get_variable("other/w", [3, 1])
    loss = tf.reduce_mean(tf.matmul(features["x"], w) - labels)
    return ec.EstimatorSpec(mode, loss=loss, train_op=v1.train.GradientDescentOptimizer(0.1)
                            .minimize(loss, global_step=v1.train.get_global_step()))


def test_checkpoint_variables_mismatch_names_them(tmp_path):
    ec.Estimator(linear_model_fn, model_dir=str(tmp_path), params={}).train(linear_input_fn(), steps=2)
    est = ec.Estimator(other_model_fn, model_dir=str(tmp_path))
    with pytest.raises(ValueError) as err:
        est.train(linear_input_fn(), steps=1)
    text = str(err.value)
    assert "other/w" in text and "linear/w" in text and "Missing from the checkpoint" in text


def nan_model_fn(features, labels, mode, params):
    w = v1.get_variable("w", [3, 1], initializer=v1.ones_initializer())
    step = v1.train.get_or_create_global_step()
    loss = tf.reduce_mean(tf.matmul(features["x"], w))
    loss = tf.where(step >= params["nan_at"], np.float32(np.nan), loss)
    return ec.EstimatorSpec(mode, loss=loss, train_op=v1.train.GradientDescentOptimizer(0.01)
                            .minimize(loss, global_step=step))


def test_nan_loss_raises_and_keeps_last_good_checkpoint(tmp_path):
    cfg = ec.RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=5)
    est = ec.Estimator(nan_model_fn, config=cfg, params={"nan_at": 7})
    with pytest.raises(ec.NanLossDuringTrainingError):
        est.train(linear_input_fn(), steps=20)
    assert est.latest_checkpoint().endswith("model.ckpt-5")
    assert np.isfinite(est.get_variable_value("w")).all()


def test_global_step_not_incremented(tmp_path):
    def no_step_model_fn(features, labels, mode):
        w = v1.get_variable("w", [3, 1])
        loss = tf.reduce_mean(tf.square(tf.matmul(features["x"], w) - labels))
        return ec.EstimatorSpec(mode, loss=loss,
                                train_op=v1.train.GradientDescentOptimizer(0.1).minimize(loss))
    with pytest.raises(ValueError, match="global_step did not advance.*would never end"):
        ec.Estimator(no_step_model_fn, model_dir=str(tmp_path)).train(linear_input_fn(), steps=3)


def test_global_step_not_incremented_trains_to_end_of_input(tmp_path, caplog):
    """TF 1.x warned and trained on until the input ended (then skipped the final save); the
    trained weights are saved here, under the step that never moved."""
    def no_step_model_fn(features, labels, mode):
        w = v1.get_variable("w", [3, 1], initializer=v1.zeros_initializer())
        loss = tf.reduce_mean(tf.square(tf.matmul(features["x"], w) - labels))
        return ec.EstimatorSpec(mode, loss=loss,
                                train_op=v1.train.GradientDescentOptimizer(0.1).minimize(loss))
    est = ec.Estimator(no_step_model_fn, model_dir=str(tmp_path))
    est.train(linear_input_fn(repeat=False))
    assert "global step (tf.train.get_global_step) has not been increased" in caplog.text
    assert caplog.text.count("has not been increased") == 1
    assert est.latest_checkpoint().endswith("model.ckpt-0")
    np.testing.assert_allclose(est.get_variable_value("w")[:, 0], [1, -2, 0.5], atol=0.3)


def test_reserved_metric_names(tmp_path):
    def model_fn(features, labels, mode):
        spec = linear_model_fn(features, labels, mode, {})
        if mode == "eval":
            return spec._replace(eval_metric_ops={"loss": v1.metrics.mean(spec.loss)})
        return spec
    est = ec.Estimator(model_fn, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="Metric with name 'loss' is not allowed"):
        est.evaluate(linear_input_fn(repeat=False))
