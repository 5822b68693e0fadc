"""Warm starting with vocabulary remapping gives what tensorflow-estimator 2.15 gave: the
cases of tests/warm_start_vocab_cases.py against tests/fixtures/tf215_warm_start_vocab.json
(tests/fixtures/make_tf215_warm_start_vocab.py). Rows remapped by a feature vocabulary (words
reordered, added and dropped; OOV buckets and new words from the backup initializer, zeros by
default; `old_vocab_size` limiting the old file), columns by a label vocabulary (`axis=1`),
`vars_to_warm_start=None` warming only the remapped variable, a renamed one, and 2.15's errors
for names it did not use; the warm-start log lines too."""
import json
import os

import pytest
import warm_start_vocab_cases

import estimator_compat as ec

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "tf215_warm_start_vocab.json")


@pytest.mark.parametrize("case", sorted(warm_start_vocab_cases.CASES))
def test_matches_tf215(case):
    ec.install()
    want = json.loads(open(FIXTURE).read())[case]
    got = warm_start_vocab_cases.run_case(case, ec.Estimator)
    assert got.get("error") == want.get("error")
    assert got.get("values") == want.get("values")
    # the settings' repr names an initializer object by its address
    strip = lambda lines: [line.split(" at 0x")[0] for line in lines]  # noqa: E731
    assert strip(got["lines"]) == strip(want["lines"])


def test_canned_linear_classifier_keeps_its_words_after_a_vocabulary_change(tmp_path):
    """The tutorials' use: a LinearClassifier over a vocabulary-file column retrained with a
    new vocabulary file keeps each surviving word's weight; a new word starts at zero. (This
    test's body passes under tensorflow-estimator 2.15 too.)"""
    import numpy as np
    import tensorflow as tf
    ec.install()
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("red\ngreen\nblue\n")
    new.write_text("blue\nyellow\nred\n")

    def columns(path, size):
        return [tf.feature_column.categorical_column_with_vocabulary_file(
            "color", str(path), vocabulary_size=size, num_oov_buckets=1)]

    def input_fn():
        colors = ["red", "green", "blue", "red"] * 8
        labels = [1, 0, 1, 1] * 8
        return tf.data.Dataset.from_tensor_slices(({"color": colors}, labels)).batch(8)
    name = "linear/linear_model/color/weights"
    first = tf.estimator.LinearClassifier(columns(old, 3), model_dir=str(tmp_path / "a"))
    first.train(input_fn, steps=20)
    before = first.get_variable_value(name)[:, 0]
    second = tf.estimator.LinearClassifier(
        columns(new, 3), model_dir=str(tmp_path / "b"),
        optimizer=tf.keras.optimizers.legacy.SGD(1e-6),  # as 2.15 programs wrote it
        warm_start_from=tf.estimator.WarmStartSettings(
            str(tmp_path / "a"), vars_to_warm_start=".*",
            var_name_to_vocab_info={name: tf.estimator.VocabInfo(
                new_vocab=str(new), new_vocab_size=3, num_oov_buckets=1, old_vocab=str(old))}))
    second.train(input_fn, steps=1)
    after = second.get_variable_value(name)[:, 0]
    assert abs(before[0]) > 0.05 and abs(before[2]) > 0.05
    # blue, yellow, red, OOV (a learning rate of 1e-6 keeps them)
    np.testing.assert_allclose(after, [before[2], 0.0, before[0], 0.0], atol=1e-4)
