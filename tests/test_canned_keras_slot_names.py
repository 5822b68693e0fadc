"""The V2 canned estimators' checkpoints carry tf.estimator 2.15's Keras optimizer names.

2.15's V2 classes trained with Keras optimizers (`training/Adagrad/<var>/accumulator`, the
hyperparameters, `iter` of a second optimizer); tests/fixtures/tf215_keras_slot_names.json
holds what 2.15.1 wrote for 20 classes and optimizers (make_tf215_keras_slot_names.py). Ours
writes the same names and values, continues from them as if never stopped, reads its older
compat.v1-named checkpoints, and leaves the compat.v1 classes' names alone; where the side venv
of TF 2.15 is there (TF215_PYTHON), tf.estimator 2.15 continues a model_dir ours wrote to the
metrics it reaches on its own.
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")
sys.path.insert(0, FIXTURES)
import estimator_compat  # noqa: E402

estimator_compat.install()
import make_tf215_keras_slot_names as cases  # noqa: E402
from estimator_compat.canned.keras_slots import fill_from_keras_slots  # noqa: E402

with open(os.path.join(FIXTURES, "tf215_keras_slot_names.json")) as f:
    TF215 = json.load(f)
TF215_PYTHON = os.environ.get("TF215_PYTHON", "/work/side/tf215/bin/python")


def _checkpoint(model_dir):
    path = tf.train.latest_checkpoint(model_dir)
    reader = tf.train.load_checkpoint(path)
    return {name: reader.get_tensor(name) for name, _ in tf.train.list_variables(path)}


@pytest.mark.parametrize("name", sorted(TF215))
def test_names_and_hyperparameters_are_tf215s(name, tmp_path):
    cases.CASES[name](str(tmp_path)).train(cases.inp, steps=2)
    got = _checkpoint(str(tmp_path))
    want = {row[0]: row for row in TF215[name]}
    assert sorted(got) == sorted(want)
    for key, row in want.items():
        assert list(np.shape(got[key])) == row[1], key
        if len(row) == 3:  # a hyperparameter, or iter
            assert float(got[key]) == pytest.approx(row[2], rel=1e-6), key


@pytest.mark.parametrize("name", ["dnn_sgd_nesterov", "dnn_RMSProp", "combined_adam_instances"])
def test_continuing_from_keras_names_is_not_stopping(name, tmp_path):
    """One estimator trains 3 steps; another restores its step-2 checkpoint (converted SGD
    momentum, Adam's beta powers from iter / global_step, RMSprop's unsaved momentum) and
    trains the third: every tensor written is the same."""
    straight, resumed = str(tmp_path / "straight"), str(tmp_path / "resumed")
    first = cases.CASES[name](straight)
    first.train(cases.inp, steps=2)
    shutil.copytree(straight, resumed)
    first.train(cases.inp, steps=1)  # holds its variables: no restore
    cases.CASES[name](resumed).train(cases.inp, steps=1)
    a, b = _checkpoint(straight), _checkpoint(resumed)
    assert sorted(a) == sorted(b)
    for key in a:
        np.testing.assert_allclose(b[key], a[key], rtol=1e-5, atol=1e-7, err_msg=key)


def test_reads_its_older_compat_v1_slot_names(tmp_path, name="dnn_Adam"):
    """A model_dir estimator_compat wrote before (`<var>/Adam`, `<var>/Adam_1`, `beta1_power`):
    continued as if never stopped, then written under Keras names."""
    straight, resumed = str(tmp_path / "straight"), str(tmp_path / "resumed")
    old = cases.CASES[name](straight)
    old._fill_missing_variables = fill_from_keras_slots  # what the V2 classes wrote before
    old.train(cases.inp, steps=2)
    assert not any(k.startswith("training/") for k in _checkpoint(straight))
    shutil.copytree(straight, resumed)
    old.train(cases.inp, steps=1)
    cases.CASES[name](resumed).train(cases.inp, steps=1)
    a, b = _checkpoint(straight), _checkpoint(resumed)
    assert any(k.startswith("training/") for k in b)
    for key in (k for k in a if k.startswith("dnn/") and k.endswith(("kernel", "bias"))):
        np.testing.assert_allclose(b[key], a[key], rtol=1e-5, atol=1e-7, err_msg=key)


def test_compat_v1_classes_keep_compat_v1_names(tmp_path):
    E1 = tf.compat.v1.estimator
    models = {"dnn": lambda d: E1.DNNClassifier([3], cases.COLS, model_dir=d),
              "baseline": lambda d: E1.BaselineClassifier(model_dir=d),
              "combined": lambda d: E1.DNNLinearCombinedClassifier(
                  d, cases.COLS[:1], dnn_feature_columns=cases.COLS, dnn_hidden_units=[3],
                  dnn_optimizer="Adam")}
    for name, make in models.items():
        model_dir = str(tmp_path / name)
        make(model_dir).train(cases.inp, steps=1)
        names = set(_checkpoint(model_dir))
        assert not any(n.startswith("training/") for n in names), (name, names)
    assert "dnn/hiddenlayer_0/kernel/t_0/Adagrad" in set(_checkpoint(str(tmp_path / "dnn")))
    assert "baseline/bias/Ftrl" in set(_checkpoint(str(tmp_path / "baseline")))
    assert "dnn/hiddenlayer_0/kernel/Adam" in set(_checkpoint(str(tmp_path / "combined")))


@pytest.mark.skipif(not os.path.exists(TF215_PYTHON),
                    reason=f"tf.estimator 2.15's side venv ({TF215_PYTHON}) is absent")
def test_tf215_continues_a_model_dir_ours_wrote(tmp_path):
    """From 2.15's step-50 model_dirs (tests/fixtures/tf215_canned): ours trains 10 steps and
    2.15 10 more, against 2.15 training both calls of 10 itself: the same metrics (2.15 fails
    to restore at all where a name is missing)."""
    pytest.importorskip("sklearn")  # make_tf215_canned's iris
    import make_tf215_canned as canned
    spec = []
    for name in ("v2_dnn_adam", "v2_dnn_momentum", "v2_combined"):  # Adam, SGD, Adagrad+Ftrl
        own, ours = str(tmp_path / f"own_{name}"), str(tmp_path / f"ours_{name}")
        shutil.copytree(os.path.join(FIXTURES, "tf215_canned", name), own)
        shutil.copytree(os.path.join(FIXTURES, "tf215_canned", name), ours)
        canned.MODELS[name](ours).train(canned.input_fn(name), steps=10)
        assert any(k.startswith("training/") for k in _checkpoint(ours))
        spec.append(dict(name=name, own=own, ours=ours, own_steps=[10, 10], ours_steps=[10]))
    spec_path = str(tmp_path / "spec.json")
    with open(spec_path, "w") as f:
        json.dump(spec, f)
    np.savez(spec_path + ".iris.npz", x=canned.X, y=canned.Y)  # the side venv has no sklearn
    done = subprocess.run(
        [TF215_PYTHON, os.path.join(FIXTURES, "make_tf215_keras_slot_names.py"), "continue",
         spec_path], capture_output=True, text=True, timeout=600,
        env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES=""))
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout.strip().splitlines()[-1])
    for name, result in results.items():
        assert result["ours"]["global_step"] == result["own"]["global_step"] == 70
        for key, want in result["own"].items():
            assert result["ours"][key] == pytest.approx(want, rel=1e-3, abs=1e-3), (name, key)


def test_the_meta_graph_restores_the_renamed_checkpoint(tmp_path):
    """The `.meta` beside a V2 class's checkpoint: its Saver names the slots as the checkpoint
    does (2.15's Keras names), so import_meta_graph + restore works as with 2.15's files."""
    column = tf.feature_column.numeric_column("x")
    est = tf.estimator.DNNClassifier([4], [column], optimizer="Adam",
                                     model_dir=str(tmp_path))
    est.train(lambda: tf.data.Dataset.from_tensors(({"x": [1.0, 2.0]}, [0, 1])).repeat(),
              steps=2)
    checkpoint = tf.train.latest_checkpoint(str(tmp_path))
    with tf.Graph().as_default(), tf.compat.v1.Session() as session:
        saver = tf.compat.v1.train.import_meta_graph(checkpoint + ".meta")
        saver.restore(session, checkpoint)
        kernel, = [session.run(v) for v in tf.compat.v1.global_variables()
                   if v.op.name == "dnn/logits/kernel"]
    np.testing.assert_allclose(kernel, est.get_variable_value("dnn/logits/kernel"))
