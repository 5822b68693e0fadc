"""Convolutional model for MNIST, in the style of tensorflow/models' official r1 mnist.py:
a Model object built from `tf.layers` classes, TFRecord input, LoggingTensorHook on named
tensors, train/eval epochs in a loop, and export_savedmodel with a raw serving receiver."""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import os

import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("data_dir", None, "Directory with digits_{train,eval}.tfrecords.")
flags.DEFINE_string("model_dir", None, "The directory where the model will be stored.")
flags.DEFINE_string("export_dir", None, "Where to export the SavedModel.")
flags.DEFINE_integer("batch_size", 64, "Batch size.")
flags.DEFINE_integer("train_epochs", 4, "Number of epochs to train.")
flags.DEFINE_integer("epochs_between_evals", 2, "Epochs between evaluations.")
flags.DEFINE_string("data_format", None, "channels_first or channels_last.")
FLAGS = flags.FLAGS

LEARNING_RATE = 1e-3


class Model(object):
    """Class that defines a graph to recognize digits in the MNIST dataset."""

    def __init__(self, data_format):
        if data_format == 'channels_first':
            self._input_shape = [-1, 1, 28, 28]
        else:
            assert data_format == 'channels_last'
            self._input_shape = [-1, 28, 28, 1]

        self.conv1 = tf.layers.Conv2D(
            16, 5, padding='same', data_format=data_format, activation=tf.nn.relu)
        self.conv2 = tf.layers.Conv2D(
            32, 5, padding='same', data_format=data_format, activation=tf.nn.relu)
        self.fc1 = tf.layers.Dense(128, activation=tf.nn.relu)
        self.fc2 = tf.layers.Dense(10)
        self.dropout = tf.layers.Dropout(0.4)
        self.max_pool2d = tf.layers.MaxPooling2D(
            (2, 2), (2, 2), padding='same', data_format=data_format)

    def __call__(self, inputs, training):
        y = tf.reshape(inputs, self._input_shape)
        y = self.conv1(y)
        y = self.max_pool2d(y)
        y = self.conv2(y)
        y = self.max_pool2d(y)
        y = tf.layers.flatten(y)
        y = self.fc1(y)
        y = self.dropout(y, training=training)
        return self.fc2(y)


def model_fn(features, labels, mode, params):
    """The model_fn argument for creating an Estimator."""
    model = Model(params['data_format'])
    image = features
    if isinstance(image, dict):
        image = features['image']

    if mode == tf.estimator.ModeKeys.PREDICT:
        logits = model(image, training=False)
        predictions = {
            'classes': tf.argmax(logits, axis=1),
            'probabilities': tf.nn.softmax(logits),
        }
        return tf.estimator.EstimatorSpec(
            mode=tf.estimator.ModeKeys.PREDICT,
            predictions=predictions,
            export_outputs={
                'classify': tf.estimator.export.PredictOutput(predictions)
            })
    if mode == tf.estimator.ModeKeys.TRAIN:
        optimizer = tf.train.AdamOptimizer(learning_rate=LEARNING_RATE)

        logits = model(image, training=True)
        loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
        accuracy = tf.metrics.accuracy(
            labels=labels, predictions=tf.argmax(logits, axis=1))
        # Name the accuracy tensor 'train_accuracy' to demonstrate the
        # LoggingTensorHook.
        tf.identity(LEARNING_RATE, 'learning_rate')
        tf.identity(loss, 'cross_entropy')
        tf.identity(accuracy[1], name='train_accuracy')
        tf.summary.scalar('train_accuracy', accuracy[1])
        return tf.estimator.EstimatorSpec(
            mode=tf.estimator.ModeKeys.TRAIN,
            loss=loss,
            train_op=optimizer.minimize(loss, tf.train.get_or_create_global_step()))
    if mode == tf.estimator.ModeKeys.EVAL:
        logits = model(image, training=False)
        loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
        return tf.estimator.EstimatorSpec(
            mode=tf.estimator.ModeKeys.EVAL,
            loss=loss,
            eval_metric_ops={
                'accuracy':
                    tf.metrics.accuracy(
                        labels=labels,
                        predictions=tf.argmax(logits, axis=1)),
            })


def dataset(path):
    def decode(serialized):
        parsed = tf.parse_single_example(serialized, {
            'image': tf.FixedLenFeature([], tf.string),
            'label': tf.FixedLenFeature([], tf.int64)})
        image = tf.decode_raw(parsed['image'], tf.uint8)
        image = tf.to_float(tf.reshape(image, [784])) / 255.0
        return image, tf.to_int32(parsed['label'])
    return tf.data.TFRecordDataset([path]).map(decode)


def main(_):
    data_format = FLAGS.data_format or 'channels_last'
    mnist_classifier = tf.estimator.Estimator(
        model_fn=model_fn,
        model_dir=FLAGS.model_dir,
        config=tf.estimator.RunConfig(tf_random_seed=4),
        params={'data_format': data_format})

    def train_input_fn():
        ds = dataset(os.path.join(FLAGS.data_dir, 'digits_train.tfrecords'))
        ds = ds.cache().shuffle(buffer_size=50000, seed=4).batch(FLAGS.batch_size)
        ds = ds.repeat(FLAGS.epochs_between_evals)
        return ds

    def eval_input_fn():
        return dataset(os.path.join(FLAGS.data_dir, 'digits_eval.tfrecords')).batch(
            FLAGS.batch_size).make_one_shot_iterator().get_next()

    # Set up training hook that logs the training accuracy every 100 steps.
    tensors_to_log = {'learning_rate': 'learning_rate', 'cross_entropy': 'cross_entropy',
                      'train_accuracy': 'train_accuracy'}
    logging_hook = tf.train.LoggingTensorHook(tensors=tensors_to_log, every_n_iter=100)

    # Train and evaluate model.
    for _ in range(FLAGS.train_epochs // FLAGS.epochs_between_evals):
        mnist_classifier.train(input_fn=train_input_fn, hooks=[logging_hook])
        eval_results = mnist_classifier.evaluate(input_fn=eval_input_fn)
        print('\nEvaluation results:\n\t%s\n' % eval_results)

    # Export the model
    if FLAGS.export_dir is not None:
        image = tf.placeholder(tf.float32, [None, 28, 28])
        input_fn = tf.estimator.export.build_raw_serving_input_receiver_fn({
            'image': image,
        })
        path = mnist_classifier.export_savedmodel(FLAGS.export_dir, input_fn)
        print('exported to %s' % (path.decode() if isinstance(path, bytes) else path))


if __name__ == '__main__':
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.app.run(main)
