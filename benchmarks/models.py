"""The benchmark models, as tf.estimator model_fns (tf.compat.v1 API only, so the same file runs
under estimator_compat on TF 2.21 and under the real tf.estimator on TF 2.15) and as Keras models."""
import functools

import numpy as np
import tensorflow as tf

v1 = tf.compat.v1
SHAPES = {"mlp": (784,), "mlp_small": (784,), "cnn": (28, 28, 1), "cnn_tutorial": (28, 28, 1)}


@functools.lru_cache(maxsize=None)
def data(model, n, seed=0):
    """The same arrays every call: an input_fn called per evaluate / predict (as the Estimator
    API does) then costs what a Keras dataset built once costs, not a fresh random draw."""
    rng = np.random.RandomState(seed)
    x = rng.uniform(size=(n,) + SHAPES[model]).astype(np.float32)
    y = rng.randint(0, 10, size=(n,)).astype(np.int32)
    return x, y


def input_fn(model, batch, n=8192, repeat=True, with_labels=True):
    def fn():
        x, y = data(model, n)
        ds = tf.data.Dataset.from_tensor_slices((x, y) if with_labels else x)
        return (ds.repeat() if repeat else ds).batch(batch, drop_remainder=True)
    return fn


def _logits_v1(model, x, training):
    if model == "mlp_small":  # 784-128-10: per-step overhead shows most
        x = v1.layers.dense(x, 128, activation=tf.nn.relu)
        return v1.layers.dense(x, 10)
    if model == "mlp":
        for _ in range(2):
            x = v1.layers.dense(x, 256, activation=tf.nn.relu)
        return v1.layers.dense(x, 10)
    if model == "cnn_tutorial":  # conv32-conv64-maxpool-fc128, the tutorials' heavier CNN
        x = v1.layers.conv2d(x, 32, 3, activation=tf.nn.relu)
        x = v1.layers.conv2d(x, 64, 3, activation=tf.nn.relu)
        x = v1.layers.max_pooling2d(x, 2, 2)
        x = v1.layers.flatten(x)
        x = v1.layers.dense(x, 128, activation=tf.nn.relu)
        return v1.layers.dense(x, 10)
    x = v1.layers.conv2d(x, 32, 3, activation=tf.nn.relu)
    x = v1.layers.max_pooling2d(x, 2, 2)
    x = v1.layers.conv2d(x, 64, 3, activation=tf.nn.relu)
    x = v1.layers.max_pooling2d(x, 2, 2)
    x = v1.layers.flatten(x)
    x = v1.layers.dense(x, 128, activation=tf.nn.relu)
    return v1.layers.dense(x, 10)


def model_fn(features, labels, mode, params):
    logits = _logits_v1(params["model"], features, mode == "train")
    if mode == "infer":
        spec = tf.estimator.EstimatorSpec if hasattr(tf, "estimator") else None
        return spec(mode, predictions={"classes": tf.argmax(logits, 1)})
    loss = v1.losses.sparse_softmax_cross_entropy(labels, logits)
    if mode == "train":
        op = v1.train.AdamOptimizer(1e-3).minimize(loss, global_step=v1.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=op)
    return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={
        "accuracy": v1.metrics.accuracy(labels, tf.argmax(logits, 1))})


def keras_model(model):
    import keras
    layers = [keras.Input(SHAPES[model])]
    if model == "mlp_small":
        layers += [keras.layers.Dense(128, activation="relu")]
    elif model == "mlp":
        layers += [keras.layers.Dense(256, activation="relu"), keras.layers.Dense(256, activation="relu")]
    elif model == "cnn_tutorial":
        layers += [keras.layers.Conv2D(32, 3, activation="relu"),
                   keras.layers.Conv2D(64, 3, activation="relu"), keras.layers.MaxPooling2D(2),
                   keras.layers.Flatten(), keras.layers.Dense(128, activation="relu")]
    else:
        layers += [keras.layers.Conv2D(32, 3, activation="relu"), keras.layers.MaxPooling2D(2),
                   keras.layers.Conv2D(64, 3, activation="relu"), keras.layers.MaxPooling2D(2),
                   keras.layers.Flatten(), keras.layers.Dense(128, activation="relu")]
    return keras.Sequential(layers + [keras.layers.Dense(10)])
