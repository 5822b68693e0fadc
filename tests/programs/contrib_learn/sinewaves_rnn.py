"""Time-series prediction with a tf.contrib.learn Estimator, in the style of the 2017 Cloud ML
Engine "simple RNN on sine waves" notebooks (training-data-analyst).

The idioms it keeps: CSV files read through queues (`tf.train.match_filenames_once`,
`string_input_producer(num_epochs=...)`, `TextLineReader().read_up_to`, `decode_csv`), a model
function `simple_rnn(features, targets, mode)` (contrib.learn passed features and targets by
position) with `tf.contrib.rnn.BasicLSTMCell` / `static_rnn`, raw `tf.Variable`s and
`tf.contrib.layers.optimize_loss`, returning `tf.contrib.learn.ModelFnOps`; an Experiment with
`eval_metrics={'rmse': MetricSpec(metric_fn=tf.contrib.metrics.streaming_root_mean_squared_
error)}`, a serving input_fn returning `InputFnOps`, `make_export_strategy`, and the old
`learn_runner.run(experiment_fn, output_dir)` with `experiment_fn(output_dir)`.
Usage: sinewaves_rnn.py --output_dir DIR. Prints `RESULT <json>`.
"""
import json
import os

import numpy as np
import tensorflow as tf
import tensorflow.contrib.learn as tflearn
import tensorflow.contrib.metrics as metrics
from tensorflow.contrib import rnn
from tensorflow.contrib.learn.python.learn import learn_runner
from tensorflow.contrib.learn.python.learn.utils import saved_model_export_utils

tf.logging.set_verbosity(tf.logging.INFO)
tf.app.flags.DEFINE_string("output_dir", None, "Where to write data and model.")
tf.app.flags.DEFINE_integer("train_steps", 400, "Training steps.")
FLAGS = tf.app.flags.FLAGS

SEQ_LEN = 10
DEFAULTS = [[0.0] for x in range(0, SEQ_LEN)]
BATCH_SIZE = 20
TIMESERIES_COL = 'rawdata'
N_OUTPUTS = 2  # the last two values are predicted from the first SEQ_LEN - 2
N_INPUTS = SEQ_LEN - N_OUTPUTS
LSTM_SIZE = 3


def create_time_series(rng):
    freq = (rng.random_sample() * 0.5) + 0.1  # 0.1 to 0.6
    ampl = rng.random_sample() + 0.5  # 0.5 to 1.5
    return np.sin(np.arange(0, SEQ_LEN) * freq) * ampl


def to_csv(filename, n, seed):
    rng = np.random.RandomState(seed)
    with open(filename, 'w') as ofp:
        for _ in range(n):
            ofp.write(",".join("%.6f" % v for v in create_time_series(rng)) + '\n')


def read_dataset(filename, mode=tf.contrib.learn.ModeKeys.TRAIN):
    def _input_fn():
        num_epochs = 100 if mode == tf.contrib.learn.ModeKeys.TRAIN else 1
        input_file_names = tf.train.match_filenames_once(filename)
        filename_queue = tf.train.string_input_producer(
            input_file_names, num_epochs=num_epochs, shuffle=True)
        reader = tf.TextLineReader()
        _, value = reader.read_up_to(filename_queue, num_records=BATCH_SIZE)
        value_column = tf.expand_dims(value, -1)
        all_data = tf.decode_csv(value_column, record_defaults=DEFAULTS)
        inputs = all_data[:len(all_data) - N_OUTPUTS]
        label = all_data[len(all_data) - N_OUTPUTS:]
        inputs = tf.concat(inputs, axis=1)
        label = tf.concat(label, axis=1)
        return {TIMESERIES_COL: inputs}, label
    return _input_fn


def simple_rnn(features, targets, mode):
    x = tf.split(features[TIMESERIES_COL], N_INPUTS, 1)
    lstm_cell = rnn.BasicLSTMCell(LSTM_SIZE, forget_bias=1.0)
    outputs, _ = rnn.static_rnn(lstm_cell, x, dtype=tf.float32)
    outputs = outputs[-1]
    weight = tf.Variable(tf.random_normal([LSTM_SIZE, N_OUTPUTS], seed=3))
    bias = tf.Variable(tf.random_normal([N_OUTPUTS], seed=4))
    predictions = tf.matmul(outputs, weight) + bias
    if mode == tf.contrib.learn.ModeKeys.TRAIN or mode == tf.contrib.learn.ModeKeys.EVAL:
        loss = tf.losses.mean_squared_error(targets, predictions)
        train_op = tf.contrib.layers.optimize_loss(
            loss=loss, global_step=tf.contrib.framework.get_global_step(),
            learning_rate=0.01, optimizer="Adam")
        eval_metric_ops = {"rmse": tf.metrics.root_mean_squared_error(targets, predictions)}
    else:
        loss = None
        train_op = None
        eval_metric_ops = None
    predictions_dict = {"predicted": predictions}
    return tflearn.ModelFnOps(mode=mode, predictions=predictions_dict, loss=loss,
                              train_op=train_op, eval_metric_ops=eval_metric_ops)


def serving_input_fn():
    feature_placeholders = {TIMESERIES_COL: tf.placeholder(tf.float32, [None, N_INPUTS])}
    features = {key: tf.expand_dims(tensor, -1)
                for key, tensor in feature_placeholders.items()}
    features[TIMESERIES_COL] = tf.squeeze(features[TIMESERIES_COL], axis=[2])
    return tflearn.utils.input_fn_utils.InputFnOps(features, None, feature_placeholders)


def experiment_fn(output_dir):
    return tflearn.Experiment(
        tflearn.Estimator(model_fn=simple_rnn, model_dir=output_dir),
        train_input_fn=read_dataset(os.path.join(FLAGS.output_dir, 'train.csv')),
        eval_input_fn=read_dataset(os.path.join(FLAGS.output_dir, 'valid.csv'),
                                   mode=tf.contrib.learn.ModeKeys.EVAL),
        eval_metrics={'rmse': tflearn.MetricSpec(
            metric_fn=metrics.streaming_root_mean_squared_error)},
        train_steps=FLAGS.train_steps, eval_delay_secs=0,
        export_strategies=[saved_model_export_utils.make_export_strategy(
            serving_input_fn, default_output_alternative_key=None, exports_to_keep=1)])


def main(_):
    to_csv(os.path.join(FLAGS.output_dir, 'train.csv'), 1000, 1)
    to_csv(os.path.join(FLAGS.output_dir, 'valid.csv'), 50, 2)
    eval_result, exports = learn_runner.run(experiment_fn, os.path.join(FLAGS.output_dir,
                                                                        'outputdir'))
    print("RESULT " + json.dumps({"rmse": float(eval_result["rmse"]),
                                  "global_step": int(eval_result["global_step"]),
                                  "exports": [e.decode() if isinstance(e, bytes) else e
                                              for e in exports]}))


if __name__ == '__main__':
    tf.app.run()
