"""The classic TF1 MNIST CNN as a custom Estimator, unchanged legacy style, on estimator_compat.

TFRecord input_fn (parse_single_example, decode_raw, reshape 28x28, shuffle/repeat/batch, one-shot
iterator), a model_fn with the three modes, `tf.compat.v1.layers` and compat.v1 metrics, and the
tutorial's `LoggingTensorHook` on the tensor named "softmax_tensor".

    python examples/mnist/mnist_estimator.py --model_dir runs/mnist --steps 1000
"""
import argparse
import logging
import os
import sys

import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import estimator_compat as ec  # noqa: E402
from digits_data import write_tfrecords  # noqa: E402

v1 = tf.compat.v1


def parse_example(serialized):
    features = v1.parse_single_example(serialized, features={
        "image_raw": v1.FixedLenFeature([], tf.string),
        "label": v1.FixedLenFeature([], tf.int64)})
    image = v1.decode_raw(features["image_raw"], tf.uint8)
    image = tf.reshape(tf.cast(image, tf.float32) / 255.0, [28, 28, 1])
    return {"x": image}, tf.cast(features["label"], tf.int32)


def make_input_fn(path, batch_size, training):
    def input_fn():
        ds = tf.data.TFRecordDataset(path).map(parse_example)
        if training:
            ds = ds.shuffle(2000).repeat()
        ds = ds.batch(batch_size)
        return v1.data.make_one_shot_iterator(ds).get_next()
    return input_fn


def cnn_model_fn(features, labels, mode, params):
    net = tf.reshape(features["x"], [-1, 28, 28, 1])
    net = v1.layers.conv2d(net, params["filters"], 5, padding="same", activation=tf.nn.relu)
    net = v1.layers.max_pooling2d(net, 2, 2)
    net = v1.layers.conv2d(net, 2 * params["filters"], 5, padding="same", activation=tf.nn.relu)
    net = v1.layers.max_pooling2d(net, 2, 2)
    net = tf.reshape(net, [-1, 7 * 7 * 2 * params["filters"]])
    net = v1.layers.dense(net, params["dense_units"], activation=tf.nn.relu)
    net = v1.layers.dropout(net, rate=0.4, training=mode == ec.ModeKeys.TRAIN)
    logits = v1.layers.dense(net, 10)
    predictions = {"classes": tf.argmax(logits, axis=1),
                   "probabilities": tf.nn.softmax(logits, name="softmax_tensor")}
    if mode == ec.ModeKeys.PREDICT:
        return ec.EstimatorSpec(mode=mode, predictions=predictions)
    loss = v1.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    if mode == ec.ModeKeys.TRAIN:
        optimizer = v1.train.AdamOptimizer(learning_rate=params["learning_rate"])
        train_op = optimizer.minimize(loss, global_step=v1.train.get_global_step())
        return ec.EstimatorSpec(mode=mode, loss=loss, train_op=train_op)
    eval_metric_ops = {"accuracy": v1.metrics.accuracy(labels=labels,
                                                       predictions=predictions["classes"])}
    return ec.EstimatorSpec(mode=mode, loss=loss, eval_metric_ops=eval_metric_ops)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model_dir", default="runs/mnist")
    parser.add_argument("--data_dir", default=None)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--batch_size", type=int, default=64)
    parser.add_argument("--filters", type=int, default=32)
    parser.add_argument("--dense_units", type=int, default=1024)
    args = parser.parse_args(argv)
    v1.logging.set_verbosity(v1.logging.INFO)
    logging.getLogger("tensorflow").setLevel(logging.INFO)
    train_path, eval_path = write_tfrecords(args.data_dir or os.path.join(args.model_dir, "data"))
    config = ec.RunConfig(model_dir=args.model_dir, save_checkpoints_steps=500,
                          log_step_count_steps=100, tf_random_seed=0)
    classifier = ec.Estimator(cnn_model_fn, config=config, params={
        "filters": args.filters, "dense_units": args.dense_units, "learning_rate": 1e-3})
    # As in the TF1 tutorial: log the softmax output, found by its graph name, every 50 steps.
    logging_hook = v1.train.LoggingTensorHook(tensors={"probabilities": "softmax_tensor"},
                                              every_n_iter=50)
    classifier.train(make_input_fn(train_path, args.batch_size, True), steps=args.steps,
                     hooks=[logging_hook])
    results = classifier.evaluate(make_input_fn(eval_path, 128, False))
    print(f"eval accuracy = {results['accuracy']:.4f}, loss = {results['loss']:.4f}, "
          f"global_step = {results['global_step']}")
    return results


if __name__ == "__main__":
    main()
