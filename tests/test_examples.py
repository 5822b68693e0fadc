"""The MNIST example trains on real digit images (scikit-learn's, no download)."""
import logging
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "mnist"))
pytest.importorskip("sklearn")


def test_mnist_estimator_example_learns(tmp_path, caplog):
    import mnist_estimator
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        results = mnist_estimator.main(["--model_dir", str(tmp_path / "m"), "--steps", "300",
                                        "--filters", "8", "--dense_units", "64"])
    # LoggingTensorHook(tensors={"probabilities": "softmax_tensor"}, every_n_iter=50)
    assert caplog.text.count("probabilities = ") == 6
    assert results["global_step"] == 300
    assert results["accuracy"] > 0.9
    assert os.path.exists(tmp_path / "m" / "model.ckpt-300.index")
