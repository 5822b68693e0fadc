"""RunConfig defaults, replace(), and TF_CONFIG parsing."""
import json

import pytest
import tensorflow as tf

import estimator_compat as ec


def test_defaults_match_tf_estimator_2_15(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    c = ec.RunConfig()
    assert (c.save_summary_steps, c.save_checkpoints_steps, c.save_checkpoints_secs) == (100, None, 600)
    assert (c.keep_checkpoint_max, c.keep_checkpoint_every_n_hours, c.log_step_count_steps) == (5, 10000, 100)
    assert c.session_creation_timeout_secs == 7200 and c.checkpoint_save_graph_def is True
    assert (c.task_type, c.task_id, c.is_chief, c.num_worker_replicas, c.num_ps_replicas) == (
        "worker", 0, True, 1, 0)
    assert c.master == "" and c.model_dir is None and c.global_id_in_cluster == 0
    assert ec.RunConfig(save_checkpoints_steps=10).save_checkpoints_secs is None


def test_replace_and_errors():
    c = ec.RunConfig(save_checkpoints_steps=10)
    d = c.replace(save_checkpoints_secs=30, model_dir="/tmp/x")
    assert (d.save_checkpoints_steps, d.save_checkpoints_secs, d.model_dir) == (None, 30, "/tmp/x")
    assert c.save_checkpoints_steps == 10
    with pytest.raises(ValueError, match="not supported by RunConfig.replace"):
        c.replace(task_type="ps")
    with pytest.raises(ValueError, match="Can not provide both"):
        ec.RunConfig(save_checkpoints_steps=1, save_checkpoints_secs=1)
    with pytest.raises(ValueError, match="save_summary_steps should be >= 0"):
        ec.RunConfig(save_summary_steps=-1)


def test_tf_config_cluster(monkeypatch):
    cluster = {"chief": ["h:1"], "worker": ["h:2", "h:3"], "ps": ["h:4"]}
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster, "task": {"type": "worker", "index": 1}}))
    c = ec.RunConfig()
    assert (c.task_type, c.task_id, c.is_chief, c.master) == ("worker", 1, False, "grpc://h:3")
    assert (c.num_worker_replicas, c.num_ps_replicas, c.global_id_in_cluster) == (3, 1, 2)
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster, "task": {"type": "chief", "index": 0}}))
    assert ec.RunConfig().is_chief
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster, "task": {"type": "worker", "index": 5}}))
    with pytest.raises(ValueError, match="not a valid task_id"):
        ec.RunConfig()
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["h:1"]}, "task": {"type": "worker", "index": 0}}))
    with pytest.raises(ValueError, match='one "chief"'):
        ec.RunConfig()


def test_tf_config_errors(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", "{not json")
    with pytest.raises(ValueError, match="TF_CONFIG is not valid JSON"):
        ec.RunConfig()
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"chief": ["h:1"]},
                                                 "task": {"type": "worker", "index": 0}}))
    with pytest.raises(ValueError, match="worker is not a valid task_type"):
        ec.RunConfig()
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"chief": ["h:1"]}}))
    with pytest.raises(ValueError, match='must have "task"'):
        ec.RunConfig()


def test_missing_or_wrong_strategy_are_clear_errors(tmp_path, monkeypatch):
    """(ps tasks: tests/test_parameter_servers.py.)"""
    from helpers import linear_input_fn, linear_model_fn
    cluster = {"chief": ["h:1"], "worker": ["h:2"]}
    specs = (ec.TrainSpec(linear_input_fn(), max_steps=1), ec.EvalSpec(linear_input_fn()))
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster, "task": {"type": "worker", "index": 0}}))
    est = ec.Estimator(linear_model_fn, model_dir=str(tmp_path), params={})
    with pytest.raises(ValueError, match="MultiWorkerMirroredStrategy"):
        ec.train_and_evaluate(est, *specs)
    with pytest.raises(ValueError, match="must be a tf.distribute strategy"):
        ec.Estimator(linear_model_fn, config=ec.RunConfig(model_dir=str(tmp_path),
                     train_distribute="mirrored"), params={}).train(linear_input_fn(), steps=1)


def test_v1_strategies_run_as_their_tf2_counterparts():
    from estimator_compat.engine import strategies
    v1_one = tf.compat.v1.distribute.OneDeviceStrategy("/cpu:0")
    converted = strategies.check(v1_one)
    assert isinstance(converted, tf.distribute.OneDeviceStrategy)
    assert strategies.check(v1_one) is converted  # one per V1 object
    v1_mirrored = tf.compat.v1.distribute.MirroredStrategy(["/cpu:0"])
    assert isinstance(strategies.check(v1_mirrored), tf.distribute.MirroredStrategy)
    with pytest.raises(ValueError, match="must be a tf.distribute strategy"):
        strategies.check("mirrored")


def test_experimental_distribute_config_gives_its_strategies():
    """TF 1.15: RunConfig(experimental_distribute=DistributeConfig(train_distribute=s,
    eval_distribute=s)) sets config.train_distribute and eval_distribute; giving one twice is
    a ValueError."""
    import collections
    DistributeConfig = collections.namedtuple(
        "DistributeConfig", ["train_distribute", "eval_distribute", "remote_cluster"])
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    config = ec.RunConfig(experimental_distribute=DistributeConfig(strategy, strategy, None))
    assert config.train_distribute is strategy and config.eval_distribute is strategy
    with pytest.raises(ValueError, match="Either `train_distribute` or"):
        ec.RunConfig(train_distribute=strategy,
                      experimental_distribute=DistributeConfig(strategy, None, None))
