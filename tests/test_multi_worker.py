"""Multi-worker train_and_evaluate: chief + worker (MultiWorkerMirroredStrategy) and an evaluator,
as real processes on localhost ports, from TF_CONFIG."""
import json
import os
import subprocess
import sys
import textwrap
import time

import tensorflow as tf

from estimator_compat.experimental import read_eval_metrics
from helpers import free_ports

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = textwrap.dedent("""
    import json, os, sys
    sys.path[:0] = [ROOT, ROOT + "/tests"]
    import tensorflow as tf
    task = json.loads(os.environ["TF_CONFIG"])["task"]["type"]
    strategy = tf.distribute.MultiWorkerMirroredStrategy() if task != "evaluator" else None
    import estimator_compat as ec
    from helpers import linear_input_fn, linear_model_fn
    cfg = ec.RunConfig(model_dir=sys.argv[1], train_distribute=strategy, save_checkpoints_steps=10)
    est = ec.Estimator(linear_model_fn, config=cfg, params={"lr": 0.1})
    max_steps = int(os.environ.get("MAX_STEPS", "40"))
    out = ec.train_and_evaluate(est, ec.TrainSpec(linear_input_fn(), max_steps=max_steps),
                                ec.EvalSpec(linear_input_fn(repeat=False), steps=None,
                                            start_delay_secs=0, throttle_secs=0))
    print("DONE", task, os.getpid(), None if out is None else int(out[0]["global_step"]), flush=True)
""").replace("ROOT", repr(ROOT))


def start(tasks, model_dir, max_steps=40):
    chief, worker = free_ports(2)
    cluster = {"chief": [f"localhost:{chief}"], "worker": [f"localhost:{worker}"]}
    procs = {}
    for task in tasks:
        env = dict(os.environ, MAX_STEPS=str(max_steps), TF_CONFIG=json.dumps(
            {"cluster": cluster, "task": {"type": task, "index": 0}}))
        procs[task] = subprocess.Popen([sys.executable, "-c", SCRIPT, model_dir], env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return procs


def test_chief_worker_and_evaluator(tmp_path):
    model_dir = str(tmp_path / "model")
    procs = start(("chief", "worker", "evaluator"), model_dir)
    outputs = {}
    try:
        for task, proc in procs.items():
            out, err = proc.communicate(timeout=400)
            outputs[task] = out
            assert proc.returncode == 0, f"{task} failed:\n{err[-3000:]}"
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
    done = {line.split()[1]: line.split()[2:] for out in outputs.values()
            for line in out.splitlines() if line.startswith("DONE")}
    assert set(done) == {"chief", "worker", "evaluator"}
    assert done["chief"][1] == "None" and done["worker"][1] == "None"  # as tf.estimator
    assert done["evaluator"][1] == "40"  # it evaluated the final checkpoint, then ended
    files = os.listdir(model_dir)
    assert "model.ckpt-40.index" in files
    events = [f for f in files if f.startswith("events.out.tfevents")]
    assert events and all(f".{done['chief'][0]}." in f for f in events)  # only the chief wrote
    metrics = read_eval_metrics(os.path.join(model_dir, "eval"))
    assert 40 in metrics and metrics[40]["loss"] < 0.05


def test_a_dead_worker_fails_the_chief_clearly_and_a_restart_resumes(tmp_path):
    model_dir = str(tmp_path / "model")
    procs = start(("chief", "worker"), model_dir, max_steps=10 ** 7)
    try:
        deadline = time.time() + 300
        while time.time() < deadline:  # wait until training has checkpointed past step 0
            state = tf.train.get_checkpoint_state(model_dir) if os.path.isdir(model_dir) else None
            if state and not state.model_checkpoint_path.endswith("-0"):
                break
            time.sleep(0.5)
        procs["worker"].kill()
        _, err = procs["chief"].communicate(timeout=300)  # no silent hang
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
    assert procs["chief"].returncode != 0
    assert "another task of the cluster is unavailable" in err
    resumed_from = int(tf.train.latest_checkpoint(model_dir).rsplit("-", 1)[1])
    procs = start(("chief", "worker"), model_dir, max_steps=resumed_from + 20)
    for proc in procs.values():
        _, err = proc.communicate(timeout=400)
        assert proc.returncode == 0, err[-3000:]
    assert tf.train.latest_checkpoint(model_dir).endswith(f"model.ckpt-{resumed_from + 20}")
