"""Resuming model_dirs whose object-based checkpoints tf.estimator 2.15 wrote for Keras 2
objects (tests/fixtures/tf215_object_keras, made by make_tf215_object_checkpoint.py): the
guide's `Scaffold(saver=tf.train.Checkpoint(step=..., optimizer=Adam, net=Net))` model_fn.
Keras 3 names a Dense kernel `_kernel` and keeps the learning rate before the optimizer's
slots; the values must still land in the right variables."""
import json
import os
import shutil

import keras
import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                    "tf215_object_keras")
EXPECTED = json.load(open(os.path.join(HERE, "expected.json")))


def toy_dataset():
    inputs = tf.range(10.)[:, None]
    labels = inputs * 5. + tf.range(5.)[None, :]
    return tf.data.Dataset.from_tensor_slices(dict(x=inputs, y=labels)).repeat().batch(2)


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.l1 = keras.layers.Dense(5)

    def call(self, x):
        return self.l1(x)


def model_fn(features, labels, mode):
    net = Net()
    opt = keras.optimizers.Adam(0.1)
    ckpt = tf.train.Checkpoint(step=tf.compat.v1.train.get_global_step(), optimizer=opt,
                               net=net)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.abs(net(features['x']) - features['y']))
    variables = net.trainable_variables
    gradients = tape.gradient(loss, variables)
    return ec.EstimatorSpec(mode, loss=loss,
                            train_op=tf.group(opt.apply_gradients(zip(gradients, variables)),
                                              ckpt.step.assign_add(1)),
                            scaffold=tf.compat.v1.train.Scaffold(saver=ckpt))


def copy(name, tmp_path):
    return shutil.copytree(os.path.join(HERE, name), str(tmp_path / name))


def test_tf215_estimator_model_dir_evaluates_and_resumes(tmp_path):
    """2.15 evaluated its step-10 weights (kept under Keras 2's `net/l1/kernel`) to this loss;
    training goes on from step 10 (its optimizer counted 10 iterations)."""
    est = ec.Estimator(model_fn, copy("estimator", tmp_path))
    result = est.evaluate(toy_dataset, steps=5)
    assert result["global_step"] == 10
    assert result["loss"] == pytest.approx(EXPECTED["estimator_eval_loss"], rel=1e-6)
    est.train(toy_dataset, steps=10)
    reader = tf.train.load_checkpoint(est.latest_checkpoint())
    assert reader.get_tensor("step/.ATTRIBUTES/VARIABLE_VALUE") == 20
    assert reader.get_tensor("optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE") == 20


def test_keras2_adam_slots_continue_where_they_were(tmp_path):
    """Non-zero Adam slots written by Keras 2.15: one more step from them gives the weights
    Keras 2.15 computed for the same step (a slot put in the wrong variable would not)."""
    model_dir = copy("eager", tmp_path)
    est = ec.Estimator(model_fn, model_dir)
    est.train(toy_dataset, steps=1)
    reader = tf.train.load_checkpoint(os.path.join(model_dir, "model.ckpt-6"))
    after = EXPECTED["eager_after_one_more_step"]
    np.testing.assert_allclose(reader.get_tensor("net/l1/_kernel/.ATTRIBUTES/VARIABLE_VALUE"),
                               after["kernel"], rtol=1e-5)
    np.testing.assert_allclose(reader.get_tensor("net/l1/bias/.ATTRIBUTES/VARIABLE_VALUE"),
                               after["bias"], rtol=1e-5)


def test_objects_the_checkpoint_lacks_are_named(tmp_path):
    model_dir = copy("eager", tmp_path)

    def bigger_model_fn(features, labels, mode):
        spec = model_fn(features, labels, mode)
        extra = keras.Variable(np.zeros(3, np.float32), name="extra")
        saver = spec.scaffold.saver
        saver.extra = extra
        return spec
    with pytest.raises(ValueError, match=r"does not hold these objects .*\['extra'\]"):
        ec.Estimator(bigger_model_fn, model_dir).train(toy_dataset, steps=1)
