"""The TF 1.x view: user code's `import tensorflow` gets TF 1.x's API, everyone else TF 2."""
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from estimator_compat.legacy import detect, dimension_value, graph_mode, tf1_view, user_code
from helpers import linear_input_fn, linear_model_fn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(os.path.dirname(sys.executable), "estimator-compat")


def _write(path, text):
    path.write_text(textwrap.dedent(text))
    return str(path)


def test_user_module_gets_tf1_while_tensorflow_stays_tf2(tmp_path):
    _write(tmp_path / "user_mod.py", """
        import tensorflow as tf
        from tensorflow import flags, logging
        from tensorflow.contrib import tpu as contrib_tpu
        import tensorflow.compat.v1 as v1
        import tensorflow.compat.v2 as v2
        from tensorflow.python.framework import ops
        from tensorflow.estimator import RunConfig
        WIDTH = tf.TensorShape([None, 7])[-1].value
        UNKNOWN = tf.TensorShape([None, 7])[0].value
        """)
    finder = user_code.UserCodeFinder(user_code.user_builtins())
    sys.meta_path.insert(0, finder)
    sys.path.insert(0, str(tmp_path))
    try:
        import user_mod
    finally:
        sys.meta_path.remove(finder)
        sys.path.remove(str(tmp_path))
        sys.modules.pop("user_mod", None)
    view = tf1_view.build()
    assert user_mod.tf is view and user_mod.v1 is view and user_mod.v2 is tf
    assert user_mod.flags is tf.compat.v1.flags and user_mod.logging is tf.compat.v1.logging
    assert user_mod.contrib_tpu.TPUEstimator is ec.tpu.TPUEstimator
    assert user_mod.ops.__name__ == "tensorflow.python.framework.ops"
    assert user_mod.RunConfig is ec.RunConfig
    assert (user_mod.WIDTH, user_mod.UNKNOWN) == (7, None)  # `.value` of TF2's int dimensions
    # the process keeps TensorFlow 2: tf.summary, tf.losses, Keras
    assert sys.modules["tensorflow"] is tf and hasattr(tf.summary, "create_file_writer")
    assert not hasattr(tf, "flags")
    import keras
    assert keras.layers.Dense(2)(np.ones((1, 3), np.float32)).shape == (1, 2)
    # the view: TF1 names, this project's estimator (TF1 canned classes) and contrib
    assert view.estimator.DNNClassifier is ec.legacy.estimator_v1.DNNClassifier
    assert view.layers.Dense is ec.legacy.layer_classes.Dense
    assert view.train.Optimizer is tf.compat.v1.train.Optimizer
    assert view.compat.v1 is view and view.compat.v2 is tf


def test_user_modules_only(tmp_path):
    finder = user_code.UserCodeFinder({})
    assert finder.owns(str(tmp_path / "modeling.py"))  # wherever it is, if not installed
    assert not finder.owns(np.__file__)  # site-packages
    assert not finder.owns(ec.__file__)
    assert not finder.owns(os.__file__)  # the standard library


def test_dimension_value_rewrite_only_reads_value():
    code = dimension_value.compile_source(textwrap.dedent("""
        class Box:
            value = 5
        b = Box()
        b.value = 6
        got = (b.value, (3).value if False else None)
        """), "<t>")
    namespace = {"__builtins__": user_code.user_builtins()}
    exec(code, namespace)
    assert namespace["got"] == (6, None) and namespace["b"].value == 6
    assert dimension_value.dimension_value(4) == 4
    assert dimension_value.dimension_value(tf.compat.v1.Dimension(4)) == 4


@pytest.mark.parametrize("source, tf1, shown", [
    ("import tensorflow as tf\ntf.flags.DEFINE_string('a', None, '')\n", True, "tf.flags"),
    ("import tensorflow as tf\nx = tf.layers.dense\n", True, "tf.layers"),
    ("import tensorflow as tf\nopt = tf.train.AdamOptimizer(0.1)\n", True,
     "tf.train.AdamOptimizer"),
    ("import tensorflow as tf\nx = tf.contrib.tpu.TPUEstimator\n", True, "tf.contrib.tpu"),
    ("import tensorflow as tf\nit = ds.make_one_shot_iterator()\n", True,
     ".make_one_shot_iterator()"),
    ("import tensorflow as tf\nest = tf.estimator.Estimator(fn)\nm = tf.keras.Sequential()\n"
     "opt = tf.compat.v1.train.AdamOptimizer()\n", False, "no TF 1.x-only name"),
    ("import tensorflow.compat.v1 as tf\ntf.flags.DEFINE_string('a', None, '')\n", False,
     "no TF 1.x-only name"),
    # the compat.v1 module function is TF2 code; through a TF2 `tf.data` it is TF1 code
    ("import tensorflow.compat.v1 as tf\nit = tf.data.make_one_shot_iterator(ds)\n", False,
     "no TF 1.x-only name"),
    ("import tensorflow as tf\nit = tf.compat.v1.data.make_one_shot_iterator(ds)\n", False,
     "no TF 1.x-only name"),
    ("import tensorflow as tf\nit = tf.data.make_one_shot_iterator(ds)\n", True,
     "tf.data.make_one_shot_iterator"),
    ("import tensorflow as tf\nit = ds.batch(2).make_initializable_iterator()\n", True,
     ".make_initializable_iterator()"),
])
def test_detect(tmp_path, source, tf1, shown):
    script = tmp_path / "s.py"
    script.write_text(source)
    got, reason = detect.decide(str(script))
    assert got is tf1 and shown in reason
    assert detect.decide(str(script), "tf2") == (False, "forced by --tf2")
    assert detect.decide(str(script), "tf1") == (True, "forced by --tf1")


def test_detect_reads_sibling_modules(tmp_path):
    (tmp_path / "helpers.py").write_text("import tensorflow as tf\nlog = tf.logging.info\n")
    script = _write(tmp_path / "main.py", "import tensorflow as tf\nimport helpers\n")
    assert detect.decide(script) == (True, "it uses tf.logging, which TensorFlow 2 does not have "
                                           "(--tf2 to override)")


def test_run_says_which_api_and_forced_flags(tmp_path):
    script = _write(tmp_path / "show.py", """
        import numpy as np
        import tensorflow as tf
        print("FLAGS" if hasattr(tf, "flags") else "NOFLAGS", tf.__version__)
        print({"accuracy": np.float32(0.7775), "global_step": np.int64(100)})
        """)
    out = subprocess.run([CLI, "run", script], capture_output=True, text=True, check=True)
    assert "NOFLAGS" in out.stdout and "with TensorFlow 2's API" in out.stderr
    out = subprocess.run([CLI, "run", "--tf1", script], capture_output=True, text=True, check=True)
    assert "FLAGS" in out.stdout.split() and "TensorFlow 1.x's API: forced by --tf1" in out.stderr
    assert tf.__version__ in out.stdout
    # a metrics dict prints as TF 1.15 / 2.15 printed it (numpy 1.x), not np.float32(0.7775)
    assert "{'accuracy': 0.7775, 'global_step': 100}" in out.stdout


def test_run_a_package_module_with_relative_imports(tmp_path):
    """`estimator-compat run -m trainer.task` as `python -m trainer.task`: the package's modules
    (`from . import model`) get TF 1.x's API too, the decision reads them."""
    (tmp_path / "trainer").mkdir()
    _write(tmp_path / "trainer" / "__init__.py", "import tensorflow as tf\nLOG = tf.logging\n")
    _write(tmp_path / "trainer" / "model.py", """
        import tensorflow as tf
        def describe():
            tf.logging.info("model")
            return tf.layers.dense.__name__, tf.flags.FLAGS.job_dir
        """)
    _write(tmp_path / "trainer" / "task.py", """
        import sys
        import tensorflow as tf
        from . import model
        tf.flags.DEFINE_string("job_dir", None, "")
        def main(_):
            print("TASK", __name__, __package__, *model.describe(), sys.argv[1:])
        if __name__ == "__main__":
            tf.app.run()
        """)
    out = subprocess.run([CLI, "run", "-m", "trainer.task", "--job_dir", "gs://x"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "running trainer.task with TensorFlow 1.x's API: it uses tf.flags, tf.app, " \
        "tf.logging, tf.layers" in out.stderr  # the package's model.py read too
    assert out.stdout.split() == ["TASK", "__main__", "trainer", "dense", "gs://x",
                                  "['--job_dir',", "'gs://x']"]
    missing = subprocess.run([CLI, "run", "-m", "trainer.nothing"], capture_output=True,
                             text=True, cwd=tmp_path)
    assert missing.returncode != 0 and "no module named 'trainer.nothing'" in missing.stderr
    assert "trainer/nothing.py under" in missing.stderr


def test_contrib_errors_name_the_replacement():
    ec.install()
    with pytest.raises(AttributeError, match=r"tf.contrib.tensor_forest .* "
                                             r"TensorFlow Decision Forests"):
        tf.contrib.tensor_forest  # noqa: B018
    with pytest.raises(ModuleNotFoundError, match="tf.contrib.tensor_forest .* "
                                                  "TensorFlow Decision Forests"):
        user_code.tf1_import("tensorflow.contrib.tensor_forest", fromlist=("client",))


def test_execution_mode_switches_act_on_the_calling_thread_only(tmp_path):
    """disable_v2_behavior(): TF 1.x's graph mode and reference variables for this thread and
    the threads it starts; other threads and the engine's calls keep TensorFlow 2 (eager,
    resource variables)."""
    view = tf1_view.build()
    seen = {}
    try:
        view.disable_v2_behavior()
        view.reset_default_graph()  # as a fresh TF 1.x program's graph
        assert not tf.executing_eagerly()
        ph = view.placeholder(tf.float32, [None, 3], name="x")  # TF1's default graph
        w = view.get_variable("w_ref", [3, 1], initializer=view.ones_initializer())
        assert ph.graph is view.get_default_graph() and w.op.type == "VariableV2"
        with view.Session() as sess:
            sess.run(view.global_variables_initializer())
            grad, = sess.run(view.gradients(tf.reduce_sum(tf.matmul(ph, w)), [w]),
                             {ph: [[1.0, 2.0, 3.0]]})
        np.testing.assert_allclose(grad[:, 0], [1.0, 2.0, 3.0])
        other = threading.Thread(target=lambda: seen.update(eager=tf.executing_eagerly()))
        other.start()  # started by the TF 1.x code: its mode, as every thread in TF 1.15
        other.join()
        assert seen == {"eager": False}
        est = ec.Estimator(linear_model_fn, model_dir=str(tmp_path), params={"lr": 0.1})
        est.train(linear_input_fn(), steps=3)  # runs eagerly, with resource variables
        assert est.get_variable_value("global_step") == 3 and not tf.executing_eagerly()
        assert len(list(est.predict(linear_input_fn(repeat=False, n=8)))) == 8
        view.enable_resource_variables()
        assert view.get_variable("w_res", [1]).op.type == "VarHandleOp"
        view.enable_eager_execution()
        assert tf.executing_eagerly()
    finally:
        graph_mode.tf2_thread()
    other = threading.Thread(target=lambda: seen.update(eager=tf.executing_eagerly()))
    other.start()  # started by TensorFlow 2 code
    other.join()
    assert seen == {"eager": True} and tf.executing_eagerly()
