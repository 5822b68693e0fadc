"""model_dirs written by tf.estimator 2.15's canned estimators, the TF1 classes (compat.v1
optimizer slots, same names here) and the V2 ones (Keras optimizer slots, read into ours):
estimator_compat evaluates them to the same metrics and continues their training, optimizer
state included, to the metrics 2.15 reached (tests/fixtures/make_tf215_canned.py)."""
import json
import os
import shutil
import sys

import pytest

pytest.importorskip("sklearn")
HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures", "tf215_canned")
sys.path.insert(0, os.path.join(HERE, "fixtures"))
import estimator_compat  # noqa: E402

estimator_compat.install()  # tf.estimator / tf.compat.v1.estimator, as the fixture script uses
import make_tf215_canned as fixture  # noqa: E402

with open(os.path.join(FIXTURES, "expected.json")) as f:
    EXPECTED = json.load(f)


@pytest.mark.parametrize("name", sorted(fixture.MODELS))
def test_continue_training_a_tf215_canned_model_dir(name, tmp_path):
    model_dir = str(tmp_path / name)
    shutil.copytree(os.path.join(FIXTURES, name), model_dir)
    est = fixture.MODELS[name](model_dir)
    for steps, train in (("50", False), ("60", True)):
        if train:
            est.train(fixture.input_fn(name), steps=10)  # restores every variable and slot
        result = est.evaluate(fixture.input_fn(name, False), name="x")
        for key, want in EXPECTED[name][steps].items():
            assert result[key] == pytest.approx(want, rel=1e-4, abs=1e-4), (steps, key, result)
