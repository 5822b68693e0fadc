"""tf.contrib.learn: learn_runner.run, Experiment schedules, HParams, the contrib.learn
Estimator (ModelFnOps, MetricSpec), its canned estimators, export strategies, datasets."""
import gzip
import json
import os
import struct

import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from estimator_compat.learn import Experiment, HParams, RunConfig, learn_runner
from estimator_compat.learn import datasets, estimator as contrib, model_fn_ops
from estimator_compat.learn.export_strategy import (InputFnOps, build_parsing_serving_input_fn,
                                                     make_export_strategy)
from estimator_compat.experimental import read_eval_metrics
from helpers import linear_data, linear_input_fn, linear_model_fn

v1 = tf.compat.v1


def experiment_fn(run_config, hparams):
    est = ec.Estimator(linear_model_fn, config=run_config, params=hparams.values())
    return Experiment(estimator=est, train_input_fn=linear_input_fn(),
                      eval_input_fn=linear_input_fn(repeat=False), train_steps=hparams.steps,
                      min_eval_frequency=10, eval_steps=None)


def test_seed_style_learn_runner_local(tmp_path, monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    config = RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=10)
    params = HParams(lr=0.1, steps=30)
    result, exports = learn_runner.run(experiment_fn=experiment_fn, run_config=config,
                                       hparams=params)
    assert result["global_step"] == 30 and exports == []
    # TF 1.15 evaluated at 10 and 30: its ValidationMonitor skips step 20 unless
    # check_interval_secs (5 s) passed since step 10's evaluation began
    steps = sorted(read_eval_metrics(os.path.join(str(tmp_path), "eval")))
    assert steps[0] == 10 and steps[-1] == 30 and set(steps) <= {10, 20, 30}


def test_schedules_and_errors(tmp_path, monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    config = RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=5)
    params = HParams(lr=0.1, steps=10)
    est = learn_runner.run(experiment_fn, schedule="train", run_config=config, hparams=params)
    assert est.get_variable_value("global_step") == 10
    res = learn_runner.run(experiment_fn, schedule="test", run_config=config, hparams=params)
    assert res["global_step"] == 11
    with pytest.raises(ValueError, match="non-existent task 'fly'.*train_and_evaluate"):
        learn_runner.run(experiment_fn, schedule="fly", run_config=config, hparams=params)
    with pytest.raises(TypeError, match="did not return an Experiment"):
        learn_runner.run(lambda run_config, hparams: "x", run_config=config, hparams=params)
    other = RunConfig(model_dir=str(tmp_path / "other"), save_checkpoints_steps=5)
    with pytest.raises(ValueError, match="expected to be used by the `Estimator`"):
        learn_runner.run(lambda rc, hp: experiment_fn(other, hp), run_config=config,
                         hparams=params)


def test_experiment_methods(tmp_path):
    config = RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=5)
    est = ec.Estimator(linear_model_fn, config=config, params={})
    exp = Experiment(est, linear_input_fn(), linear_input_fn(repeat=False), train_steps=15,
                     eval_steps=2, train_steps_per_iteration=5,
                     export_strategies=[ec.LatestExporter(
                         "latest", ec.export.build_raw_serving_input_receiver_fn(
                             {"x": tf.zeros([1, 3])}))])
    assert exp.train_steps == 15 and exp.eval_steps == 2 and exp.estimator is est
    seen = []
    result, exports = exp.continuous_train_and_eval(
        continuous_eval_predicate_fn=lambda r: seen.append(r["global_step"]) or True)
    assert seen == [5, 10, 15] and result["global_step"] == 15 and exports[0]
    assert exp.evaluate(delay_secs=0)["global_step"] == 15
    assert exp.continuous_eval(delay_secs=0, throttle_delay_secs=0)["global_step"] == 15
    exp.extend_train_hooks([ec.StopAtStepHook(num_steps=1)])
    old = exp.reset_export_strategies()
    assert len(old) == 1 and len(exp._train_monitors) == 1


def test_run_std_server_starts_a_real_server(tmp_path, monkeypatch):
    import socket
    with socket.socket() as s:
        s.bind(("localhost", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"chief": ["localhost:1"], "ps": [f"localhost:{port}"]},
        "task": {"type": "ps", "index": 0}}))
    config = RunConfig(model_dir=str(tmp_path))
    assert learn_runner._default_schedule(config) == "run_std_server"
    est = ec.Estimator(linear_model_fn, config=config, params={})
    server = Experiment(est, linear_input_fn(), linear_input_fn())._start_server()
    assert server.target == f"grpc://localhost:{port}"
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"chief": ["h:1"], "worker": ["h:2"]}, "task": {"type": "worker", "index": 0}}))
    assert learn_runner._default_schedule(RunConfig()) == "train"


def test_hparams():
    hp = HParams(learning_rate=0.1, layers=[64, 32], name="mlp", use_bn=False, steps=10)
    hp.parse("learning_rate=0.3,layers=[16,8,4],use_bn=true,steps=20")
    assert hp.learning_rate == 0.3 and hp.layers == [16, 8, 4] and hp.use_bn is True
    assert hp.steps == 20 and hp.name == "mlp"
    with pytest.raises(ValueError, match="Unknown hyperparameter"):
        hp.parse("nope=1")
    with pytest.raises(ValueError, match="Could not cast"):
        hp.parse("steps=1.5")
    hp.add_hparam("dropout", 0.5)
    with pytest.raises(ValueError, match="reserved"):
        hp.add_hparam("dropout", 0.1)
    hp.set_hparam("dropout", 1)
    assert hp.dropout == 1.0 and isinstance(hp.dropout, float)
    hp.override_from_dict({"name": "cnn"})
    assert json.loads(hp.to_json())["name"] == "cnn"
    assert hp.values()["layers"] == [16, 8, 4] and "steps" in hp and hp.get("x", 3) == 3
    hp.del_hparam("dropout")
    assert "dropout" not in hp


def test_contrib_learn_after_install():
    ec.install()
    from tensorflow.contrib.learn.python.learn import learn_runner as lr
    assert lr.run is learn_runner.run
    assert tf.contrib.learn.Experiment is Experiment
    assert tf.contrib.training.HParams is HParams
    assert tf.contrib.learn.RunConfig is RunConfig


def contrib_model_fn(features, targets, mode, params):
    """contrib.learn's style: targets by position, ModelFnOps, INFER mode."""
    w = v1.get_variable("w", [3, 1], initializer=v1.zeros_initializer())
    pred = tf.matmul(features["x"], w)
    if mode == model_fn_ops.ModeKeys.INFER:
        return model_fn_ops.ModelFnOps(mode, predictions={"y": pred})
    loss = tf.reduce_mean(tf.square(pred - targets))
    train_op = v1.train.GradientDescentOptimizer(params["lr"]).minimize(
        loss, global_step=v1.train.get_global_step())
    return model_fn_ops.ModelFnOps(mode, predictions={"y": pred}, loss=loss, train_op=train_op)


def test_contrib_estimator_model_fn_ops_and_metric_specs(tmp_path):
    est = contrib.Estimator(contrib_model_fn, str(tmp_path), params={"lr": 0.1})
    est.fit(input_fn=linear_input_fn(), steps=150)
    metrics = {"rmse": model_fn_ops.MetricSpec(v1.metrics.root_mean_squared_error),
               ("mae", "y"): v1.metrics.mean_absolute_error}
    result = est.evaluate(input_fn=linear_input_fn(repeat=False), metrics=metrics)
    assert result["global_step"] == 150 and result["rmse"] < 0.4 and result["mae"] < 0.4
    assert "rmse" not in est.evaluate(input_fn=linear_input_fn(repeat=False))  # per call
    x, _ = linear_data()
    preds = est.predict(input_fn=linear_input_fn(repeat=False), as_iterable=False)
    np.testing.assert_allclose(preds["y"], x @ est.get_variable_value("w"), rtol=1e-4, atol=1e-5)
    assert est.params == {"lr": 0.1}


def test_contrib_evaluate_feed_fn_feeds_the_input_fn_placeholders(tmp_path):
    """evaluate(input_fn=<placeholders>, feed_fn=f, steps=n): f's feed for each step (TF 1.15
    added a FeedFnHook(feed_fn) to the hooks)."""
    est = contrib.Estimator(contrib_model_fn, str(tmp_path), params={"lr": 0.1})
    est.fit(input_fn=linear_input_fn(), steps=150)
    x, y = linear_data()
    holders = {}

    def input_fn():
        holders["x"] = v1.placeholder(tf.float32, [None, x.shape[1]], name="x")
        holders["y"] = v1.placeholder(tf.float32, [None] + list(y.shape[1:]), name="y")
        return {"x": holders["x"]}, holders["y"]
    calls = []

    def feed_fn():
        calls.append(len(calls))
        return {holders["x"]: x[:16], holders["y"]: y[:16] + (5.0 if len(calls) == 3 else 0.0)}
    metrics = {"mae": model_fn_ops.MetricSpec(v1.metrics.mean_absolute_error, "y")}
    one = est.evaluate(input_fn=input_fn, feed_fn=feed_fn, steps=1, metrics=metrics)
    assert one["mae"] < 0.4 and calls == [0]
    two = est.evaluate(input_fn=input_fn, feed_fn=feed_fn, steps=2, metrics=metrics)
    assert calls == [0, 1, 2] and 2.0 < two["mae"] < 3.0  # the second step's labels off by 5


@pytest.mark.parametrize("order", ["mode_first", "tuple_result"])
def test_contrib_model_fn_forms(tmp_path, order):
    """Arguments in another order (by name), or (predictions, loss, train_op) returned."""
    if order == "mode_first":
        def model_fn(mode, features, labels):
            return contrib_model_fn(features, labels, mode, {"lr": 0.1})
    else:
        def model_fn(features, labels):
            spec = contrib_model_fn(features, labels, model_fn_ops.ModeKeys.TRAIN, {"lr": 0.1})
            return spec.predictions, spec.loss, spec.train_op
    est = contrib.Estimator(model_fn, str(tmp_path))
    est.fit(input_fn=linear_input_fn(), steps=20)
    assert est.get_variable_value("global_step") == 20


def test_contrib_canned_classifier_predicts_classes_and_exports_by_strategy(tmp_path):
    x, y = linear_data()
    labels = (y[:, 0] > 0.3).astype(np.int64)

    def input_fn(repeat=True):
        def fn():
            ds = tf.data.Dataset.from_tensor_slices(({"x": x}, labels))
            return (ds.repeat() if repeat else ds).batch(32)
        return fn
    column = tf.feature_column.numeric_column("x", shape=3)
    est = contrib.DNNLinearCombinedClassifier(
        model_dir=str(tmp_path), linear_feature_columns=[column],
        dnn_feature_columns=[column], dnn_hidden_units=[8],
        config=RunConfig(save_checkpoints_steps=20))

    serving_input_fn = build_parsing_serving_input_fn(
        tf.compat.v1.feature_column.make_parse_example_spec([column]))
    experiment = Experiment(est, input_fn(), input_fn(False), train_steps=60,
                            min_eval_frequency=20, export_strategies=make_export_strategy(
                                serving_input_fn, exports_to_keep=2))
    result, exports = experiment.train_and_evaluate()
    assert result["accuracy"] > 0.9 and len(exports) == 1  # the last evaluation's
    # TF 1.15 exported once, after the final evaluation (its ValidationMonitor only evaluates)
    assert len(os.listdir(tmp_path / "export" / "Servo")) == 1
    served = tf.saved_model.load(exports[0].decode() if isinstance(exports[0], bytes)
                                 else exports[0]).signatures
    assert sorted(served) == ["default_input_alternative:None", "serving_default"]
    assert served["serving_default"].structured_outputs["classes"].dtype == tf.string

    def float_serving_input_fn():  # one float input: TF 1.15's classify signature refused it
        placeholder = v1.placeholder(tf.float32, [None, 3])
        return InputFnOps({"x": placeholder}, None, {"x": placeholder})
    with pytest.raises(ValueError, match="Classification examples must be a string Tensor"):
        est.export_savedmodel(str(tmp_path / "float"), float_serving_input_fn)
    classes = list(est.predict(input_fn=input_fn(False)))
    assert len(classes) == 256 and set(np.unique(classes)) <= {0, 1}
    assert np.mean(np.array(classes) == labels) > 0.9
    probabilities = est.predict_proba(input_fn=input_fn(False), as_iterable=False)
    assert probabilities.shape == (256, 2)
    # TF 1.15 served _joint_weight (its record: tests/tf115_cases/contrib_learn_canned_columns.py)
    assert isinstance(contrib.LinearClassifier([column], _joint_weight=True),
                      contrib.LinearClassifier)
    # numpy x as TF 1.15 ran it: a dict of arrays is the features dict
    est.fit(x={"x": x}, y=labels, steps=5, batch_size=64)
    # two global steps a step (no fix_global_step_increment_bug), StopAtStepHook's reckoning:
    # TF 1.15.5 ended max_steps=60 at 62, then steps=5 at 68
    assert est.get_variable_value("global_step") == 68
    assert est.evaluate(x={"x": x}, y=labels)["accuracy"] > 0.9
    with pytest.raises(ValueError, match="either x .* or input_fn"):
        est.fit(x=x, y=labels, input_fn=input_fn(), steps=1)


def test_mnist_read_data_sets_from_idx_files(tmp_path):
    """MNIST's gzipped IDX files, read as TF 1.x's input_data did; a missing file that cannot
    be downloaded names the files to put there."""
    rng = np.random.RandomState(0)
    for name, shape in (("train-images-idx3-ubyte", (60, 28, 28)), ("train-labels-idx1-ubyte", (60,)),
                        ("t10k-images-idx3-ubyte", (10, 28, 28)), ("t10k-labels-idx1-ubyte", (10,))):
        data = rng.randint(0, 10 if "labels" in name else 256, size=shape).astype(np.uint8)
        header = struct.pack(">I", 0x0800 | len(shape)) + b"".join(struct.pack(">I", d) for d in shape)
        with gzip.open(tmp_path / (name + ".gz"), "wb") as f:
            f.write(header + data.tobytes())
    mnist = datasets.read_data_sets(str(tmp_path), one_hot=True, validation_size=20)
    assert mnist.train.images.shape == (40, 784) and mnist.validation.num_examples == 20
    assert mnist.test.labels.shape == (10, 10) and mnist.train.images.max() <= 1.0
    images, labels = mnist.train.next_batch(30)
    images, labels = mnist.train.next_batch(30)  # crosses the epoch
    assert images.shape == (30, 784) and mnist.train.epochs_completed == 1
    with pytest.raises(FileNotFoundError, match="Put the four files"):
        datasets.read_data_sets(str(tmp_path / "empty"), source_url="file:///nonexistent/")


def test_mnist_fake_data_as_tf115():
    """`read_data_sets(dir, fake_data=True)` (the tutorials' --fake_data) reads no file: three
    DataSets of 10,000 made-up examples, `next_batch(n, True)` lists of all-ones images and
    class 0 (one-hot `[1, 0, ...]` with one_hot=True), `images` / `labels` empty, as TF 1.15.5
    gave; DataSet's arguments in TF 1.15's order (`fake_data` third)."""
    mnist = datasets.read_data_sets("/nonexistent/MNIST_data", True)
    assert type(mnist).__name__ == "Datasets" and mnist.train.num_examples == 10000
    images, labels = mnist.test.next_batch(2, True)
    assert isinstance(images, list) and len(images[0]) == 784 and set(images[1]) == {1}
    assert labels == [0, 0] and mnist.train.images == [] and mnist.train.labels == []
    hot = datasets.read_data_sets("/nonexistent", fake_data=True, one_hot=True)
    assert hot.validation.next_batch(1, fake_data=True)[1] == [[1] + [0] * 9]
    with pytest.raises(ValueError, match="fake_data=True"):
        hot.train.next_batch(5)
    positional = datasets.DataSet([], [], True, True)
    assert positional.num_examples == 10000 and positional.one_hot


def test_weighted_head_trains_on_the_batch_mean_and_writes_the_normalised_loss():
    """TF 1.15, regression_head(weight_column_name="w") on logits 0, labels [1, 2], weights
    [1, 3]: ModelFnOps.loss 6.5 (the weighted losses' mean over the batch, what train_op_fn
    minimises) and the `loss` summary 3.25 (normalised by the weights' sum)."""
    from estimator_compat.learn import heads
    with tf.Graph().as_default():
        ops = heads.regression_head(weight_column_name="w").create_model_fn_ops(
            {"w": tf.constant([[1.0], [3.0]])}, "train", labels=tf.constant([[1.0], [2.0]]),
            train_op_fn=lambda loss: tf.no_op(), logits=tf.zeros([2, 1]))
        summary = tf.compat.v1.summary.merge_all()
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.local_variables_initializer())
            loss, written = session.run([ops.loss, summary])
    assert loss == pytest.approx(6.5)
    assert tf.compat.v1.Summary.FromString(written).value[0].simple_value == pytest.approx(3.25)


def test_two_output_alternatives_predict_and_export_as_tf115(tmp_path):
    """TF 1.15: a model with two output alternatives predicts, and exports only given
    default_output_alternative_key (each alternative as `default_input_alternative:<key>`,
    the default again as serving_default); without it the export is its ValueError."""
    x = np.random.RandomState(0).randn(8, 2).astype(np.float32)

    def model_fn(features, labels, mode):
        w = v1.get_variable("w", [2, 1])
        out = tf.matmul(features["x"], w)
        loss = None if labels is None else tf.reduce_mean(tf.square(out - labels))
        train = None if labels is None else v1.train.GradientDescentOptimizer(0.1).minimize(
            loss, v1.train.get_global_step())
        return model_fn_ops.ModelFnOps(
            mode, predictions={"a": out, "b": 2 * out}, loss=loss, train_op=train,
            output_alternatives={"a": (model_fn_ops.ProblemType.UNSPECIFIED, {"a": out}),
                                 "b": (model_fn_ops.ProblemType.UNSPECIFIED, {"b": 2 * out})})
    est = contrib.Estimator(model_fn, model_dir=str(tmp_path / "m"))
    data = lambda: ({"x": tf.constant(x)}, tf.constant(x[:, :1]))  # noqa: E731
    est.fit(input_fn=data, steps=2)
    assert len(list(est.predict(input_fn=lambda: {"x": tf.constant(x)}))) == 8

    def serving():
        placeholder = v1.placeholder(tf.float32, [None, 2])
        return InputFnOps({"x": placeholder}, None, {"x": placeholder})
    with pytest.raises(ValueError, match="Please specify a default_output_alternative"):
        est.export_savedmodel(str(tmp_path / "export"), serving)
    path = est.export_savedmodel(str(tmp_path / "export"), serving,
                                 default_output_alternative_key="b")
    served = tf.saved_model.load(path.decode() if isinstance(path, bytes) else path).signatures
    assert sorted(served) == ["default_input_alternative:a", "default_input_alternative:b",
                              "serving_default"]
    assert set(served["serving_default"].structured_outputs) == {"b"}
