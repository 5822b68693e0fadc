"""Early stopping reads evaluations from the eval dir's event files, as tf.estimator did."""
import os

import numpy as np
import pytest

import estimator_compat as ec
from estimator_compat import summaries
from estimator_compat.experimental import (
    InMemoryEvaluatorHook, make_early_stopping_hook, make_stop_at_checkpoint_step_hook,
    read_eval_metrics, stop_if_higher_hook, stop_if_lower_hook, stop_if_no_decrease_hook,
    stop_if_no_increase_hook)
from helpers import FIXTURES, linear_input_fn, linear_model_fn


def make(tmp_path):
    return ec.Estimator(linear_model_fn, model_dir=str(tmp_path), params={"lr": 0.05})


def fake_evaluations(est, values):
    for step, acc in values:
        summaries.write_scalars(est.eval_dir(), step, {"accuracy": acc, "loss": 1 - acc})


def test_no_increase_stops_training(tmp_path):
    est = make(tmp_path)
    fake_evaluations(est, [(100, 0.5), (200, 0.7), (300, 0.6), (400, 0.65)])
    never = stop_if_no_increase_hook(est, "accuracy", max_steps_without_increase=250,
                                     run_every_secs=None, run_every_steps=1)
    est.train(linear_input_fn(), hooks=[never], steps=5)
    assert est.get_variable_value("global_step") == 5
    hook = stop_if_no_increase_hook(est, "accuracy", max_steps_without_increase=150,
                                    run_every_secs=None, run_every_steps=1)
    est.train(linear_input_fn(), hooks=[hook], steps=50)
    assert est.get_variable_value("global_step") == 6  # stopped after its first check


def test_thresholds_min_steps_and_decrease(tmp_path):
    est = make(tmp_path)
    fake_evaluations(est, [(100, 0.5), (200, 0.9)])
    for hook, stops in [
        (stop_if_higher_hook(est, "accuracy", 0.8, run_every_secs=None, run_every_steps=1), True),
        (stop_if_higher_hook(est, "accuracy", 0.95, run_every_secs=None, run_every_steps=1), False),
        (stop_if_lower_hook(est, "loss", 0.2, run_every_secs=None, run_every_steps=1), True),
        (stop_if_lower_hook(est, "loss", 0.2, min_steps=300, run_every_secs=None,
                            run_every_steps=1), False),
        (stop_if_no_decrease_hook(est, "loss", 50, run_every_secs=None, run_every_steps=1), False),
    ]:
        before = est.get_variable_value("global_step") if est.latest_checkpoint() else 0
        est.train(linear_input_fn(), hooks=[hook], steps=3)
        ran = est.get_variable_value("global_step") - before
        assert ran == (1 if stops else 3)


def test_errors(tmp_path):
    est = make(tmp_path)
    fake_evaluations(est, [(100, 0.5)])
    with pytest.raises(ValueError, match="Only one of"):
        stop_if_higher_hook(est, "accuracy", 0.1, run_every_steps=1)
    with pytest.raises(TypeError, match="callable"):
        make_early_stopping_hook(est, "not callable")
    hook = stop_if_higher_hook(est, "acc", 0.1, run_every_secs=None, run_every_steps=1)
    with pytest.raises(ValueError, match="'acc' not found.*accuracy"):
        est.train(linear_input_fn(), hooks=[hook], steps=2)


def test_custom_predicate_and_evaluate_written_metrics(tmp_path):
    est = make(tmp_path)
    est.train(linear_input_fn(), steps=10)
    est.evaluate(linear_input_fn(repeat=False))
    metrics = read_eval_metrics(est.eval_dir())
    assert list(metrics) == [10] and set(metrics[10]) >= {"loss", "mae"}
    calls = []
    hook = make_early_stopping_hook(est, lambda: calls.append(1) or len(calls) >= 3,
                                    run_every_secs=None, run_every_steps=2)
    est.train(linear_input_fn(), hooks=[hook], steps=100)
    assert est.get_variable_value("global_step") == 10 + 5


@pytest.mark.skipif(not os.path.isdir(FIXTURES), reason="no tf215 fixtures")
def test_reads_eval_dirs_written_by_tf_estimator_2_15():
    import json
    metrics = read_eval_metrics(os.path.join(FIXTURES, "tf1_mlp", "eval"))
    want = json.load(open(os.path.join(FIXTURES, "expected.json")))["fixtures"]["tf1_mlp"]["eval"]
    assert list(metrics) == [200]
    assert metrics[200]["accuracy"] == pytest.approx(want["accuracy"])
    assert metrics[200]["loss"] == pytest.approx(want["loss"], rel=1e-6)


def test_in_memory_evaluator_hook(tmp_path):
    est = make(tmp_path)
    hook = InMemoryEvaluatorHook(est, linear_input_fn(repeat=False), every_n_iter=4, name="mem")
    est.train(linear_input_fn(), hooks=[hook], steps=9)
    # TF 1.15 / 2.15: once before the first step, every 4 iterations, at the end
    assert [r["global_step"] for r in hook.results] == [0, 4, 8, 9]
    assert hook.results[-1]["loss"] < hook.results[0]["loss"]
    assert sorted(read_eval_metrics(est.eval_dir("mem"))) == [0, 4, 8, 9]
    with pytest.raises(ValueError, match="every_n_iter"):
        InMemoryEvaluatorHook(est, linear_input_fn(), every_n_iter=0)


def test_stop_at_checkpoint_step_hook_on_chief(tmp_path):
    est = make(tmp_path)
    hook = make_stop_at_checkpoint_step_hook(est, last_step=4)
    assert isinstance(hook, ec.StopAtStepHook)
    est.train(linear_input_fn(), hooks=[hook])
    assert est.get_variable_value("global_step") == 4


def test_stop_at_checkpoint_step_hook_on_worker(tmp_path, monkeypatch):
    import json
    chief = make(tmp_path)
    chief.train(linear_input_fn(), steps=6)
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"chief": ["h:1"], "worker": ["h:2"]},
                                                 "task": {"type": "worker", "index": 0}}))
    worker = ec.Estimator(linear_model_fn, model_dir=str(tmp_path / "w"), params={})
    assert not worker.config.is_chief
    hook = make_stop_at_checkpoint_step_hook(worker.__class__(
        linear_model_fn, model_dir=str(tmp_path), params={}), last_step=5,
        wait_after_file_check_secs=0)
    assert not isinstance(hook, ec.StopAtStepHook)
    class Count(ec.SessionRunHook):
        runs = 0

        def after_run(self, run_context, run_values):
            Count.runs += 1
    worker.train(linear_input_fn(), hooks=[hook, Count()], steps=50)
    assert Count.runs == 1  # the chief's checkpoint (step 6) is already past last_step
    assert not os.path.exists(os.path.join(str(tmp_path / "w"), "checkpoint"))  # not the chief


def test_an_evaluate_from_a_training_hook_leaves_training_where_it_was(tmp_path):
    """TF 1.15 evaluated in a graph of its own: a hook's est.evaluate() (restoring the step-0
    checkpoint) did not rewind the training variables (a queue-fed program evaluating at step
    5 of 24 ended at global step 24 on TF 1.15; here it ended at 19 before this)."""
    def run(model_dir, evaluate_at):
        est = make(model_dir)
        seen = []

        class EvaluateHook(ec.SessionRunHook):
            def after_run(self, run_context, run_values):
                seen.append(None)
                if len(seen) == evaluate_at:
                    est.evaluate(linear_input_fn(repeat=False), steps=1)
                    list(est.predict(linear_input_fn(repeat=False), yield_single_examples=False))
        est.train(linear_input_fn(), hooks=[EvaluateHook()], steps=12)
        return est
    plain, nested = run(tmp_path / "plain", None), run(tmp_path / "nested", 5)
    assert nested.get_variable_value("global_step") == 12
    for name in plain.get_variable_names():
        np.testing.assert_allclose(nested.get_variable_value(name),
                                   plain.get_variable_value(name), err_msg=name)
    assert sorted(read_eval_metrics(nested.eval_dir())) == [0]  # the checkpoint it evaluated
