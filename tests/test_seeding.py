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


def test_seeded_calls_after_the_first_keep_tensorflows_caches(tmp_path):
    """tf.random.set_seed clears TensorFlow's kernel and function caches (every compiled step
    instantiated again); only an Estimator's first call may pay that. Seen through a stateful
    random op, whose stream restarts when its cached kernel is dropped."""
    est = ec.Estimator(_model_fn, model_dir=str(tmp_path),
                       config=ec.RunConfig(tf_random_seed=5))
    est.train(linear_input_fn(), steps=2)
    first = tf.random.uniform([4], seed=11).numpy()
    est.evaluate(linear_input_fn(repeat=False), steps=2)
    est.train(linear_input_fn(), steps=2)
    assert not np.array_equal(tf.random.uniform([4], seed=11).numpy(), first)
    ec.Estimator(_model_fn, model_dir=str(tmp_path / "b"),
                 config=ec.RunConfig(tf_random_seed=5)).train(linear_input_fn(), steps=1)
    np.testing.assert_array_equal(tf.random.uniform([4], seed=11).numpy(), first)


def test_each_seeded_call_shuffles_its_input_as_the_first_did(tmp_path):
    """TF1 built a graph per call, so a seeded input_fn's shuffle gave every call the same
    order; it still does with the caches kept."""
    def input_fn():
        x = np.arange(64, dtype=np.float32).reshape(64, 1)
        return tf.data.Dataset.from_tensor_slices({"x": x}).shuffle(64).batch(8).take(2)

    def model_fn(features, labels, mode):
        return ec.EstimatorSpec(mode, predictions={"x": features["x"]})
    est = ec.Estimator(model_fn, model_dir=str(tmp_path), config=ec.RunConfig(tf_random_seed=2))
    runs = [np.stack([p["x"] for p in est.predict(input_fn)]) for _ in range(3)]
    np.testing.assert_array_equal(runs[0], runs[1])
    np.testing.assert_array_equal(runs[0], runs[2])


def test_seeded_calls_trace_each_mode_once(tmp_path, caplog):
    """A seeded Estimator's later calls reuse its compiled steps: the model_fn is traced once
    per mode (train: once more for the .meta graph), and no retrace is logged."""
    traced = []

    def model_fn(features, labels, mode):
        traced.append(mode)
        return _model_fn(features, labels, mode)
    est = ec.Estimator(model_fn, model_dir=str(tmp_path), config=ec.RunConfig(tf_random_seed=1))
    with caplog.at_level("INFO", logger="tensorflow"):
        for _ in range(2):
            est.train(linear_input_fn(), steps=2)
            est.evaluate(linear_input_fn(repeat=False), steps=2)
    assert traced.count("train") == 2 and traced.count("eval") == 1, traced
    assert not [r for r in caplog.records if "step of the model_fn" in r.getMessage()]
