"""Keras optimizers as TF 2.x estimator programs used them, found in public programs.

- The TF 2.0-2.10 migration guide's model_fn: `optimizer.iterations =
  tf.compat.v1.train.get_or_create_global_step()` then `optimizer.get_updates(loss, vars)[0]`
  as the train_op (Keras 3 has no `iterations` setter and no `get_updates`). Checked against
  TF 2.15 + tf.estimator 2.15 running the same model_fn with `tf.keras.optimizers.legacy.Adam`
  (2.15's new optimizers had lost `get_updates` too): w 1.50012, b 1.13706, loss 1.77982 at
  global_step 30; ours w 1.50011, b 1.13706, loss 1.77988.
- A canned estimator given a Keras optimizer instance (`DNNRegressor(optimizer=
  tf.keras.optimizers.Adam(...))`) writes its `model.ckpt-N.meta` files too (reading the Keras
  optimizer's settings failed in the TF1 graph the .meta is built in).
"""
import os

import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec

X = np.linspace(0, 5, 50).astype(np.float32)
Y = (2 * X + 1).astype(np.float32)


def _input_fn():
    return tf.data.Dataset.from_tensor_slices(({"x": X}, Y)).batch(10).repeat()


def _eval_input_fn():
    return tf.data.Dataset.from_tensor_slices(({"x": X}, Y)).batch(10)


def _migration_guide_model_fn(features, labels, mode):
    x = tf.reshape(features["x"], [-1, 1])
    w = tf.Variable(tf.constant([[0.5]]), name="w")
    b = tf.Variable(0.0, name="b")
    pred = tf.reshape(tf.matmul(x, w) + b, [-1])
    loss = tf.reduce_mean((pred - labels) ** 2)
    optimizer = tf.keras.optimizers.Adam(
        learning_rate=tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5))
    optimizer.iterations = tf.compat.v1.train.get_or_create_global_step()
    train_op = optimizer.get_updates(loss, [w, b])[0]
    return ec.EstimatorSpec(mode, loss=loss, train_op=tf.group(train_op), predictions=pred)


def test_iterations_set_to_global_step_and_get_updates(tmp_path):
    est = ec.Estimator(_migration_guide_model_fn, str(tmp_path))
    est.train(_input_fn, steps=30)
    assert est.get_variable_value("global_step") == 30  # apply_gradients counted it
    assert est.get_variable_value("w")[0, 0] == pytest.approx(1.50012, abs=1e-4)
    assert est.get_variable_value("b") == pytest.approx(1.13706, abs=1e-4)
    assert est.evaluate(_eval_input_fn)["loss"] == pytest.approx(1.77982, rel=1e-3)
    est.train(_input_fn, steps=5)  # resumes: the schedule and Adam's step read global_step
    assert est.get_variable_value("global_step") == 35


def test_get_updates_errors_name_the_fix():
    optimizer = tf.keras.optimizers.SGD(0.1)
    w = tf.Variable(1.0)
    with pytest.raises(RuntimeError, match="GradientTape"):
        optimizer.get_updates(lambda: w * 2.0, [w])
    with pytest.raises(TypeError, match="get_or_create_global_step"):
        optimizer.iterations = 3

    @tf.function
    def no_gradient():
        other = tf.constant(1.0)
        return optimizer.get_gradients(other * 2.0, [w])
    with pytest.raises(ValueError, match="no gradient"):
        no_gradient()


def test_canned_estimator_with_keras_optimizer_writes_meta(tmp_path):
    est = ec.DNNRegressor([4], [tf.feature_column.numeric_column("x")], model_dir=str(tmp_path),
                          optimizer=tf.keras.optimizers.Adam(learning_rate=0.01))
    est.train(_input_fn, steps=3)
    metas = sorted(f for f in os.listdir(tmp_path) if f.endswith(".meta"))
    assert metas == ["model.ckpt-0.meta", "model.ckpt-3.meta"]
    with tf.Graph().as_default(), tf.compat.v1.Session() as sess:
        saver = tf.compat.v1.train.import_meta_graph(str(tmp_path / "model.ckpt-3.meta"))
        saver.restore(sess, str(tmp_path / "model.ckpt-3"))
        assert sess.run(tf.compat.v1.train.get_global_step()) == 3


def test_keras_model_get_losses_for_and_get_updates_for(tmp_path):
    """TF 2.0-2.3's guide: reg losses and update ops from `get_losses_for` / `get_updates_for`
    (gone from Keras 3): the two loss lists add up to model.losses; BatchNormalization's
    moving mean moves without update ops (Keras 3 updates it as it is called)."""
    ec.install()  # what puts them on keras.layers.Layer
    seen = {}

    def model_fn(features, labels, mode):
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(3, kernel_regularizer=tf.keras.regularizers.l2(0.1),
                                  activity_regularizer=tf.keras.regularizers.l1(0.01)),
            tf.keras.layers.BatchNormalization(), tf.keras.layers.Dense(1)])
        training = mode == ec.ModeKeys.TRAIN
        pred = tf.reshape(model(tf.reshape(features["x"], [-1, 1]), training=training), [-1])
        unconditional, conditional = model.get_losses_for(None), model.get_losses_for(features)
        seen["losses"] = (len(unconditional), len(conditional), len(model.losses))
        loss = tf.reduce_mean((pred - labels) ** 2) + tf.math.add_n(unconditional + conditional)
        optimizer = tf.keras.optimizers.Adagrad(0.1)
        optimizer.iterations = tf.compat.v1.train.get_or_create_global_step()
        update_ops = model.get_updates_for(None) + model.get_updates_for(features)
        seen["updates"] = update_ops
        minimize_op = optimizer.get_updates(loss, model.trainable_variables)[0]
        return ec.EstimatorSpec(mode, loss=loss, train_op=tf.group(minimize_op, *update_ops))

    est = ec.Estimator(model_fn, str(tmp_path))
    est.train(_input_fn, steps=5)
    assert seen["losses"] == (1, 1, 2) and seen["updates"] == []
    assert est.get_variable_value("global_step") == 5
    mean = [n for n in est.get_variable_names() if n.endswith("moving_mean")]
    assert mean and np.any(est.get_variable_value(mean[0]) != 0)
