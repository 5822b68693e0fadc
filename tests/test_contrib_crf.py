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
