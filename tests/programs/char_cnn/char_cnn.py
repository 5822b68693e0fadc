"""A character-level CNN over DBpedia abstracts, in the style of TensorFlow 1.x's
examples/learn/text_classification_character_cnn.py.

The idioms it keeps: `tf.contrib.learn.datasets.load_dataset('dbpedia',
test_with_fake_data=...)` (./dbpedia_data/dbpedia_csv/ of the working directory),
`pandas.DataFrame(dbpedia.train.data)[1]` (the abstracts), `learn.preprocessing.ByteProcessor`
(documents as rows of bytes), a model_fn with `tf.one_hot` bytes, `tf.layers.conv1d` /
`max_pooling1d` / `dense`, `tf.estimator.inputs.numpy_input_fn`, `tf.metrics.accuracy`,
`tf.app.run()`. Smaller than the original (one conv layer less, 4 classes) so it trains in
seconds on a CPU.
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import argparse
import sys

import numpy as np
import pandas
import tensorflow as tf

FLAGS = None

MAX_DOCUMENT_LENGTH = 64
N_FILTERS = 16
FILTER_SIZE = 5
POOLING_WINDOW = 4
POOLING_STRIDE = 2
MAX_LABEL = 5
CHARS_FEATURE = "chars"


def char_cnn_model(features, labels, mode):
    """Character level convolutional neural network model to predict classes."""
    byte_vectors = tf.one_hot(features[CHARS_FEATURE], 256, 1.0, 0.0)
    with tf.variable_scope("CNN_Layer1"):
        conv1 = tf.layers.conv1d(byte_vectors, filters=N_FILTERS, kernel_size=FILTER_SIZE,
                                 padding="VALID", activation=tf.nn.relu)
        pool1 = tf.layers.max_pooling1d(conv1, pool_size=POOLING_WINDOW,
                                        strides=POOLING_STRIDE, padding="SAME")
    with tf.variable_scope("CNN_Layer2"):
        conv2 = tf.layers.conv1d(pool1, filters=N_FILTERS, kernel_size=FILTER_SIZE,
                                 padding="VALID")
        pool2 = tf.reduce_max(conv2, axis=1)
    logits = tf.layers.dense(pool2, MAX_LABEL, activation=None)

    predicted_classes = tf.argmax(logits, 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode=mode, predictions={
            "class": predicted_classes, "prob": tf.nn.softmax(logits)})

    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    if mode == tf.estimator.ModeKeys.TRAIN:
        optimizer = tf.train.AdamOptimizer(learning_rate=0.01)
        train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

    eval_metric_ops = {
        "accuracy": tf.metrics.accuracy(labels=labels, predictions=predicted_classes)}
    return tf.estimator.EstimatorSpec(mode=mode, loss=loss, eval_metric_ops=eval_metric_ops)


def main(unused_argv):
    tf.logging.set_verbosity(tf.logging.INFO)

    # Prepare training and testing data
    dbpedia = tf.contrib.learn.datasets.load_dataset(
        "dbpedia", size=FLAGS.size, test_with_fake_data=FLAGS.test_with_fake_data)
    x_train = pandas.DataFrame(dbpedia.train.data)[1]
    y_train = pandas.Series(dbpedia.train.target)
    x_test = pandas.DataFrame(dbpedia.test.data)[1]
    y_test = pandas.Series(dbpedia.test.target)

    # Process vocabulary
    char_processor = tf.contrib.learn.preprocessing.ByteProcessor(MAX_DOCUMENT_LENGTH)
    x_train = np.array(list(char_processor.fit_transform(x_train)))
    x_test = np.array(list(char_processor.transform(x_test)))
    print("Train bytes: %s, first row %s" % (x_train.shape, x_train[0][:8].tolist()))

    classifier = tf.estimator.Estimator(model_fn=char_cnn_model, model_dir=FLAGS.model_dir,
                                        config=tf.estimator.RunConfig(tf_random_seed=1))

    train_input_fn = tf.estimator.inputs.numpy_input_fn(
        x={CHARS_FEATURE: x_train}, y=y_train.values, batch_size=50, num_epochs=None,
        shuffle=True)
    classifier.train(input_fn=train_input_fn, steps=FLAGS.steps)

    test_input_fn = tf.estimator.inputs.numpy_input_fn(
        x={CHARS_FEATURE: x_test}, y=y_test.values, num_epochs=1, shuffle=False)
    scores = classifier.evaluate(input_fn=test_input_fn)
    print("Accuracy: {0:f}".format(scores["accuracy"]))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--test_with_fake_data", default=False, action="store_true",
                        help="Test the example code with fake data.")
    parser.add_argument("--size", default="small", help="'small' reads every 1000th row.")
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--model_dir", default=None)
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
