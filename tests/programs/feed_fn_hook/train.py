"""A TF 1.x program in the style of the 2017 seq2seq-with-Estimator tutorials: the input_fn
returns placeholders, and a `tf.train.FeedFnHook` feeds them a batch at every step from a
Python generator over a vocabulary file and a text file (sequences padded per batch).
The task: whether a sequence of tokens holds more "a"s than "b"s. Evaluation feeds the
same way for a fixed number of steps."""
import os
import random

import numpy as np
import tensorflow as tf

tf.flags.DEFINE_string("model_dir", "/tmp/feed_fn_hook", "Where to save the model.")
tf.flags.DEFINE_integer("steps", 300, "Training steps.")
tf.flags.DEFINE_integer("batch_size", 32, "Batch size.")
FLAGS = tf.flags.FLAGS
VOCAB = ["<pad>", "a", "b", "c", "d"]


def write_data(path, n, seed):
    rng = random.Random(seed)
    with open(path, "w") as f:
        for _ in range(n):
            f.write(" ".join(rng.choice(VOCAB[1:]) for _ in range(rng.randint(3, 12))) + "\n")


def batches(path, batch_size):
    """Padded id batches and labels, forever (the file read again from its start)."""
    ids = {w: i for i, w in enumerate(VOCAB)}
    while True:
        with open(path) as f:
            lines = [line.split() for line in f]
        for start in range(0, len(lines) - batch_size + 1, batch_size):
            chunk = lines[start:start + batch_size]
            width = max(len(words) for words in chunk)
            x = np.zeros((batch_size, width), np.int64)
            for row, words in enumerate(chunk):
                x[row, :len(words)] = [ids[w] for w in words]
            y = np.array([[float(words.count("a") > words.count("b"))] for words in chunk],
                         np.float32)
            yield x, y


def input_fn():
    tokens = tf.placeholder(tf.int64, shape=[None, None], name="tokens")
    labels = tf.placeholder(tf.float32, shape=[None, 1], name="labels")
    tf.identity(tokens[0], "tokens_0")
    return {"tokens": tokens}, labels


def make_feed_fn(path, batch_size):
    source = batches(path, batch_size)

    def feed_fn():
        x, y = next(source)
        return {"tokens:0": x, "labels:0": y}
    return feed_fn


def model_fn(features, labels, mode, params):
    tokens = features["tokens"]
    mask = tf.cast(tf.not_equal(tokens, 0), tf.float32)
    embed = tf.contrib.layers.embed_sequence(tokens, vocab_size=len(VOCAB), embed_dim=8,
                                             scope="embed")
    pooled = tf.reduce_sum(embed * mask[:, :, None], axis=1)
    hidden = tf.layers.dense(pooled, 16, activation=tf.nn.relu, name="hidden")
    logits = tf.layers.dense(hidden, 1, name="logits")
    loss = tf.losses.sigmoid_cross_entropy(labels, logits)
    predicted = tf.cast(logits > 0, tf.float32)
    tf.identity(loss, "train_loss")
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={
            "accuracy": tf.metrics.accuracy(labels, predicted)})
    train_op = tf.contrib.layers.optimize_loss(
        loss, tf.train.get_global_step(), optimizer="Adam", learning_rate=params["lr"])
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.set_random_seed(0)
    data = os.path.join(FLAGS.model_dir, "data")
    tf.gfile.MakeDirs(data)
    write_data(os.path.join(data, "train.txt"), 2000, seed=1)
    write_data(os.path.join(data, "eval.txt"), 320, seed=2)
    est = tf.estimator.Estimator(model_fn, model_dir=FLAGS.model_dir, params={"lr": 0.01})
    logging_hook = tf.train.LoggingTensorHook(["tokens_0", "train_loss", "global_step"],
                                              every_n_iter=100)
    est.train(input_fn, steps=FLAGS.steps, hooks=[
        tf.train.FeedFnHook(make_feed_fn(os.path.join(data, "train.txt"), FLAGS.batch_size)),
        logging_hook])
    metrics = est.evaluate(input_fn, steps=10, hooks=[
        tf.train.FeedFnHook(make_feed_fn(os.path.join(data, "eval.txt"), FLAGS.batch_size))])
    print("RESULT accuracy=%.4f global_step=%d" % (metrics["accuracy"], metrics["global_step"]))


if __name__ == "__main__":
    tf.app.run()
