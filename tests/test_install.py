"""install(): legacy imports resolve to estimator_compat; legacy scripts run unchanged."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import tensorflow as tf
import pytest

import estimator_compat as ec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LEGACY_SCRIPT = '''
import sys
import numpy as np
import tensorflow.compat.v1 as tf
from tensorflow.estimator import RunConfig
import tensorflow_estimator as tfe

def model_fn(features, labels, mode, params):
    logits = tf.layers.dense(features["x"], 2)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"c": tf.argmax(logits, 1)})
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    op = tf.train.AdamOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
    metrics = {"acc": tf.metrics.accuracy(labels, tf.argmax(logits, 1))}
    return tfe.estimator.EstimatorSpec(mode, loss=loss, train_op=op, eval_metric_ops=metrics)

x = np.random.RandomState(0).normal(size=(200, 2)).astype(np.float32)
y = (x[:, 0] > 0).astype(np.int32)
train_fn = tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=20, num_epochs=None, shuffle=True)
eval_fn = tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=50, shuffle=False)
est = tf.estimator.Estimator(model_fn, config=RunConfig(model_dir=sys.argv[1], save_checkpoints_steps=50))
hook = tf.contrib.estimator.stop_if_higher_hook(est, "acc", 2.0, run_every_secs=None, run_every_steps=10)
result, _ = tf.estimator.train_and_evaluate(est, tf.estimator.TrainSpec(train_fn, max_steps=100, hooks=[hook]),
                                            tf.estimator.EvalSpec(eval_fn, throttle_secs=0))
print("ACC", result["acc"], "STEP", result["global_step"])
'''


def test_install_aliases_resolve():
    api = ec.install()
    assert ec.install() is api is ec  # idempotent
    import tensorflow_estimator
    import tensorflow.compat.v1 as v1
    from tensorflow.compat.v1.estimator.export import ServingInputReceiver
    from tensorflow.estimator import Estimator
    from estimator_compat.legacy import estimator_v1 as compat_v1
    from tensorflow.compat.v1.estimator import DNNClassifier
    assert tf.estimator is ec and v1.estimator is compat_v1 and tf.compat.v1.estimator is compat_v1
    assert Estimator is ec.Estimator and ServingInputReceiver is ec.export.ServingInputReceiver
    assert tensorflow_estimator.estimator is ec
    assert tensorflow_estimator.compat.v1.estimator is compat_v1
    # tf.compat.v1.estimator: the TF1 canned classes; everything else is the same object
    assert DNNClassifier is ec.canned.v1.DNNClassifier is not ec.DNNClassifier
    assert v1.estimator.Estimator is ec.Estimator and v1.estimator.RunConfig is ec.RunConfig
    assert "DNNClassifier" in dir(v1.estimator) and "train_and_evaluate" in dir(v1.estimator)
    with pytest.raises(TypeError, match="input_layer_partitioner"):
        ec.DNNClassifier([4], [tf.feature_column.numeric_column("x")],
                         input_layer_partitioner=None)
    v1.estimator.DNNClassifier([4], [tf.feature_column.numeric_column("x")],
                               input_layer_partitioner=None)
    assert tf.compat.v1.estimator.inputs.numpy_input_fn is ec.inputs.numpy_input_fn
    assert tf.estimator.experimental.stop_if_no_increase_hook is \
        ec.experimental.stop_if_no_increase_hook
    assert tf.contrib.estimator.stop_if_no_increase_hook is ec.experimental.stop_if_no_increase_hook
    assert v1.train.ProfilerHook is ec.ProfilerHook
    assert v1.train.LoggingTensorHook is ec.LoggingTensorHook  # TensorFlow's own, untouched
    assert callable(v1.layers.dense) and v1.layers.dense.__module__ == "estimator_compat.legacy.layers"
    # TF 2.11-2.15 estimator scripts built tf.keras.optimizers.legacy.*; Keras 3 only raises
    assert isinstance(tf.keras.optimizers.legacy.Adam(0.01), tf.keras.optimizers.Adam)
    assert tf.keras.optimizers.legacy.SGD(0.1, momentum=0.9).momentum == 0.9
    # 2.15's legacy also had these three, which Keras 3 does not list at all
    assert {"Adadelta", "Adamax", "Nadam"} <= set(dir(tf.keras.optimizers.legacy))
    assert isinstance(tf.keras.optimizers.legacy.Nadam(0.002), tf.keras.optimizers.Nadam)


def test_legacy_script_runs_unchanged_through_the_cli(tmp_path):
    script = tmp_path / "legacy.py"
    script.write_text(textwrap.dedent(LEGACY_SCRIPT))
    proc = subprocess.run([sys.executable, "-m", "estimator_compat", "run", str(script),
                           str(tmp_path / "model")], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    acc = float(proc.stdout.split("ACC")[1].split()[0])
    assert acc > 0.9 and "STEP 100" in proc.stdout


def test_numpy_input_fn_semantics():
    x = {"a": np.arange(10, dtype=np.float32)}
    y = np.arange(10)
    batches = list(ec.inputs.numpy_input_fn(x, y, batch_size=4, shuffle=False)())
    assert [len(b[1]) for b in batches] == [4, 4, 2]
    np.testing.assert_array_equal(batches[0][0]["a"], [0, 1, 2, 3])
    import pytest
    with pytest.raises(ValueError, match="shuffle must be provided explicitly"):
        ec.inputs.numpy_input_fn(x, y)
    with pytest.raises(ValueError, match="mismatched"):
        ec.inputs.numpy_input_fn(x, y[:5], shuffle=False)
    with pytest.raises(ValueError, match="duplicate keys"):
        ec.inputs.numpy_input_fn(x, {"a": y}, shuffle=False)


def test_compat_v2_compat_v1_gets_the_estimator_and_layers_too():
    """`tf.compat.v2.compat.v1` is another module object than `tf.compat.v1`; libraries
    (AdaNet) read `tf.compat.v2.compat.v1.estimator` and `.layers` from it."""
    import tensorflow.compat.v2 as tf2

    ec.install()
    assert tf2.compat.v1.estimator.Estimator is tf.compat.v1.estimator.Estimator
    assert tf2.compat.v1.layers.dense is tf.compat.v1.layers.dense


def test_a_checkpoint_path_given_as_bytes_resolves(tmp_path):
    """tensorflow_hub gives init_from_checkpoint its checkpoint path as bytes."""
    from estimator_compat import checkpoints
    prefix = str(tmp_path / "ckpt")
    tf.train.Checkpoint(v=tf.Variable(1.0)).write(prefix)
    assert checkpoints.resolve(prefix.encode()) == prefix


def test_reductions_over_numpy_axes_have_graph_gradients():
    """`tf.reduce_sum(x, axis=np.arange(1, 3))` (int64 axes) on a batch of unknown size:
    TensorFlow 2.21's gradient stitched the shape with int64 indices and failed; TF 1.15 and
    TensorFlow 2.15 gave the gradient, and so does install()."""
    import numpy as np
    import tensorflow as tf
    ec.install()
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 3, 4])
        grads = [tf.gradients(reduce(x, axis=np.arange(1, 3)), x)[0]
                 for reduce in (tf.reduce_sum, tf.reduce_mean, tf.reduce_prod)]
        with v1.Session() as sess:
            values = sess.run(grads, {x: np.full([2, 3, 4], 2.0, np.float32)})
    np.testing.assert_allclose(values[0], np.ones([2, 3, 4]))
    np.testing.assert_allclose(values[1], np.full([2, 3, 4], 1 / 12))
    np.testing.assert_allclose(values[2], np.full([2, 3, 4], 2.0 ** 11))


def test_inspect_getargspec_is_back_for_estimator_era_libraries():
    """Python 3.11 removed inspect.getargspec, which TF-GAN 2.1 and TF 1.x helpers call;
    install() restores Python 3.10's."""
    import inspect
    ec.install()

    def f(a, b=1, *rest, **options):
        return a

    assert inspect.getargspec(f) == (["a", "b"], "rest", "options", (1,))
    assert inspect.getargspec(f).keywords == "options"
    with pytest.raises(ValueError, match="keyword-only"):
        inspect.getargspec(lambda a, *, b: a)
