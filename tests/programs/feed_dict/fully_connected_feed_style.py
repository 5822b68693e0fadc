"""A TF 1.x tutorial-style program (the "TensorFlow Mechanics 101" layout): tf.app.flags, MNIST
from `tensorflow.examples.tutorials.mnist.input_data` (`--fake_data` for a run without the
files), placeholders fed per step from `next_batch`, a tf.Session loop, a Saver, and a
precision count over a whole split."""
import os
import sys
import time

import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data

flags = tf.app.flags
FLAGS = flags.FLAGS
flags.DEFINE_float("learning_rate", 0.1, "Initial learning rate.")
flags.DEFINE_integer("max_steps", 200, "Number of steps to run trainer.")
flags.DEFINE_integer("hidden1", 32, "Units in hidden layer 1.")
flags.DEFINE_integer("batch_size", 50, "Batch size.")
flags.DEFINE_string("input_data_dir", "MNIST_data", "Where the MNIST files are.")
flags.DEFINE_string("train_dir", "logs", "Where the checkpoint goes.")
flags.DEFINE_boolean("fake_data", False, "Train on made-up data, for unit testing.")


def inference(images, hidden1_units):
    with tf.name_scope("hidden1"):
        weights = tf.Variable(tf.truncated_normal([784, hidden1_units], stddev=0.03),
                              name="weights")
        biases = tf.Variable(tf.zeros([hidden1_units]), name="biases")
        hidden1 = tf.nn.relu(tf.matmul(images, weights) + biases)
    with tf.name_scope("softmax_linear"):
        weights = tf.Variable(tf.truncated_normal([hidden1_units, 10], stddev=0.1),
                              name="weights")
        biases = tf.Variable(tf.zeros([10]), name="biases")
        return tf.matmul(hidden1, weights) + biases


def fill_feed_dict(data_set, images_pl, labels_pl):
    images, labels = data_set.next_batch(FLAGS.batch_size, FLAGS.fake_data)
    return {images_pl: images, labels_pl: labels}


def do_eval(sess, correct, data_set, images_pl, labels_pl):
    steps = data_set.num_examples // FLAGS.batch_size
    count = sum(sess.run(correct, feed_dict=fill_feed_dict(data_set, images_pl, labels_pl))
                for _ in range(steps))
    precision = float(count) / (steps * FLAGS.batch_size)
    print("  Num examples: %d  Num correct: %d  Precision @ 1: %0.04f"
          % (steps * FLAGS.batch_size, count, precision))
    return precision


def main(_):
    data_sets = input_data.read_data_sets(FLAGS.input_data_dir, FLAGS.fake_data)
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        images_pl = tf.placeholder(tf.float32, shape=(FLAGS.batch_size, 784))
        labels_pl = tf.placeholder(tf.int32, shape=(FLAGS.batch_size,))
        logits = inference(images_pl, FLAGS.hidden1)
        loss = tf.losses.sparse_softmax_cross_entropy(labels=labels_pl, logits=logits)
        global_step = tf.Variable(0, name="global_step", trainable=False)
        train_op = tf.train.GradientDescentOptimizer(FLAGS.learning_rate).minimize(
            loss, global_step=global_step)
        correct = tf.reduce_sum(tf.cast(tf.nn.in_top_k(logits, labels_pl, 1), tf.int32))
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(FLAGS.max_steps):
                start = time.time()
                _, loss_value = sess.run([train_op, loss],
                                         feed_dict=fill_feed_dict(data_sets.train, images_pl,
                                                                  labels_pl))
                if step % 100 == 0:
                    print("Step %d: loss = %.4f (%.3f sec)" % (step, loss_value,
                                                               time.time() - start))
            path = saver.save(sess, os.path.join(FLAGS.train_dir, "model.ckpt"),
                              global_step=global_step)
            print("Test Data Eval:")
            precision = do_eval(sess, correct, data_sets.test, images_pl, labels_pl)
            print("RESULT loss=%.4f precision=%.4f saved=%s"
                  % (loss_value, precision, os.path.basename(path)))


if __name__ == "__main__":
    tf.app.run(main=main, argv=[sys.argv[0]] + sys.argv[1:])
