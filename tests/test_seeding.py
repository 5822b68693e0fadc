"""engine/seeding.py: RunConfig(tf_random_seed=...) repeats a model's starting weights, Keras 3
layers included, without touching the program's own Python `random` stream."""
import random

import numpy as np
import tensorflow as tf

import estimator_compat as ec
from helpers import linear_input_fn

v1 = tf.compat.v1


def _model_fn(features, labels, mode):
    """A Keras 3 layer (seeds from Python's `random`) beside a TF1 variable (the graph seed)."""
    hidden = tf.keras.layers.Dense(4, activation="relu", name="hidden")(features["x"])
    pred = tf.matmul(hidden, v1.get_variable("w", [4, 1]))
    loss = tf.reduce_mean(tf.square(pred - labels))
    train_op = v1.train.GradientDescentOptimizer(0.0).minimize(
        loss, global_step=v1.train.get_or_create_global_step())
    return ec.EstimatorSpec(mode, loss=loss, train_op=train_op)


def _weights(model_dir, seed):
    est = ec.Estimator(_model_fn, model_dir=str(model_dir),
                       config=ec.RunConfig(tf_random_seed=seed))
    est.train(linear_input_fn(), steps=1)
    return {n: est.get_variable_value(n) for n in est.get_variable_names()
            if n != "global_step"}


def test_seed_repeats_keras_and_tf1_initial_weights(tmp_path):
    state = random.getstate()
    first = _weights(tmp_path / "a", 3)
    assert random.getstate() == state  # the program's own `random` stream is untouched
    random.random()  # and the program moves it on
    second = _weights(tmp_path / "b", 3)
    other = _weights(tmp_path / "c", 4)
    assert set(first) == set(second) and len(first) == 3, sorted(first)
    for name in first:
        np.testing.assert_array_equal(first[name], second[name], err_msg=name)
        if "bias" not in name:  # zeros whatever the seed
            assert not np.array_equal(first[name], other[name]), name


def test_without_a_seed_each_estimator_draws_its_own(tmp_path):
    first, second = _weights(tmp_path / "a", None), _weights(tmp_path / "b", None)
    kernel = next(n for n in first if n.startswith("hidden") and "kernel" in n)
    assert not np.array_equal(first[kernel], second[kernel])
