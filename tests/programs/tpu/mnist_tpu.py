"""MNIST on TPUEstimator with `--use_tpu=false`, in the style of tensorflow/tpu's
models/official/mnist/mnist_tpu.py (TF 1.x-era code ported with `tensorflow.compat.v1`).

The idioms it keeps: absl flags and `app.run`, `TPUClusterResolver(FLAGS.tpu if (FLAGS.tpu or
FLAGS.use_tpu) else "")` (the empty name meaning "no Cloud TPU"), `tf.estimator.tpu.RunConfig(
cluster=..., session_config=tf.ConfigProto(...), tpu_config=TPUConfig(iterations, shards))`,
the `tf.layers` classes with string activations and positional arguments (`Dense(1024,
activation="relu")`, `Dropout(0.4)`), `TPUEstimatorSpec(eval_metrics=(metric_fn, [...]))`,
`params["batch_size"]` in the input_fns, predictions printed from `estimator.predict`.
The data are the digits TFRecords of tests/programs/make_data.py.
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import os

from absl import app
from absl import flags
from absl import logging
import tensorflow.compat.v1 as tf

flags.DEFINE_string("tpu", default=None, help="The Cloud TPU to use for training.")
flags.DEFINE_string("tpu_zone", default=None, help="[Optional] GCE zone of the Cloud TPU.")
flags.DEFINE_string("gcp_project", default=None, help="[Optional] Project of the Cloud TPU.")
flags.DEFINE_string("data_dir", "", "Path to directory containing the digits TFRecords")
flags.DEFINE_string("model_dir", None, "Estimator model_dir")
flags.DEFINE_integer("batch_size", 64, "Mini-batch size for the training (global).")
flags.DEFINE_integer("train_steps", 200, "Total number of training steps.")
flags.DEFINE_integer("eval_steps", 5, "Total number of evaluation steps.")
flags.DEFINE_float("learning_rate", 0.05, "Learning rate.")
flags.DEFINE_bool("use_tpu", True, "Use TPUs rather than plain CPUs")
flags.DEFINE_bool("enable_predict", True, "Do some predictions at the end")
flags.DEFINE_integer("iterations", 50, "Number of iterations per TPU training loop.")
flags.DEFINE_integer("num_shards", 8, "Number of shards (TPU chips).")

FLAGS = flags.FLAGS


def metric_fn(labels, logits):
    accuracy = tf.metrics.accuracy(labels=labels, predictions=tf.argmax(logits, axis=1))
    return {"accuracy": accuracy}


def model_fn(features, labels, mode, params):
    """model_fn constructs the ML model used to predict handwritten digits."""
    del params
    image = features / 255.
    y = tf.layers.Conv2D(filters=16, kernel_size=5, padding="same", activation="relu")(image)
    y = tf.layers.MaxPooling2D(pool_size=(2, 2), strides=(2, 2), padding="same")(y)
    y = tf.layers.Conv2D(16, 5, padding="same", activation="relu")(y)
    y = tf.layers.MaxPooling2D((2, 2), (2, 2), padding="same")(y)
    y = tf.layers.Flatten()(y)
    y = tf.layers.Dense(128, activation="relu")(y)
    y = tf.layers.Dropout(0.4)(y, training=(mode == tf.estimator.ModeKeys.TRAIN))
    logits = tf.layers.Dense(10)(y)

    if mode == tf.estimator.ModeKeys.PREDICT:
        predictions = {"class_ids": tf.argmax(logits, axis=1),
                       "probabilities": tf.nn.softmax(logits)}
        return tf.estimator.tpu.TPUEstimatorSpec(mode, predictions=predictions)

    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    if mode == tf.estimator.ModeKeys.TRAIN:
        learning_rate = tf.train.exponential_decay(
            FLAGS.learning_rate, tf.train.get_global_step(), decay_steps=100000,
            decay_rate=0.96)
        optimizer = tf.train.GradientDescentOptimizer(learning_rate=learning_rate)
        if FLAGS.use_tpu:
            optimizer = tf.tpu.CrossShardOptimizer(optimizer)
        return tf.estimator.tpu.TPUEstimatorSpec(
            mode=mode, loss=loss, train_op=optimizer.minimize(loss, tf.train.get_global_step()))

    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.tpu.TPUEstimatorSpec(
            mode=mode, loss=loss, eval_metrics=(metric_fn, [labels, logits]))


def dataset(records_file):
    """Loads the digits from a TFRecords file."""
    features = {"image": tf.io.FixedLenFeature((), tf.string),
                "label": tf.io.FixedLenFeature((), tf.int64)}

    def decode_record(record):
        example = tf.io.parse_single_example(record, features)
        image = tf.decode_raw(example["image"], tf.uint8)
        image = tf.cast(image, tf.float32)
        image = tf.reshape(image, [28, 28, 1])
        return image, example["label"]

    return tf.data.TFRecordDataset(records_file).map(decode_record)


def train_input_fn(params):
    batch_size = params["batch_size"]
    records_file = os.path.join(params["data_dir"], "digits_train.tfrecords")
    return dataset(records_file).cache().repeat().shuffle(
        buffer_size=2000, seed=1).batch(batch_size, drop_remainder=True)


def eval_input_fn(params):
    batch_size = params["batch_size"]
    records_file = os.path.join(params["data_dir"], "digits_eval.tfrecords")
    return dataset(records_file).batch(batch_size, drop_remainder=True)


def predict_input_fn(params):
    batch_size = params["batch_size"]
    records_file = os.path.join(params["data_dir"], "digits_eval.tfrecords")
    return dataset(records_file).take(10).batch(batch_size)


def main(argv):
    del argv
    logging.set_verbosity(logging.INFO)
    tpu_cluster_resolver = tf.distribute.cluster_resolver.TPUClusterResolver(
        FLAGS.tpu if (FLAGS.tpu or FLAGS.use_tpu) else "",
        zone=FLAGS.tpu_zone, project=FLAGS.gcp_project)
    run_config = tf.estimator.tpu.RunConfig(
        cluster=tpu_cluster_resolver, model_dir=FLAGS.model_dir, tf_random_seed=5,
        session_config=tf.ConfigProto(allow_soft_placement=True, log_device_placement=False),
        tpu_config=tf.estimator.tpu.TPUConfig(FLAGS.iterations, FLAGS.num_shards))
    estimator = tf.estimator.tpu.TPUEstimator(
        model_fn=model_fn, use_tpu=FLAGS.use_tpu, train_batch_size=FLAGS.batch_size,
        eval_batch_size=FLAGS.batch_size, predict_batch_size=FLAGS.batch_size,
        params={"data_dir": FLAGS.data_dir}, config=run_config)
    estimator.train(input_fn=train_input_fn, max_steps=FLAGS.train_steps)
    if FLAGS.eval_steps:
        result = estimator.evaluate(input_fn=eval_input_fn, steps=FLAGS.eval_steps)
        print("eval accuracy = %.4f, global_step = %d" % (result["accuracy"],
                                                         result["global_step"]))
    if FLAGS.enable_predict:
        predictions = estimator.predict(input_fn=predict_input_fn)
        for pred_dict in predictions:
            class_id = pred_dict["class_ids"]
            probability = pred_dict["probabilities"][class_id]
            print('Prediction is "{}" ({:.1f}%).'.format(class_id, 100 * probability))


if __name__ == "__main__":
    app.run(main)
