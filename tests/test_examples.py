"""The MNIST example trains on real digit images (scikit-learn's, no download)."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "mnist"))
pytest.importorskip("sklearn")


def test_mnist_estimator_example_learns(tmp_path):
    import mnist_estimator
    results = mnist_estimator.main(["--model_dir", str(tmp_path / "m"), "--steps", "300",
                                    "--filters", "8", "--dense_units", "64"])
    assert results["global_step"] == 300
    assert results["accuracy"] > 0.9
    assert os.path.exists(tmp_path / "m" / "model.ckpt-300.index")
