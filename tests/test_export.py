"""export_saved_model: SavedModels that tf.saved_model.load, saved_model_cli and TF1 sessions read."""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from helpers import FIXTURES, linear_data, linear_input_fn, linear_model_fn

v1 = tf.compat.v1


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    model_dir = str(tmp_path_factory.mktemp("model"))
    est = ec.Estimator(linear_model_fn, model_dir=model_dir, params={})
    est.train(linear_input_fn(), steps=30)
    return est


def raw_fn():
    return ec.export.build_raw_serving_input_receiver_fn({"x": tf.zeros([1, 3])})


def predict_y(est, x):
    return np.array([p["y"] for p in est.predict(
        lambda: tf.data.Dataset.from_tensor_slices({"x": x}).batch(len(x)))])


def test_export_matches_predict_and_is_timestamped(trained, tmp_path):
    base = str(tmp_path / "export")
    path = trained.export_saved_model(base, raw_fn())
    assert isinstance(path, bytes)
    path = path.decode()
    assert os.path.dirname(path) == base and os.path.basename(path).isdigit()
    assert os.path.exists(os.path.join(path, "saved_model.pb"))
    assert os.path.isdir(os.path.join(path, "variables"))
    x, _ = linear_data(7)
    loaded = tf.saved_model.load(path)
    out = loaded.signatures["serving_default"](x=tf.constant(x))
    np.testing.assert_allclose(out["y"].numpy(), predict_y(trained, x), rtol=1e-6)
    np.testing.assert_allclose(out["double"].numpy(), 2 * out["y"].numpy(), rtol=1e-6)
    second = trained.export_savedmodel(base, raw_fn()).decode()  # the TF1 name; a new dir
    assert second != path and sorted(os.listdir(base)) == sorted(
        [os.path.basename(path), os.path.basename(second)])


def test_saved_model_cli_and_tf1_session_load(trained, tmp_path):
    path = trained.export_saved_model(str(tmp_path), raw_fn()).decode()
    cli = shutil.which("saved_model_cli") or os.path.join(os.path.dirname(sys.executable),
                                                          "saved_model_cli")
    shown = subprocess.run([cli, "show", "--dir", path, "--all"], capture_output=True,
                           text=True, timeout=300)
    assert shown.returncode == 0, shown.stderr[-2000:]
    assert "signature_def['serving_default']" in shown.stdout and "outputs['y']" in shown.stdout
    x, _ = linear_data(4)
    with tf.Graph().as_default(), v1.Session() as sess:
        meta = v1.saved_model.loader.load(sess, ["serve"], path)
        sig = meta.signature_def["serving_default"]
        assert sig.method_name == "tensorflow/serving/predict"
        y = sess.run(sig.outputs["y"].name, {sig.inputs["x"].name: x})
    np.testing.assert_allclose(y, predict_y(trained, x), rtol=1e-6)


def classifier_model_fn(features, labels, mode, params):
    net = features["x"]
    logits = v1.layers.dense(net, 2, name="logits")
    probs = tf.nn.softmax(logits)
    classes = tf.argmax(logits, 1)
    if mode == "infer":
        class_names = tf.gather(tf.constant(["neg", "pos"]), classes)
        return ec.EstimatorSpec(mode, predictions={"probabilities": probs, "classes": classes},
                                export_outputs={
                                    "serving_default": ec.export.ClassificationOutput(
                                        scores=probs, classes=tf.expand_dims(class_names, 1)),
                                    "regression": ec.export.RegressionOutput(probs[:, 1]),
                                    "predict": ec.export.PredictOutput({"classes": classes})})
    labels = tf.cast(tf.reshape(labels, [-1]) > 0, tf.int32)
    loss = v1.losses.sparse_softmax_cross_entropy(labels, logits)
    return ec.EstimatorSpec(mode, loss=loss, train_op=v1.train.AdamOptimizer(0.05).minimize(
        loss, global_step=v1.train.get_global_step()))


def test_parsing_receiver_signatures_and_alternatives(tmp_path):
    est = ec.Estimator(classifier_model_fn, model_dir=str(tmp_path / "m"))
    est.train(linear_input_fn(), steps=40)
    spec = {"x": tf.io.FixedLenFeature([3], tf.float32)}
    parsing = ec.export.build_parsing_serving_input_receiver_fn(spec)

    def with_alternative():
        receiver = parsing()
        return ec.export.ServingInputReceiver(receiver.features, receiver.receiver_tensors,
                                              {"raw": {"x": receiver.features["x"]}})
    path = est.export_saved_model(str(tmp_path / "e"), with_alternative, as_text=True).decode()
    assert os.path.exists(os.path.join(path, "saved_model.pbtxt"))
    x, _ = linear_data(5)
    examples = [tf.train.Example(features=tf.train.Features(feature={
        "x": tf.train.Feature(float_list=tf.train.FloatList(value=row))})).SerializeToString()
        for row in x]
    with tf.Graph().as_default(), v1.Session() as sess:
        meta = v1.saved_model.loader.load(sess, ["serve"], path)
        sigs = meta.signature_def
        assert sigs["serving_default"].method_name == "tensorflow/serving/classify"
        assert sigs["regression"].method_name == "tensorflow/serving/regress"
        assert sigs["predict"].method_name == "tensorflow/serving/predict"
        assert "raw:predict" in sigs
    loaded = tf.saved_model.load(path)
    cls = loaded.signatures["serving_default"](inputs=tf.constant(examples))
    want = [p["probabilities"] for p in est.predict(
        lambda: tf.data.Dataset.from_tensor_slices({"x": x}).batch(5))]
    np.testing.assert_allclose(cls["scores"].numpy(), want, rtol=1e-5)
    assert set(cls["classes"].numpy()[:, 0]) <= {b"neg", b"pos"}
    raw = loaded.signatures["raw:predict"](x=tf.constant(x))
    np.testing.assert_array_equal(raw["classes"].numpy(), np.argmax(want, axis=1))


def image_model_fn(features, labels, mode):
    image = tf.image.resize(features["image"], [8, 8])
    logits = v1.layers.dense(tf.reshape(image, [-1, 8 * 8 * 3]), 2)
    if mode == "infer":
        return ec.EstimatorSpec(mode, predictions={"logits": logits})
    loss = tf.reduce_mean(tf.square(logits - tf.cast(labels, tf.float32)[:, None]))
    return ec.EstimatorSpec(mode, loss=loss, train_op=v1.train.GradientDescentOptimizer(0.01)
                            .minimize(loss, global_step=v1.train.get_global_step()))


def test_placeholder_receiver_with_image_resize(tmp_path):
    def input_fn():
        x = np.random.RandomState(0).uniform(size=(16, 12, 12, 3)).astype(np.float32)
        return tf.data.Dataset.from_tensor_slices(({"image": x}, np.zeros(16, np.int64))).batch(4)
    est = ec.Estimator(image_model_fn, model_dir=str(tmp_path / "m"))
    est.train(input_fn, steps=4)

    def serving_fn():
        image = v1.placeholder(tf.float32, [None, None, None, 3])
        return ec.export.ServingInputReceiver({"image": image}, {"image": image})
    path = est.export_saved_model(str(tmp_path / "e"), serving_fn).decode()
    out = tf.saved_model.load(path).signatures["serving_default"](
        image=tf.ones([2, 20, 30, 3]))
    assert out["logits"].shape == (2, 2)


def test_assets_extra(trained, tmp_path):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("a\nb\n")
    path = trained.export_saved_model(str(tmp_path / "e"), raw_fn(),
                                      assets_extra={"data/vocab.txt": str(vocab)}).decode()
    assert open(os.path.join(path, "assets.extra", "data", "vocab.txt")).read() == "a\nb\n"


def test_export_errors_leave_nothing_behind(trained, tmp_path):
    with pytest.raises(TypeError, match="ServingInputReceiver"):
        trained.export_saved_model(str(tmp_path / "a"), lambda: {"x": 1})
    assert not os.listdir(tmp_path / "a") if os.path.exists(tmp_path / "a") else True
    with pytest.raises(ValueError, match="Could not find a checkpoint"):
        trained.export_saved_model(str(tmp_path / "b"), raw_fn(), checkpoint_path="/nope/ckpt")
    file_path = tmp_path / "file"
    file_path.write_text("x")
    with pytest.raises(ValueError, match="is a file"):
        trained.export_saved_model(str(file_path), raw_fn())

    def multi(features, labels, mode, params):
        spec = linear_model_fn(features, labels, mode, params)
        if mode == "infer":
            spec = spec._replace(export_outputs={
                "a": ec.export.PredictOutput({"y": spec.predictions["y"]}),
                "b": ec.export.RegressionOutput(spec.predictions["y"])})
        return spec
    est = ec.Estimator(multi, model_dir=trained.model_dir, params={})
    with pytest.raises(ValueError, match="none of them is specified as the default"):
        est.export_saved_model(str(tmp_path / "c"), raw_fn())
    leftovers = [d for d in os.listdir(tmp_path / "c")] if os.path.exists(tmp_path / "c") else []
    assert leftovers == []
    fresh = ec.Estimator(linear_model_fn, model_dir=str(tmp_path / "fresh"), params={})
    with pytest.raises(ValueError, match="Couldn't find trained model"):
        fresh.export_saved_model(str(tmp_path / "d"), raw_fn())


@pytest.mark.skipif(not os.path.isdir(FIXTURES), reason="no tf215 fixtures")
def test_export_from_a_tf_estimator_2_15_model_dir(tmp_path):
    sys.path.insert(0, FIXTURES)
    import model_fns
    model_dir = str(tmp_path / "m")
    shutil.copytree(os.path.join(FIXTURES, "tf1_mlp"), model_dir)
    est = ec.Estimator(model_fns.tf1_model_fn, model_dir=model_dir, params={})
    fn = ec.export.build_raw_serving_input_receiver_fn({"x": tf.zeros([1, 4])})
    path = est.export_saved_model(str(tmp_path / "e"), fn).decode()
    x, _ = model_fns.make_data(256, seed=1)
    out = tf.saved_model.load(path).signatures["serving_default"](x=tf.constant(x[:16]))
    want = json.load(open(os.path.join(FIXTURES, "expected.json")))
    assert out["classes"].numpy().tolist() == \
        want["fixtures"]["tf1_mlp"]["first_16_predicted_classes"]


def test_checkpoint_path_and_tensor_receiver(tmp_path):
    cfg = ec.RunConfig(model_dir=str(tmp_path / "m"), save_checkpoints_steps=5)

    def tensor_model_fn(features, labels, mode):
        return linear_model_fn({"x": features} if mode == "infer" else features, labels, mode,
                               {"lr": 0.1})
    est = ec.Estimator(tensor_model_fn, config=cfg)
    est.train(linear_input_fn(), steps=10)
    old = os.path.join(str(tmp_path / "m"), "model.ckpt-5")

    def tensor_receiver():
        x = v1.placeholder(tf.float32, [None, 3])
        return ec.export.TensorServingInputReceiver(x, {"x": x})
    path = est.export_saved_model(str(tmp_path / "e"), tensor_receiver, checkpoint_path=old)
    loaded = tf.saved_model.load(path.decode())
    w5 = tf.train.load_checkpoint(old).get_tensor("linear/w")
    b5 = tf.train.load_checkpoint(old).get_tensor("linear/b")
    x, _ = linear_data(3)
    np.testing.assert_allclose(loaded.signatures["serving_default"](x=tf.constant(x))["y"],
                               x @ w5 + b5, rtol=1e-5)


def test_failed_export_removes_its_staging_dir(trained, tmp_path):
    base = tmp_path / "e"
    with pytest.raises(Exception):
        trained.export_saved_model(str(base), raw_fn(),
                                   assets_extra={"x.txt": str(tmp_path / "missing.txt")})
    assert os.listdir(base) == []


def test_best_exporter_survives_a_restart(trained, tmp_path):
    model_dir = trained.model_dir
    from estimator_compat import summaries
    summaries.write_scalars(os.path.join(model_dir, "eval"), 100, {"loss": 0.5})
    export_path = str(tmp_path / "best")
    first = ec.BestExporter(serving_input_receiver_fn=raw_fn())
    assert first.export(trained, export_path, trained.latest_checkpoint(), {"loss": 0.9}, False)
    restarted = ec.BestExporter(serving_input_receiver_fn=raw_fn())  # a new process, say
    assert restarted.export(trained, export_path, trained.latest_checkpoint(), {"loss": 0.7},
                            False) is None  # 0.5 was seen before the restart
    assert restarted.export(trained, export_path, trained.latest_checkpoint(), {"loss": 0.4},
                            False) is not None
    assert len(os.listdir(export_path)) == 2


def test_export_all_modes_train_eval_predict(trained, tmp_path):
    x, y = linear_data(6)
    supervised = ec.export.build_raw_supervised_input_receiver_fn(
        {"x": tf.zeros([1, 3])}, tf.zeros([1, 1]))
    path = trained.experimental_export_all_saved_models(str(tmp_path), {
        "train": supervised, "eval": supervised, "infer": raw_fn()}).decode()
    with tf.Graph().as_default(), v1.Session() as sess:
        meta = v1.saved_model.loader.load(sess, ["eval"], path)
        sig = meta.signature_def["eval"]
        assert sig.method_name == "tensorflow/supervised/eval"
        feeds = {sig.inputs["x"].name: x, sig.inputs["label"].name: y}
        loss = sess.run(sig.outputs["loss"].name, feeds)
    pred = predict_y(trained, x)
    assert loss == pytest.approx(np.mean((pred - y) ** 2), rel=1e-5)
    with tf.Graph().as_default() as graph, v1.Session() as sess:
        meta = v1.saved_model.loader.load(sess, ["train"], path)
        assert "train" in meta.signature_def
        # each variable listed once, so the train op applies each gradient once
        names = [v.op.name for v in v1.trainable_variables()]
        assert sorted(names) == sorted(set(names)), names
        applies = [op for op in graph.get_operations() if op.type.startswith("ResourceApply")]
        assert len(applies) == len(names)
    with tf.Graph().as_default(), v1.Session() as sess:
        meta = v1.saved_model.loader.load(sess, ["serve"], path)
        sig = meta.signature_def["serving_default"]
        np.testing.assert_allclose(sess.run(sig.outputs["y"].name, {sig.inputs["x"].name: x}),
                                   pred, rtol=1e-6)
    eval_only = trained.export_saved_model(str(tmp_path / "e"), supervised,
                                           experimental_mode="eval").decode()
    loaded = tf.saved_model.load(eval_only, tags=["eval"])
    assert "eval" in loaded.signatures


def test_export_all_modes_of_a_model_without_labels(tmp_path):
    """tf.estimator 2.15 exported TRAIN / EVAL of a label-free model_fn from an
    UnsupervisedInputReceiver (labels None)."""
    from estimator_compat.export.supervised_receivers import UnsupervisedInputReceiver

    def model_fn(features, labels, mode):
        assert labels is None
        w = v1.get_variable("w", [3, 1], initializer=v1.zeros_initializer())
        loss = tf.reduce_mean(tf.square(tf.matmul(features["x"], w) - 1.0))
        train_op = v1.train.GradientDescentOptimizer(0.1).minimize(
            loss, global_step=v1.train.get_or_create_global_step())
        return ec.EstimatorSpec(mode, loss=loss, train_op=train_op)
    est = ec.Estimator(model_fn, model_dir=str(tmp_path / "model"))
    x, _ = linear_data(4)
    est.train(lambda: tf.data.Dataset.from_tensor_slices({"x": x}).batch(4), steps=1)

    def receiver():
        p = v1.placeholder(tf.float32, [None, 3], name="x")
        return UnsupervisedInputReceiver({"x": p}, {"x": p})
    path = est.experimental_export_all_saved_models(str(tmp_path / "export"),
                                                    {"train": receiver}).decode()
    with tf.Graph().as_default(), v1.Session() as sess:
        meta = v1.saved_model.loader.load(sess, ["train"], path)
        assert set(meta.signature_def["train"].inputs) == {"x"}
