"""train_and_evaluate (local): evaluation per checkpoint, exporters, restart, early stopping."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from estimator_compat.experimental import read_eval_metrics, stop_if_no_increase_hook
from helpers import linear_data, linear_input_fn, linear_model_fn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def serving_fn():
    return ec.export.build_raw_serving_input_receiver_fn({"x": tf.zeros([1, 3])})()


def make(tmp_path, steps=10, **kw):
    cfg = ec.RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=steps,
                       log_step_count_steps=1000, **kw)
    return ec.Estimator(linear_model_fn, config=cfg, params={"lr": 0.05})


def test_evaluates_each_checkpoint_and_exports(tmp_path):
    est = make(tmp_path)
    exporters = [ec.LatestExporter("latest", serving_fn, exports_to_keep=2),
                 ec.BestExporter(serving_input_receiver_fn=serving_fn, exports_to_keep=5),
                 ec.FinalExporter("final", serving_fn)]
    result, exports = ec.train_and_evaluate(
        est, ec.TrainSpec(linear_input_fn(), max_steps=30),
        ec.EvalSpec(linear_input_fn(repeat=False), steps=None, exporters=exporters,
                    throttle_secs=0))
    assert result["global_step"] == 30 and set(result) == {"loss", "mae", "global_step"}
    assert sorted(read_eval_metrics(est.eval_dir())) == [10, 20, 30]
    export_dir = os.path.join(str(tmp_path), "export")
    assert len(os.listdir(os.path.join(export_dir, "latest"))) == 2  # garbage-collected
    assert len(os.listdir(os.path.join(export_dir, "final"))) == 1
    best = os.listdir(os.path.join(export_dir, "best_exporter"))
    assert 1 <= len(best) <= 3  # loss falls: usually a new best each time
    assert len(exports) == 3 and exports[2] is not None
    loaded = tf.saved_model.load(exports[2].decode())
    x, _ = linear_data(3)
    want = [p["y"] for p in est.predict(lambda: tf.data.Dataset.from_tensor_slices({"x": x}).batch(3))]
    np.testing.assert_allclose(loaded.signatures["serving_default"](x=tf.constant(x))["y"], want,
                               rtol=1e-6)


def test_throttle_secs_skips_evaluations_but_not_the_final_one(tmp_path):
    est = make(tmp_path, steps=5)
    result, _ = ec.train_and_evaluate(est, ec.TrainSpec(linear_input_fn(), max_steps=20),
                                      ec.EvalSpec(linear_input_fn(repeat=False), throttle_secs=3600))
    assert sorted(read_eval_metrics(est.eval_dir())) == [5, 20]  # the first, then the final
    assert result["global_step"] == 20


def test_restart_resumes_training(tmp_path):
    script = textwrap.dedent(f"""
        import sys
        sys.path[:0] = [{ROOT!r}, {os.path.join(ROOT, 'tests')!r}]
        import estimator_compat as ec
        from helpers import linear_input_fn, linear_model_fn
        cfg = ec.RunConfig(model_dir={str(tmp_path)!r}, save_checkpoints_steps=10)
        est = ec.Estimator(linear_model_fn, config=cfg, params={{}})
        res, _ = ec.train_and_evaluate(est, ec.TrainSpec(linear_input_fn(), max_steps=int(sys.argv[1])),
                                       ec.EvalSpec(linear_input_fn(repeat=False), throttle_secs=0))
        print("STEP", res["global_step"])
    """)
    run = lambda n: subprocess.run([sys.executable, "-c", script, str(n)], capture_output=True,  # noqa: E731
                                   text=True, timeout=300)
    first = run(20)
    assert "STEP 20" in first.stdout, first.stderr[-3000:]
    second = run(40)
    assert "STEP 40" in second.stdout, second.stderr[-3000:]
    assert sorted(read_eval_metrics(os.path.join(str(tmp_path), "eval"))) == [10, 20, 30, 40]


def test_early_stopping_stops_a_train_and_evaluate_run(tmp_path):
    def flat_model_fn(features, labels, mode, params):
        """The metric never improves: mae of a zero-learning-rate model."""
        return linear_model_fn(features, labels, mode, {"lr": 0.0})
    cfg = ec.RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=10)
    est = ec.Estimator(flat_model_fn, config=cfg, params={})
    hook = stop_if_no_increase_hook(est, "mae", max_steps_without_increase=20, min_steps=0,
                                    run_every_secs=None, run_every_steps=1)
    ec.train_and_evaluate(est, ec.TrainSpec(linear_input_fn(), max_steps=1000, hooks=[hook]),
                          ec.EvalSpec(linear_input_fn(repeat=False), throttle_secs=0))
    step = est.get_variable_value("global_step")
    assert 30 <= step <= 32, step  # evaluations at 10, 20, 30: no increase for 20 steps


def test_spec_validation():
    with pytest.raises(TypeError, match="input_fn"):
        ec.TrainSpec("nope")
    with pytest.raises(ValueError, match="max_steps > 0"):
        ec.TrainSpec(linear_input_fn(), max_steps=0)
    with pytest.raises(TypeError, match="SessionRunHook"):
        ec.TrainSpec(linear_input_fn(), hooks=[1])
    with pytest.raises(ValueError, match="steps > 0"):
        ec.EvalSpec(linear_input_fn(), steps=0)
    with pytest.raises(ValueError, match="throttle_secs >= 0"):
        ec.EvalSpec(linear_input_fn(), throttle_secs=-1)
    with pytest.raises(ValueError, match="unique names"):
        ec.EvalSpec(linear_input_fn(), exporters=[ec.LatestExporter("a", serving_fn),
                                                   ec.FinalExporter("a", serving_fn)])
    with pytest.raises(TypeError, match="Exporter"):
        ec.EvalSpec(linear_input_fn(), exporters=["a"])
    with pytest.raises(ValueError, match="exports_to_keep"):
        ec.LatestExporter("a", serving_fn, exports_to_keep=0)
    with pytest.raises(ValueError, match="compare_fn"):
        ec.BestExporter(serving_input_receiver_fn=serving_fn, compare_fn=lambda a, b: True)
    spec = ec.EvalSpec(linear_input_fn(), exporters=ec.FinalExporter("f", serving_fn))
    assert [e.name for e in spec.exporters] == ["f"] and spec.steps == 100
    with pytest.raises(TypeError, match="estimator"):
        ec.train_and_evaluate("est", ec.TrainSpec(linear_input_fn()), spec)
