"""`tf.compat.v1.train.import_meta_graph` and `tf.compat.v1.train.Saver` inside a model_fn
(`engine/imported_variables.py`, `engine/trace_savers.py`): what tensorflow_hub's `hub.Module`
does, without hub. As in a TF1 graph, the imported variables are the model's (trained, saved
under their imported names, set by `init_from_checkpoint`, exported), and the imported ops that a TF1
session never ran (initializers, the MetaGraph's Saver, an `assign_add` beside the model, a
lookup of an unfed placeholder) do not run at each step."""
import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec

v1 = tf.compat.v1


@pytest.fixture(scope="module")
def pretrained(tmp_path_factory):
    """A TF1 graph saved with its .meta: `pred = x @ w + b` (w a resource variable, b a
    reference one, both with initializers other than their checkpoint values), an
    `assign_add` on w, a lookup table over a string placeholder."""
    path = str(tmp_path_factory.mktemp("pretrained") / "model")
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 3], name="x")
        w = v1.get_variable("w", [3, 1], initializer=v1.zeros_initializer(), use_resource=True)
        b = v1.get_variable("b", [1], initializer=v1.zeros_initializer(), use_resource=False)
        tf.add(tf.matmul(x, w), b, name="pred")
        w.assign_add(tf.ones([3, 1]), name="bump")
        words = v1.placeholder(tf.string, [None], name="words")
        table = v1.lookup.StaticHashTable(
            v1.lookup.KeyValueTensorInitializer(["a", "b"], [0, 1], tf.string, tf.int64), -1)
        tf.identity(table.lookup(words), name="ids")
        with v1.Session() as session:
            session.run(v1.global_variables_initializer())
            session.run([w.assign([[1.0], [2.0], [3.0]]), b.assign([0.5])])
            v1.train.Saver().save(session, path)
    return path


def _model_fn(checkpoint):
    def model_fn(features, labels, mode, params):
        saver = v1.train.import_meta_graph(checkpoint + ".meta", import_scope="pre",
                                           input_map={"x:0": features["x"]})
        assert isinstance(saver, v1.train.Saver)
        v1.train.init_from_checkpoint(checkpoint, {"/": "pre/"})
        pred = v1.get_default_graph().get_tensor_by_name("pre/pred:0")
        if mode == ec.ModeKeys.PREDICT:
            return ec.EstimatorSpec(mode, predictions={"pred": pred})
        loss = tf.reduce_mean(tf.square(pred - labels))
        train_op = v1.train.GradientDescentOptimizer(params["lr"]).minimize(
            loss, global_step=v1.train.get_global_step())
        return ec.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                scaffold=v1.train.Scaffold(saver=v1.train.Saver()))
    return model_fn


def _input_fn():
    x = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 1.0]], np.float32)
    return tf.data.Dataset.from_tensor_slices(({"x": x}, np.zeros((2, 1), np.float32))).batch(2)


def test_imported_variables_start_from_the_checkpoint_and_train(pretrained, tmp_path):
    est = ec.Estimator(_model_fn(pretrained), str(tmp_path), params={"lr": 0.1})
    est.train(_input_fn, steps=1)
    assert sorted(est.get_variable_names()) == ["global_step", "pre/b", "pre/w"]
    # one gradient step of mean((x @ w + b)^2) from the checkpoint's w = [1, 2, 3], b = 0.5
    x = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 1.0]])
    w, b = np.array([[1.0], [2.0], [3.0]]), 0.5
    residual = x @ w + b
    np.testing.assert_allclose(est.get_variable_value("pre/w"),
                               w - 0.1 * x.T @ residual, rtol=1e-6)
    np.testing.assert_allclose(est.get_variable_value("pre/b"),
                               [b - 0.1 * residual.sum()], rtol=1e-6)
    trained = est.get_variable_value("pre/w")
    assert est.evaluate(_input_fn)["global_step"] == 1
    predicted = [p["pred"] for p in est.predict(_input_fn)]
    expected = (x @ trained).ravel() + est.get_variable_value("pre/b")
    np.testing.assert_allclose(np.concatenate(predicted), expected, rtol=1e-6)
    # export: the model_fn built in a TF1 graph, the import's variables restored and saved
    def receiver():
        inputs = {"x": v1.placeholder(tf.float32, [None, 3])}
        return ec.export.ServingInputReceiver(inputs, inputs)
    export_dir = est.export_saved_model(str(tmp_path / "export"), receiver)
    served = tf.saved_model.load(export_dir.decode()).signatures["serving_default"](
        x=tf.constant(x, tf.float32))
    np.testing.assert_allclose(served["pred"].numpy().ravel(), expected, rtol=1e-6)


def test_a_model_dir_checkpoint_wins_over_init_from_checkpoint(pretrained, tmp_path):
    """TF1's initializers (init_from_checkpoint's among them) ran only without a checkpoint."""
    est = ec.Estimator(_model_fn(pretrained), str(tmp_path), params={"lr": 0.1})
    est.train(_input_fn, steps=1)
    after_one = est.get_variable_value("pre/w")
    est = ec.Estimator(_model_fn(pretrained), str(tmp_path), params={"lr": 0.0})
    est.train(_input_fn, steps=1)
    np.testing.assert_array_equal(est.get_variable_value("pre/w"), after_one)


def test_two_imports_set_from_the_checkpoint_through_their_variables(pretrained, tmp_path):
    """hub's way: `init_from_checkpoint(path, {name: variable})` for each import; predict
    without a checkpoint of the model's own initializes them so."""
    def model_fn(features, labels, mode):
        preds = []
        for scope in ("first", "second"):
            v1.train.import_meta_graph(pretrained + ".meta", import_scope=scope,
                                       input_map={"x:0": features["x"]})
            v1.train.init_from_checkpoint(pretrained, {
                name: v for v in v1.global_variables(scope + "/")
                for name in [v.name[len(scope) + 1:].split(":")[0]]})
            preds.append(v1.get_default_graph().get_tensor_by_name(scope + "/pred:0"))
        return ec.EstimatorSpec(mode, predictions={"first": preds[0], "second": preds[1]})

    est = ec.Estimator(model_fn, str(tmp_path))
    predicted = list(est.predict(_input_fn))
    expected = np.array([1.0 + 0.5, 2.0 + 3.0 + 0.5])
    for key in ("first", "second"):
        np.testing.assert_allclose([p[key][0] for p in predicted], expected, rtol=1e-6)
