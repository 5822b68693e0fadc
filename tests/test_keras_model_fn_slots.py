"""A custom model_fn's Keras optimizer in checkpoints under tf.estimator 2.15's names
(estimator_compat/engine/keras_model_fn_slots.py), with real checkpoints: 2.15's model_dirs
(tests/fixtures/make_tf215_keras_model_fn_slots.py) resume here and give 2.15's numbers; ours
are written under 2.15's names and shapes, read back here and by TF 2.15 (where its venv is);
model_dirs written under the Keras 3 names before still resume.
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import estimator_compat

estimator_compat.install()
import tensorflow as tf  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
sys.path.insert(0, FIXTURES)
import make_tf215_keras_model_fn_slots as programs  # noqa: E402

TF215 = os.path.join(FIXTURES, "tf215_keras_model_fn_slots")
KERAS3 = os.path.join(FIXTURES, "keras3_named_model_fn_slots")
SIDE_PYTHON = "/work/side/tf215/bin/python"
CASES = sorted(programs.CASES)
# Nadam: Keras 2 and Keras 3 schedule its momentum differently (0.96 ** (0.004 t) vs
# 0.96 ** t): m, v, the step and momentum_cache (written by Keras 2's rule) agree with 2.15,
# the weights do not
RULE_DIFFERS = {"nadam": lambda name: name.startswith("sequential/")}


def _expected(directory):
    with open(os.path.join(directory, "expected.json")) as f:
        return json.load(f)


def _copy(directory, case, tmp_path):
    target = str(tmp_path / case)
    shutil.copytree(os.path.join(directory, case), target)
    return target


def _train(case, model_dir, steps):
    tf.estimator.Estimator(programs.make_model_fn(case), model_dir).train(programs.input_fn,
                                                                         steps=steps)
    return programs.variables_of(model_dir)


def _assert_close(got, want, skip=lambda name: False, rtol=2e-5, atol=1e-6):
    assert sorted(got) == sorted(want)
    for name in want:
        if not skip(name):
            np.testing.assert_allclose(got[name], want[name], rtol=rtol, atol=atol,
                                       err_msg=name)


@pytest.mark.parametrize("case", CASES)
def test_resumes_tf215_model_dir_with_its_numbers(case, tmp_path):
    model_dir = _copy(TF215, case, tmp_path)
    got = _train(case, model_dir, 1)
    want = _expected(TF215)[case]["after_one_more_step"]
    assert got["global_step"] == want["global_step"] == programs.STEPS + 1
    _assert_close(got, want, RULE_DIFFERS.get(case, lambda name: False))


def test_nadam_resumes_with_its_own_rule(tmp_path):
    """Nadam's weights from 2.15's model_dir: Keras 3's step from 2.15's m, v, not 2.15's."""
    got = _train("nadam", _copy(TF215, "nadam", tmp_path), 1)
    want = _expected(TF215)["nadam"]["after_one_more_step"]
    kernel = np.asarray(got["sequential/dense/kernel"])
    before = tf.train.load_checkpoint(os.path.join(TF215, "nadam")).get_tensor(
        "sequential/dense/kernel")
    assert np.abs(kernel - before).max() > 1e-3  # it trained
    np.testing.assert_allclose(kernel, want["sequential/dense/kernel"], atol=0.05)


@pytest.mark.parametrize("case", CASES)
def test_writes_tf215_names_and_shapes(case, tmp_path):
    model_dir = str(tmp_path / case)
    _train(case, model_dir, programs.STEPS)
    assert tf.train.list_variables(model_dir) == \
        tf.train.list_variables(os.path.join(TF215, case))
    reader = tf.train.load_checkpoint(model_dir)
    theirs = tf.train.load_checkpoint(os.path.join(TF215, case))
    for name, shape in tf.train.list_variables(model_dir):
        if shape == [] and name != "global_step":
            # the hyperparameters and the step count, as 2.15 had them
            assert reader.get_tensor(name) == pytest.approx(theirs.get_tensor(name)), name
            assert reader.get_variable_to_dtype_map()[name] == \
                theirs.get_variable_to_dtype_map()[name], name


def test_evaluate_reads_tf215_names(tmp_path):
    """evaluate: by a new Estimator (no optimizer variables), and after train in the same
    one (its optimizer's variables restored from 2.15's names)."""
    model_dir = _copy(TF215, "two_adagrad", tmp_path)
    est = tf.estimator.Estimator(programs.make_model_fn("two_adagrad"), model_dir)
    first = est.evaluate(programs.input_fn, steps=1)
    assert first["global_step"] == programs.STEPS
    est.train(programs.input_fn, steps=1)
    again = est.evaluate(programs.input_fn, steps=1)
    assert again["global_step"] == programs.STEPS + 1 and again["loss"] < first["loss"]


@pytest.mark.parametrize("case", CASES)
def test_round_trip(case, tmp_path):
    """Two steps, a new Estimator, one more: as three steps in one train call."""
    split = str(tmp_path / "split")
    _train(case, split, programs.STEPS)
    got = _train(case, split, 1)
    want = _train(case, str(tmp_path / "whole"), programs.STEPS + 1)
    _assert_close(got, want, rtol=1e-6, atol=1e-7)


@pytest.mark.skipif(not os.path.exists(SIDE_PYTHON), reason="no TF 2.15 venv")
def test_tf215_continues_our_model_dirs(tmp_path):
    ours, args = {}, []
    for case in CASES:
        model_dir = str(tmp_path / case)
        _train(case, model_dir, programs.STEPS)
        shutil.copytree(model_dir, model_dir + "_215")
        ours[case] = _train(case, model_dir, 1)
        args += [case, model_dir + "_215"]
    run = subprocess.run(
        [SIDE_PYTHON, os.path.join(FIXTURES, "make_tf215_keras_model_fn_slots.py"),
         "continue", *args], capture_output=True, text=True, timeout=300,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert run.returncode == 0, run.stderr[-3000:]
    line = [x for x in run.stdout.splitlines() if x.startswith("VARIABLES ")][-1]
    theirs = json.loads(line[len("VARIABLES "):])
    for case in CASES:
        assert theirs[case]["global_step"] == programs.STEPS + 1
        _assert_close(ours[case], theirs[case], RULE_DIFFERS.get(case, lambda name: False))


@pytest.mark.parametrize("case", sorted(_expected(KERAS3)))
def test_resumes_keras3_named_model_dir(case, tmp_path):
    """A model_dir we wrote before (Keras 3's names) resumes as that code resumed it."""
    got = _train(case, _copy(KERAS3, case, tmp_path), 1)
    want = _expected(KERAS3)[case]["after_one_more_step"]
    assert got["global_step"] == want["global_step"] == programs.STEPS + 1
    weights = [n for n in want if n.startswith("sequential/")]
    assert weights
    for name in weights:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-6, atol=1e-7, err_msg=name)
    assert programs.variables_of(_copy(TF215, case, tmp_path / "names")).keys() == got.keys()
