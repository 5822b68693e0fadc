"""The Head API in a user's own model_fn (as tf.estimator 2.15's docs wrote it), Keras and
compat.v1 optimizers given to heads and canned estimators, the canned models' summaries."""
import glob

import numpy as np
import pytest
import tensorflow as tf
from tensorboard.backend.event_processing import event_file_loader

import estimator_compat as ec
from estimator_compat.legacy import estimator_v1 as compat_v1
from helpers import read_events

v1 = tf.compat.v1
rng = np.random.RandomState(0)
X = rng.normal(size=(96, 2)).astype(np.float32)
Y = (X[:, 0] + X[:, 1] > 0).astype(np.int64)
COLS = [tf.feature_column.numeric_column("a"), tf.feature_column.numeric_column("b")]


def input_fn(repeat=True, labels=Y):
    def fn():
        data = tf.data.Dataset.from_tensor_slices(({"a": X[:, 0], "b": X[:, 1]}, labels))
        return (data.repeat() if repeat else data).batch(32)
    return fn


def head_model_fn(features, labels, mode, params):
    head = params["head"]
    net = v1.feature_column.input_layer(features, COLS)
    logits = v1.layers.dense(net, head.logits_dimension, name="logits")
    if mode == ec.ModeKeys.EVAL and params.get("keras_metrics"):
        metrics = head.metrics()
        metrics = head.update_metrics(metrics, features, logits, labels)
        return ec.EstimatorSpec(mode, loss=head.loss(labels, logits, features),
                                eval_metric_ops=metrics,
                                predictions=head.predictions(logits, ["probabilities"]))
    return head.create_estimator_spec(
        features, mode, logits, labels, optimizer=tf.keras.optimizers.Adam(0.05),
        trainable_variables=v1.trainable_variables())


def test_head_api_in_a_model_fn(tmp_path):
    head = ec.BinaryClassHead(thresholds=[0.5])
    est = ec.Estimator(head_model_fn, str(tmp_path), params={"head": head})
    est.train(input_fn(), steps=60)
    spec_metrics = est.evaluate(input_fn(False))
    assert spec_metrics["accuracy"] > 0.9
    keras_est = ec.Estimator(head_model_fn, str(tmp_path),
                             params={"head": head, "keras_metrics": True})
    keras_metrics = keras_est.evaluate(input_fn(False))
    # head.metrics()/update_metrics() (Keras objects) and create_estimator_spec (compat.v1
    # metrics) report the same keys and values
    assert set(keras_metrics) == set(spec_metrics)
    for key in ("accuracy", "average_loss", "precision", "recall", "accuracy_baseline",
                "label/mean", "prediction/mean", "accuracy/positive_threshold_0.5"):
        assert keras_metrics[key] == pytest.approx(spec_metrics[key], abs=1e-4), key
    assert keras_metrics["auc"] == pytest.approx(spec_metrics["auc"], abs=0.01)
    names = set(est.get_variable_names())
    assert {"logits/kernel/Adam", "logits/kernel/Adam_1", "head/beta1_power"} <= names
    assert not any(n.startswith("adam/") for n in names)  # the Keras optimizer's own: unsaved


def test_prediction_keys_in_tfs_order():
    """A binary head's predictions keyed in TF 1.15 / 2.15's order (a DataFrame built from
    predict()'s dicts has its columns in this order)."""
    logits = tf.constant([[0.5], [-1.0]])
    assert list(ec.BinaryClassHead().predictions(logits)) == [
        "logits", "logistic", "probabilities", "class_ids", "classes", "all_class_ids",
        "all_classes"]
    assert list(ec.MultiClassHead(3).predictions(tf.zeros([2, 3]))) == [
        "logits", "probabilities", "class_ids", "classes", "all_class_ids", "all_classes"]


def test_head_methods_and_errors():
    head = ec.MultiClassHead(3, name="species")
    logits = tf.constant([[1.0, 2.0, 0.5], [3.0, 0.0, 0.0]])
    assert set(head.predictions(logits, ["class_ids"])) == {"class_ids"}
    with pytest.raises(ValueError, match="not among the predictions"):
        head.predictions(logits, ["logistic"])
    loss = head.loss(tf.constant([[1], [0]]), logits)
    want = np.mean(-np.log(tf.nn.softmax(logits).numpy()[[0, 1], [1, 0]]))
    assert float(loss) == pytest.approx(want, rel=1e-5)
    assert set(head.metrics(regularization_losses=[tf.constant(1.0)])) == {
        "accuracy/species", "average_loss/species", "regularization_loss/species"}
    summed = ec.MultiClassHead(3, loss_reduction="sum")
    assert float(summed.loss(tf.constant([[1], [0]]), logits)) == pytest.approx(2 * want)
    custom = ec.RegressionHead(loss_fn=lambda labels, logits: tf.abs(labels - logits))
    assert float(custom.loss(tf.constant([[1.0], [3.0]]), tf.constant([[0.0], [0.0]]))) == 2.0
    with pytest.raises(ValueError, match="loss_fn must contain argument: logits"):
        ec.RegressionHead(loss_fn=lambda labels, preds: preds)
    with pytest.raises(ValueError, match=r"thresholds not in \(0, 1\)"):
        ec.BinaryClassHead(thresholds=[1.5])
    with pytest.raises(ValueError, match="Invalid loss_reduction"):
        ec.RegressionHead(loss_reduction="none")
    with pytest.raises(ValueError, match="must have name specified"):
        ec.MultiHead([ec.RegressionHead()])
    with pytest.raises(ValueError, match="classes_for_class_based_metrics"):
        ec.MultiLabelHead(3, classes_for_class_based_metrics=[5])
    weighted = ec.RegressionHead(label_dimension=2, weight_column="w")
    loss = weighted.loss(tf.ones([2, 2]), tf.zeros([2, 2]),
                         features={"w": tf.constant([1.0, 3.0])})
    assert float(loss) == pytest.approx(2.0)  # (1 + 1 + 3 + 3) / 4 elements


def test_keras_and_v1_optimizers_in_canned_estimators(tmp_path):
    schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)
    cases = {"adam_schedule": tf.keras.optimizers.Adam(schedule),
             "sgd_clipped": lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9, clipnorm=1.0),
             "rmsprop": tf.keras.optimizers.RMSprop(0.01, global_clipnorm=1.0),
             "ftrl": tf.keras.optimizers.Ftrl(0.1),
             "v1_proximal": v1.train.ProximalAdagradOptimizer(0.1)}
    # a Keras optimizer's slots under 2.15's Keras names; a compat.v1 one's under its own
    slots = {"adam_schedule": "training/Adam/dnn/logits/kernel/m",
             "sgd_clipped": "training/SGD/dnn/logits/kernel/momentum",
             "rmsprop": "training/RMSprop/dnn/logits/kernel/rms",
             "ftrl": "training/Ftrl/dnn/logits/kernel/accumulator",
             "v1_proximal": "dnn/logits/kernel/ProximalAdagrad"}
    for name, optimizer in cases.items():
        est = ec.DNNClassifier([4], COLS, optimizer=optimizer,
                               config=ec.RunConfig(str(tmp_path / name), tf_random_seed=0))
        est.train(input_fn(), steps=40)
        assert est.evaluate(input_fn(False))["accuracy"] > 0.8, name
        assert slots[name] in est.get_variable_names(), name
    with pytest.raises(ValueError, match="Keras optimizer Lion is not supported"):
        ec.DNNClassifier([4], COLS, optimizer=tf.keras.optimizers.Lion(),
                         model_dir=str(tmp_path / "lion")).train(input_fn(), steps=1)
    with pytest.raises(ValueError, match="not an Optimizer instance"):
        ec.DNNClassifier([4], COLS, optimizer=object(),
                         model_dir=str(tmp_path / "obj")).train(input_fn(), steps=1)
    with pytest.raises(ValueError, match=r"Adam\(weight_decay=0.004\) is not supported"):
        ec.LinearClassifier(COLS, optimizer=tf.keras.optimizers.Adam(weight_decay=0.004),
                            model_dir=str(tmp_path / "wd")).train(input_fn(), steps=1)


def test_canned_summaries_and_v1_loss_reduction(tmp_path):
    est = ec.DNNLinearCombinedClassifier(
        str(tmp_path / "wd"), linear_feature_columns=COLS, dnn_feature_columns=COLS,
        dnn_hidden_units=[4], config=ec.RunConfig(save_summary_steps=10))
    est.train(input_fn(), steps=20)
    tags = set(read_events(str(tmp_path / "wd")))
    # the scalar tags tf.estimator 2.15 wrote for the same model (histograms too, not read here)
    assert {"loss", "bias", "fraction_of_zero_weights", "linear/fraction_of_zero_values",
            "dnn/hiddenlayer_0/fraction_of_zero_values",
            "dnn/logits/fraction_of_zero_values"} <= tags
    v2 = ec.LinearClassifier(COLS, model_dir=str(tmp_path / "v2"))
    old = compat_v1.LinearClassifier(COLS, model_dir=str(tmp_path / "v1"), partitioner=None)
    for est in (v2, old):
        est.train(input_fn(), steps=1)
    mean_loss = v2.evaluate(input_fn(False))
    summed = old.evaluate(input_fn(False))
    # tf.compat.v1.estimator sums the loss over each batch of 32 (V2: the batch mean)
    assert mean_loss["loss"] == pytest.approx(mean_loss["average_loss"], rel=1e-5)
    assert summed["loss"] == pytest.approx(32 * summed["average_loss"], rel=1e-5)


def _histograms(logdir, tag):
    """{step: number of values} of the `tag` histograms in logdir's event files (read back
    as TensorBoard does: [left, right, count] buckets)."""
    out = {}
    for path in glob.glob(str(logdir / "events.out.tfevents.*")):
        for event in event_file_loader.EventFileLoader(path).Load():
            out.update({event.step: int(tf.make_ndarray(v.tensor)[:, 2].sum())
                        for v in event.summary.value if v.tag == tag})
    return out


def test_costly_summaries_are_real_where_written_or_fetched(tmp_path):
    """Activation histograms and zero fractions run only on the steps that write them; what
    is written, and what a hook fetches on any other step, is the real summary."""
    class FetchMerged(ec.SessionRunHook):
        def begin(self):
            self.merged, self.seen = v1.summary.merge_all(), []

        def before_run(self, run_context):
            return ec.SessionRunArgs(self.merged)

        def after_run(self, run_context, run_values):
            summary = tf.compat.v1.Summary.FromString(run_values.results)
            self.seen.append({v.tag: v.histo.num if v.HasField("histo") else v.simple_value
                              for v in summary.value})

    est = ec.DNNLinearCombinedClassifier(
        str(tmp_path), linear_feature_columns=COLS, dnn_feature_columns=COLS,
        dnn_hidden_units=[4], config=ec.RunConfig(save_summary_steps=5))
    est.train(input_fn(), steps=12)
    written = _histograms(tmp_path, "dnn/hiddenlayer_0/activation")
    assert written == {1: 32 * 4, 6: 32 * 4, 11: 32 * 4}
    events = read_events(str(tmp_path))
    assert events["fraction_of_zero_weights"][0] == (1, 1.0)  # Ftrl starts from zeros
    relu_zeros = events["dnn/hiddenlayer_0/fraction_of_zero_values"]  # about half, not 0.0
    assert [s for s, _ in relu_zeros] == [1, 6, 11] and all(0 < z < 1 for _, z in relu_zeros)
    hook = FetchMerged()
    est.train(input_fn(), steps=3, hooks=[hook])
    assert len(hook.seen) == 3  # steps 12, 13, 14: written or not, fetched
    for values in hook.seen:
        assert values["dnn/hiddenlayer_0/activation"] == 32 * 4
        assert 0 < values["dnn/hiddenlayer_0/fraction_of_zero_values"] < 1


def test_logit_fn_builders_in_a_custom_model_fn(tmp_path):
    ec.install()
    experimental = tf.compat.v1.estimator.experimental
    head = ec.BinaryClassHead()
    dnn = experimental.dnn_logit_fn_builder(1, [4], COLS, tf.nn.relu, None)
    linear = experimental.linear_logit_fn_builder(1, COLS)

    def model_fn(features, labels, mode, config):
        logits = (experimental.call_logit_fn(dnn, features, mode, None, config)
                  + linear(features))
        return head.create_estimator_spec(features, mode, logits, labels,
                                          optimizer=v1.train.AdagradOptimizer(0.1))
    est = ec.Estimator(model_fn, str(tmp_path))
    est.train(input_fn(), steps=40)
    assert est.evaluate(input_fn(False))["accuracy"] > 0.8
    # tf.estimator 2.15: in the model_fn's own scope, without the canned models' dnn/, linear/
    assert {"hiddenlayer_0/kernel", "logits/bias", "linear_model/a/weights",
            "linear_model/bias_weights"} <= set(est.get_variable_names())
    assert not [n for n in est.get_variable_names() if n.startswith(("dnn/", "linear/"))]
    with pytest.raises(ValueError, match="should return a Tensor or a dictionary"):
        experimental.call_logit_fn(lambda features: [1], {}, "train", None, None)


def test_private_v2_logit_fn_builders_name_variables_as_tf_estimator_2_15():
    """TF 2.15's canned.dnn.dnn_logit_fn_builder_v2 kept `dnn/`, its linear_logit_fn_builder_v2
    did not open `linear/` (recorded: dnn/hiddenlayer_0/kernel, linear_model/x/weights)."""
    ec.install()
    from tensorflow_estimator.python.estimator.canned import dnn, linear
    with tf.Graph().as_default():
        features = {"x": tf.ones([2, 3])}
        columns = [tf.feature_column.numeric_column("x", shape=[3])]
        dnn.dnn_logit_fn_builder_v2(2, [4], columns, tf.nn.relu, None, False)(features, "train")
        linear.linear_logit_fn_builder_v2(2, columns)(features)
        names = {v.op.name for v in v1.global_variables()}
    assert names == {"dnn/hiddenlayer_0/kernel", "dnn/hiddenlayer_0/bias", "dnn/logits/kernel",
                     "dnn/logits/bias", "linear_model/x/weights", "linear_model/bias_weights"}


def test_regression_head_loss_is_on_the_logits_whatever_the_link():
    """tf.estimator 2.15: RegressionHead(inverse_link_fn=tf.exp) on logits 0.1, label 1 gives
    loss and average_loss 0.81 (the squared error of the logits) and prediction/mean
    exp(0.1) = 1.10517."""
    head = ec.RegressionHead(inverse_link_fn=tf.exp)
    logits, labels = tf.constant([[0.1]]), tf.constant([[1.0]])
    np.testing.assert_allclose(float(head.loss(labels=labels, logits=logits, features={})),
                               0.81, rtol=1e-6)
    metrics = head.update_metrics(head.metrics(), features={}, logits=logits, labels=labels)
    np.testing.assert_allclose(float(metrics["average_loss"].result()), 0.81, rtol=1e-6)
    np.testing.assert_allclose(float(metrics["prediction/mean"].result()), 1.1051710, rtol=1e-6)
