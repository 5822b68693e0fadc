"""model_to_estimator continues model_dirs that TF 2.15's model_to_estimator wrote, in both
checkpoint formats (object-based 'checkpoint', name-based 'saver'), with the weights and the
optimizer's state (slots, hyperparameters, iterations = global step), for Adam, SGD (with and
without momentum), Adagrad and RMSprop; what it writes there keeps 2.15's layout, which 2.15
then continues. Recorded by tests/fixtures/make_tf215_keras_bridge_dirs.py (TF 2.15.1)."""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import estimator_compat as ec

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "fixtures"))
import make_tf215_keras_bridge_dirs as cases  # noqa: E402

DIRS = cases.OUT
EXPECTED = json.load(open(os.path.join(DIRS, "expected.json")))["cases"]
TF215 = "/work/side/tf215/bin/python"


def _continue(model_dir, case):
    ec.install()
    import keras
    import tensorflow as tf
    model = cases.model_for(keras, case, keras.optimizers)
    model.set_weights([np.zeros_like(w) for w in cases.WEIGHTS])  # the checkpoint's count
    est = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir=model_dir,
                                                checkpoint_format=case.split("-")[1])
    est.train(cases.input_fn, steps=1)
    return cases.read_weights(model_dir)


def _assert_matches(got, want):
    assert got["global_step"] == want["global_step"]
    for name in ("h/kernel", "h/bias", "out/kernel", "out/bias"):
        np.testing.assert_allclose(got[name], want[name], rtol=1e-5, atol=1e-7, err_msg=name)


@pytest.mark.parametrize("case", cases.CASES)
def test_continues_a_tf215_model_dir(case, tmp_path):
    model_dir = str(tmp_path / "m")
    shutil.copytree(os.path.join(DIRS, case), model_dir)
    _assert_matches(_continue(model_dir, case), EXPECTED[case]["after_1"])
    # a second Estimator continues what the first wrote (2.15's layout, read back)
    _assert_matches(_continue(model_dir, case), EXPECTED[case]["after_2"])


@pytest.mark.skipif(not os.path.exists(TF215), reason="no TF 2.15 side environment")
@pytest.mark.parametrize("case", ["adam-checkpoint", "adam-saver", "sgd_momentum-checkpoint",
                                  "rmsprop-saver"])
def test_tf215_continues_our_model_dir(case, tmp_path):
    model_dir = str(tmp_path / "m")
    shutil.copytree(os.path.join(DIRS, case), model_dir)
    _continue(model_dir, case)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    done = subprocess.run([TF215, os.path.join(HERE, "fixtures",
                                               "make_tf215_keras_bridge_dirs.py"),
                           "continue", model_dir, case], capture_output=True, text=True,
                          env=env, timeout=300)
    line = [x for x in done.stdout.splitlines() if x.startswith("WEIGHTS ")]
    assert done.returncode == 0 and line, done.stderr[-3000:]
    _assert_matches(json.loads(line[0][len("WEIGHTS "):]), EXPECTED[case]["after_2"])
