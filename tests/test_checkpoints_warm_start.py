"""Resuming in a new process, checkpoint rotation, and warm starting."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from helpers import linear_input_fn, linear_model_fn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_second_process_resumes_from_last_checkpoint(tmp_path):
    script = textwrap.dedent(f"""
        import sys
        sys.path[:0] = [{ROOT!r}, {os.path.join(ROOT, 'tests')!r}]
        import estimator_compat as ec
        from helpers import linear_input_fn, linear_model_fn
        est = ec.Estimator(linear_model_fn, model_dir={str(tmp_path)!r}, params={{}})
        est.train(linear_input_fn(), steps=int(sys.argv[1]))
        print("STEP", est.get_variable_value("global_step"))
    """)
    run = lambda n: subprocess.run([sys.executable, "-c", script, str(n)], capture_output=True,  # noqa: E731
                                   text=True, timeout=300)
    first = run(6)
    assert "STEP 6" in first.stdout, first.stderr[-3000:]
    second = run(4)
    assert "STEP 10" in second.stdout, second.stderr[-3000:]


def test_keep_checkpoint_max_rotates(tmp_path):
    cfg = ec.RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=2, keep_checkpoint_max=2)
    est = ec.Estimator(linear_model_fn, config=cfg, params={})
    est.train(linear_input_fn(), steps=9)
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == [
        "model.ckpt-8", "model.ckpt-9"]
    assert not os.path.exists(os.path.join(str(tmp_path), "model.ckpt-6.index"))


def test_interrupted_save_leaves_previous_checkpoint(tmp_path):
    est = ec.Estimator(linear_model_fn, model_dir=str(tmp_path), params={})
    est.train(linear_input_fn(), steps=3)
    # A crash mid-save leaves a partial temp file; the state file still names step 3.
    with open(os.path.join(str(tmp_path), "model.ckpt-4_temp.data-00000-of-00001"), "wb") as f:
        f.write(b"partial")
    est2 = ec.Estimator(linear_model_fn, model_dir=str(tmp_path), params={})
    est2.train(linear_input_fn(), steps=1)
    assert est2.get_variable_value("global_step") == 4


@pytest.mark.parametrize("form", ["dir", "path", "settings", "renamed"])
def test_warm_start_from(tmp_path, form):
    src = ec.Estimator(linear_model_fn, model_dir=str(tmp_path / "src"), params={})
    src.train(linear_input_fn(), steps=50)
    w = src.get_variable_value("linear/w")
    if form == "dir":
        ws = str(tmp_path / "src")
    elif form == "path":
        ws = src.latest_checkpoint()
    elif form == "settings":
        ws = ec.WarmStartSettings(str(tmp_path / "src"), vars_to_warm_start="linear/w")
    else:
        ws = ec.WarmStartSettings(str(tmp_path / "src"), vars_to_warm_start=["linear/w"],
                                  var_name_to_prev_var_name={"linear/w": "linear/w"})
    est = ec.Estimator(linear_model_fn, model_dir=str(tmp_path / "dst"), params={"lr": 1e-9},
                       warm_start_from=ws)
    est.train(linear_input_fn(), steps=1)
    np.testing.assert_allclose(est.get_variable_value("linear/w"), w, atol=1e-5)
    assert est.get_variable_value("global_step") == 1  # global_step is not warm-started
    if form == "settings":
        assert abs(est.get_variable_value("linear/b")).max() < 1e-5  # b was left fresh


def test_warm_start_missing_variable_is_named(tmp_path):
    src = ec.Estimator(linear_model_fn, model_dir=str(tmp_path / "src"), params={})
    src.train(linear_input_fn(), steps=1)
    ws = ec.WarmStartSettings(str(tmp_path / "src"), vars_to_warm_start=["linear/w"],
                              var_name_to_prev_var_name={"linear/w": "old/w"})
    est = ec.Estimator(linear_model_fn, model_dir=str(tmp_path / "dst"), params={},
                       warm_start_from=ws)
    with pytest.raises(ValueError, match="old/w"):
        est.train(linear_input_fn(), steps=1)


def test_init_from_checkpoint_inside_model_fn(tmp_path):
    src = ec.Estimator(linear_model_fn, model_dir=str(tmp_path / "src"), params={})
    src.train(linear_input_fn(), steps=50)
    w = src.get_variable_value("linear/w")

    def model_fn(features, labels, mode, params):
        spec = linear_model_fn(features, labels, mode, {"lr": 1e-9})
        tf.compat.v1.train.init_from_checkpoint(params["ckpt"], params["map"])
        return spec
    for i, mapping in enumerate([{"linear/w": "linear/w"}, {"linear/": "linear/"}]):
        est = ec.Estimator(model_fn, model_dir=str(tmp_path / f"dst{i}"),
                           params={"ckpt": str(tmp_path / "src"), "map": mapping})
        est.train(linear_input_fn(), steps=1)
        np.testing.assert_allclose(est.get_variable_value("linear/w"), w, atol=1e-5)
        est.train(linear_input_fn(), steps=1)  # from its own checkpoint now, not the source
        assert est.get_variable_value("global_step") == 2
    bad = ec.Estimator(model_fn, model_dir=str(tmp_path / "bad"),
                       params={"ckpt": str(tmp_path / "src"), "map": {"nope/w": "linear/w"}})
    with pytest.raises(ValueError, match="'nope/w' is not in checkpoint"):
        bad.train(linear_input_fn(), steps=1)
