"""The TF1 MNIST tutorial's model_fn and TFRecord input_fn, shared by the three scripts.

Written as the legacy code was: `tf` is `tensorflow.compat.v1`, `tf.estimator` / `tf.layers`
resolve to estimator_compat after `estimator_compat.install()`.
"""
import os
import sys

import tensorflow.compat.v1 as tf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import estimator_compat  # noqa: E402

estimator_compat.install()  # the one line a legacy script gains


def parse_example(serialized):
    features = tf.parse_single_example(serialized, features={
        "image_raw": tf.FixedLenFeature([], tf.string),
        "label": tf.FixedLenFeature([], tf.int64)})
    image = tf.decode_raw(features["image_raw"], tf.uint8)
    image = tf.reshape(tf.cast(image, tf.float32) / 255.0, [28, 28, 1])
    return {"x": image}, tf.cast(features["label"], tf.int32)


def make_input_fn(path, batch_size, training):
    def input_fn():
        ds = tf.data.TFRecordDataset(path).map(parse_example)
        if training:
            ds = ds.shuffle(2000).repeat()
        ds = ds.batch(batch_size)
        return tf.data.make_one_shot_iterator(ds).get_next()
    return input_fn


def cnn_model_fn(features, labels, mode, params):
    net = tf.reshape(features["x"], [-1, 28, 28, 1])
    net = tf.layers.conv2d(net, params["filters"], 5, padding="same", activation=tf.nn.relu)
    net = tf.layers.max_pooling2d(net, 2, 2)
    net = tf.layers.conv2d(net, 2 * params["filters"], 5, padding="same", activation=tf.nn.relu)
    net = tf.layers.max_pooling2d(net, 2, 2)
    net = tf.reshape(net, [-1, 7 * 7 * 2 * params["filters"]])
    net = tf.layers.dense(net, params["dense_units"], activation=tf.nn.relu)
    net = tf.layers.dropout(net, rate=0.4, training=mode == tf.estimator.ModeKeys.TRAIN)
    logits = tf.layers.dense(net, 10)
    predictions = {"classes": tf.argmax(logits, axis=1),
                   "probabilities": tf.nn.softmax(logits, name="softmax_tensor")}
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode=mode, predictions=predictions, export_outputs={
            "serving_default": tf.estimator.export.PredictOutput(predictions)})
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    if mode == tf.estimator.ModeKeys.TRAIN:
        optimizer = tf.train.AdamOptimizer(learning_rate=params["learning_rate"])
        train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode=mode, loss=loss, train_op=train_op)
    eval_metric_ops = {"accuracy": tf.metrics.accuracy(labels=labels,
                                                       predictions=predictions["classes"])}
    return tf.estimator.EstimatorSpec(mode=mode, loss=loss, eval_metric_ops=eval_metric_ops)


def serving_input_receiver_fn():
    images = tf.placeholder(tf.float32, [None, 28, 28, 1], name="images")
    return tf.estimator.export.ServingInputReceiver({"x": images}, {"images": images})


def common_args(parser, steps):
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--data_dir", default=None)
    parser.add_argument("--steps", type=int, default=steps)
    parser.add_argument("--batch_size", type=int, default=64)
    parser.add_argument("--filters", type=int, default=32)
    parser.add_argument("--dense_units", type=int, default=1024)
    return parser
