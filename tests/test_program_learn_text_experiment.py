"""tests/programs/learn_text_experiment: a contrib.learn bag-of-words classifier run by
learn_runner (Experiment, HParams, `run_config.replace(...)`, min_eval_frequency) and then
predict() with a model_fn that one-hot encodes `target` in every mode.

TF 1.15 on this program (seed 7): "Validation (step N)" at 50, 100 and 150, then the final
evaluation: accuracy 0.9600 at step 150; predict() on 150 new documents: accuracy 0.9267;
checkpoints 0, 50, 100, 150 holding the 13 variables listed below (ours: 0.94 and 0.90 there,
random initialization differing)."""
import os
import re

import tensorflow as tf
from helpers import PROGRAMS, run_program

SCRIPT = os.path.join(PROGRAMS, "learn_text_experiment", "text_experiment.py")
TF115_VARIABLES = {
    "OptimizeLoss/beta1_power": [], "OptimizeLoss/beta2_power": [],
    "OptimizeLoss/bow_encoder/embeddings/Adam": [40, 16],
    "OptimizeLoss/bow_encoder/embeddings/Adam_1": [40, 16],
    "OptimizeLoss/fully_connected/biases/Adam": [3],
    "OptimizeLoss/fully_connected/biases/Adam_1": [3],
    "OptimizeLoss/fully_connected/weights/Adam": [16, 3],
    "OptimizeLoss/fully_connected/weights/Adam_1": [16, 3],
    "OptimizeLoss/learning_rate": [], "bow_encoder/embeddings": [40, 16],
    "fully_connected/biases": [3], "fully_connected/weights": [16, 3], "global_step": []}


def test_learn_text_experiment(tmp_path):
    model_dir = tmp_path / "text"
    out, err = run_program(SCRIPT, "--model_dir", model_dir)
    accuracy = float(re.search(r"eval accuracy = ([\d.]+), loss = [\d.]+, global_step = 150",
                               out).group(1))
    assert accuracy > 0.88  # TF 1.15: 0.9600
    predicted = re.search(r"predicted (\d+) documents, accuracy = ([\d.]+)", out)
    assert predicted.group(1) == "150" and float(predicted.group(2)) > 0.85  # TF 1.15: 0.9267
    validated = re.findall(r"Validation \(step (\d+)\): accuracy = [\d.]+, loss = [\d.]+, "
                           r"global_step = \d+", err)  # (logged by absl and tf.logging)
    assert sorted(set(map(int, validated))) == [50, 100, 150]
    for step in (0, 50, 100, 150):
        assert (model_dir / f"model.ckpt-{step}.index").exists()
    assert dict(tf.train.list_variables(str(model_dir / "model.ckpt-150"))) == TF115_VARIABLES
    assert (model_dir / "graph.pbtxt").exists()
    assert list((model_dir / "eval").glob("events.out.tfevents.*"))
