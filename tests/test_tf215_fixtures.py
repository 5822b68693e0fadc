"""Interop with model_dirs written by the real tf.estimator 2.15 (../shared/fixtures/tf215)."""
import json
import os
import shutil
import sys

import pytest
import tensorflow as tf

import estimator_compat as ec
from helpers import FIXTURES

if not os.path.isdir(FIXTURES):
    pytest.skip("shared/fixtures/tf215 is not beside this checkout", allow_module_level=True)
sys.path.insert(0, FIXTURES)
import model_fns  # noqa: E402

EXPECTED = json.load(open(os.path.join(FIXTURES, "expected.json")))["fixtures"]
CASES = [("tf1_mlp", model_fns.tf1_model_fn), ("keras_mlp", model_fns.keras_model_fn)]


def copy_fixture(name, tmp_path):
    dst = os.path.join(str(tmp_path), name)
    shutil.copytree(os.path.join(FIXTURES, name), dst)
    for root, dirs, files in os.walk(dst):  # the shared folder is read-only in CI
        for f in dirs + files:
            os.chmod(os.path.join(root, f), 0o755)
    return dst


def estimator(name, fn, model_dir):
    cfg = ec.RunConfig(model_dir=model_dir, tf_random_seed=42, save_checkpoints_steps=100,
                       keep_checkpoint_max=2, save_summary_steps=50, log_step_count_steps=50)
    return ec.Estimator(fn, config=cfg, params={})


@pytest.mark.parametrize("name,fn", CASES)
def test_evaluates_and_predicts_like_tf_estimator(name, fn, tmp_path):
    est = estimator(name, fn, copy_fixture(name, tmp_path))
    res = est.evaluate(model_fns.eval_input_fn)
    want = EXPECTED[name]["eval"]
    assert res["global_step"] == want["global_step"]
    assert res["accuracy"] == pytest.approx(want["accuracy"], abs=1e-6)
    assert res["loss"] == pytest.approx(want["loss"], rel=1e-5)
    classes = [p["classes"].item() for p in est.predict(model_fns.eval_input_fn)][:16]
    assert classes == EXPECTED[name]["first_16_predicted_classes"]


@pytest.mark.parametrize("name,fn", CASES)
def test_continues_training_from_step_200(name, fn, tmp_path):
    model_dir = copy_fixture(name, tmp_path)
    before = tf.train.load_checkpoint(model_dir).get_tensor(
        "mlp/logits/kernel" if name == "tf1_mlp" else "logits/kernel")
    est = estimator(name, fn, model_dir)
    est.train(model_fns.train_input_fn, max_steps=300)
    assert est.latest_checkpoint().endswith("model.ckpt-300")
    names = dict(tf.train.list_variables(model_dir))
    assert names == {k: v for k, v in EXPECTED[name]["variables"].items()}
    after = est.get_variable_value("mlp/logits/kernel" if name == "tf1_mlp" else "logits/kernel")
    assert abs(after - before).max() > 0  # trained on from the restored values
    # keep_checkpoint_max=2: the oldest of tf.estimator's checkpoints was rotated out
    state = tf.train.get_checkpoint_state(model_dir)
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == [
        "model.ckpt-200", "model.ckpt-300"]
    assert not os.path.exists(os.path.join(model_dir, "model.ckpt-100.index"))
    res = est.evaluate(model_fns.eval_input_fn)
    assert res["global_step"] == 300 and res["accuracy"] > 0.9


def test_our_checkpoints_have_tf1_names(tmp_path):
    est = estimator("tf1_mlp", model_fns.tf1_model_fn, str(tmp_path))
    est.train(model_fns.train_input_fn, max_steps=20)
    ours = dict(tf.train.list_variables(str(tmp_path)))
    assert ours == EXPECTED["tf1_mlp"]["variables"]
