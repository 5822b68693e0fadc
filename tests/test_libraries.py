"""Libraries built on tf.estimator, run unchanged through `estimator-compat run`.

Each is installed with `pip install --no-deps` (their pins name TensorFlow < 2.16) and its test
is skipped where it is absent. Neural Structured Learning 1.4.0
(`pip install --no-deps neural-structured-learning==1.4.0 attrs`): the same program on
TF 2.15.1 + tensorflow-estimator 2.15.0 (side venv) reached accuracy 0.9922, auc 0.9998,
average_loss 0.0358 at global_step 200. The wrapper calls the canned model_fn three times per
step and keeps one train_op; the other two are not run (as a TF1 session ran only what was
fetched), so global_step ends at 200 there too.
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
    assert metrics["accuracy"] > 0.98 and metrics["auc"] > 0.999  # TF 2.15: 0.9922 / 0.9998; ours 0.9922
    assert metrics["average_loss"] < 0.05  # TF 2.15: 0.0358; ours 0.0376
    assert metrics["global_step"] == 200  # TF 2.15: train(steps=200) ends at 200


@pytest.mark.skipif(not (installed("tensorflow_gan") and installed("tensorflow_probability")),
                    reason="pip install --no-deps tensorflow-gan==2.1.0 tensorflow-probability "
                           "tf-keras dm-tree cloudpickle decorator")
def test_tfgan_gan_estimator_with_its_train_ops_hook(tmp_path):
    """TF-GAN 2.1.0's GANEstimator: the generator's train op runs from its RunTrainOpsHook
    through session.run (on a fresh batch), the discriminator's in the step. TF 2.15 +
    tf.estimator 2.15 (with Python 3.10's inspect.getargspec): generated mean 3.20, 3.79, 4.01
    after 50 steps (real data N(3, 0.5)); here 3.89-4.22."""
    out, _ = run(os.path.join(LIBRARIES, "tfgan_example.py"), tmp_path / "model")
    metrics = result(out)
    assert metrics["global_step"] == 50
    assert 2.0 < metrics["mean"] < 5.5, metrics  # the generator learnt (it starts near 0)
