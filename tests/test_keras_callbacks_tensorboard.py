"""Keras callbacks in the hook list; every kind of TF1 summary in the event files; the CLI."""
import glob
import os
import subprocess
import sys

import keras
import numpy as np
import tensorflow as tf
from tensorboard.backend.event_processing import event_file_loader

import estimator_compat as ec
from estimator_compat import cli
from helpers import linear_input_fn, linear_model_fn

v1 = tf.compat.v1
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_keras_early_stopping_on_loss_stops_training(tmp_path):
    cfg = ec.RunConfig(model_dir=str(tmp_path), log_step_count_steps=5)
    est = ec.Estimator(linear_model_fn, config=cfg, params={"lr": 0.05})
    stopper = keras.callbacks.EarlyStopping(monitor="loss", patience=1, min_delta=100.0)
    est.train(linear_input_fn(), hooks=[stopper], steps=100)
    assert est.get_variable_value("global_step") == 10  # two 5-step "epochs"
    assert stopper.stopped_epoch == 1


def test_keras_early_stopping_restores_best_weights(tmp_path):
    cfg = ec.RunConfig(model_dir=str(tmp_path), log_step_count_steps=2)
    est = ec.Estimator(linear_model_fn, config=cfg, params={"lr": 0.05})
    stopper = keras.callbacks.EarlyStopping(monitor="loss", patience=1, min_delta=100.0,
                                            restore_best_weights=True)
    est.train(linear_input_fn(), hooks=[stopper], steps=100)
    assert est.get_variable_value("global_step") == 4


def test_hooks_and_callbacks_run_in_one_ordered_list(tmp_path):
    order = []

    class Hook(ec.SessionRunHook):
        def __init__(self, tag):
            self.tag = tag

        def after_run(self, run_context, run_values):
            order.append(self.tag)

    class Cb(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            order.append("cb")
            assert set(logs) == {"loss", "global_step"}
    est = ec.Estimator(linear_model_fn, model_dir=str(tmp_path), params={})
    est.train(linear_input_fn(), hooks=[Hook("a"), Cb(), Hook("b")], steps=2)
    assert order == ["a", "cb", "b"] * 2


def summaries_model_fn(features, labels, mode, params):
    spec = linear_model_fn(features, labels, mode, params)
    if mode == "train":
        lr = v1.train.exponential_decay(0.1, v1.train.get_global_step(), 10, 0.5)
        v1.summary.scalar("learning_rate", lr)
        v1.summary.image("inputs", tf.reshape(features["x"][:, :3], [-1, 1, 3, 1]), max_outputs=1)
        v1.summary.text("note", tf.constant("hello"))
        tf.summary.scalar("tf2_scalar", tf.reduce_mean(features["x"]))  # a TF2 summary too
    return spec


def raw_events(logdir):
    kinds = {}
    for path in glob.glob(os.path.join(logdir, "events.out.tfevents.*")):
        for event in event_file_loader.LegacyEventFileLoader(path).Load():
            if event.HasField("graph_def"):
                kinds.setdefault("__graph__", []).append(event.step)
            for value in event.summary.value:
                kind = value.WhichOneof("value")
                kinds.setdefault(value.tag, []).append((event.step, kind))
                if kind in ("histo", "image"):  # what was computed: values, an encoded image
                    size = value.histo.num if kind == "histo" else len(
                        value.image.encoded_image_string)
                    kinds.setdefault(value.tag + "/size", []).append(size)
    return kinds


def test_every_kind_of_summary_is_written(tmp_path):
    cfg = ec.RunConfig(model_dir=str(tmp_path), save_summary_steps=5)
    est = ec.Estimator(summaries_model_fn, config=cfg, params={"lr": 0.1})
    est.train(linear_input_fn(), steps=12)
    kinds = raw_events(str(tmp_path))
    assert "__graph__" in kinds  # the graph tab has something to show
    assert [s for s, _ in kinds["loss"]] == [1, 6, 11]
    assert [s for s, _ in kinds["learning_rate"]] == [1, 6, 11]
    assert kinds["my_loss"][0][1] == "simple_value"
    # histograms and images are computed only on the steps that write them (summary_ops)
    assert kinds["w"] == [(1, "histo"), (6, "histo"), (11, "histo")]
    assert kinds["w/size"] == [3, 3, 3]
    image_tags = [t for t in kinds if t.startswith("inputs") and not t.endswith("/size")]
    assert image_tags and [k for _, k in kinds[image_tags[0]]] == ["image"] * 3
    assert all(size > 0 for size in kinds[image_tags[0] + "/size"])
    text_tags = [t for t in kinds if t.startswith("note")]
    assert text_tags and kinds[text_tags[0]][0][1] == "tensor"
    assert [s for s, _ in kinds["tf2_scalar"]] == [1, 6, 11]
    est.evaluate(linear_input_fn(repeat=False))
    eval_kinds = raw_events(os.path.join(str(tmp_path), "eval"))
    assert eval_kinds["mae"] == [(12, "simple_value")]


def test_tensorboard_summary_command(tmp_path, capsys):
    est = ec.Estimator(linear_model_fn, config=ec.RunConfig(model_dir=str(tmp_path),
                                                           save_summary_steps=3), params={})
    est.train(linear_input_fn(), steps=7)
    res = est.evaluate(linear_input_fn(repeat=False))
    assert cli.main(["tensorboard-summary", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "my_loss" in out and "step        7" in out
    eval_line = next(line for line in out.splitlines() if line.strip().startswith("mae"))
    assert float(eval_line.split()[-1]) == np.float32(res["mae"]) or \
        abs(float(eval_line.split()[-1]) - res["mae"]) < 1e-5
    proc = subprocess.run([sys.executable, "-m", "estimator_compat", "tensorboard-summary",
                           str(tmp_path)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0 and "eval:" in proc.stdout
