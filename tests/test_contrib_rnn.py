"""tf.contrib.rnn against TF 1.15.5: every cell, wrapper and function of
tests/tf115_cases/contrib_rnn.py with fixed variable values (outputs, final states, one SGD
step through the block cells), variable names and shapes as TF 1.15 recorded them."""
import os


from tf115_cases import harness

MODULE = "contrib_rnn"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_deep_import_paths():
    from estimator_compat.legacy import tf1_view
    tf = tf1_view.build()
    from tensorflow.contrib.rnn.python.ops import core_rnn_cell, lstm_ops, rnn_cell
    assert lstm_ops.LSTMBlockFusedCell is tf.contrib.rnn.LSTMBlockFusedCell
    assert rnn_cell.LayerNormBasicLSTMCell is tf.contrib.rnn.LayerNormBasicLSTMCell
    assert core_rnn_cell.EmbeddingWrapper is tf.contrib.rnn.EmbeddingWrapper


SKETCH_RNN_VARIABLES = [
    "OptimizeLoss/beta1_power", "OptimizeLoss/beta2_power", "OptimizeLoss/learning_rate",
    "conv1d_0/bias", "conv1d_0/kernel", "conv1d_1/bias", "conv1d_1/kernel", "dense/bias",
    "dense/kernel", "global_step",
    "rnn_classification/cell_0/bidirectional_rnn/bw/lstm_cell/bias",
    "rnn_classification/cell_0/bidirectional_rnn/bw/lstm_cell/kernel",
    "rnn_classification/cell_0/bidirectional_rnn/fw/lstm_cell/bias",
    "rnn_classification/cell_0/bidirectional_rnn/fw/lstm_cell/kernel"]


def test_quickdraw_style_program_trains_as_tf115(tmp_path):
    """tests/programs/sketch_rnn/train_model.py (tensorflow/models' quickdraw RNN tutorial, on
    synthetic strokes: 288 training, 96 evaluation drawings of 3 classes): conv1d +
    stack_bidirectional_dynamic_rnn over LSTMBlockCell, optimize_loss, train_and_evaluate,
    60 steps. TF 1.15.5: accuracy 1.0 (loss 0.0062 / 0.0002 / 0.0003 with seeds 1 / 2 / 3);
    here 0.979 / 1.0 / 0.979; the same 34 checkpoint variables (names and shapes)."""
    import re
    import sys

    import tensorflow as tf

    from helpers import PROGRAMS, run_program
    sys.path.insert(0, os.path.join(PROGRAMS, "sketch_rnn"))
    try:
        import make_data
    finally:
        sys.path.pop(0)
    paths = make_data.write(str(tmp_path))
    out, err = run_program(os.path.join(PROGRAMS, "sketch_rnn", "train_model.py"),
                         "--training_data", paths["training"], "--eval_data", paths["eval"],
                         "--classes_file", paths["classes"], "--model_dir", tmp_path / "model")
    accuracy = re.search(r"accuracy = ([\d.]+), global_step = 60", out + err)
    assert accuracy, (out + err)[-3000:]
    assert float(accuracy.group(1)) >= 0.95
    names = [n for n, _ in tf.train.list_variables(str(tmp_path / "model"))]
    assert sorted(n for n in names if "Adam" not in n) == SKETCH_RNN_VARIABLES
    assert len(names) == 34
