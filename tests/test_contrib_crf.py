"""tf.contrib.crf against TF 1.15.5 (tests/tf115_cases/contrib_crf.py): sequence scores, the
forward algorithm, log-likelihood and one SGD step on its `transitions` variable, in-graph
Viterbi against the numpy one, length-1 and empty sequences, the RNN cells."""
import pytest

from tf115_cases import harness

MODULE = "contrib_crf"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_transitions_need_a_static_tag_count():
    from estimator_compat.legacy.contrib import crf
    import tensorflow as tf

    @tf.function(input_signature=[tf.TensorSpec([None, None, None])])
    def build(x):
        with pytest.raises(ValueError, match="number of tags"):
            crf.crf_log_likelihood(x, tf.zeros([2, 3], tf.int32), tf.constant([3, 3]))
        return x
    build.get_concrete_function()


def test_crf_tagger_program_tags_as_tf115(tmp_path):
    """tests/programs/crf_tagger (embed_sequence, a bidirectional LSTM, crf_log_likelihood /
    crf_decode, masked tf.metrics.accuracy) through `estimator-compat run`. TF 1.15.5 on the
    same program: accuracy 1.0 at steps 15, 30, 40 and 100, with these 27 checkpoint names."""
    import json
    import os

    from helpers import PROGRAMS, run_program
    out, _ = run_program(os.path.join(PROGRAMS, "crf_tagger", "crf_tagger.py"),
                         "--model_dir", tmp_path / "model")
    result = json.loads([x for x in out.splitlines() if x.startswith("RESULT ")][-1][7:])
    assert result["accuracy"] >= 0.98
    names = set(result["variables"])
    assert len(names) == 27 and {"transitions", "transitions/Adam", "embed/embeddings",
                                 "bidirectional_rnn/fw/lstm_cell/kernel",
                                 "logits/kernel"} <= names
