"""A TF 1.x recurrent text classifier: tf.nn.rnn_cell cells (LSTMCell, GRUCell, BasicLSTMCell,
BasicRNNCell, MultiRNNCell, DropoutWrapper), tf.nn.dynamic_rnn with sequence lengths and
tf.nn.bidirectional_dynamic_rnn, in an Estimator's model_fn."""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import csv
import re

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("data_dir", None, "train.tsv / dev.tsv (label<TAB>sentence).")
flags.DEFINE_string("vocab_file", None, "One token per line.")
flags.DEFINE_string("model_dir", None, "model_dir.")
flags.DEFINE_integer("max_len", 24, "Tokens kept per sentence.")
flags.DEFINE_integer("train_steps", 150, "Training steps.")
flags.DEFINE_bool("do_train", True, "Train before evaluating.")
FLAGS = flags.FLAGS


def load(path, vocab):
    ids, lengths, labels = [], [], []
    with tf.gfile.GFile(path) as f:
        for row in list(csv.reader(f, delimiter="\t"))[1:]:
            tokens = re.findall(r"[a-z0-9]+|[^a-z0-9\s]", row[1].lower())[:FLAGS.max_len]
            sentence = [vocab.get(t, 1) for t in tokens]
            lengths.append(len(sentence))
            ids.append(sentence + [0] * (FLAGS.max_len - len(sentence)))
            labels.append(int(row[0]))
    return (np.array(ids, np.int32), np.array(lengths, np.int32)), np.array(labels, np.int64)


def input_fn(data, training):
    (ids, lengths), labels = data

    def fn():
        ds = tf.data.Dataset.from_tensor_slices(({"ids": ids, "length": lengths}, labels))
        if training:
            ds = ds.shuffle(500, seed=3).repeat()
        return ds.batch(32)
    return fn


def model_fn(features, labels, mode, params):
    training = mode == tf.estimator.ModeKeys.TRAIN
    embedding = tf.get_variable("embedding", [params["vocab_size"], 16],
                                initializer=tf.random_uniform_initializer(-0.1, 0.1))
    inputs = tf.nn.embedding_lookup(embedding, features["ids"])
    length = features["length"]

    keep = 0.9 if training else 1.0
    stacked = tf.nn.rnn_cell.MultiRNNCell([
        tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.LSTMCell(16, use_peepholes=True),
                                      output_keep_prob=keep),
        tf.nn.rnn_cell.GRUCell(16)])
    _, (lstm_state, gru_state) = tf.nn.dynamic_rnn(stacked, inputs, sequence_length=length,
                                                   dtype=tf.float32)
    _, (fw_state, bw_state) = tf.nn.bidirectional_dynamic_rnn(
        tf.nn.rnn_cell.BasicLSTMCell(8), tf.nn.rnn_cell.BasicRNNCell(8), inputs,
        sequence_length=length, dtype=tf.float32)
    summary = tf.concat([lstm_state.h, gru_state, fw_state.h, bw_state], axis=1)
    summary.shape[-1].value  # TF1 shapes: Dimension objects
    logits = tf.layers.dense(summary, 2, name="logits")
    predictions = tf.argmax(logits, axis=1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"class": predictions})
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = tf.train.AdamOptimizer(0.01).minimize(loss, tf.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, eval_metric_ops={
        "accuracy": tf.metrics.accuracy(labels, predictions)})


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    with tf.gfile.GFile(FLAGS.vocab_file) as f:
        vocab = {line.strip(): i for i, line in enumerate(f)}
    train = load(FLAGS.data_dir + "/train.tsv", vocab)
    dev = load(FLAGS.data_dir + "/dev.tsv", vocab)
    estimator = tf.estimator.Estimator(model_fn, model_dir=FLAGS.model_dir,
                                       params={"vocab_size": len(vocab)},
                                       config=tf.estimator.RunConfig(tf_random_seed=6))
    if FLAGS.do_train:
        estimator.train(input_fn(train, True), max_steps=FLAGS.train_steps)
    result = estimator.evaluate(input_fn(dev, False))
    print("accuracy = %.6f, loss = %.6f, global_step = %d"
          % (result["accuracy"], result["loss"], result["global_step"]))


if __name__ == "__main__":
    tf.app.run()
