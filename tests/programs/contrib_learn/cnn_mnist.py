"""A convolutional MNIST classifier in the style of TensorFlow 1.x's layers tutorial
("A Guide to TF Layers: Building a Convolutional Neural Network", cnn_mnist.py).

The idioms it keeps: MNIST from `tf.contrib.learn.datasets.load_dataset("mnist")` (the
MNIST-data/ directory of the working directory), `tf.layers.conv2d` / `max_pooling2d` /
`dense` / `dropout` functions, a `softmax_tensor` logged by name with `tf.train.LoggingTensorHook`,
`tf.estimator.inputs.numpy_input_fn`, `tf.metrics.accuracy`, `tf.app.run()`. The network is
narrower than the tutorial's so it trains in seconds on a CPU.
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import numpy as np
import tensorflow as tf

tf.logging.set_verbosity(tf.logging.INFO)
tf.app.flags.DEFINE_string("model_dir", "/tmp/mnist_convnet_model", "Where to train.")
tf.app.flags.DEFINE_integer("steps", 300, "Training steps.")
FLAGS = tf.app.flags.FLAGS


def cnn_model_fn(features, labels, mode):
    """Model function for CNN."""
    input_layer = tf.reshape(features["x"], [-1, 28, 28, 1])
    conv1 = tf.layers.conv2d(inputs=input_layer, filters=8, kernel_size=[5, 5],
                             padding="same", activation=tf.nn.relu)
    pool1 = tf.layers.max_pooling2d(inputs=conv1, pool_size=[2, 2], strides=2)
    conv2 = tf.layers.conv2d(inputs=pool1, filters=16, kernel_size=[5, 5], padding="same",
                             activation=tf.nn.relu)
    pool2 = tf.layers.max_pooling2d(inputs=conv2, pool_size=[2, 2], strides=2)
    pool2_flat = tf.reshape(pool2, [-1, 7 * 7 * 16])
    dense = tf.layers.dense(inputs=pool2_flat, units=64, activation=tf.nn.relu)
    dropout = tf.layers.dropout(inputs=dense, rate=0.4,
                                training=mode == tf.estimator.ModeKeys.TRAIN)
    logits = tf.layers.dense(inputs=dropout, units=10)

    predictions = {
        "classes": tf.argmax(input=logits, axis=1),
        "probabilities": tf.nn.softmax(logits, name="softmax_tensor"),
    }
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode=mode, predictions=predictions)

    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    if mode == tf.estimator.ModeKeys.TRAIN:
        optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.05)
        train_op = optimizer.minimize(loss=loss, global_step=tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode=mode, loss=loss, train_op=train_op)

    eval_metric_ops = {
        "accuracy": tf.metrics.accuracy(labels=labels, predictions=predictions["classes"])}
    return tf.estimator.EstimatorSpec(mode=mode, loss=loss, eval_metric_ops=eval_metric_ops)


def main(unused_argv):
    mnist = tf.contrib.learn.datasets.load_dataset("mnist")
    train_data = mnist.train.images
    train_labels = np.asarray(mnist.train.labels, dtype=np.int32)
    eval_data = mnist.test.images
    eval_labels = np.asarray(mnist.test.labels, dtype=np.int32)

    mnist_classifier = tf.estimator.Estimator(
        model_fn=cnn_model_fn, model_dir=FLAGS.model_dir,
        config=tf.estimator.RunConfig(tf_random_seed=19))
    tensors_to_log = {"probabilities": "softmax_tensor"}
    logging_hook = tf.train.LoggingTensorHook(tensors=tensors_to_log, every_n_iter=100)

    train_input_fn = tf.estimator.inputs.numpy_input_fn(
        x={"x": train_data}, y=train_labels, batch_size=50, num_epochs=None, shuffle=True)
    mnist_classifier.train(input_fn=train_input_fn, steps=FLAGS.steps, hooks=[logging_hook])

    eval_input_fn = tf.estimator.inputs.numpy_input_fn(
        x={"x": eval_data}, y=eval_labels, num_epochs=1, shuffle=False)
    eval_results = mnist_classifier.evaluate(input_fn=eval_input_fn)
    print("eval accuracy = %.4f, global_step = %d" % (eval_results["accuracy"],
                                                     eval_results["global_step"]))


if __name__ == "__main__":
    tf.app.run()
