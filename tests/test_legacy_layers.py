"""tf.layers classes and tf.contrib.layers/metrics/framework in real model_fns, trained."""
import numpy as np
import pytest
import tensorflow as tf
from sklearn.datasets import load_digits

import estimator_compat as ec
from estimator_compat.legacy import contrib, layer_classes
from estimator_compat.legacy import layers as tf1_layers

v1 = tf.compat.v1
L = layer_classes
C = contrib.build()


def _digits_input_fn(train):
    digits = load_digits()
    x = (digits.images[..., None] / 16.0).astype(np.float32)
    y = digits.target.astype(np.int64)
    sl = slice(0, 1400) if train else slice(1400, None)

    def input_fn():
        ds = tf.data.Dataset.from_tensor_slices(({"x": x[sl]}, y[sl]))
        return ds.shuffle(1400, seed=0).repeat().batch(32) if train else ds.batch(64)
    return input_fn


def _class_model_fn(features, labels, mode):
    training = mode == ec.ModeKeys.TRAIN
    conv = L.Conv2D(8, 3, padding="same", activation=tf.nn.relu)
    net = conv(features["x"])
    net = L.BatchNormalization()(net, training=training)
    net = L.MaxPooling2D(2, 2)(net)
    net = L.SeparableConv2D(8, 3, padding="same")(net)
    net = L.Flatten()(net)
    shared = L.Dense(32, activation=tf.nn.relu, name="shared")
    net = shared(shared(L.Dense(32)(net)))  # one layer object called twice: one set of weights
    net = L.Dropout(0.2)(net, training=training)
    logits = L.Dense(10)(net)
    assert conv.kernel.shape.as_list() == [3, 3, 1, 8] and conv.built
    assert [v.name for v in shared.trainable_variables] == ["shared/kernel:0", "shared/bias:0"]
    if mode == ec.ModeKeys.PREDICT:
        return ec.EstimatorSpec(mode, predictions={"c": tf.argmax(logits, 1)})
    loss = v1.losses.sparse_softmax_cross_entropy(labels, logits)
    with tf.control_dependencies(v1.get_collection(v1.GraphKeys.UPDATE_OPS)):
        train_op = v1.train.AdamOptimizer(0.01).minimize(
            loss, global_step=v1.train.get_or_create_global_step())
    return ec.EstimatorSpec(mode, loss=loss, train_op=train_op, eval_metric_ops={
        "acc": v1.metrics.accuracy(labels, tf.argmax(logits, 1))})


def test_layer_classes_train_with_tf1_names(tmp_path):
    est = ec.Estimator(_class_model_fn, model_dir=str(tmp_path),
                       config=ec.RunConfig(tf_random_seed=0))
    est.train(_digits_input_fn(True), max_steps=600)
    result = est.evaluate(_digits_input_fn(False))
    assert result["acc"] > 0.85, result
    names = set(est.get_variable_names())
    assert {"conv2d/kernel", "conv2d/bias", "batch_normalization/gamma",
            "batch_normalization/moving_mean", "separable_conv2d/depthwise_kernel",
            "separable_conv2d/pointwise_kernel", "dense/kernel", "shared/kernel",
            "dense_1/kernel", "dense_1/bias"} <= names, sorted(names)
    assert "shared_1/kernel" not in names
    assert not np.allclose(est.get_variable_value("batch_normalization/moving_mean"), 0)


def test_conv2d_transpose_matches_keras_shapes():
    x = tf.random.normal([2, 7, 7, 3])
    for padding, strides in (("same", 2), ("valid", 2), ("valid", 1)):
        keras_out = tf.keras.layers.Conv2DTranspose(4, 3, strides, padding=padding)(x)

        @tf.function
        def ours():
            with v1.variable_scope("t", reuse=v1.AUTO_REUSE):
                return tf1_layers.conv2d_transpose(x, 4, 3, strides, padding)
        assert ours().shape == keras_out.shape


def test_contrib_layers_and_optimize_loss_train(tmp_path):
    def model_fn(features, labels, mode):
        net = C.layers.fully_connected(v1.layers.flatten(features["x"]), 32,
                                       weights_initializer=C.layers.xavier_initializer(),
                                       weights_regularizer=C.layers.l2_regularizer(1e-4))
        logits = C.layers.fully_connected(net, 10, activation_fn=None, scope="logits")
        loss = v1.losses.sparse_softmax_cross_entropy(labels, logits) + v1.losses.get_regularization_loss()
        train_op = C.layers.optimize_loss(loss, C.framework.get_global_step(), 0.01, "Adam",
                                          clip_gradients=5.0)
        predictions = tf.argmax(logits, 1)
        return ec.EstimatorSpec(mode, loss=loss, train_op=train_op, predictions=predictions,
                                eval_metric_ops={
                                    "acc": C.metrics.streaming_accuracy(predictions, labels)})
    est = ec.Estimator(model_fn, model_dir=str(tmp_path), config=ec.RunConfig(tf_random_seed=0))
    est.train(_digits_input_fn(True), max_steps=200)
    assert est.evaluate(_digits_input_fn(False))["acc"] > 0.85
    names = set(est.get_variable_names())
    assert {"fully_connected/weights", "fully_connected/biases", "logits/weights",
            "OptimizeLoss/learning_rate",
            "OptimizeLoss/fully_connected/weights/Adam"} <= names, sorted(names)
    assert est.get_variable_value("OptimizeLoss/learning_rate") == pytest.approx(0.01)


def test_regularizers_and_initializers_values():
    w = tf.constant([[1.0, -2.0], [3.0, 0.0]])
    assert float(C.layers.l2_regularizer(0.5)(w)) == pytest.approx(0.5 * 14 / 2)
    assert float(C.layers.l1_regularizer(0.5)(w)) == pytest.approx(3.0)
    assert C.layers.l2_regularizer(0.0)(w) is None
    with pytest.raises(ValueError, match="less than 0"):
        C.layers.l2_regularizer(-1.0)
    values = C.layers.xavier_initializer(seed=1)([200, 300]).numpy()
    limit = np.sqrt(6.0 / 500)
    assert np.abs(values).max() <= limit and values.std() == pytest.approx(limit / np.sqrt(3), rel=0.05)


def test_contrib_metrics_take_predictions_first():
    with tf.Graph().as_default(), v1.Session() as session:
        value, update = C.metrics.streaming_precision(tf.constant([1, 1, 0]),  # predictions
                                                      tf.constant([1, 0, 0]))  # labels
        values, updates = C.metrics.aggregate_metric_map({"precision": (value, update)})
        session.run(v1.local_variables_initializer())
        session.run(updates)
        assert session.run(values) == {"precision": pytest.approx(0.5)}  # recall would be 1.0


def test_positional_arguments_and_activation_names_as_tf1_took_them():
    """TF 1.x's classes took their arguments in the function's order and activations by name
    (Keras' activations.get): `Dense(128, 'relu')`, `Conv2D(4, 3, 1, 'same')`, `Dropout(0.5)`."""
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 6, 6, 1])
        conv = L.Conv2D(4, 3, 1, "same", activation="relu")
        y = conv(x)
        pooled = L.MaxPooling2D(2, 2, "same")(y)
        dense = L.Dense(5, "tanh")
        out = dense(L.Flatten()(pooled))
        assert conv._config["padding"] == "same" and conv._config["strides"] == 1
        assert out.op.type == "Tanh" and y.op.type == "Relu"
        assert tf1_layers.dense(x, 2, "sigmoid").op.type == "Sigmoid"
        assert L.Dropout(0.25)._config["rate"] == 0.25
        with pytest.raises(ValueError, match="Unknown activation 'rleu'"):
            L.Dense(2, "rleu")(out)
        with pytest.raises(TypeError, match="takes 10 positional arguments .units, activation"):
            L.Dense(*range(12))
