"""TF 1.x programs that use sessions themselves, beside or instead of an Estimator, run unchanged
through `estimator-compat run` (real processes).

TensorFlow 1.15 ran a program's own code in graph mode with reference variables; so does
`estimator-compat run`, on the program's thread only (legacy/graph_mode.py), while the
Estimator engine keeps TensorFlow 2's eager runtime. The numbers noted are what the same files
printed on TensorFlow 1.15.5 (Python 3.7 side venv).
"""
import os

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
