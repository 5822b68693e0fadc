"""A restore is skipped only where the variables already hold that checkpoint: after this
Estimator saved or restored it, with its files unchanged and nothing trained since."""
import shutil

import keras
import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from estimator_compat import checkpoints
from helpers import linear_input_fn, linear_model_fn


@pytest.fixture
def reads(monkeypatch):
    """Paths CheckpointIO read variables from (the real reads, counted)."""
    seen = []
    real = checkpoints.CheckpointIO._read

    def counted(self, path):
        seen.append(path)
        return real(self, path)
    monkeypatch.setattr(checkpoints.CheckpointIO, "_read", counted)
    return seen


def make(model_dir, lr=0.1, seed=None):
    return ec.Estimator(linear_model_fn, params={"lr": lr}, config=ec.RunConfig(
        model_dir=str(model_dir), tf_random_seed=seed, log_step_count_steps=1000))


def evaluate(est):
    return est.evaluate(linear_input_fn(repeat=False))


def test_after_train_evaluate_and_predict_use_the_variables_as_saved(tmp_path, reads):
    est = make(tmp_path)
    est.train(linear_input_fn(), steps=20)
    first, again = evaluate(est), evaluate(est)
    predictions = [p["y"] for p in est.predict(linear_input_fn(repeat=False))]
    est.train(linear_input_fn(), steps=5)  # continues from the saved step without a read
    assert reads == []
    fresh = make(tmp_path)  # another Estimator on the same model_dir reads the checkpoint
    assert evaluate(fresh)["global_step"] == 25
    assert len(reads) == 1
    fresh_20 = fresh.evaluate(linear_input_fn(repeat=False),
                              checkpoint_path=str(tmp_path / "model.ckpt-20"))
    assert first == again
    for key in ("loss", "global_step"):
        np.testing.assert_allclose(first[key], fresh_20[key], rtol=1e-6)
    np.testing.assert_allclose(
        predictions, [p["y"] for p in fresh.predict(
            linear_input_fn(repeat=False), checkpoint_path=str(tmp_path / "model.ckpt-20"))],
        rtol=1e-6)


def test_a_newer_checkpoint_from_another_estimator_is_read(tmp_path, reads):
    est, other = make(tmp_path), make(tmp_path)
    est.train(linear_input_fn(), steps=10)
    evaluate(est)
    other.train(linear_input_fn(), steps=10)  # reads step 10, writes step 20
    assert evaluate(est)["global_step"] == 20
    assert [p.rsplit("-", 1)[1] for p in reads] == ["10", "20"]


def test_a_checkpoint_rewritten_under_the_same_name_is_read_again(tmp_path, reads):
    est = make(tmp_path, seed=1)
    est.train(linear_input_fn(), steps=10)
    before = evaluate(est)
    shutil.rmtree(tmp_path)
    other = make(tmp_path, lr=0.01, seed=2)  # a different model_dir content, same step
    other.train(linear_input_fn(), steps=10)
    after = evaluate(est)
    assert after["global_step"] == 10
    assert after["loss"] != pytest.approx(before["loss"], rel=1e-3)
    np.testing.assert_allclose(after["loss"], evaluate(other)["loss"], rtol=1e-6)


class _Perturb(keras.callbacks.Callback):
    """Changes the weights before evaluation, as a callback may."""

    def on_test_begin(self, logs=None):
        self.model.set_weights([w + 1.0 for w in self.model.get_weights()])


def test_after_a_call_with_callbacks_the_checkpoint_is_read_again(tmp_path, reads):
    est = make(tmp_path)
    est.train(linear_input_fn(), steps=20)
    clean = evaluate(est)
    perturbed = est.evaluate(linear_input_fn(repeat=False), hooks=[_Perturb()])
    assert perturbed["loss"] > clean["loss"] * 2
    assert evaluate(est) == clean  # the callback's change is not kept
    assert len(reads) == 1
