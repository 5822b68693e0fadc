"""A TF 1.x drawing classifier in the style of tensorflow/models' "Recurrent Neural Networks
for Drawing Classification" (tutorials/rnn/quickdraw/train_model.py): variable-length stroke
sequences (dx, dy, pen lifted) from TFRecords, 1-D convolutions, a stack of bidirectional
LSTMs (tf.contrib.rnn.stack_bidirectional_dynamic_rnn over LSTMBlockCell, or
tf.contrib.cudnn_rnn.CudnnLSTM with --cell_type=cudnn_lstm), the masked sum over time, a dense
layer; tf.contrib.layers.optimize_loss with gradient clipping; train_and_evaluate."""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import argparse
import ast
import functools
import sys

import tensorflow as tf


def get_num_classes():
    classes = []
    with tf.gfile.GFile(FLAGS.classes_file, "r") as f:
        classes = [x for x in f]
    return len(classes)


def get_input_fn(mode, tfrecord_pattern, batch_size):
    """Creates an input_fn that stores all the data in memory."""

    def _parse_tfexample_fn(example_proto, mode):
        feature_to_type = {
            "ink": tf.VarLenFeature(dtype=tf.float32),
            "shape": tf.FixedLenFeature([2], dtype=tf.int64)
        }
        if mode != tf.estimator.ModeKeys.PREDICT:
            feature_to_type["class_index"] = tf.FixedLenFeature([1], dtype=tf.int64)
        parsed_features = tf.parse_single_example(example_proto, feature_to_type)
        labels = None
        if mode != tf.estimator.ModeKeys.PREDICT:
            labels = parsed_features["class_index"]
        parsed_features["ink"] = tf.sparse_tensor_to_dense(parsed_features["ink"])
        return parsed_features, labels

    def _input_fn():
        dataset = tf.data.TFRecordDataset.list_files(tfrecord_pattern, shuffle=False)
        if mode == tf.estimator.ModeKeys.TRAIN:
            dataset = dataset.shuffle(buffer_size=10, seed=1)
        dataset = dataset.repeat()
        dataset = dataset.interleave(tf.data.TFRecordDataset, cycle_length=2, block_length=1)
        dataset = dataset.map(functools.partial(_parse_tfexample_fn, mode=mode))
        if mode == tf.estimator.ModeKeys.TRAIN:
            dataset = dataset.shuffle(buffer_size=200, seed=2)
        dataset = dataset.padded_batch(batch_size, padded_shapes=dataset.output_shapes,
                                       drop_remainder=True)
        features, labels = dataset.make_one_shot_iterator().get_next()
        return features, labels

    return _input_fn


def model_fn(features, labels, mode, params):
    """Model function for RNN classifier."""

    def _get_input_tensors(features, labels):
        shapes = features["shape"]
        lengths = tf.squeeze(tf.slice(shapes, begin=[0, 0], size=[params.batch_size, 1]))
        inks = tf.reshape(features["ink"], [params.batch_size, -1, 3])
        if labels is not None:
            labels = tf.squeeze(labels)
        return inks, lengths, labels

    def _add_conv_layers(inks, lengths):
        convolved = inks
        for i in range(len(params.num_conv)):
            convolved_input = convolved
            if params.batch_norm:
                convolved_input = tf.layers.batch_normalization(
                    convolved_input, training=(mode == tf.estimator.ModeKeys.TRAIN))
            if i > 0 and params.dropout:
                convolved_input = tf.layers.dropout(
                    convolved_input, rate=params.dropout,
                    training=(mode == tf.estimator.ModeKeys.TRAIN))
            convolved = tf.layers.conv1d(
                convolved_input, filters=params.num_conv[i], kernel_size=params.conv_len[i],
                activation=None, strides=1, padding="same", name="conv1d_%d" % i)
        return convolved, lengths

    def _add_regular_rnn_layers(convolved, lengths):
        if params.cell_type == "lstm":
            cell = tf.nn.rnn_cell.BasicLSTMCell
        elif params.cell_type == "block_lstm":
            cell = tf.contrib.rnn.LSTMBlockCell
        cells_fw = [cell(params.num_nodes) for _ in range(params.num_layers)]
        cells_bw = [cell(params.num_nodes) for _ in range(params.num_layers)]
        if params.dropout > 0.0:
            cells_fw = [tf.contrib.rnn.DropoutWrapper(cell) for cell in cells_fw]
            cells_bw = [tf.contrib.rnn.DropoutWrapper(cell) for cell in cells_bw]
        outputs, _, _ = tf.contrib.rnn.stack_bidirectional_dynamic_rnn(
            cells_fw=cells_fw, cells_bw=cells_bw, inputs=convolved, sequence_length=lengths,
            dtype=tf.float32, scope="rnn_classification")
        return outputs

    def _add_cudnn_rnn_layers(convolved):
        convolved = tf.transpose(convolved, [1, 0, 2])
        lstm = tf.contrib.cudnn_rnn.CudnnLSTM(
            num_layers=params.num_layers, num_units=params.num_nodes,
            dropout=params.dropout if mode == tf.estimator.ModeKeys.TRAIN else 0.0,
            direction="bidirectional")
        outputs, _ = lstm(convolved)
        outputs = tf.transpose(outputs, [1, 0, 2])
        return outputs

    def _add_rnn_layers(convolved, lengths):
        if params.cell_type != "cudnn_lstm":
            outputs = _add_regular_rnn_layers(convolved, lengths)
        else:
            outputs = _add_cudnn_rnn_layers(convolved)
        mask = tf.tile(tf.expand_dims(tf.sequence_mask(lengths, tf.shape(outputs)[1]), 2),
                       [1, 1, tf.shape(outputs)[2]])
        zero_outside = tf.where(mask, outputs, tf.zeros_like(outputs))
        outputs = tf.reduce_sum(zero_outside, axis=1)
        return outputs

    def _add_fc_layers(final_state):
        return tf.layers.dense(final_state, params.num_classes)

    inks, lengths, labels = _get_input_tensors(features, labels)
    convolved, lengths = _add_conv_layers(inks, lengths)
    final_state = _add_rnn_layers(convolved, lengths)
    logits = _add_fc_layers(final_state)
    cross_entropy = tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    train_op = tf.contrib.layers.optimize_loss(
        loss=cross_entropy,
        global_step=tf.train.get_global_step(),
        learning_rate=params.learning_rate,
        optimizer="Adam",
        clip_gradients=params.gradient_clipping_norm,
        summaries=["learning_rate", "loss", "gradients", "gradient_norm"])
    predictions = tf.argmax(logits, axis=1)
    return tf.estimator.EstimatorSpec(
        mode=mode,
        predictions={"logits": logits, "predictions": predictions},
        loss=cross_entropy,
        train_op=train_op,
        eval_metric_ops={"accuracy": tf.metrics.accuracy(labels, predictions)})


def create_estimator_and_specs(run_config):
    """Creates an Experiment configuration based on the estimator and input fn."""
    model_params = tf.contrib.training.HParams(
        num_layers=FLAGS.num_layers,
        num_nodes=FLAGS.num_nodes,
        batch_size=FLAGS.batch_size,
        num_conv=ast.literal_eval(FLAGS.num_conv),
        conv_len=ast.literal_eval(FLAGS.conv_len),
        num_classes=get_num_classes(),
        learning_rate=FLAGS.learning_rate,
        gradient_clipping_norm=FLAGS.gradient_clipping_norm,
        cell_type=FLAGS.cell_type,
        batch_norm=FLAGS.batch_norm,
        dropout=FLAGS.dropout)

    estimator = tf.estimator.Estimator(model_fn=model_fn, config=run_config,
                                       params=model_params)
    train_spec = tf.estimator.TrainSpec(input_fn=get_input_fn(
        mode=tf.estimator.ModeKeys.TRAIN, tfrecord_pattern=FLAGS.training_data,
        batch_size=FLAGS.batch_size), max_steps=FLAGS.steps)
    eval_spec = tf.estimator.EvalSpec(input_fn=get_input_fn(
        mode=tf.estimator.ModeKeys.EVAL, tfrecord_pattern=FLAGS.eval_data,
        batch_size=FLAGS.batch_size), steps=FLAGS.eval_steps, throttle_secs=0)
    return estimator, train_spec, eval_spec


def main(unused_args):
    estimator, train_spec, eval_spec = create_estimator_and_specs(
        run_config=tf.estimator.RunConfig(
            model_dir=FLAGS.model_dir,
            save_checkpoints_steps=FLAGS.steps,
            save_summary_steps=100,
            tf_random_seed=FLAGS.seed))
    tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.register("type", "bool", lambda v: v.lower() == "true")
    parser.add_argument("--training_data", type=str, default="")
    parser.add_argument("--eval_data", type=str, default="")
    parser.add_argument("--classes_file", type=str, default="")
    parser.add_argument("--num_layers", type=int, default=1)
    parser.add_argument("--num_nodes", type=int, default=16)
    parser.add_argument("--batch_size", type=int, default=16)
    parser.add_argument("--num_conv", type=str, default="[16, 16]")
    parser.add_argument("--conv_len", type=str, default="[5, 3]")
    parser.add_argument("--cell_type", type=str, default="block_lstm")
    parser.add_argument("--batch_norm", type="bool", default="False")
    parser.add_argument("--learning_rate", type=float, default=0.01)
    parser.add_argument("--gradient_clipping_norm", type=float, default=9.0)
    parser.add_argument("--dropout", type=float, default=0.0)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--eval_steps", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--model_dir", type=str, default="")
    FLAGS, unparsed = parser.parse_known_args()
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
