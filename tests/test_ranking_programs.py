"""TF-Ranking 0.5.5's estimator API, a library built on tf.estimator, run unchanged.

tensorflow-ranking 0.5.5 pins TensorFlow < 2.16, so it is installed with `--no-deps` (.ci/run,
README); it imports `tensorflow.estimator` and `tf.compat.v1.keras.layers.DenseFeatures` at
import time. The two programs keep the idioms of TF-Ranking's own examples: placeholders fed by
an IteratorInitializerHook (libsvm), and the label popped from the dict that a one-shot
iterator's get_next() returned (tfrecord). The same files on TF 2.15.1 + tensorflow-estimator
2.15.0 + tensorflow-ranking 0.5.5 (side venv, two runs each, on this data) reached: libsvm test
ndcg@10 0.9767 / 0.9843, ndcg@1 0.946 / 0.967; tfrecord ndcg@5 0.9724 / 0.9762. Ours: 0.9804,
0.9667 and 0.9790 (the same on every run: tf_random_seed makes ours repeatable). The ELWC
program with sparse query and document tokens (TF-Ranking's `tf_ranking_tfrecord.py` style)
reached on TF 2.15.1 (four runs) ndcg@10 0.9934 / 0.9932 / 0.9921 / 0.9891, ndcg@5 0.9911 /
0.9864 / 0.9875 / 0.9833, ndcg@1 0.9911 / 0.9911 / 0.9905 / 0.9794; ours 0.9912, 0.9880, 0.9810.
"""
import importlib.util
import json
import os

import numpy as np
import pytest
import tensorflow as tf

from helpers import PROGRAMS, run_program as run

pytestmark = pytest.mark.skipif(importlib.util.find_spec("tensorflow_ranking") is None,
                                reason="pip install --no-deps tensorflow-ranking==0.5.5")
RANKING = os.path.join(PROGRAMS, "ranking")


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    path = tmp_path_factory.mktemp("ranking_data")
    run(os.path.join(RANKING, "make_ranking_data.py"), "--data_dir", path)
    return str(path)


def result(out):
    line = [x for x in out.splitlines() if x.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT "):])


def test_libsvm_placeholders_fed_by_an_iterator_initializer_hook(data_dir, tmp_path):
    out, err = run(os.path.join(RANKING, "ranking_libsvm.py"), "--data_dir", data_dir,
                   "--output_dir", tmp_path)
    assert "the input_fn runs in a TF 1.x graph and session of its own" in err
    metrics = result(out)
    assert metrics["global_step"] == 300
    assert metrics["metric/ndcg@10"] > 0.965 and metrics["metric/ndcg@1"] > 0.93
    assert metrics["metric/ordered_pair_accuracy"] > 0.95
    # train_and_evaluate's LatestExporter: a tf.Example parsing receiver, served
    export_base = tmp_path / "export" / "latest_exporter"
    export = max(os.listdir(export_base))  # one per evaluation, the newest last
    serving = tf.saved_model.load(str(export_base / export)).signatures["serving_default"]
    example = tf.train.Example(features=tf.train.Features(feature={
        str(i + 1): tf.train.Feature(float_list=tf.train.FloatList(value=[0.5]))
        for i in range(20)}))
    scores = list(serving(tf.constant([example.SerializeToString()] * 3)).values())[0]
    assert scores.shape[0] == 3 and np.all(np.isfinite(scores.numpy()))
    assert os.path.exists(tmp_path / "model.ckpt-300.index")


def test_tfrecord_label_popped_from_get_next(data_dir, tmp_path):
    out, err = run(os.path.join(RANKING, "ranking_tfrecord.py"), "--data_dir", data_dir,
                   "--output_dir", tmp_path)
    assert "runs in a TF 1.x graph and session" not in err  # one-shot: a tf.data pipeline
    metrics = result(out)
    assert metrics["global_step"] == 250 and metrics["scores_shape"] == [25]
    assert metrics["metric/ndcg@5"] > 0.965
    assert os.path.isdir(tmp_path / "eval")


def test_elwc_sparse_tokens_one_shot_and_hook_fed(data_dir, tmp_path):
    """Sparse context (query tokens) and example (document tokens) features from ELWC records,
    through a vocabulary list and embeddings: trained from a one-shot iterator (the pruned
    tf.data pipeline), evaluated through a hook-fed initializable iterator (the TF1 session),
    predicted from a Dataset returned as is."""
    out, err = run(os.path.join(RANKING, "ranking_elwc_tokens.py"), "--data_dir", data_dir,
                   "--output_dir", tmp_path)
    assert "the input_fn runs in a TF 1.x graph and session of its own" in err
    metrics = result(out)
    assert metrics["global_step"] == 200 and metrics["scores_shape"] == [25]
    assert abs(metrics["labels_mean"] - 1.1713973) < 1e-5  # every list read, as TF 2.15 did
    assert metrics["metric/ndcg@10"] > 0.985 and metrics["metric/ndcg@5"] > 0.98
    assert metrics["metric/ndcg@1"] > 0.97
