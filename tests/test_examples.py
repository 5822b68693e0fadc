"""The three MNIST scripts run in a short configuration on real digit images (no download)."""
import logging
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MNIST = os.path.join(ROOT, "examples", "mnist")
sys.path.insert(0, MNIST)
pytest.importorskip("sklearn")
SMALL = ["--filters", "8", "--dense_units", "64"]


def test_custom_estimator_with_logging_hook_and_early_stopping(tmp_path, caplog):
    import custom_estimator
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        results = custom_estimator.main(["--model_dir", str(tmp_path / "m"), "--steps", "300"]
                                        + SMALL)
    # LoggingTensorHook(tensors={"probabilities": "softmax_tensor"}, every_n_iter=50)
    assert caplog.text.count("probabilities = ") == 6
    assert results["global_step"] == 300 and results["accuracy"] > 0.9
    assert os.path.exists(tmp_path / "m" / "model.ckpt-300.index")


def test_learn_runner_experiment(tmp_path):
    import learn_runner_experiment
    results = learn_runner_experiment.main(["--model_dir", str(tmp_path / "m"), "--steps", "300"]
                                           + SMALL)
    assert results["global_step"] == 300 and results["accuracy"] > 0.85


def test_train_and_evaluate_export(tmp_path):
    import train_and_evaluate_export
    results, export_dir, served = train_and_evaluate_export.main(
        ["--model_dir", str(tmp_path / "m"), "--steps", "300"] + SMALL)
    assert results["global_step"] == 300 and results["accuracy"] > 0.85
    assert os.path.exists(os.path.join(export_dir, "saved_model.pb")) and served > 0.8
    assert len(os.listdir(tmp_path / "m" / "export" / "mnist")) >= 1


def test_scripts_run_as_commands(tmp_path):
    proc = subprocess.run([sys.executable, os.path.join(MNIST, "custom_estimator.py"),
                           "--model_dir", str(tmp_path / "m"), "--steps", "20"] + SMALL,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "eval accuracy = " in proc.stdout


def test_canned_iris_example(tmp_path):
    sys.path.insert(0, os.path.join(ROOT, "examples", "canned"))
    import iris_dnn_classifier
    result = iris_dnn_classifier.main(["--model_dir", str(tmp_path / "m"), "--steps", "300"])
    assert result["accuracy"] > 0.85 and result["global_step"] == 300
