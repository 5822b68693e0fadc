"""engine/metric_reset.py: every evaluate starts from zeroed metrics, in one compiled call."""
import numpy as np
import tensorflow as tf

import estimator_compat as ec
from estimator_compat.engine.metric_reset import MetricReset
from helpers import linear_input_fn

v1 = tf.compat.v1


def test_reset_zeroes_every_variable_and_traces_once_per_set():
    a, b = tf.Variable([1.0, 2.0]), tf.Variable(3, dtype=tf.int64)
    reset = MetricReset()
    reset.reset([a, b])
    assert a.numpy().tolist() == [0.0, 0.0] and int(b.numpy()) == 0
    fn = reset._fn
    a.assign([5.0, 6.0])
    reset.reset([a, b])
    assert reset._fn is fn and a.numpy().tolist() == [0.0, 0.0]
    c = tf.Variable(7.0)
    reset.reset([a, c])  # another set: another function
    assert reset._fn is not fn and float(c.numpy()) == 0.0
    reset.reset([])  # nothing to reset is not an error


def _metrics_model_fn(features, labels, mode):
    pred = tf.matmul(features["x"], v1.get_variable("w", [3, 1])) + v1.get_variable("b", [1])
    loss = tf.reduce_mean(tf.square(pred - labels))
    if mode == ec.ModeKeys.TRAIN:
        return ec.EstimatorSpec(mode, loss=loss, train_op=v1.train.GradientDescentOptimizer(
            0.1).minimize(loss, global_step=v1.train.get_or_create_global_step()))
    keras_mean = tf.keras.metrics.Mean()
    keras_mean.update_state(pred)
    return ec.EstimatorSpec(mode, loss=loss, eval_metric_ops={
        "mae": v1.metrics.mean_absolute_error(labels, pred),
        "auc": v1.metrics.auc(tf.cast(labels > 0.3, tf.int32), tf.sigmoid(pred)),
        "keras_mean": keras_mean})


def test_each_evaluate_starts_from_zero(tmp_path):
    est = ec.Estimator(_metrics_model_fn, model_dir=str(tmp_path))
    est.train(linear_input_fn(), steps=5)
    est.evaluate(linear_input_fn(batch=64, repeat=False))  # 4 batches into the metrics
    one_batch = est.evaluate(linear_input_fn(batch=64, repeat=False), steps=1)
    fresh = ec.Estimator(_metrics_model_fn, model_dir=str(tmp_path)).evaluate(
        linear_input_fn(batch=64, repeat=False), steps=1)
    for key in ("mae", "auc", "keras_mean", "loss"):  # not the 5 batches' values
        np.testing.assert_allclose(one_batch[key], fresh[key], rtol=1e-6, err_msg=key)
