"""tensorflow_estimator 2.15's keras_lib model_fn pieces served under its module path
(issue 45): `_clone_and_build_model`, `_convert_keras_metrics_to_estimator`,
`_create_keras_model_fn` (trained, evaluated and predicted by our Estimator) and
`_save_first_checkpoint` give what 2.15 gave on the same Keras models (constant weights):
tests/fixtures/make_tf215_keras_lib_model_fn.py's cases, recorded in TF 2.15.1 +
tensorflow-estimator 2.15 (tests/fixtures/tf215_keras_lib_model_fn.json), compared with
Keras 3's own names normalized as that script's docstring says."""
import importlib
import json
import os
import pathlib
import sys

import pytest

import estimator_compat

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
import make_tf215_keras_lib_model_fn as cases  # noqa: E402

RECORDED = json.loads((FIXTURES / "tf215_keras_lib_model_fn.json").read_text())


@pytest.fixture(scope="module", autouse=True)
def installed():
    estimator_compat.install()


def _import(path):
    return importlib.import_module("tensorflow_estimator.python.estimator." + path)


def _close(found, expected, where=""):
    """found == expected, floats to 2e-3 (float32 sums over a few steps)."""
    if isinstance(expected, float) and isinstance(found, (int, float)):
        assert found == pytest.approx(expected, abs=2e-3), where
    elif isinstance(expected, dict) and isinstance(found, dict):
        assert sorted(found) == sorted(expected), where
        for key in expected:
            _close(found[key], expected[key], f"{where}/{key}")
    elif isinstance(expected, list) and isinstance(found, list):
        assert len(found) == len(expected), where
        for i, (a, b) in enumerate(zip(found, expected)):
            _close(a, b, f"{where}[{i}]")
    else:
        assert found == expected, where


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_matches_tf215(name):
    _close(cases.run_all(_import, [name])[name], RECORDED[name], name)


def test_model_to_estimator_writes_the_first_checkpoint(tmp_path):
    """As 2.15's, model_to_estimator of a Sequential or functional model writes
    `<model_dir>/keras/keras_model.ckpt` with the model's weights."""
    import tensorflow as tf
    model = cases.sequential()
    est = tf.keras.estimator.model_to_estimator(keras_model=model, model_dir=str(tmp_path))
    path = os.path.join(est.model_dir, "keras", "keras_model.ckpt")
    assert tf.train.latest_checkpoint(os.path.dirname(path)) == path
    assert cases._weights(path)["weights"]["h/kernel"] == [[2, 3], 6.0]
