"""A tiny conv net on TPUEstimator with `--use_tpu=False`, in the style of tensorflow/tpu's
models/official/resnet/resnet_main.py of the TF 1.x era.

The idioms it keeps: `tf.contrib.tpu.TPUEstimator` / `RunConfig` / `TPUConfig`,
`tf.contrib.cluster_resolver.TPUClusterResolver`, the network built under
`tf.contrib.tpu.bfloat16_scope()` on bfloat16 images (logits cast back to float32), a
`host_call` writing `tf.contrib.summary` scalars (loss, learning_rate, current_epoch) through
`create_file_writer(model_dir, max_queue=iterations_per_loop).as_default()` +
`always_record_summaries()` and returning `all_summary_ops()`, an `AsyncCheckpointSaverHook`
from `tensorflow.contrib.tpu.python.tpu.async_checkpoint`, the step read back with
`tensorflow.python.estimator.estimator._load_global_step_from_checkpoint_dir`, and an eval job
that loops over `evaluation.checkpoints_iterator(model_dir, timeout=...)` from
`tensorflow.contrib.training.python.training`, then `tf.contrib.tpu.export_estimator_savedmodel`.

The data: 16x16 RGB images made here, four classes (the bright quadrant), no download.
"""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import os

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf

from tensorflow.contrib import summary
from tensorflow.contrib.tpu.python.tpu import async_checkpoint
from tensorflow.contrib.training.python.training import evaluation
from tensorflow.python.estimator import estimator

flags.DEFINE_bool("use_tpu", True, "Use TPUs rather than plain CPUs")
flags.DEFINE_string("tpu", None, "The Cloud TPU to use for training.")
flags.DEFINE_string("model_dir", None, "The directory where the model will be stored.")
flags.DEFINE_integer("train_steps", 60, "Training steps.")
flags.DEFINE_integer("train_batch_size", 32, "Batch size for training.")
flags.DEFINE_integer("eval_batch_size", 50, "Batch size for evaluation.")
flags.DEFINE_integer("num_train_images", 640, "Size of training data set.")
flags.DEFINE_integer("num_eval_images", 200, "Size of evaluation data set.")
flags.DEFINE_integer("iterations_per_loop", 20, "Steps per TPU loop (and host_call queue).")
flags.DEFINE_integer("eval_timeout", 5, "Seconds to wait for a new checkpoint.")
flags.DEFINE_string("precision", "bfloat16", "float32 or bfloat16")
flags.DEFINE_float("base_learning_rate", 0.1, "Base learning rate.")
flags.DEFINE_string("export_dir", None, "Where to export the model for serving.")
flags.DEFINE_integer("seed", 3, "tf_random_seed of the RunConfig.")
flags.DEFINE_bool("use_async_checkpointing", True, "Checkpoint from a background thread.")

FLAGS = flags.FLAGS
IMAGE_SIZE = 16
NUM_CLASSES = 4
MEAN_RGB = [0.55, 0.55, 0.55]
STDDEV_RGB = [0.3, 0.3, 0.3]


def make_images(n, seed):
    """Noise with one brighter quadrant; the label is the quadrant."""
    rng = np.random.RandomState(seed)
    labels = rng.randint(0, NUM_CLASSES, size=n).astype(np.int32)
    images = rng.uniform(0.0, 1.0, size=(n, IMAGE_SIZE, IMAGE_SIZE, 3)).astype(np.float32)
    half = IMAGE_SIZE // 2
    for i, label in enumerate(labels):
        r, c = divmod(label, 2)
        images[i, r * half:(r + 1) * half, c * half:(c + 1) * half, :] += 0.1
    return images, labels


class ImageInput(object):
    def __init__(self, is_training, num_images, seed):
        self.is_training = is_training
        self.images, self.labels = make_images(num_images, seed)

    def input_fn(self, params):
        batch_size = params["batch_size"]
        dataset = tf.data.Dataset.from_tensor_slices((self.images, self.labels))
        if self.is_training:
            dataset = dataset.apply(tf.contrib.data.shuffle_and_repeat(1024, seed=1))
        dataset = dataset.apply(tf.contrib.data.map_and_batch(
            self.preprocess, batch_size=batch_size, drop_remainder=True))
        return dataset.prefetch(tf.contrib.data.AUTOTUNE)

    def preprocess(self, image, label):
        return image, label


def network(inputs, is_training):
    net = tf.layers.conv2d(inputs, 8, 3, padding="same", activation=tf.nn.relu,
                           name="conv1")
    net = tf.layers.max_pooling2d(net, 2, 2, name="pool1")
    net = tf.layers.conv2d(net, 16, 3, padding="same", activation=tf.nn.relu, name="conv2")
    net = tf.layers.max_pooling2d(net, 2, 2, name="pool2")
    net = tf.layers.flatten(net)
    return tf.layers.dense(net, NUM_CLASSES, name="dense")


def resnet_model_fn(features, labels, mode, params):
    if isinstance(features, dict):
        features = features["feature"]
    is_training = mode == tf.estimator.ModeKeys.TRAIN
    # Normalize the image to zero mean and unit variance.
    features -= tf.constant(MEAN_RGB, shape=[1, 1, 3], dtype=features.dtype)
    features /= tf.constant(STDDEV_RGB, shape=[1, 1, 3], dtype=features.dtype)
    if FLAGS.precision == "bfloat16":
        features = tf.cast(features, tf.bfloat16)
        with tf.contrib.tpu.bfloat16_scope():
            logits = network(features, is_training)
        logits = tf.cast(logits, tf.float32)
    else:
        logits = network(features, is_training)

    if mode == tf.estimator.ModeKeys.PREDICT:
        predictions = {"classes": tf.argmax(logits, axis=1),
                       "probabilities": tf.nn.softmax(logits, name="softmax_tensor")}
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, predictions=predictions)

    one_hot_labels = tf.one_hot(labels, NUM_CLASSES)
    loss = tf.losses.softmax_cross_entropy(logits=logits, onehot_labels=one_hot_labels)

    host_call = None
    if mode == tf.estimator.ModeKeys.TRAIN:
        global_step = tf.train.get_global_step()
        steps_per_epoch = FLAGS.num_train_images / FLAGS.train_batch_size
        current_epoch = tf.cast(global_step, tf.float32) / steps_per_epoch
        learning_rate = tf.train.piecewise_constant(
            global_step, [FLAGS.train_steps // 2],
            [FLAGS.base_learning_rate, FLAGS.base_learning_rate / 10])
        optimizer = tf.train.MomentumOptimizer(learning_rate=learning_rate, momentum=0.9)
        if FLAGS.use_tpu:
            optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)
        update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
        with tf.control_dependencies(update_ops):
            train_op = optimizer.minimize(loss, global_step)

        def host_call_fn(gs, loss, lr, ce):
            """Training host call: the summaries of a TPU loop, written on the host."""
            gs = gs[0]
            with summary.create_file_writer(
                    FLAGS.model_dir, max_queue=FLAGS.iterations_per_loop).as_default():
                with summary.always_record_summaries():
                    summary.scalar("loss", loss[0], step=gs)
                    summary.scalar("learning_rate", lr[0], step=gs)
                    summary.scalar("current_epoch", ce[0], step=gs)
                    return summary.all_summary_ops()

        gs_t = tf.reshape(global_step, [1])
        loss_t = tf.reshape(loss, [1])
        lr_t = tf.reshape(learning_rate, [1])
        ce_t = tf.reshape(current_epoch, [1])
        host_call = (host_call_fn, [gs_t, loss_t, lr_t, ce_t])
    else:
        train_op = None

    eval_metrics = None
    if mode == tf.estimator.ModeKeys.EVAL:
        def metric_fn(labels, logits):
            predictions = tf.argmax(logits, axis=1)
            top_1_accuracy = tf.metrics.accuracy(labels, predictions)
            in_top_2 = tf.cast(tf.nn.in_top_k(logits, labels, 2), tf.float32)
            top_2_accuracy = tf.metrics.mean(in_top_2)
            return {"top_1_accuracy": top_1_accuracy, "top_2_accuracy": top_2_accuracy}
        eval_metrics = (metric_fn, [labels, logits])

    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                           host_call=host_call, eval_metrics=eval_metrics)


def image_serving_input_fn():
    """Serving input fn for raw float images."""
    images = tf.placeholder(tf.float32, [None, IMAGE_SIZE, IMAGE_SIZE, 3], name="images")
    return tf.estimator.export.ServingInputReceiver(images, {"images": images})


def main(unused_argv):
    tpu_cluster_resolver = tf.contrib.cluster_resolver.TPUClusterResolver(
        FLAGS.tpu if (FLAGS.tpu or FLAGS.use_tpu) else "")
    config = tf.contrib.tpu.RunConfig(
        cluster=tpu_cluster_resolver, model_dir=FLAGS.model_dir, tf_random_seed=FLAGS.seed,
        save_checkpoints_steps=None if FLAGS.use_async_checkpointing else 30,
        log_step_count_steps=FLAGS.iterations_per_loop,
        session_config=tf.ConfigProto(allow_soft_placement=True),
        tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=FLAGS.iterations_per_loop,
                                            num_shards=8))
    resnet_classifier = tf.contrib.tpu.TPUEstimator(
        use_tpu=FLAGS.use_tpu, model_fn=resnet_model_fn, config=config,
        train_batch_size=FLAGS.train_batch_size, eval_batch_size=FLAGS.eval_batch_size)
    train_input = ImageInput(True, FLAGS.num_train_images, seed=0)
    eval_input = ImageInput(False, FLAGS.num_eval_images, seed=1)
    eval_steps = FLAGS.num_eval_images // FLAGS.eval_batch_size

    current_step = estimator._load_global_step_from_checkpoint_dir(FLAGS.model_dir)
    print("Training for %d steps, starting from step %d." % (FLAGS.train_steps, current_step))
    hooks = []
    if FLAGS.use_async_checkpointing:
        hooks.append(async_checkpoint.AsyncCheckpointSaverHook(
            checkpoint_dir=FLAGS.model_dir, save_steps=max(30, FLAGS.iterations_per_loop)))
    resnet_classifier.train(input_fn=train_input.input_fn, max_steps=FLAGS.train_steps,
                            hooks=hooks)

    # The eval job: wait for checkpoints, evaluate each, stop at the last one.
    for ckpt in evaluation.checkpoints_iterator(FLAGS.model_dir, timeout=FLAGS.eval_timeout):
        print("Starting to evaluate.")
        eval_results = resnet_classifier.evaluate(input_fn=eval_input.input_fn,
                                                  steps=eval_steps, checkpoint_path=ckpt)
        print("Eval results: top_1_accuracy = %.4f, top_2_accuracy = %.4f, loss = %.4f" % (
            eval_results["top_1_accuracy"], eval_results["top_2_accuracy"],
            eval_results["loss"]))
        current_step = int(os.path.basename(ckpt).split("-")[1])
        if current_step >= FLAGS.train_steps:
            print("Evaluation finished after training step %d" % current_step)
            break
    print("global_step = %d" % estimator._load_global_step_from_checkpoint_dir(
        FLAGS.model_dir))
    if FLAGS.export_dir is not None:
        tf.logging.info("Starting to export model.")
        export_path = tf.contrib.tpu.export_estimator_savedmodel(
            resnet_classifier, FLAGS.export_dir, image_serving_input_fn)
        print("exported to %s" % export_path.decode("utf-8"))


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    app.run(main)
