"""tf.contrib.legacy_seq2seq against TF 1.15.5: the cases of
tests/tf115_cases/contrib_legacy_seq2seq.py (every model, decoder and loss) give TF 1.15's
values, variable names (in creation order) and shapes, and errors."""

from tf115_cases import harness

MODULE = "contrib_legacy_seq2seq"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_deep_import_path():
    import estimator_compat
    estimator_compat.install()
    from tensorflow.contrib.legacy_seq2seq.python.ops import seq2seq
    import tensorflow.contrib.legacy_seq2seq as legacy_seq2seq
    assert seq2seq.embedding_attention_seq2seq is legacy_seq2seq.embedding_attention_seq2seq
    assert legacy_seq2seq.__served_whole__
