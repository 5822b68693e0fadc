"""Libraries built on tf.estimator, run unchanged through `estimator-compat run`.

Each is installed with `pip install --no-deps` (their pins name TensorFlow < 2.16) and its test
is skipped where it is absent. Neural Structured Learning 1.4.0
(`pip install --no-deps neural-structured-learning==1.4.0 attrs`): the same program on
TF 2.15.1 + tensorflow-estimator 2.15.0 (side venv) reached accuracy 0.9922, auc 0.9998,
average_loss 0.0358 at global_step 200; ours accuracy 1.0, auc 1.0, average_loss 0.060, but at
global_step 201 (train(steps=1) ends at 3, steps=101 at 102): an xfail until that is fixed.
"""
import importlib.util
import json
import os

import pytest

from helpers import PROGRAMS, run_program as run

LIBRARIES = os.path.join(PROGRAMS, "libraries")


def result(out):
    line = [x for x in out.splitlines() if x.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT "):])


def installed(module):
    """Found without importing it (these libraries import tf.estimator at import time)."""
    return importlib.util.find_spec(module) is not None


@pytest.mark.skipif(not installed("neural_structured_learning"),
                    reason="pip install --no-deps neural-structured-learning==1.4.0 attrs")
def test_nsl_adversarial_regularization_of_a_canned_estimator(tmp_path):
    out, _ = run(os.path.join(LIBRARIES, "nsl_example.py"), tmp_path / "model")
    metrics = result(out)
    assert metrics["accuracy"] > 0.98 and metrics["auc"] > 0.99  # TF 2.15: 0.9922 / 0.9998
    assert metrics["average_loss"] < 0.1  # TF 2.15: 0.0358
    if metrics["global_step"] != 200:  # TF 2.15: train(steps=200) ends at 200
        pytest.xfail(f"known: train(steps=200) ended at global_step {metrics['global_step']:.0f}; "
                     "train(steps=1) ends at 3 (the wrapper calls the canned model_fn three "
                     "times per step and drops two of its train_ops)")
