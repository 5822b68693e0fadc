"""tf.contrib.eager against TF 1.15.5 (tests/tf115_cases/contrib_eager.py): gradients,
metrics, functions, iterators, checkpoints, execution callbacks and Network, recorded; plus the
graph-and-eager test decorator, the per-thread switch, and an eager training program run by
`estimator-compat run` (tests/programs/eager/)."""
import pytest

from tf115_cases import harness

MODULE = "contrib_eager"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_saver_and_restore_on_create_need_eager_execution():
    import tensorflow as tf

    from estimator_compat.legacy import tf1_view
    tfe = tf1_view.build().contrib.eager
    with tf.Graph().as_default():
        with pytest.raises(RuntimeError, match="tfe.Saver can only be used"):
            tfe.Saver([tfe.Variable(1.0)])
        with pytest.raises(ValueError, match="eager execution"):
            with tfe.restore_variables_on_create("x"):
                pass


def test_tf115_module_paths():
    """`from tensorflow.contrib.eager.python import tfe` (TF 1.4-1.6's import) and the
    implementation modules resolve to the served objects."""
    import sys

    from estimator_compat.legacy import tf1_view
    tfe = tf1_view.build().contrib.eager
    python = "tensorflow.contrib.eager.python."
    assert sys.modules[python + "tfe"].Saver is tfe.Saver
    assert sys.modules[python + "metrics_impl"].Mean is tfe.metrics.Mean
    assert sys.modules[python + "datasets"].Iterator is tfe.Iterator
    assert sys.modules[python + "network"].Sequential is tfe.Sequential
    assert tfe.enable_eager_execution is tf1_view.build().enable_eager_execution


def test_run_test_in_graph_and_eager_modes_runs_both():
    """The decorated test runs in graph mode, then eagerly; the class decorator does so for
    every test method but `testSkipEager*`."""
    import io
    import unittest

    import tensorflow as tf

    from estimator_compat.legacy import tf1_view
    tfe = tf1_view.build().contrib.eager
    seen = []

    class One(tf.test.TestCase):
        @tfe.run_test_in_graph_and_eager_modes
        def test_both(self):
            seen.append(("both", tfe.executing_eagerly()))
            self.assertEqual(self.evaluate(tf.constant(2) * 3), 6)

    @tfe.run_all_tests_in_graph_and_eager_modes
    class All(tf.test.TestCase):
        def test_plain(self):
            seen.append(("plain", tfe.executing_eagerly()))

        def testSkipEagerGraph(self):
            seen.append(("skip", tfe.executing_eagerly()))

    for case in (One, All):
        result = unittest.TextTestRunner(stream=io.StringIO()).run(
            unittest.defaultTestLoader.loadTestsFromTestCase(case))
        assert result.wasSuccessful(), result.errors + result.failures
    assert sorted(seen) == [("both", False), ("both", True), ("plain", False), ("plain", True),
                            ("skip", True)]


def test_eager_training_program_matches_tf115(tmp_path):
    """tests/programs/eager/iris_eager.py, the TF 1.x "custom training walkthrough" style
    (tf.enable_eager_execution, tfe.Variable, tfe.Iterator, implicit_value_and_gradients and
    GradientTape, tfe.metrics, tfe.Saver / tfe.Checkpoint / restore_variables_on_create)
    through `estimator-compat run`. TF 1.15.5 on the same program (20 epochs): first epoch loss
    1.0810, last 0.39761 at train accuracy 0.88333, test accuracy 0.95 (also after each
    restore, 1/3 before), global step 80, and these checkpoint names."""
    import json
    import os

    from helpers import PROGRAMS, run_program
    out, _ = run_program(os.path.join(PROGRAMS, "eager", "iris_eager.py"),
                         "--model_dir", tmp_path / "model")
    result = json.loads([x for x in out.splitlines() if x.startswith("RESULT ")][-1][7:])
    assert result["first_loss"] == pytest.approx(1.0810, abs=1e-3)
    assert result["loss"] == pytest.approx(0.39761, abs=5e-3)
    assert result["train_accuracy"] == pytest.approx(0.88333, abs=0.01)
    assert result["global_step"] == 80
    assert result["before_restore"] == pytest.approx(1 / 3)
    for key in ("test_accuracy", "by_saver", "by_creation", "by_checkpoint"):
        assert result[key] == pytest.approx(0.95, abs=0.02), key
    assert result["saver_names"] == ["dense/bias", "dense/kernel", "dense_1/bias",
                                     "dense_1/kernel", "global_step"]
    assert result["checkpoint_names"] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "model/b1/.ATTRIBUTES/VARIABLE_VALUE",
        "model/b2/.ATTRIBUTES/VARIABLE_VALUE", "model/w1/.ATTRIBUTES/VARIABLE_VALUE",
        "model/w2/.ATTRIBUTES/VARIABLE_VALUE", "optimizer_step/.ATTRIBUTES/VARIABLE_VALUE",
        "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]


def test_enable_eager_execution_applies_its_device_policy_and_soft_placement():
    """TF 1.15 built the eager context from these options; here the running context takes
    them (the errors for bad ones are recorded cases)."""
    import threading

    import tensorflow as tf
    from tensorflow.python.eager import context

    from estimator_compat.legacy import graph_mode, tf1_view
    tfe = tf1_view.build().contrib.eager
    ctx = context.context()
    policy, soft = ctx.device_policy, tf.config.get_soft_device_placement()
    seen = {}

    def program():
        graph_mode.tf1_thread()
        tfe.enable_eager_execution(config=tf.compat.v1.ConfigProto(allow_soft_placement=True),
                                   device_policy=tfe.DEVICE_PLACEMENT_EXPLICIT)
        seen.update(eager=tf.executing_eagerly(), policy=ctx.device_policy,
                    soft=tf.config.get_soft_device_placement())
    tf.config.set_soft_device_placement(False)
    try:
        thread = threading.Thread(target=program)
        thread.start()
        thread.join()
    finally:
        ctx.device_policy = policy
        tf.config.set_soft_device_placement(soft)
    assert seen == {"eager": True, "policy": context.DEVICE_PLACEMENT_EXPLICIT, "soft": True}
