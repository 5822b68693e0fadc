"""LinearSDCA as a linear estimator's optimizer: a census-style program run as its user runs it
(tests/programs/linear_sdca/census_sdca.py), compared with the same program under TF 2.15 +
tf.estimator 2.15; the model_dir it leaves; resuming with the per-example state; misuse.
Exact fidelity cases (one example per batch) are in test_canned_fidelity.py.
"""
import json
import math
import os
import sys

import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from helpers import PROGRAMS, read_events, run_program

PROGRAM = os.path.join(PROGRAMS, "linear_sdca", "census_sdca.py")
sys.path.insert(0, os.path.dirname(PROGRAM))
import census_sdca  # noqa: E402

fc = tf.feature_column
# The program under TF 2.15.1 + tf.estimator 2.15.0 (three runs, 2026-12-03; SDCA's kernel
# visits a batch in random order, so runs differ in the last digits).
TF215 = {"accuracy": 0.822, "auc": 0.9022, "hours_average_loss": 16.56,
         "probabilities": [0.9896, 0.9653, 0.2137, 0.7530]}


def _linear(*columns):
    """A linear model's variables and their SDCA copies, by tf.estimator's names."""
    names = [f"linear/linear_model/{c}/weights" for c in columns] + [
        "linear/linear_model/bias_weights"]
    return names + [f"{n}_unshrunk" for n in names] + ["global_step"]


def _tables(shards):
    return [f"ShardedMutableHashTable-{i}-of-{shards}-{part}" for i in range(1, shards + 1)
            for part in ("keys", "values")]


# `tf.train.list_variables` of the program's two model_dirs under tf.estimator 2.15
TF215_CHECKPOINT = {
    "income": _tables(1) + _linear("age_bucketized", "education", "education_X_occupation",
                                   "hours_per_week", "occupation"),
    "hours": _tables(2) + _linear("age_bucketized", "education", "occupation"),
}


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    model_dir = tmp_path_factory.mktemp("census")
    out, _ = run_program(PROGRAM, "--model_dir", model_dir, "--steps", 300)
    result = json.loads(out.split("RESULT ", 1)[1].splitlines()[0])
    return model_dir, result


def test_program_trains_as_tf_estimator_2_15(program):
    _, result = program
    assert result["global_step"] == 300
    assert result["accuracy"] > result["baseline"] + 0.2
    assert result["accuracy"] == pytest.approx(TF215["accuracy"], abs=0.02)
    assert result["auc"] == pytest.approx(TF215["auc"], abs=0.005)
    assert result["hours_average_loss"] < 0.7 * result["hours_label_variance"]
    assert result["hours_average_loss"] == pytest.approx(TF215["hours_average_loss"], abs=0.3)
    assert result["probabilities"] == pytest.approx(TF215["probabilities"], abs=0.01)


def test_model_dir_holds_tf_estimator_2_15_checkpoint_names(program):
    model_dir, _ = program
    for which in ("income", "hours"):
        names = [n for n, _ in tf.train.list_variables(str(model_dir / which))]
        assert sorted(names) == sorted(TF215_CHECKPOINT[which])
    reader = tf.train.load_checkpoint(str(model_dir / "income"))
    weights = reader.get_tensor("linear/linear_model/education/weights")
    unshrunk = reader.get_tensor("linear/linear_model/education/weights_unshrunk")
    # the model's weights are the unshrunk ones soft-thresholded by l1 / l2 = 0.01
    np.testing.assert_allclose(weights, np.sign(unshrunk) * np.maximum(
        np.abs(unshrunk) - 0.01, 0), atol=1e-6)
    assert not np.allclose(unshrunk, 0)


def test_training_summaries(program):
    model_dir, _ = program
    events = read_events(str(model_dir / "income"))
    seen = dict(events["examples_seen"])
    assert seen[1] == 0 and seen[101] == seen[201] == 2000  # every id once, kept
    gaps = dict(events["approximate_duality_gap"])
    assert math.isnan(gaps[1])  # nothing seen yet, as in tf.estimator
    assert 0 < gaps[201] < gaps[101]  # the solver closes the duality gap
    assert {"bias", "fraction_of_zero_weights", "loss"} <= set(events)


def test_export_serves_the_trained_model(program):
    model_dir, result = program
    loaded = tf.saved_model.load(os.path.join(model_dir, "export",
                                              os.path.basename(result["export"])))
    test, _ = census_sdca.census(500, seed=1)
    examples = []
    for i in range(4):
        feature = {
            "age": tf.train.Feature(float_list=tf.train.FloatList(value=[test["age"][i]])),
            "hours_per_week": tf.train.Feature(
                float_list=tf.train.FloatList(value=[test["hours_per_week"][i]]))}
        for key in ("education", "occupation"):
            feature[key] = tf.train.Feature(bytes_list=tf.train.BytesList(
                value=[test[key][i].encode()]))
        examples.append(tf.train.Example(features=tf.train.Features(
            feature=feature)).SerializeToString())
    out = loaded.signatures["predict"](examples=tf.constant(examples))
    np.testing.assert_allclose(out["probabilities"].numpy()[:, 1], result["probabilities"],
                               atol=1e-5)


def _classifier(model_dir, **sdca):
    columns = [fc.categorical_column_with_vocabulary_list("education", census_sdca.EDUCATION),
               fc.numeric_column("hours_per_week", normalizer_fn=lambda x: (x - 40.0) / 10.0)]
    optimizer = ec.experimental.LinearSDCA(example_id_column="example_id", **sdca)
    return ec.LinearClassifier(columns, model_dir=model_dir, optimizer=optimizer,
                               config=ec.RunConfig(save_summary_steps=20))


def test_resume_keeps_each_examples_state(tmp_path):
    train, labels = census_sdca.census(300, seed=0)
    _classifier(str(tmp_path)).train(census_sdca.input_fn(train, labels), max_steps=40)
    # a new process's estimator: the example states come back from the checkpoint
    _classifier(str(tmp_path)).train(census_sdca.input_fn(train, labels), max_steps=60)
    seen = dict(read_events(str(tmp_path))["examples_seen"])
    assert seen[1] == 0 and seen[21] == 300
    assert seen[41] == 300  # read before the first step after the restart


def test_misuse_is_refused_with_what_to_do():
    ec.install()
    assert tf.compat.v1.estimator.experimental.LinearSDCA is ec.experimental.LinearSDCA
    sdca = ec.experimental.LinearSDCA(example_id_column="id")
    x = [fc.numeric_column("x")]
    with pytest.raises(ValueError, match="multi-class"):
        ec.LinearClassifier(x, n_classes=3, optimizer=sdca)
    with pytest.raises(ValueError, match="one-dimensional label"):
        ec.LinearRegressor(x, label_dimension=2, optimizer=sdca)
    with pytest.raises(ValueError, match='sparse_combiner must be "sum"'):
        ec.LinearClassifier(x, optimizer=sdca, sparse_combiner="mean")
    with tf.Graph().as_default():  # (the TF1 column needs graph mode)
        v1_columns = tf.compat.v1.feature_column.shared_embedding_columns(
            [fc.categorical_column_with_identity(k, 5) for k in "ab"], 2)
    with pytest.raises(ValueError, match="V2 feature columns"):
        ec.LinearClassifier(v1_columns, optimizer=sdca)
    with pytest.raises(ValueError, match="does not support column type EmbeddingColumn"):
        ec.LinearClassifier([fc.embedding_column(fc.categorical_column_with_identity(
            "c", 5), 2)], optimizer=sdca)
    with pytest.raises(ValueError, match="Unsupported head type: PoissonRegressionHead|"
                                         "Unsupported head type: MultiLabelHead"):
        ec.LinearEstimator(ec.MultiLabelHead(3), x, optimizer=sdca)
    with pytest.raises(ValueError, match="symmetric_l2_regularization should be positive"):
        ec.experimental.LinearSDCA(example_id_column="id", symmetric_l2_regularization=0)
    with pytest.raises(ValueError, match="example_id_column"):
        ec.experimental.LinearSDCA(example_id_column="")


def test_missing_example_ids_named(tmp_path):
    est = ec.LinearClassifier([fc.numeric_column("x")], model_dir=str(tmp_path),
                              optimizer=ec.experimental.LinearSDCA(example_id_column="row"))

    def input_fn():
        return tf.data.Dataset.from_tensor_slices(({"x": [1.0, 2.0]}, [0, 1])).batch(2)
    with pytest.raises(ValueError, match="example_id_column 'row' is not in the features"):
        est.train(input_fn, steps=1)
