"""TF1-style (compat.v1 layers, batch norm UPDATE_OPS, Adam) and Keras-style model_fns."""
import numpy as np
import tensorflow as tf
import keras

import estimator_compat as ec

v1 = tf.compat.v1


def image_input_fn(n=64, batch=16, repeat=True):
    def input_fn():
        rng = np.random.RandomState(0)
        x = rng.uniform(size=(n, 8, 8, 1)).astype(np.float32)
        y = (x.mean(axis=(1, 2, 3)) > 0.5).astype(np.int32)
        ds = tf.data.Dataset.from_tensor_slices(({"image": x}, y))
        return (ds.repeat() if repeat else ds).batch(batch)
    return input_fn


def tf1_cnn_model_fn(features, labels, mode, params):
    training = mode == ec.ModeKeys.TRAIN
    net = v1.layers.conv2d(features["image"], 4, 3, padding="same", activation=tf.nn.relu)
    net = v1.layers.batch_normalization(net, training=training)
    net = v1.layers.max_pooling2d(net, 2, 2)
    net = v1.layers.flatten(net)
    net = v1.layers.dropout(net, rate=0.1, training=training)
    logits = v1.layers.dense(net, 2)
    if mode == ec.ModeKeys.PREDICT:
        return ec.EstimatorSpec(mode, predictions={"classes": tf.argmax(logits, 1)})
    loss = v1.losses.sparse_softmax_cross_entropy(labels, logits)
    if training:
        with tf.control_dependencies(v1.get_collection(v1.GraphKeys.UPDATE_OPS)):
            train_op = v1.train.AdamOptimizer(0.01).minimize(
                loss, global_step=v1.train.get_global_step())
        return ec.EstimatorSpec(mode, loss=loss, train_op=train_op)
    return ec.EstimatorSpec(mode, loss=loss, eval_metric_ops={
        "accuracy": v1.metrics.accuracy(labels, tf.argmax(logits, 1))})


def test_tf1_layers_batch_norm_and_adam(tmp_path):
    est = ec.Estimator(tf1_cnn_model_fn, model_dir=str(tmp_path))
    est.train(image_input_fn(), steps=30)
    names = set(est.get_variable_names())
    assert {"conv2d/kernel", "conv2d/bias", "batch_normalization/gamma",
            "batch_normalization/beta", "batch_normalization/moving_mean",
            "batch_normalization/moving_variance", "dense/kernel", "dense/bias",
            "dense/kernel/Adam", "dense/kernel/Adam_1", "beta1_power", "beta2_power",
            "global_step"} <= names
    moving_mean = est.get_variable_value("batch_normalization/moving_mean")
    assert np.abs(moving_mean).max() > 0  # UPDATE_OPS ran
    res = est.evaluate(image_input_fn(repeat=False))
    assert 0 <= res["accuracy"] <= 1 and np.isfinite(res["loss"])
    assert len(list(est.predict(image_input_fn(repeat=False)))) == 64


def keras_model_fn(features, labels, mode, params):
    hidden = keras.layers.Dense(8, activation="relu")
    out = keras.layers.Dense(2)
    logits = out(hidden(keras.layers.Flatten()(features["image"])))
    if mode == ec.ModeKeys.PREDICT:
        return ec.EstimatorSpec(mode, predictions={"probabilities": tf.nn.softmax(logits)})
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
    if mode == ec.ModeKeys.TRAIN:
        opt = v1.train.GradientDescentOptimizer(0.5)
        return ec.EstimatorSpec(mode, loss=loss, train_op=opt.minimize(
            loss, global_step=v1.train.get_or_create_global_step()))
    acc = keras.metrics.SparseCategoricalAccuracy(name="acc")
    acc.update_state(labels, logits)
    mean_loss = keras.metrics.Mean(name="mean_loss")
    mean_loss.update_state(loss)
    return ec.EstimatorSpec(mode, loss=loss, eval_metric_ops={"acc": acc, "mean_loss": mean_loss})


def test_keras_layers_and_keras_metrics(tmp_path):
    est = ec.Estimator(keras_model_fn, model_dir=str(tmp_path))
    est.train(image_input_fn(), steps=40)
    names = set(est.get_variable_names())
    assert {"dense/kernel", "dense/bias", "dense_1/kernel", "dense_1/bias", "global_step"} == names
    res = est.evaluate(image_input_fn(repeat=False))
    assert res["mean_loss"] == np.float32(res["loss"]) or abs(res["mean_loss"] - res["loss"]) < 1e-5
    res2 = est.evaluate(image_input_fn(repeat=False))
    assert res2["acc"] == res["acc"]  # Keras metric state reset between evaluations
    probs = np.array([p["probabilities"] for p in est.predict(image_input_fn(repeat=False))])
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-5)


def test_model_fn_arg_subsets(tmp_path):
    def minimal(features, labels, mode):
        w = v1.get_variable("w", [1], initializer=v1.ones_initializer())
        pred = features["image"][:, 0, 0, 0] * w
        if mode == "infer":
            return ec.EstimatorSpec(mode, predictions=pred)
        loss = tf.reduce_mean(tf.square(pred - tf.cast(labels, tf.float32)))
        return ec.EstimatorSpec(mode, loss=loss, train_op=v1.train.GradientDescentOptimizer(0.1)
                                .minimize(loss, global_step=v1.train.get_global_step()))

    def with_config(features, labels, mode, config):
        assert isinstance(config, ec.RunConfig)
        return minimal(features, labels, mode)

    def mode_first(mode, features, labels):  # tf.estimator passed them by name
        return minimal(features, labels, mode)
    for i, fn in enumerate([minimal, with_config, mode_first]):
        est = ec.Estimator(fn, model_dir=str(tmp_path / str(i)))
        est.train(image_input_fn(), steps=2)
        preds = list(est.predict(image_input_fn(repeat=False)))
        assert len(preds) == 64 and np.ndim(preds[0]) == 0


def test_variables_named_by_their_op_as_tf1_code_did(tmp_path):
    """`var.op.name` in a model_fn (`tf.summary.histogram(var.op.name, var)`, the cifar10
    tutorial's style): the variable's name, as its VarHandleOp had it in a TF1 graph."""
    def model_fn(features, labels, mode):
        spec = tf1_cnn_model_fn(features, labels, mode, {})
        if mode == ec.ModeKeys.TRAIN:
            seen.update((v.op.name, v.op.type) for v in v1.trainable_variables())
            for v in v1.trainable_variables():
                v1.summary.histogram(v.op.name, v)
        return spec
    seen = set()
    ec.Estimator(model_fn, model_dir=str(tmp_path),
                 config=ec.RunConfig(save_summary_steps=1)).train(image_input_fn(), steps=1)
    assert ("conv2d/kernel", "VarHandleOp") in seen and ("dense/bias", "VarHandleOp") in seen
    from tensorboard.backend.event_processing import event_accumulator
    acc = event_accumulator.EventAccumulator(str(tmp_path))
    acc.Reload()
    # TF 1.15 tagged them `conv2d/kernel_1` too: the variable's own op holds the plain name
    assert "conv2d/kernel_1" in acc.Tags()["histograms"] + acc.Tags()["tensors"]
