"""tf.contrib.slim against TF 1.15.5: the cases of tests/tf115_cases/contrib_slim.py (losses,
create_train_op with batch_norm's updates and gradient summaries, metrics, summaries, nets), the
deep import paths TF 1.x code used, and a whole slim-style program through
`estimator-compat run` (tests/programs/slim_cnn)."""
import importlib
import json
import os

from helpers import PROGRAMS, run_program
from tf115_cases import harness


ours, test_case_matches_tf115 = harness.case_tests("contrib_slim")


def test_deep_import_paths_resolve():
    import estimator_compat
    estimator_compat.install()
    contrib = importlib.import_module("tensorflow.contrib")
    paths = {
        "tensorflow.contrib.layers.python.layers.layers": "conv2d",
        "tensorflow.contrib.layers.python.layers.initializers": "xavier_initializer",
        "tensorflow.contrib.layers.python.layers.regularizers": "l2_regularizer",
        "tensorflow.contrib.layers.python.layers.optimizers": "optimize_loss",
        "tensorflow.contrib.layers.python.layers.summaries": "summarize_tensor",
        "tensorflow.contrib.layers.python.layers.encoders": "bow_encoder",
        "tensorflow.contrib.framework.python.ops.arg_scope": "add_arg_scope",
        "tensorflow.contrib.framework.python.ops.variables": "get_variables_to_restore",
        "tensorflow.contrib.framework.python.framework.checkpoint_utils": "load_checkpoint",
        "tensorflow.contrib.slim.python.slim.learning": "create_train_op",
        "tensorflow.contrib.slim.python.slim.evaluation": "evaluate_once",
        "tensorflow.contrib.slim.python.slim.nets.resnet_v1": "resnet_v1_50",
        "tensorflow.contrib.slim.python.slim.data.tfexample_decoder": "TFExampleDecoder",
        "tensorflow.contrib.slim.nets": "vgg",
    }
    for path, name in paths.items():
        assert hasattr(importlib.import_module(path), name), path
    assert contrib.slim.conv2d is contrib.layers.conv2d
    assert contrib.slim.arg_scope is contrib.framework.arg_scope
    assert contrib.slim.DataFrameColumn("c", None).name == "c"  # (test_contrib_leftovers.py)


# TF 1.15.5 on the same program: accuracy 0.9033 at step 300, these 17 variables (no Adam slots)
TF115_VARIABLES = [
    "beta1_power", "beta2_power", "conv1/BatchNorm/beta", "conv1/BatchNorm/gamma",
    "conv1/BatchNorm/moving_mean", "conv1/BatchNorm/moving_variance", "conv1/weights",
    "conv2/BatchNorm/beta", "conv2/BatchNorm/gamma", "conv2/BatchNorm/moving_mean",
    "conv2/BatchNorm/moving_variance", "conv2/weights", "fc3/BatchNorm/beta",
    "fc3/BatchNorm/gamma", "fc3/BatchNorm/moving_mean", "fc3/BatchNorm/moving_variance",
    "fc3/weights", "global_step", "logits/biases", "logits/weights"]


def test_slim_cnn_program_trains_as_tf115(tmp_path):
    """An arg_scope'd conv2d/batch_norm/max_pool2d/fully_connected/dropout network, slim.losses,
    slim.learning.create_train_op and slim.metrics in an Estimator model_fn. TF 1.15.5: accuracy
    0.9033 at step 300 (here 0.89 on 2026-12-06), the same variables and 6 UPDATE_OPS."""
    out, _ = run_program(os.path.join(PROGRAMS, "slim_cnn", "slim_cnn.py"),
                         "--model_dir", tmp_path / "model")
    line = [x for x in out.splitlines() if x.startswith("RESULT ")][-1]
    result = json.loads(line[len("RESULT "):])
    assert result["global_step"] == 300
    assert result["accuracy"] > 0.85, result
    assert result["variables"] == TF115_VARIABLES
    assert result["update_ops"] == 6
    assert len(result["model_variables"]) == 17


def test_slim_learning_train_runs_its_supervisor_threads_in_graph_mode(tmp_path):
    """slim.learning.train's Supervisor starts threads (summaries, checkpoints): started from
    the program's TF 1.x thread they build in its graph mode, as in TF 1.15."""
    import threading

    import numpy as np

    from estimator_compat.legacy import graph_mode, tf1_view
    tf = tf1_view.build()
    out = {}

    def program():
        graph_mode.tf1_thread()
        with tf.Graph().as_default():
            slim = tf.contrib.slim
            x = tf.constant(np.random.RandomState(0).rand(64, 4).astype(np.float32))
            pred = slim.fully_connected(x, 1, activation_fn=None)
            loss = tf.losses.mean_squared_error(tf.reduce_sum(x, 1, keepdims=True), pred)
            train_op = slim.learning.create_train_op(loss, tf.train.GradientDescentOptimizer(0.1))
            out["loss"] = slim.learning.train(train_op, str(tmp_path), number_of_steps=5,
                                              save_summaries_secs=1000, save_interval_secs=1000)
    thread = threading.Thread(target=program)
    thread.start()
    thread.join()
    assert np.isfinite(out["loss"])
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-5")
