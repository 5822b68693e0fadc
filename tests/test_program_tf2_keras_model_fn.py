"""tests/programs/tf2_keras_model_fn: a TF 2.0-2.10 style estimator program, run unchanged.

The style public TF 2.x programs used most and that broke on Keras 3: a custom model_fn
over `tf.keras.Sequential`, a `tf.keras.optimizers` optimizer with `iterations` set to the
global step and `get_updates(...)[0]` as the train_op, `tf.estimator.add_metrics` with a Keras
metric, `train_and_evaluate` + `FinalExporter`, the export called through
`tf.saved_model.load(...).signatures["serving_default"]`.

TF 2.15.1 + tensorflow-estimator 2.15 (side venv) ran the same file with
`tf.keras.optimizers.legacy.Adagrad` in place of `tf.keras.optimizers.Adagrad` (2.15's new
Keras optimizers had lost `get_updates`; 2.0-2.10's had it): accuracy 0.9233, auc 0.9927,
loss 0.1780 at step 300, served accuracy 0.9233; model_dir with model.ckpt-{0,150,300} (.index,
.data, .meta), graph.pbtxt, eval/ events and export/exporter/<timestamp>/saved_model.pb. Ours:
accuracy 0.9300, auc 0.9927, loss 0.1804, the same files (other random initial weights).
"""
import json
import os

import tensorflow as tf
from helpers import PROGRAMS, Program, read_events

SCRIPT = os.path.join(PROGRAMS, "tf2_keras_model_fn", "classifier.py")


def test_migration_guide_style_program(tmp_path):
    model_dir = tmp_path / "md"
    out, err = Program(SCRIPT, "--model_dir", model_dir).wait()
    found = [json.loads(line[len("RESULT "):]) for line in out.splitlines()
             if line.startswith("RESULT ")]
    assert len(found) == 2, out[-2000:] + err[-3000:]
    metrics, served = found
    assert metrics["global_step"] == 300
    assert metrics["accuracy"] > 0.89 and metrics["auc"] > 0.97 and metrics["loss"] < 0.3, metrics
    assert abs(served["served_accuracy"] - metrics["accuracy"]) < 1e-6
    files = set(os.listdir(model_dir))
    for step in (0, 150, 300):
        assert {f"model.ckpt-{step}.index", f"model.ckpt-{step}.meta"} <= files, files
    assert {"checkpoint", "graph.pbtxt", "eval", "export"} <= files
    assert served["export"].startswith(os.path.join("export", "exporter", ""))
    assert os.path.exists(model_dir / served["export"] / "saved_model.pb")
    evals = read_events(str(model_dir / "eval"))
    assert {"accuracy", "auc", "loss"} <= set(evals), sorted(evals)
    names = dict(tf.train.list_variables(str(model_dir)))
    assert names["sequential/dense/kernel"] == [4, 16] and names["global_step"] == []
    assert tf.train.load_checkpoint(str(model_dir)).get_tensor("global_step") == 300
