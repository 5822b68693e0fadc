"""A TF-Slim style CNN trained by an Estimator, as 2017-2018 code wrote it: an arg_scope'd
network (conv2d / batch_norm / max_pool2d / fully_connected / dropout), slim.losses,
slim.learning.create_train_op and slim.metrics, on a small synthetic image set made with numpy
(10 classes of noisy 10x10 patterns), so it runs as it is under TF 1.15 and estimator_compat.

Prints `RESULT {json}`: the evaluation, the model's variables and the UPDATE_OPS count.
"""
import json

import numpy as np
import tensorflow as tf

slim = tf.contrib.slim
flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where the Estimator writes checkpoints.")
flags.DEFINE_integer("steps", 300, "Training steps.")
FLAGS = flags.FLAGS


def make_data(n, seed):
    patterns = np.random.RandomState(0).rand(10, 10, 10, 1) > 0.6
    rng = np.random.RandomState(seed)
    labels = rng.randint(0, 10, n)
    images = patterns[labels] * 1.0 + rng.normal(0.0, 0.5, (n, 10, 10, 1))
    shifts = rng.randint(-1, 2, (n, 2))
    images = np.stack([np.roll(img, tuple(s), (0, 1)) for img, s in zip(images, shifts)])
    return images.astype(np.float32), labels.astype(np.int64)


def network(images, is_training):
    batch_norm_params = {"is_training": is_training, "decay": 0.9, "scale": True}
    with slim.arg_scope([slim.conv2d, slim.fully_connected],
                        activation_fn=tf.nn.relu,
                        weights_regularizer=slim.l2_regularizer(1e-4),
                        normalizer_fn=slim.batch_norm, normalizer_params=batch_norm_params):
        with slim.arg_scope([slim.conv2d], padding="SAME"):
            net = slim.conv2d(images, 16, [3, 3], scope="conv1")
            net = slim.max_pool2d(net, [2, 2], scope="pool1")
            net = slim.conv2d(net, 32, [3, 3], scope="conv2")
            net = slim.max_pool2d(net, [2, 2], scope="pool2")
        net = slim.flatten(net, scope="flatten")
        net = slim.fully_connected(net, 64, scope="fc3")
        net = slim.dropout(net, 0.8, is_training=is_training, scope="dropout3")
        return slim.fully_connected(net, 10, activation_fn=None, normalizer_fn=None,
                                    scope="logits")


def model_fn(features, labels, mode):
    is_training = mode == tf.estimator.ModeKeys.TRAIN
    logits = network(features["image"], is_training)
    predictions = tf.argmax(logits, 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"class": predictions})
    slim.losses.softmax_cross_entropy(logits, tf.one_hot(labels, 10))
    total_loss = slim.losses.get_total_loss()
    train_op = None
    if is_training:
        optimizer = tf.train.AdamOptimizer(0.003)
        train_op = slim.learning.create_train_op(
            total_loss, optimizer, global_step=tf.train.get_or_create_global_step(),
            clip_gradient_norm=5.0)
    metrics = slim.metrics.aggregate_metric_map({
        "accuracy": slim.metrics.streaming_accuracy(predictions, labels)})
    value_ops, update_ops = metrics
    eval_metric_ops = {k: (value_ops[k], update_ops[k]) for k in value_ops}
    return tf.estimator.EstimatorSpec(mode, loss=total_loss, train_op=train_op,
                                      eval_metric_ops=eval_metric_ops)


def input_fn(images, labels, train):
    def fn():
        dataset = tf.data.Dataset.from_tensor_slices(({"image": images}, labels))
        if train:
            return dataset.shuffle(1000, seed=0).repeat().batch(32)
        return dataset.batch(100)
    return fn


def main(_):
    train = make_data(1000, 1)
    test = make_data(300, 2)
    estimator = tf.estimator.Estimator(model_fn, model_dir=FLAGS.model_dir,
                                       config=tf.estimator.RunConfig(tf_random_seed=0))
    estimator.train(input_fn(*train, train=True), max_steps=FLAGS.steps)
    result = estimator.evaluate(input_fn(*test, train=False))
    names = sorted(n for n in estimator.get_variable_names() if "Adam" not in n)
    with tf.Graph().as_default():
        network(tf.zeros([1, 10, 10, 1]), True)
        update_ops = len(tf.get_collection(tf.GraphKeys.UPDATE_OPS))
        model_variables = [v.op.name for v in slim.get_model_variables()]
    print("RESULT " + json.dumps({
        "accuracy": float(result["accuracy"]), "global_step": int(result["global_step"]),
        "variables": names, "model_variables": model_variables, "update_ops": update_ops}))


if __name__ == "__main__":
    tf.app.run()
