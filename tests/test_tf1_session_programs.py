"""TF 1.x programs that use sessions themselves, beside or instead of an Estimator, run unchanged
through `estimator-compat run` (real processes).

TensorFlow 1.15 ran a program's own code in graph mode with reference variables; so does
`estimator-compat run`, on the program's thread only (legacy/graph_mode.py), while the
Estimator engine keeps TensorFlow 2's eager runtime. The numbers noted are what the same files
printed on TensorFlow 1.15.5 (Python 3.7 side venv).
"""
import os
import sys

from helpers import PROGRAMS, Program

BERT = os.path.join(PROGRAMS, "bert")


def test_bert_unit_tests_in_tf_test_sessions():
    """tf.test.TestCase sessions, tf.gradients, tensor names and a graph walk (BERT's own test
    style). TF 1.15.5: both files pass (5 + 2 tests, `test_session` skipped as "Not a test"),
    VARIABLES 39, ADAM W 0.401646 0.197824 -0.497824 (deterministic: equal here)."""
    modeling = Program(os.path.join(BERT, "modeling_test.py"))
    optimization = Program(os.path.join(BERT, "optimization_test.py"))
    out, err = modeling.wait()
    assert "Ran 6 tests" in err and "OK (skipped=1)" in err
    assert "VARIABLES 39" in out and "GRADIENT NORM" in out
    out, err = optimization.wait()
    assert "Ran 3 tests" in err and "OK (skipped=1)" in err
    assert "ADAM W 0.401646 0.197824 -0.497824" in out
    assert "CREATE_OPTIMIZER step 20" in out  # its loss races in TF 1.15 too (1e-6 .. 3e-3)


ONE_LINE_PORT = '''
import estimator_compat
estimator_compat.install()
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()
import sys

x = tf.placeholder(tf.float32, [None, 2])
w = tf.get_variable("w", [2, 1], initializer=tf.ones_initializer())
grad, = tf.gradients(tf.reduce_sum(tf.matmul(x, w)), [w])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("GRAD", sess.run(grad, {x: [[1.0, 2.0], [3.0, 4.0]]}).ravel().tolist(), w.op.type)


def model_fn(features, labels, mode):
    logits = tf.layers.dense(features, 1)
    loss = tf.losses.mean_squared_error(labels, logits)
    train_op = tf.train.AdamOptimizer(0.1).minimize(loss, tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def input_fn():
    data = tf.data.Dataset.from_tensor_slices(([[1.0, 2.0]] * 8, [[3.0]] * 8))
    return data.repeat().batch(4).make_one_shot_iterator().get_next()


est = tf.estimator.Estimator(model_fn, sys.argv[1])
est.train(input_fn, steps=5)
print("STEP", est.get_variable_value("global_step"), tf.executing_eagerly())
'''


def test_one_line_port_runs_session_code_and_an_estimator(tmp_path):
    """`import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()` under plain python after
    install(): the program's thread builds TF1 graphs (reference variables), the Estimator
    still trains."""
    script = tmp_path / "port.py"
    script.write_text(ONE_LINE_PORT)
    out, _ = Program(str(script), tmp_path / "model", runner=[sys.executable]).wait()
    assert "GRAD [4.0, 6.0] VariableV2" in out
    assert "STEP 5 False" in out
