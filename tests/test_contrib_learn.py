"""tf.contrib.learn: learn_runner.run, Experiment schedules, HParams."""
import json
import os

import pytest
import tensorflow as tf

import estimator_compat as ec
from estimator_compat.learn import Experiment, HParams, RunConfig, learn_runner
from estimator_compat.experimental import read_eval_metrics
from helpers import linear_input_fn, linear_model_fn


def experiment_fn(run_config, hparams):
    est = ec.Estimator(linear_model_fn, config=run_config, params=hparams.values())
    return Experiment(estimator=est, train_input_fn=linear_input_fn(),
                      eval_input_fn=linear_input_fn(repeat=False), train_steps=hparams.steps,
                      min_eval_frequency=10, eval_steps=None)


def test_seed_style_learn_runner_local(tmp_path, monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    config = RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=10)
    params = HParams(lr=0.1, steps=30)
    result, exports = learn_runner.run(experiment_fn=experiment_fn, run_config=config,
                                       hparams=params)
    assert result["global_step"] == 30 and exports == []
    assert sorted(read_eval_metrics(os.path.join(str(tmp_path), "eval"))) == [10, 20, 30]


def test_schedules_and_errors(tmp_path, monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    config = RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=5)
    params = HParams(lr=0.1, steps=10)
    est = learn_runner.run(experiment_fn, schedule="train", run_config=config, hparams=params)
    assert est.get_variable_value("global_step") == 10
    res = learn_runner.run(experiment_fn, schedule="test", run_config=config, hparams=params)
    assert res["global_step"] == 11
    with pytest.raises(ValueError, match="non-existent task 'fly'.*train_and_evaluate"):
        learn_runner.run(experiment_fn, schedule="fly", run_config=config, hparams=params)
    with pytest.raises(TypeError, match="did not return an Experiment"):
        learn_runner.run(lambda run_config, hparams: "x", run_config=config, hparams=params)
    other = RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=7)
    with pytest.raises(ValueError, match="expected to be used by the `Estimator`"):
        learn_runner.run(lambda rc, hp: experiment_fn(other, hp), run_config=config,
                         hparams=params)


def test_experiment_methods(tmp_path):
    config = RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=5)
    est = ec.Estimator(linear_model_fn, config=config, params={})
    exp = Experiment(est, linear_input_fn(), linear_input_fn(repeat=False), train_steps=15,
                     eval_steps=2, train_steps_per_iteration=5,
                     export_strategies=[ec.LatestExporter(
                         "latest", ec.export.build_raw_serving_input_receiver_fn(
                             {"x": tf.zeros([1, 3])}))])
    assert exp.train_steps == 15 and exp.eval_steps == 2 and exp.estimator is est
    seen = []
    result, exports = exp.continuous_train_and_eval(
        continuous_eval_predicate_fn=lambda r: seen.append(r["global_step"]) or True)
    assert seen == [5, 10, 15] and result["global_step"] == 15 and exports[0]
    assert exp.evaluate(delay_secs=0)["global_step"] == 15
    assert exp.continuous_eval(delay_secs=0, throttle_delay_secs=0)["global_step"] == 15
    exp.extend_train_hooks([ec.StopAtStepHook(num_steps=1)])
    old = exp.reset_export_strategies()
    assert len(old) == 1 and len(exp._train_monitors) == 1


def test_run_std_server_starts_a_real_server(tmp_path, monkeypatch):
    import socket
    with socket.socket() as s:
        s.bind(("localhost", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"chief": ["localhost:1"], "ps": [f"localhost:{port}"]},
        "task": {"type": "ps", "index": 0}}))
    config = RunConfig(model_dir=str(tmp_path))
    assert learn_runner._default_schedule(config) == "run_std_server"
    est = ec.Estimator(linear_model_fn, config=config, params={})
    server = Experiment(est, linear_input_fn(), linear_input_fn())._start_server()
    assert server.target == f"grpc://localhost:{port}"
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"chief": ["h:1"], "worker": ["h:2"]}, "task": {"type": "worker", "index": 0}}))
    assert learn_runner._default_schedule(RunConfig()) == "train"


def test_hparams():
    hp = HParams(learning_rate=0.1, layers=[64, 32], name="mlp", use_bn=False, steps=10)
    hp.parse("learning_rate=0.3,layers=[16,8,4],use_bn=true,steps=20")
    assert hp.learning_rate == 0.3 and hp.layers == [16, 8, 4] and hp.use_bn is True
    assert hp.steps == 20 and hp.name == "mlp"
    with pytest.raises(ValueError, match="Unknown hyperparameter"):
        hp.parse("nope=1")
    with pytest.raises(ValueError, match="Could not cast"):
        hp.parse("steps=1.5")
    hp.add_hparam("dropout", 0.5)
    with pytest.raises(ValueError, match="reserved"):
        hp.add_hparam("dropout", 0.1)
    hp.set_hparam("dropout", 1)
    assert hp.dropout == 1.0 and isinstance(hp.dropout, float)
    hp.override_from_dict({"name": "cnn"})
    assert json.loads(hp.to_json())["name"] == "cnn"
    assert hp.values()["layers"] == [16, 8, 4] and "steps" in hp and hp.get("x", 3) == 3
    hp.del_hparam("dropout")
    assert "dropout" not in hp


def test_contrib_learn_after_install():
    ec.install()
    from tensorflow.contrib.learn.python.learn import learn_runner as lr
    assert lr.run is learn_runner.run
    assert tf.contrib.learn.Experiment is Experiment
    assert tf.contrib.training.HParams is HParams
    assert tf.contrib.learn.RunConfig is RunConfig
