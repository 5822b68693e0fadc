"""A TF 1.x seq2seq Estimator that learns to reverse digit strings: an LSTM encoder, an
AttentionWrapper (Bahdanau) decoder trained with TrainingHelper + BasicDecoder and
tf.contrib.seq2seq.sequence_loss, and beam search (BeamSearchDecoder, tile_batch) in PREDICT.
The data is made here (numpy, fixed seed)."""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "model_dir.")
flags.DEFINE_integer("train_steps", 200, "Training steps.")
flags.DEFINE_integer("beam_width", 3, "Beam width in PREDICT.")
FLAGS = flags.FLAGS

PAD, GO, EOS, VOCAB = 0, 1, 2, 13  # digits d are ids d + 3
MAX_LEN = 6


def make_data(n, seed):
    rng = np.random.RandomState(seed)
    source = np.zeros((n, MAX_LEN), np.int32)
    decoder_in = np.zeros((n, MAX_LEN + 1), np.int32)
    target = np.zeros((n, MAX_LEN + 1), np.int32)
    lengths = rng.randint(3, MAX_LEN + 1, size=n).astype(np.int32)
    for i, length in enumerate(lengths):
        digits = rng.randint(0, 10, size=length) + 3
        source[i, :length] = digits
        decoder_in[i, :length + 1] = np.concatenate([[GO], digits[::-1]])
        target[i, :length + 1] = np.concatenate([digits[::-1], [EOS]])
    features = {"source": source, "source_length": lengths, "decoder_in": decoder_in,
                "target_length": lengths + 1}
    return features, target


def input_fn(data, training, batch=64):
    features, target = data

    def fn():
        ds = tf.data.Dataset.from_tensor_slices((features, target))
        if training:
            ds = ds.shuffle(1000, seed=1).repeat()
        return ds.batch(batch)
    return fn


def model_fn(features, labels, mode, params):
    embedding = tf.get_variable("embedding", [VOCAB, 16])
    source_length = features["source_length"]
    with tf.variable_scope("encoder"):
        encoder_outputs, encoder_state = tf.nn.dynamic_rnn(
            tf.nn.rnn_cell.LSTMCell(32), tf.nn.embedding_lookup(embedding, features["source"]),
            sequence_length=source_length, dtype=tf.float32)
    batch_size = tf.shape(features["source"])[0]
    beam_width = params["beam_width"] if mode == tf.estimator.ModeKeys.PREDICT else 1
    if beam_width > 1:
        encoder_outputs = tf.contrib.seq2seq.tile_batch(encoder_outputs, beam_width)
        source_length = tf.contrib.seq2seq.tile_batch(source_length, beam_width)
        encoder_state = tf.contrib.seq2seq.tile_batch(encoder_state, beam_width)
    attention = tf.contrib.seq2seq.BahdanauAttention(32, encoder_outputs, source_length)
    cell = tf.contrib.seq2seq.AttentionWrapper(tf.nn.rnn_cell.LSTMCell(32), attention,
                                               attention_layer_size=32)
    initial_state = cell.zero_state(batch_size * beam_width, tf.float32).clone(
        cell_state=encoder_state)
    projection = tf.layers.Dense(VOCAB, name="output_projection")

    if mode == tf.estimator.ModeKeys.PREDICT:
        decoder = tf.contrib.seq2seq.BeamSearchDecoder(
            cell, embedding, tf.fill([batch_size], GO), EOS, initial_state, beam_width,
            output_layer=projection, length_penalty_weight=0.0)
        outputs, _, _ = tf.contrib.seq2seq.dynamic_decode(decoder,
                                                          maximum_iterations=MAX_LEN + 2)
        return tf.estimator.EstimatorSpec(mode, predictions={
            "ids": outputs.predicted_ids[:, :, 0],
            "score": outputs.beam_search_decoder_output.scores[:, -1, 0]})

    target_length = features["target_length"]
    helper = tf.contrib.seq2seq.TrainingHelper(
        tf.nn.embedding_lookup(embedding, features["decoder_in"]), target_length)
    decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, initial_state, projection)
    outputs, _, _ = tf.contrib.seq2seq.dynamic_decode(decoder, impute_finished=True)
    logits = outputs.rnn_output
    steps = tf.shape(logits)[1]
    weights = tf.sequence_mask(target_length, steps, dtype=tf.float32)
    targets = labels[:, :steps]
    loss = tf.contrib.seq2seq.sequence_loss(logits, targets, weights)
    train_op = tf.train.AdamOptimizer(0.005).minimize(loss, tf.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, eval_metric_ops={
        "token_accuracy": tf.metrics.accuracy(targets, outputs.sample_id, weights)})


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    train, test = make_data(3000, 0), make_data(200, 1)
    estimator = tf.estimator.Estimator(model_fn, model_dir=FLAGS.model_dir,
                                       params={"beam_width": FLAGS.beam_width},
                                       config=tf.estimator.RunConfig(tf_random_seed=1))
    estimator.train(input_fn(train, True), max_steps=FLAGS.train_steps)
    result = estimator.evaluate(input_fn(test, False))
    correct = 0
    features, target = test
    for i, prediction in enumerate(estimator.predict(input_fn(test, False))):
        length = features["target_length"][i]
        correct += int(np.array_equal(prediction["ids"][:length], target[i, :length]))
    print("token_accuracy = %.4f, loss = %.4f, global_step = %d"
          % (result["token_accuracy"], result["loss"], result["global_step"]))
    print("beam_sequence_accuracy = %.4f" % (correct / len(target)))


if __name__ == "__main__":
    tf.app.run()
