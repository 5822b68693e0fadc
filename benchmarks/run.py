"""Train throughput: estimator_compat vs Keras `fit` on the same model and data, in one run.

    python benchmarks/run.py [--steps 300] [--batch 128]

Prints examples/sec for each and the ratio against Keras fit. No thresholds: a figure to read.
"""
import argparse
import logging
import os
import sys
import tempfile
import time

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tensorflow as tf  # noqa: E402
import keras  # noqa: E402

import estimator_compat as ec  # noqa: E402

v1 = tf.compat.v1


def data(n=8192, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.uniform(size=(n, 784)).astype(np.float32)
    y = rng.randint(0, 10, size=(n,)).astype(np.int64)
    return x, y


def dataset(batch):
    x, y = data()
    return tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(batch, drop_remainder=True)


MODELS = {"mlp": [256, 256], "wide_mlp": [1024, 1024]}


def model_fn(features, labels, mode, params):
    net = features
    for units in params["hidden"]:
        net = v1.layers.dense(net, units, activation=tf.nn.relu)
    logits = v1.layers.dense(net, 10)
    loss = v1.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = v1.train.AdamOptimizer(1e-3).minimize(loss, global_step=v1.train.get_global_step())
    return ec.EstimatorSpec(mode, loss=loss, train_op=train_op)


def bench_estimator(hidden, steps, batch):
    est = ec.Estimator(model_fn, model_dir=tempfile.mkdtemp(), params={"hidden": hidden})
    t0 = time.perf_counter()
    est.train(lambda: dataset(batch), steps=1)
    first = time.perf_counter() - t0
    est.train(lambda: dataset(batch), steps=20)  # warm
    t0 = time.perf_counter()
    est.train(lambda: dataset(batch), steps=steps)
    return steps * batch / (time.perf_counter() - t0), first


def bench_keras(hidden, steps, batch):
    layers = [keras.Input((784,))] + [keras.layers.Dense(u, activation="relu") for u in hidden]
    model = keras.Sequential(layers + [keras.layers.Dense(10)])
    model.compile(keras.optimizers.Adam(1e-3),
                  keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    t0 = time.perf_counter()
    model.fit(dataset(batch), steps_per_epoch=1, epochs=1, verbose=0)
    first = time.perf_counter() - t0
    model.fit(dataset(batch), steps_per_epoch=20, epochs=1, verbose=0)
    t0 = time.perf_counter()
    model.fit(dataset(batch), steps_per_epoch=steps, epochs=1, verbose=0)
    return steps * batch / (time.perf_counter() - t0), first


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--batch", type=int, default=128)
    args = parser.parse_args()
    logging.getLogger("tensorflow").setLevel(logging.ERROR)
    print(f"TensorFlow {tf.__version__}, Keras {keras.__version__}, {os.cpu_count()} CPUs, "
          f"batch {args.batch}, {args.steps} timed steps")
    print(f"{'model':10} {'estimator_compat ex/s':>22} {'keras fit ex/s':>15} {'ratio':>6} "
          f"{'first step s (ec/keras)':>24}")
    for name, hidden in MODELS.items():
        ec_rate, ec_first = bench_estimator(hidden, args.steps, args.batch)
        k_rate, k_first = bench_keras(hidden, args.steps, args.batch)
        print(f"{name:10} {ec_rate:22.0f} {k_rate:15.0f} {ec_rate / k_rate:6.2f} "
              f"{ec_first:11.2f} / {k_first:.2f}")


if __name__ == "__main__":
    main()
