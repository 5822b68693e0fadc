"""model_dirs written by tf.estimator 2.15's tf.compat.v1 canned estimators (the TF1 classes):
estimator_compat evaluates them to the same metrics and continues their training, optimizer
slots included, to the same metrics 2.15 reached (tests/fixtures/make_tf215_canned_v1.py)."""
import json
import os
import shutil
import sys

import pytest

pytest.importorskip("sklearn")
HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures", "tf215_canned_v1")
sys.path.insert(0, os.path.join(HERE, "fixtures"))
import estimator_compat  # noqa: E402

estimator_compat.install()  # tf.compat.v1.estimator: the TF1 classes the fixture script uses
import make_tf215_canned_v1 as fixture  # noqa: E402

with open(os.path.join(FIXTURES, "expected.json")) as f:
    EXPECTED = json.load(f)


@pytest.mark.parametrize("name", sorted(fixture.MODELS))
def test_continue_training_a_tf215_v1_canned_model_dir(name, tmp_path):
    model_dir = str(tmp_path / name)
    shutil.copytree(os.path.join(FIXTURES, name), model_dir)
    est = fixture.MODELS[name](model_dir)
    for steps, train in (("50", False), ("60", True)):
        if train:
            est.train(fixture.input_fn(), steps=10)  # restores every variable, slots included
        result = est.evaluate(fixture.input_fn(False), name="x")
        for key, want in EXPECTED[name][steps].items():
            assert result[key] == pytest.approx(want, rel=1e-4, abs=1e-4), (steps, key, result)
