"""Boosted trees programs in the styles users wrote them, run unchanged through
`estimator-compat run` (real processes), compared with the originals on the same data.

- train_higgs_style.py: tensorflow/models' r1 HIGGS sample (TF 1.x flags, contrib's in-memory
  trainer, percentile-bucketized columns, a CSV serving input). TF 1.15.5 and TF 2.8's
  BoostedTreesClassifier(train_in_memory=True) both reached accuracy 0.8410, AUC 0.93724;
  ours: the same to 6 digits (the same trees but for a near-tie in the 14th).
- titanic_tutorial.py: tensorflow.org's "Boosted trees using Estimators" and "Model
  understanding" notebooks (pandas CSV, one-hot and numeric columns, shuffled full batches,
  bias centering, importances, DFCs). TF 2.8 shuffles differently on each run (the quantile
  sketch sees the rows in another order): accuracy 0.7348 / 0.7386 / 0.7235, AUC 0.8220 /
  0.8224 / 0.8158, bias 0.4705 in three runs; ours 0.7311 / 0.8291 / 0.4705.
"""
import json
import os
import subprocess
import sys

import pytest
import tensorflow as tf

from helpers import PROGRAMS, run_program as run

HERE = os.path.join(PROGRAMS, "boosted_trees")


def result(out):
    line = [x for x in out.splitlines() if x.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT "):])


def test_higgs_sample_in_memory_with_csv_export(tmp_path):
    subprocess.run([sys.executable, os.path.join(HERE, "make_higgs_data.py"), tmp_path],
                   check=True)
    out, err = run(os.path.join(HERE, "train_higgs_style.py"), "--data_dir", tmp_path,
                   "--model_dir", tmp_path / "model", "--export_dir", tmp_path / "export")
    assert "with TensorFlow 1.x's API" in err
    metrics = result(out)
    assert metrics["accuracy"] == pytest.approx(0.841, abs=1e-6)
    assert metrics["auc"] == pytest.approx(0.93724, abs=2e-5)
    assert metrics["global_step"] == 80  # 20 trees x 4 layers, one batch each
    # the CSV signature, read by TF1's loader in the program, predicts the labels
    served, labels = metrics["served"], metrics["expected_labels"]
    assert [p > 0.5 for p in served] == [y > 0.5 for y in labels]
    serving = tf.saved_model.load(metrics["export"]).signatures["predict"]
    again = serving(inputs=tf.constant(["0" + ",0" * 27]))["probabilities"].numpy()
    assert again.shape == (1, 2)


def test_titanic_tutorials_importances_and_dfcs(tmp_path):
    subprocess.run([sys.executable, os.path.join(HERE, "make_titanic_data.py"), tmp_path],
                   check=True)
    out, err = run(os.path.join(HERE, "titanic_tutorial.py"), "--data_dir", tmp_path,
                   "--model_dir", tmp_path / "model")
    assert "with TensorFlow 2's API" in err
    metrics = result(out)  # the program itself asserts bias + sum(DFCs) == probability
    assert metrics["global_step"] == 100
    assert metrics["accuracy"] > 0.70 and metrics["auc"] > 0.79
    assert metrics["bias"] == pytest.approx(0.4705, abs=1e-4)  # the training labels' mean
    top = sorted(metrics["importances"], key=metrics["importances"].get, reverse=True)[:3]
    assert "sex" in top and "class" in top
    assert sum(metrics["importances"].values()) == pytest.approx(1.0)
