"""canned/shared_transforms.py: a vocabulary column used by both parts of a wide & deep model
is looked up once per step, not once per part (the numbers are tf.estimator 2.15's:
test_canned_fidelity's combined_shared_vocab)."""
import numpy as np
import tensorflow as tf

import estimator_compat as ec

fc = tf.feature_column


def _input_fn():
    words = np.array(["a", "b", "c", "a"] * 8)
    features = {"word": words, "x": np.linspace(-1, 1, 32).astype(np.float32)}
    return tf.data.Dataset.from_tensor_slices((features, (words == "a").astype(np.int64))).batch(8)


def _lookups(est, mode):
    graph = est._state(None).step(mode).graph
    return [op for op in graph.get_operations() if op.type == "LookupTableFindV2"]


def test_a_column_in_both_parts_is_looked_up_once(tmp_path):
    word = fc.categorical_column_with_vocabulary_list("word", ["a", "b", "c"])
    x = fc.numeric_column("x")
    est = ec.DNNLinearCombinedClassifier(
        model_dir=str(tmp_path), linear_feature_columns=[word, fc.crossed_column([word, "x"], 5)],
        dnn_feature_columns=[x, fc.embedding_column(word, 2)], dnn_hidden_units=[4])
    est.train(_input_fn, steps=3)
    assert len(_lookups(est, "train")) == 1
    result = est.evaluate(_input_fn)
    assert len(_lookups(est, "eval")) == 1 and result["global_step"] == 3
    assert len(list(est.predict(_input_fn))) == 32
    names = est.get_variable_names()  # the variables keep tf.estimator's names
    assert "dnn/input_from_feature_columns/input_layer/word_embedding/embedding_weights" in names
    assert "linear/linear_model/word/weights" in names
    assert "linear/linear_model/word_X_x/weights" in names


def test_columns_of_one_part_only_are_left_to_it(tmp_path):
    word = fc.categorical_column_with_vocabulary_list("word", ["a", "b", "c"])
    other = fc.categorical_column_with_hash_bucket("word", 7)
    est = ec.DNNLinearCombinedClassifier(
        model_dir=str(tmp_path), linear_feature_columns=[word],
        dnn_feature_columns=[fc.indicator_column(other)], dnn_hidden_units=[4])
    est.train(_input_fn, steps=2)
    assert len(_lookups(est, "train")) == 1  # the linear part's; the DNN's column hashes
