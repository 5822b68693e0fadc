"""The BERT example (run_classifier flow on TPUEstimator, use_tpu=False) in its tiny config."""
import logging
import os
import sys

import pytest
import tensorflow as tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BERT = os.path.join(ROOT, "examples", "bert")
sys.path.insert(0, BERT)
pytest.importorskip("tokenizers")


def tiny_vocab(tmp_path):
    import run_classifier
    import tokenization
    rows = run_classifier.read_tsv(os.path.join(BERT, "data", "train.tsv")) + \
        run_classifier.read_tsv(os.path.join(BERT, "data", "dev.tsv"))
    return tokenization.write_vocab_for([t for t, _ in rows], str(tmp_path / "vocab.txt"))


def run(tmp_path, out, *extra):
    import run_classifier
    return run_classifier.main([
        "--bert_config_file", os.path.join(BERT, "tiny_bert_config.json"),
        "--vocab_file", tiny_vocab(tmp_path), "--output_dir", str(tmp_path / out),
        "--learning_rate", "1e-3", "--num_train_epochs", "6", "--seed", "1", *extra])


def test_fine_tunes_and_predicts(tmp_path):
    result, probabilities = run(tmp_path, "run")
    assert result["global_step"] == 75 and result["eval_accuracy"] > 0.75
    assert len(probabilities) == 100 and probabilities[0].shape == (2,)
    names = dict(tf.train.list_variables(str(tmp_path / "run")))
    for name in ("bert/embeddings/word_embeddings", "bert/embeddings/LayerNorm/gamma",
                 "bert/encoder/layer_1/attention/self/query/kernel",
                 "bert/encoder/layer_0/output/LayerNorm/beta", "bert/pooler/dense/kernel",
                 "output_weights", "bert/encoder/layer_0/intermediate/dense/kernel/adam_m"):
        assert name in names, name
    assert open(tmp_path / "run" / "eval_results.txt").read().startswith("eval_accuracy = ")


def test_init_checkpoint_through_scaffold_fn(tmp_path, caplog):
    run(tmp_path, "pretrained")
    ckpt = tf.train.latest_checkpoint(str(tmp_path / "pretrained"))
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        result, _ = run(tmp_path, "fine", "--init_checkpoint", ckpt)
    assert "Initialized" in caplog.text and result["eval_accuracy"] > 0.75


def test_minilm_weight_names():
    import convert_minilm
    assert convert_minilm.tf1_name("encoder.layer.3.attention.self.query.weight") == (
        "bert/encoder/layer_3/attention/self/query/kernel", True)
    assert convert_minilm.tf1_name("encoder.layer.0.output.LayerNorm.weight") == (
        "bert/encoder/layer_0/output/LayerNorm/gamma", False)
    assert convert_minilm.tf1_name("embeddings.word_embeddings.weight") == (
        "bert/embeddings/word_embeddings", False)
    assert convert_minilm.tf1_name("pooler.dense.bias") == ("bert/pooler/dense/bias", False)
