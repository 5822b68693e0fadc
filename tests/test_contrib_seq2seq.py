"""tf.contrib.seq2seq against TF 1.15.5: the cases of tests/tf115_cases/contrib_seq2seq.py
(decoders, helpers, attention, beam search, loss) give TF 1.15's values, variable names and
shapes, and errors."""

from tf115_cases import harness

MODULE = "contrib_seq2seq"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_deep_import_paths():
    import estimator_compat
    estimator_compat.install()
    from tensorflow.contrib.seq2seq.python.ops import attention_wrapper, beam_search_decoder
    import tensorflow.contrib.seq2seq as seq2seq
    assert attention_wrapper.AttentionWrapper is seq2seq.AttentionWrapper
    assert beam_search_decoder.tile_batch is seq2seq.tile_batch
    assert seq2seq.__served_whole__


TF115_REVERSE_DIGITS_VARIABLES = {  # what TF 1.15 wrote for tests/programs/seq2seq (no slots)
    "decoder/attention_wrapper/attention_layer/kernel",
    "decoder/attention_wrapper/bahdanau_attention/attention_v",
    "decoder/attention_wrapper/bahdanau_attention/query_layer/kernel",
    "decoder/attention_wrapper/lstm_cell/bias", "decoder/attention_wrapper/lstm_cell/kernel",
    "decoder/output_projection/bias", "decoder/output_projection/kernel", "embedding",
    "encoder/rnn/lstm_cell/bias", "encoder/rnn/lstm_cell/kernel", "global_step",
    "memory_layer/kernel", "beta1_power", "beta2_power"}


def test_reverse_digits_program_trains_and_beam_searches(tmp_path):
    """tests/programs/seq2seq/reverse_digits.py (AttentionWrapper + BasicDecoder +
    TrainingHelper + sequence_loss to train, BeamSearchDecoder to predict). TF 1.15.5 on the
    same program: token accuracy 1.0, beam sequence accuracy 1.0 at step 200 (seeds 1 and 2),
    the same checkpoint variables."""
    import os
    import re

    import tensorflow as tf

    from helpers import PROGRAMS, run_program
    out, _ = run_program(os.path.join(PROGRAMS, "seq2seq", "reverse_digits.py"),
                         "--model_dir", tmp_path)
    token = float(re.search(r"token_accuracy = ([\d.]+)", out).group(1))
    beam = float(re.search(r"beam_sequence_accuracy = ([\d.]+)", out).group(1))
    assert token >= 0.97 and beam >= 0.95, out
    names = {n for n, _ in tf.train.list_variables(str(tmp_path))}
    assert {n for n in names if "/Adam" not in n} == TF115_REVERSE_DIGITS_VARIABLES
