"""A TF 1.x sequence tagger with a CRF output layer, in the style of the 2017-2019 NER
taggers (tf.contrib.layers.embed_sequence, a bidirectional LSTM, tf.contrib.crf's
crf_log_likelihood / crf_decode, masked accuracy in tf.metrics), on synthetic sentences whose
tags depend on the previous tag, so the transition matrix matters.

    python crf_tagger.py --model_dir DIR [--steps 30]
Prints `RESULT {"accuracy": ..., "transitions": [...]}`.
"""
import json

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "where the Estimator writes")
flags.DEFINE_integer("steps", 30, "training steps")
FLAGS = flags.FLAGS

VOCAB, TAGS, MAX_LEN = 12, 3, 10


def sentences(n, seed):
    """Tokens 1..VOCAB-1 (0 pads); tag 0 for a token below 6, else 1, except that a token
    right after a tag-1 token is tagged 2."""
    rng = np.random.RandomState(seed)
    lengths = rng.randint(4, MAX_LEN + 1, size=n)
    tokens = np.zeros((n, MAX_LEN), np.int64)
    tags = np.zeros((n, MAX_LEN), np.int64)
    for i, length in enumerate(lengths):
        for t in range(length):
            tokens[i, t] = rng.randint(1, VOCAB)
            tags[i, t] = 2 if t and tags[i, t - 1] == 1 else int(tokens[i, t] >= 6)
    return {"tokens": tokens, "length": lengths.astype(np.int64)}, tags


def input_fn(n, seed, train):
    def fn():
        features, tags = sentences(n, seed)
        data = tf.data.Dataset.from_tensor_slices((features, tags))
        data = data.shuffle(n, seed=1).repeat() if train else data
        return data.batch(32)
    return fn


def model_fn(features, labels, mode):
    length = tf.cast(features["length"], tf.int32)
    embedded = tf.contrib.layers.embed_sequence(features["tokens"], VOCAB, 16, scope="embed")
    outputs, _ = tf.nn.bidirectional_dynamic_rnn(
        tf.nn.rnn_cell.LSTMCell(16), tf.nn.rnn_cell.LSTMCell(16), embedded,
        sequence_length=length, dtype=tf.float32)
    logits = tf.layers.dense(tf.concat(outputs, -1), TAGS, name="logits")
    transitions = tf.get_variable("transitions", [TAGS, TAGS])
    decoded, _ = tf.contrib.crf.crf_decode(logits, transitions, length)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"tags": decoded})
    labels = tf.cast(labels, tf.int32)
    log_likelihood, _ = tf.contrib.crf.crf_log_likelihood(logits, labels, length, transitions)
    loss = tf.reduce_mean(-log_likelihood)
    mask = tf.sequence_mask(length, MAX_LEN)
    metrics = {"accuracy": tf.metrics.accuracy(labels, decoded, weights=mask)}
    train_op = tf.train.AdamOptimizer(0.05).minimize(loss, tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      eval_metric_ops=metrics)


def main(_):
    config = tf.estimator.RunConfig(tf_random_seed=0, save_checkpoints_steps=1000)
    estimator = tf.estimator.Estimator(model_fn, FLAGS.model_dir, config=config)
    estimator.train(input_fn(512, 0, True), steps=FLAGS.steps)
    result = estimator.evaluate(input_fn(256, 1, False))
    transitions = estimator.get_variable_value("transitions")
    print("RESULT " + json.dumps({"accuracy": float(result["accuracy"]),
                                  "transitions": np.round(transitions, 2).tolist(),
                                  "variables": sorted(estimator.get_variable_names())}))


if __name__ == "__main__":
    tf.app.run()
