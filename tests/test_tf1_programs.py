"""Whole TF 1.x programs, unchanged, through `estimator-compat run` (real processes).

Each program in tests/programs/ is written as TF 1.x users wrote them (`import tensorflow as
tf`, tf.flags / tf.app.run, tf.layers, tf.contrib, make_one_shot_iterator, ...); the same files
run on TensorFlow 1.15 (Python 3.7 side venv). What TF 1.15 reached on the same data is noted at
each test (README: "TF 1.x programs"); training starts from different random weights there, so
the assertions are thresholds, except where both start from the same checkpoint.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

from helpers import CLI, PROGRAMS, ROOT, run_program as run

BERT = os.path.join(PROGRAMS, "bert")


def number(pattern, text):
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not in output:\n{text[-3000:]}"
    return float(match.group(1))


def test_seed_estimator_input_model_fn(data_dir, tmp_path):
    """Seed 001. Its train_op never increments global_step: TF 1.15 trained, but evaluated the
    untrained step-0 checkpoint (accuracy 0.136); the trained weights are saved here."""
    out, err = run(os.path.join(PROGRAMS, "seeds", "estimator_input_model_fn.py"),
                   "--data_dir", data_dir, "--model_output_dir", tmp_path)
    assert "It seems that global step (tf.train.get_global_step) has not been increased" in err
    assert number(r"eval accuracy = ([\d.]+), global_step = 0", out) > 0.9
    assert "predicted 360 examples" in out
    assert os.path.exists(tmp_path / "model.ckpt-0.index") and os.path.isdir(tmp_path / "eval")


def test_seed_learn_runner_experiment(data_dir, tmp_path):
    """Seed 000. TF 1.15: Accuracy 0.9667 at step 300, the same 22 checkpoint variables."""
    out, err = run(os.path.join(PROGRAMS, "seeds", "learn_runner_experiment.py"),
                   "--dataset_dir", data_dir, "--model_dir", tmp_path)
    assert number(r"eval accuracy = ([\d.]+)", out) > 0.93
    names = {n for n, _ in tf.train.list_variables(str(tmp_path / "model.ckpt-300"))}
    assert {"MnistConvNet/conv2d/kernel", "MnistConvNet/fully_connected/weights",
            "MnistConvNet/fully_connected_1/biases", "OptimizeLoss/learning_rate",
            "OptimizeLoss/MnistConvNet/conv2d/kernel/Adam_1", "OptimizeLoss/beta1_power",
            "global_step"} <= names
    assert len(names) == 22
    assert glob.glob(str(tmp_path / "eval" / "events.out.tfevents.*"))


def test_seed_hooks_early_stopping(data_dir, tmp_path):
    """Seed 002. TF 1.15 (with tf.estimator.experimental's hook, contrib's was gone by then):
    stopped at step 451 of 3000, acc 0.9639."""
    out, err = run(os.path.join(PROGRAMS, "seeds", "hooks_early_stopping.py"),
                   "--data_dir", data_dir, "--model_dir", tmp_path)
    step = number(r"stopped at step (\d+) \(max_steps 3000\)", out)
    assert 200 <= step < 3000
    assert number(r"acc = ([\d.]+)", out) > 0.93
    assert "probabilities = [[" in err  # LoggingTensorHook on the tensor named softmax_tensor
    from tests.helpers import read_events
    # the tags TF 1.15 wrote for `tf.summary.scalar(name, op[1])` (its name scopes made them)
    assert set(read_events(str(tmp_path))) == {"acc", "auc_1", "precision_1", "recall_1", "loss",
                                               "global_step/sec"}


def test_seed_train_and_evaluate_export_served_by_tf1_session(data_dir, tmp_path):
    """Seed 003. TF 1.15: age_accuracy 0.9667, gender 0.9722; served age accuracy 0.9667."""
    out, err = run(os.path.join(PROGRAMS, "seeds", "train_and_evaluate_export.py"),
                   "--data_dir", data_dir, "--model_dir", tmp_path)
    age = number(r"age_accuracy = ([\d.]+)", out)
    assert age > 0.9 and number(r"gender_accuracy = ([\d.]+)", out) > 0.9
    assert number(r"served age accuracy = ([\d.]+)", out) == pytest.approx(age, abs=0.02)
    export = glob.glob(str(tmp_path / "serving" / "*" / "saved_model.pbtxt"))  # as_text=True
    assert len(export) == 1


def test_official_mnist_layer_classes_and_export(data_dir, tmp_path):
    """tensorflow/models official r1 style. TF 1.15: accuracy 0.9861 at step 92."""
    out, err = run(os.path.join(PROGRAMS, "official_mnist", "mnist.py"), "--data_dir", data_dir,
                   "--model_dir", tmp_path / "model", "--export_dir", tmp_path / "export")
    assert number(r"'accuracy': (?:np.float32\()?([\d.]+)", out.split("Evaluation results")[-1]) > 0.93
    assert "cross_entropy = " in err and "train_accuracy = " in err
    names = {n for n, _ in tf.train.list_variables(str(tmp_path / "model" / "model.ckpt-92"))}
    assert {"conv2d/kernel", "conv2d_1/kernel", "dense/kernel", "dense_1/bias"} <= names
    export_dir = glob.glob(str(tmp_path / "export" / "*"))[0]
    served = tf.saved_model.load(export_dir).signatures["classify"]
    images = np.zeros([2, 28, 28], np.float32)
    assert served(image=tf.constant(images))["probabilities"].shape == (2, 10)


@pytest.mark.parametrize("script, tf115", [("premade_estimator.py", 0.967),
                                           ("custom_estimator.py", 0.933)])
def test_get_started_iris(data_dir, tmp_path, script, tf115):
    """The TF 1.x get-started pair (premade DNNClassifier, custom model_fn with tf.decode_csv)."""
    out, err = run(os.path.join(PROGRAMS, "get_started", script), "--data_dir", data_dir,
                   "--model_dir", tmp_path)
    assert number(r"Test set accuracy: ([\d.]+)", out) >= 0.9  # TF 1.15: see the parameter
    for species in ("Setosa", "Versicolor", "Virginica"):
        assert f'Prediction is "{species}"' in out and f'expected "{species}"' in out
    assert os.path.exists(tmp_path / "model.ckpt-1000.index")


def test_program_converted_by_tf_upgrade_v2(data_dir, tmp_path):
    """tf_upgrade_v2 (TF 2.21's) leaves tf.layers.dense as it was; the result still runs."""
    upgrade = os.path.join(os.path.dirname(sys.executable), "tf_upgrade_v2")
    subprocess.run([upgrade, "--intree", os.path.join(PROGRAMS, "get_started"), "--outtree",
                    str(tmp_path / "upgraded"), "--reportfile", str(tmp_path / "report.txt")],
                   check=True, capture_output=True)
    script = tmp_path / "upgraded" / "custom_estimator.py"
    source = script.read_text()
    assert "tf.compat.v1.train.AdagradOptimizer" in source and "tf.layers.dense" in source
    out, err = run(str(script), "--data_dir", data_dir, "--model_dir", tmp_path / "model")
    assert "TensorFlow 1.x's API: it uses tf.layers" in err
    assert number(r"Test set accuracy: ([\d.]+)", out) >= 0.9


def test_one_line_port_of_a_seed_program(data_dir, tmp_path):
    """The same program with `import estimator_compat; estimator_compat.install()` and
    `import tensorflow.compat.v1 as tf`, under plain `python`."""
    source = open(os.path.join(PROGRAMS, "seeds", "learn_runner_experiment.py")).read()
    assert "import tensorflow as tf\n" in source
    ported = source.replace("import tensorflow as tf\n", "import estimator_compat\n"
                            "estimator_compat.install()\nimport tensorflow.compat.v1 as tf\n")
    script = tmp_path / "ported.py"
    script.write_text(ported)
    out, _ = run(str(script), "--dataset_dir", data_dir, "--model_dir", tmp_path / "m",
                 "--train_steps", 100, runner=[sys.executable])
    assert number(r"eval accuracy = ([\d.]+)", out) > 0.85


def test_bert_pretraining_classifier_features_flow(tmp_path):
    """create_pretraining_data → run_pretraining (TPUEstimator, AdamWeightDecayOptimizer) →
    run_classifier (init_from_checkpoint of the pretraining output) → extract_features.
    TF 1.15 on the same files: masked_lm_accuracy 0.2209 after 100 steps (here 0.2209 too);
    classifier eval_accuracy 0.99 after 100 steps from its pretraining checkpoint (here 1.0)."""
    data = os.path.join(BERT, "data")
    config, vocab = os.path.join(BERT, "bert_config.json"), os.path.join(data, "vocab.txt")
    records = tmp_path / "pretrain.tfrecord"
    _, err = run(os.path.join(BERT, "create_pretraining_data.py"), "--input_file",
                 os.path.join(data, "corpus.txt"), "--output_file", records, "--vocab_file", vocab)
    assert "Wrote 1200 total instances" in err
    _, err = run(os.path.join(BERT, "run_pretraining.py"), "--input_file", records,
                 "--bert_config_file", config, "--output_dir", tmp_path / "pretrain",
                 "--do_train", "--do_eval")
    results = (tmp_path / "pretrain" / "eval_results.txt").read_text()
    assert number(r"masked_lm_accuracy = ([\d.]+)", results) > 0.15
    assert "global_step = 100" in results
    names = {n for n, _ in tf.train.list_variables(str(tmp_path / "pretrain" / "model.ckpt-100"))}
    assert {"bert/embeddings/word_embeddings", "bert/embeddings/LayerNorm/gamma",
            "bert/encoder/layer_1/attention/self/query/kernel/adam_m",
            "cls/predictions/output_bias", "cls/seq_relationship/output_weights"} <= names

    _, err = run(os.path.join(BERT, "run_classifier.py"), "--data_dir",
                 os.path.join(ROOT, "examples", "bert", "data"), "--vocab_file", vocab,
                 "--bert_config_file", config, "--output_dir", tmp_path / "classifier",
                 "--init_checkpoint", tmp_path / "pretrain" / "model.ckpt-100",
                 "--do_train", "--do_eval", "--do_predict")
    assert "bert/pooler/dense/kernel:0, shape = (32, 32), *INIT_FROM_CKPT*" in err
    results = (tmp_path / "classifier" / "eval_results.txt").read_text()
    assert number(r"eval_accuracy = ([\d.]+)", results) >= 0.95
    probabilities = np.loadtxt(tmp_path / "classifier" / "test_results.tsv")
    assert probabilities.shape == (100, 2) and np.allclose(probabilities.sum(1), 1, atol=1e-5)

    sentences = tmp_path / "sentences.txt"
    sentences.write_text("i thought the plot was enjoyable.\nhonestly, this film felt weak.\n")
    run(os.path.join(BERT, "extract_features.py"), "--input_file", sentences, "--output_file",
        tmp_path / "features.jsonl", "--vocab_file", vocab, "--bert_config_file", config,
        "--init_checkpoint", tmp_path / "classifier" / "model.ckpt-100")
    lines = [json.loads(x) for x in (tmp_path / "features.jsonl").read_text().splitlines()]
    assert [x["linex_index"] for x in lines] == [0, 1]
    first = lines[0]["features"][0]
    assert first["token"] == "[CLS]" and [x["index"] for x in first["layers"]] == [-1, -2]
    assert len(first["layers"][0]["values"]) == 32


# extract_features.py on TF 1.15, from tests/fixtures/tf115_bert (a checkpoint TF 1.15 wrote):
# the first four values of layer -1 at token 1 of two sentences.
TF115_FEATURES = {0: ("honestly", [-0.384813, 0.463077, 1.081256, -1.354151]),
                  7: ("what", [-0.386063, 0.466665, 1.037118, -1.359932])}
SENTENCES = ["honestly, this film felt weak.", "i thought the story was dull. it ran two hours.",
             "i thought the plot was enjoyable."]


def test_bert_features_equal_tf115_from_its_checkpoint(tmp_path):
    dev = [line.split("\t")[1].strip() for line in
           open(os.path.join(ROOT, "examples", "bert", "data", "dev.tsv")).read().splitlines()[1:21]]
    assert dev[:3] == SENTENCES
    sentences = tmp_path / "sentences.txt"
    sentences.write_text("\n".join(dev) + "\n")
    shutil.copytree(os.path.join(ROOT, "tests", "fixtures", "tf115_bert"), tmp_path / "ckpt")
    run(os.path.join(BERT, "extract_features.py"), "--input_file", sentences, "--output_file",
        tmp_path / "features.jsonl", "--vocab_file", os.path.join(BERT, "data", "vocab.txt"),
        "--bert_config_file", os.path.join(BERT, "bert_config.json"), "--layers=-1",
        "--init_checkpoint", tmp_path / "ckpt" / "bert_model.ckpt")
    lines = [json.loads(x) for x in (tmp_path / "features.jsonl").read_text().splitlines()]
    assert len(lines) == 20
    for index, (token, values) in TF115_FEATURES.items():
        feature = lines[index]["features"][1]
        assert feature["token"] == token
        np.testing.assert_allclose(feature["layers"][0]["values"][:4], values, atol=2e-5)


TF115_TEXT_RNN_VARIABLES = {  # what TF 1.15 wrote for tests/programs/rnn/text_rnn.py
    "embedding", "logits/kernel", "logits/bias",
    "rnn/multi_rnn_cell/cell_0/lstm_cell/kernel", "rnn/multi_rnn_cell/cell_0/lstm_cell/bias",
    "rnn/multi_rnn_cell/cell_0/lstm_cell/w_f_diag", "rnn/multi_rnn_cell/cell_0/lstm_cell/w_i_diag",
    "rnn/multi_rnn_cell/cell_0/lstm_cell/w_o_diag",
    "rnn/multi_rnn_cell/cell_1/gru_cell/gates/kernel", "rnn/multi_rnn_cell/cell_1/gru_cell/gates/bias",
    "rnn/multi_rnn_cell/cell_1/gru_cell/candidate/kernel",
    "rnn/multi_rnn_cell/cell_1/gru_cell/candidate/bias",
    "bidirectional_rnn/fw/basic_lstm_cell/kernel", "bidirectional_rnn/fw/basic_lstm_cell/bias",
    "bidirectional_rnn/bw/basic_rnn_cell/kernel", "bidirectional_rnn/bw/basic_rnn_cell/bias"}


def _text_rnn(model_dir, *args):
    return run(os.path.join(PROGRAMS, "rnn", "text_rnn.py"), "--data_dir",
               os.path.join(ROOT, "examples", "bert", "data"), "--vocab_file",
               os.path.join(BERT, "data", "vocab.txt"), "--model_dir", model_dir, *args)


def test_text_rnn_cells_train_with_tf1_names(tmp_path):
    """tf.nn.rnn_cell cells + dynamic_rnn / bidirectional_dynamic_rnn. TF 1.15: accuracy 1.0,
    loss 0.000038 at step 150, the same 51 checkpoint variables."""
    out, _ = _text_rnn(tmp_path)
    assert number(r"accuracy = ([\d.]+)", out) >= 0.95
    names = {n for n, _ in tf.train.list_variables(str(tmp_path / "model.ckpt-150"))}
    assert TF115_TEXT_RNN_VARIABLES <= names and len(names) == 51


def test_text_rnn_evaluates_a_tf115_checkpoint_as_tf115_did(tmp_path):
    """tests/fixtures/tf115_text_rnn: TF 1.15's checkpoint after 20 steps. The model_fn builds
    its train_op in EVAL too (a TF1 session never ran it); TF 1.15 evaluated it to exactly this."""
    shutil.copytree(os.path.join(ROOT, "tests", "fixtures", "tf115_text_rnn"), tmp_path / "m")
    out, _ = _text_rnn(tmp_path / "m", "--nodo_train")
    assert "accuracy = 0.970000, loss = 0.100593, global_step = 20" in out
