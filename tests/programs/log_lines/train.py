"""A TF 1.x program whose INFO lines tests/test_log_lines.py compares with TF 1.15.5's: train
twice (the second restores), evaluate, predict, export, on a relative model_dir."""
import sys

import numpy as np
import tensorflow as tf


def input_fn():
    x = np.random.RandomState(0).rand(64, 3).astype(np.float32)
    return tf.data.Dataset.from_tensor_slices(({"x": x}, x.sum(1))).repeat().batch(8)


def model_fn(features, labels, mode):
    w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
    pred = tf.squeeze(tf.matmul(features["x"], w), 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"p": pred}, export_outputs={
            "serving_default": tf.estimator.export.PredictOutput({"p": pred})})
    loss = tf.reduce_mean(tf.square(pred - labels))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def serving_input_fn():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    return tf.estimator.export.ServingInputReceiver({"x": x}, {"x": x})


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    config = tf.estimator.RunConfig(save_checkpoints_steps=50, log_step_count_steps=1000)
    est = tf.estimator.Estimator(model_fn, model_dir="model", config=config)
    for phase in ("train", "second train"):
        print("=== " + phase, file=sys.stderr, flush=True)
        est.train(input_fn, steps=20)
    print("=== evaluate", file=sys.stderr, flush=True)
    est.evaluate(input_fn, steps=2)
    print("=== predict", file=sys.stderr, flush=True)
    next(est.predict(lambda: input_fn().take(2)))
    print("=== export", file=sys.stderr, flush=True)
    est.export_savedmodel("export", serving_input_fn)


if __name__ == "__main__":
    tf.app.run()
