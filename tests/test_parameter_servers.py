"""Parameter-server training from an unchanged TF_CONFIG: the same program on a chief, two
workers, ps tasks and an evaluator, as real processes on localhost ports (`estimator-compat
run`, as users start them). The chief schedules the steps on the workers; the variables (a
partitioned embedding among them) live on the ps tasks."""
import json
import os
import re
import sys
import time

import pytest
import tensorflow as tf

import estimator_compat as ec
from estimator_compat.cluster import parameter_servers
from estimator_compat.experimental import read_eval_metrics
from helpers import PROGRAMS, Program, free_ports, read_events

CLICKS = os.path.join(PROGRAMS, "parameter_servers", "clicks_model_fn.py")
WIDE_DEEP = os.path.join(PROGRAMS, "parameter_servers", "wide_deep_learn_runner.py")
EXPLICIT = os.path.join(PROGRAMS, "parameter_servers", "explicit_strategy.py")


def start_cluster(script, args, jobs, evaluator=True):
    """{(job, index): Program} of a cluster with `jobs` ({job: count}) on localhost."""
    ports = iter(free_ports(sum(jobs.values())))
    cluster = {job: [f"localhost:{next(ports)}" for _ in range(n)] for job, n in jobs.items()}
    tasks = [(job, i) for job, n in jobs.items() for i in range(n)]
    if evaluator:
        tasks.append(("evaluator", 0))
    procs = {}
    for job, index in sorted(tasks, key=lambda t: t[0] == "chief"):  # servers first
        tf_config = json.dumps({"cluster": cluster, "task": {"type": job, "index": index}})
        procs[job, index] = Program(script, *args, env={"TF_CONFIG": tf_config})
    return procs


def wait_for(path, procs, timeout=300):
    deadline = time.time() + timeout
    while not os.path.exists(path):
        assert time.time() < deadline, f"{path} did not appear"
        for task, proc in procs.items():
            if not proc.running():
                proc.wait()  # fails with its output when it failed
        time.sleep(0.2)


@pytest.mark.parametrize("task,serves", [("master", False), ("worker", True), ("ps", True),
                                        ("evaluator", False)])
def test_tf1_cluster_names_map_onto_tensorflow_2s(monkeypatch, task, serves):
    """TF1's `master` is TF2's `chief`; the evaluator is not a member of the cluster; ps and
    worker tasks serve; MultiWorkerMirrored clusters (no ps) are left as they are."""
    cluster = {"master": ["m:1"], "worker": ["w:1", "w:2"], "ps": ["p:1"],
               "evaluator": ["e:1"]}
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster,
                                                "task": {"type": task, "index": 0}}))
    config = ec.RunConfig(model_dir="/tmp/unused")
    assert parameter_servers.is_parameter_server_cluster(config)
    assert parameter_servers.serves(config) == serves
    assert parameter_servers.cluster_spec(config).as_dict() == {
        "chief": ["m:1"], "worker": ["w:1", "w:2"], "ps": ["p:1"]}
    if task == "ps":
        return
    del cluster["ps"]
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster,
                                                "task": {"type": task, "index": 0}}))
    assert not parameter_servers.serves(ec.RunConfig(model_dir="/tmp/unused"))


def test_tf1_model_fn_on_chief_workers_ps_and_evaluator_survives_a_killed_worker(tmp_path):
    """tf.estimator between-graph training on 2.15 / 1.15; here the chief coordinates. A
    worker SIGKILLed mid-run: its steps are retried on the other worker and the job ends."""
    model_dir = str(tmp_path / "clicks")
    procs = start_cluster(CLICKS, ["--model_dir", model_dir, "--max_steps", "400"],
                          {"chief": 1, "worker": 2, "ps": 1})
    try:
        wait_for(os.path.join(model_dir, "model.ckpt-100.index"), procs)
        procs["worker", 1].kill()
        outputs = {task: proc.wait() for task, proc in procs.items() if task != ("worker", 1)}
    finally:
        for proc in procs.values():
            if proc.running():
                proc.kill()
    chief_out, chief_err = outputs["chief", 0]
    # the chief trained to max_steps; ps and the surviving worker served, then exited 0
    assert "task chief:0 done" in chief_out
    assert "task ps:0 done" in outputs["ps", 0][0]
    assert "task worker:0 done" in outputs["worker", 0][0]
    files = os.listdir(model_dir)
    assert "model.ckpt-400.index" in files
    # each serving task removed the chief's "done" marker (the killed worker could not)
    assert [f for f in files if f.startswith(".estimator_compat-done")] == [
        ".estimator_compat-done-worker-1"]
    # every variable on the ps task; the embedding in 2 parts, saved whole, as TF1 saved it
    placed = dict(re.findall(r"placed (\S+) on (\S+)", chief_out))
    assert placed["user_embedding/part_0:0"].startswith("/job:ps/replica:0/task:0")
    assert placed["user_embedding/part_1:0"].startswith("/job:ps/replica:0/task:0")
    assert all(device.startswith("/job:ps/") for device in placed.values()), placed
    in_ckpt = dict(tf.train.list_variables(os.path.join(model_dir, "model.ckpt-400")))
    assert in_ckpt["user_embedding"] == [1000, 4]
    assert in_ckpt["user_embedding/Adagrad"] == [1000, 4]
    assert not [n for n in in_ckpt if "part_" in n]
    # summaries as on one machine: loss, the model's own, global_step/sec, by the chief only
    events = read_events(model_dir)
    assert {"loss", "mean_probability", "global_step/sec"} <= set(events)
    # the evaluator evaluated the final checkpoint, then ended
    evaluator_out = outputs["evaluator", 0][0]
    accuracy = float(re.search(r"eval accuracy = ([\d.]+), global_step = 400",
                               evaluator_out).group(1))
    assert abs(read_eval_metrics(os.path.join(model_dir, "eval"))[400]["accuracy"] -
               accuracy) < 1e-4
    # ... and exported it, for serving
    export = max(os.listdir(os.path.join(model_dir, "export", "clicks")))  # the newest
    served = tf.saved_model.load(os.path.join(model_dir, "export", "clicks", export))
    probability = served.signatures["serving_default"](
        user=tf.constant([1, 2], tf.int64), item=tf.ones([2, 4]))["probability"]
    assert probability.shape == [2] and all(0 < p < 1 for p in probability.numpy())
    # asynchronous steps reach what one machine reaches: 0.80-0.88 here in 8 runs (unseeded
    # shuffle), TF 1.15 on the same file 0.8715-0.8800 in 3 runs
    assert accuracy > 0.78


def test_canned_wide_deep_with_learn_runner_on_two_ps_tasks(tmp_path):
    """tf.contrib.learn's learn_runner picks each task's schedule (ps: run_std_server,
    worker: train, chief: train_and_evaluate, evaluator: continuous_eval); the DNN's
    embeddings are split by input_layer_partitioner across the two ps tasks. One machine
    (the same file without TF_CONFIG): accuracy 0.900, AUC 0.965 at step 300."""
    model_dir = str(tmp_path / "ads")
    procs = start_cluster(WIDE_DEEP, ["--model_dir", model_dir, "--train_steps", "300"],
                          {"chief": 1, "worker": 1, "ps": 2})
    try:
        outputs = {task: proc.wait() for task, proc in procs.items()}
    finally:
        for proc in procs.values():
            if proc.running():
                proc.kill()
    for (job, index), (out, _) in outputs.items():
        assert f"task {job}:{index} done" in out
    chief_out = outputs["chief", 0][0]
    placed = dict(re.findall(r"placed (\S+) on (\S+)", chief_out))
    site = "dnn/input_from_feature_columns/input_layer/site_embedding/embedding_weights/part_%d:0"
    tasks = {placed[site % i].split("/device")[0] for i in (0, 1)}
    assert tasks == {"/job:ps/replica:0/task:0", "/job:ps/replica:0/task:1"}  # one on each
    assert all(device.startswith("/job:ps/") for device in placed.values()), placed
    in_ckpt = dict(tf.train.list_variables(os.path.join(model_dir, "model.ckpt-300")))
    assert in_ckpt[(site % 0).rsplit("/", 1)[0]] == [50, 8]
    assert in_ckpt["linear/linear_model/category_X_site/weights"] == [500, 1]
    # the chief evaluated at its checkpoints (train_and_evaluate), so did the evaluator
    accuracy, auc = map(float, re.search(r"eval accuracy = ([\d.]+), auc = ([\d.]+), "
                                         r"global_step = 300", chief_out).groups())
    assert accuracy > 0.85 and auc > 0.93, (accuracy, auc)
    assert 300 in read_eval_metrics(os.path.join(model_dir, "eval"))


def test_a_killed_ps_task_stops_the_chief_with_an_error_naming_the_checkpoint(tmp_path):
    """A ps task's variables die with it: no silent wrong model, but an error that says to
    restart; the worker keeps serving for the restarted chief."""
    model_dir = str(tmp_path / "clicks")
    procs = start_cluster(CLICKS, ["--model_dir", model_dir, "--max_steps", "100000"],
                          {"chief": 1, "worker": 1, "ps": 1}, evaluator=False)
    try:
        wait_for(os.path.join(model_dir, "model.ckpt-100.index"), procs)
        procs["ps", 0].kill()
        code, _, err = procs["chief", 0].finish(timeout=300)
        assert code != 0
        assert "ParameterServerLostError: A parameter server (ps task) became unavailable" in err
        assert re.search(r"training resumes from its last checkpoint \S+model\.ckpt-\d+ "
                         r"\(step \d+\)", err)
        assert procs["worker", 0].running()  # still serving, for the chief's restart
    finally:
        for proc in procs.values():
            if proc.running():
                proc.kill()


def test_explicit_strategy_with_variable_partitioner_and_steps_per_execution(tmp_path):
    """ParameterServerStrategy(variable_partitioner=...) passed as train_distribute: every
    variable in 2 shards, one on each ps task; checkpoints hold them whole; 3 steps per worker
    call, max_steps honoured exactly; evaluate (on the chief) restores them unpartitioned."""
    model_dir = str(tmp_path / "model")
    out, _ = Program(EXPLICIT, model_dir, 3, runner=[sys.executable]).wait()
    placed = dict(re.findall(r"placed (\S+) on (\S+)", out))
    tasks = {placed[f"embeddings/part_{i}:0"].split("/device")[0] for i in (0, 1)}
    assert tasks == {"/job:ps/replica:0/task:0", "/job:ps/replica:0/task:1"}
    assert dict(tf.train.list_variables(os.path.join(model_dir, "model.ckpt-100"))) == {
        "embeddings": [20, 3], "embeddings/Adagrad": [20, 3], "weights": [3, 1],
        "weights/Adagrad": [3, 1], "global_step": []}
    loss = float(re.search(r"loss = ([\d.e-]+), global_step = 100", out).group(1))
    assert loss < 1e-3
