"""The last tf.contrib names served (issue 40) against TF 1.15.5's record
(tests/tf115_cases/contrib_leftovers.py): slim's sparse_feature_cross and its op modules,
slim.loader."""

from tf115_cases import harness

MODULE = "contrib_leftovers"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def _contrib():
    from estimator_compat.legacy import tf1_view
    return tf1_view.build().contrib


def test_replicate_model_fn_trains_in_an_estimator_as_tf115(tmp_path):
    """The one-device replicated model_fn with a TowerOptimizer in an Estimator: TF 1.15.5 on
    the same model and data evaluated loss 0.49700958 after 3 Adam steps, with the plain
    model_fn's 9 checkpoint names."""
    import numpy as np
    import tensorflow as tf

    import estimator_compat as ec
    contrib = _contrib()
    v1 = tf.compat.v1

    def model_fn(features, labels, mode):
        with v1.variable_scope("dense"):
            kernel = v1.get_variable("kernel", [2, 2], initializer=v1.constant_initializer(0.1))
            bias = v1.get_variable("bias", [2], initializer=v1.zeros_initializer())
        logits = tf.matmul(features["x"], kernel) + bias
        loss = v1.losses.sparse_softmax_cross_entropy(labels, logits)
        opt = contrib.estimator.TowerOptimizer(v1.train.AdamOptimizer(0.1))
        train_op = opt.minimize(loss, global_step=v1.train.get_global_step())
        return ec.EstimatorSpec(mode, loss=loss, train_op=train_op)

    x = np.array([[1.0, 2.0], [2.0, 1.0], [0.5, 0.1], [0.3, 0.9]], np.float32)
    y = np.array([0, 1, 1, 0])

    def input_fn():
        return tf.data.Dataset.from_tensors(({"x": x}, y)).repeat()
    est = ec.Estimator(contrib.estimator.replicate_model_fn(model_fn), model_dir=str(tmp_path))
    est.train(input_fn, steps=3)
    metrics = est.evaluate(lambda: tf.data.Dataset.from_tensors(({"x": x}, y)), steps=1)
    assert abs(metrics["loss"] - 0.49700958) < 1e-5
    assert sorted(n for n, _ in tf.train.list_variables(str(tmp_path))) == [
        "beta1_power", "beta2_power", "dense/bias", "dense/bias/Adam", "dense/bias/Adam_1",
        "dense/kernel", "dense/kernel/Adam", "dense/kernel/Adam_1", "global_step"]


def test_replicate_model_fn_over_several_devices_names_mirrored_strategy():
    import pytest
    import tensorflow as tf
    fn = _contrib().estimator.replicate_model_fn(lambda features, labels, mode: None,
                                                  devices=["/cpu:0", "/cpu:0"])
    with pytest.raises(ValueError, match="MirroredStrategy"):
        fn({"x": tf.zeros([2, 1])}, None, "train")


def test_split_dependency_in_eager_mode(tmp_path):
    """Eagerly (TF 1.15 did the same in its eager mode): one fill for both keys on save, one
    consume with both tensors on restore, none while a component is still missing."""
    import tensorflow as tf
    state = {"a": tf.Variable([1.0, 2.0]), "b": tf.Variable(7, dtype=tf.int64)}
    fills, consumed = [], []

    def fill(buf):
        fills.append(1)
        buf["first"], buf["second"] = state["a"] * 2.0, state["b"] + 1

    def consume(buf):
        consumed.append(sorted(buf))
        state["a"].assign(buf["first"] / 2.0)
        state["b"].assign(buf["second"] - 1)
    deps = _contrib().checkpoint.split_dependency(["first", "second"], [tf.float32, tf.int64],
                                                  fill, consume, "/cpu:0")
    path = tf.train.Checkpoint(x=deps["first"], y=deps["second"]).save(str(tmp_path / "ck"))
    assert fills == [1]
    assert tf.train.load_variable(path, "x/.ATTRIBUTES/VARIABLE_VALUE").tolist() == [2.0, 4.0]
    state["a"].assign([0.0, 0.0])
    tf.train.Checkpoint(x=deps["first"]).restore(path)
    assert consumed == []
    tf.train.Checkpoint(x=deps["first"], y=deps["second"]).restore(path)
    assert consumed == [["first", "second"]]
    assert state["a"].numpy().tolist() == [1.0, 2.0] and int(state["b"].numpy()) == 7


def test_deep_import_paths_of_the_served_leftovers():
    import importlib
    contrib = _contrib()
    contrib.slim.sparse_feature_cross  # noqa: B018 - builds slim (and its op modules)
    contrib.framework.fuse_op  # noqa: B018
    paths = {
        "tensorflow.contrib.layers.python.ops.sparse_feature_cross_op": "sparse_feature_cross",
        "tensorflow.contrib.layers.ops.gen_sparse_feature_cross_op": "sparse_feature_cross_v2",
        "tensorflow.contrib.framework.python.framework.graph_util": "fuse_op",
        "tensorflow.contrib.framework.python.ops": "load_variable_slot_initializer",
    }
    for path, name in paths.items():
        assert hasattr(importlib.import_module(path), name), path
