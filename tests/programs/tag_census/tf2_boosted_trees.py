"""A TF 2.x program that trains the BoostedTrees estimators a few steps, for the TensorBoard tag
census (tools/tag_census.py, tests/test_tag_census.py). tf.estimator dropped BoostedTrees after
2.8, so its original is TensorFlow 2.8 + tensorflow-estimator 2.8 (`record tf28`).

Each case trains into `<root>/<case>` (2 trees of depth 2, one batch per layer: training ends
after 4 layers) with summaries and `global_step/sec` every 5 steps, then evaluates 2 batches.

    python tf2_boosted_trees.py --root DIR [--only CASE ...]
"""
import argparse
import os
import time

import numpy as np
import tensorflow as tf

STEPS, EVERY, BATCH, N = 12, 5, 16, 96
RNG = np.random.RandomState(0)
X = RNG.normal(size=(N, 4)).astype(np.float32)
Y2 = (X[:, 0] + X[:, 1] > 0).astype(np.int64)
YR = (X[:, 0] - 2 * X[:, 2] + 0.5).astype(np.float32)
KEYS = "abcd"
fc = tf.feature_column
COLS = [fc.bucketized_column(fc.numeric_column(k), [-1.0, 0.0, 1.0]) for k in KEYS]
E = tf.estimator


def input_fn(labels, repeat=True):
    def fn():
        data = tf.data.Dataset.from_tensor_slices(
            ({k: X[:, i] for i, k in enumerate(KEYS)}, labels))
        return (data.repeat() if repeat else data).batch(BATCH)
    return fn


def config(model_dir):
    return E.RunConfig(model_dir=model_dir, tf_random_seed=0, save_summary_steps=EVERY,
                       log_step_count_steps=EVERY)


CASES = {
    "boosted_trees_classifier": (lambda d: E.BoostedTreesClassifier(
        COLS, n_batches_per_layer=1, n_trees=2, max_depth=2, config=config(d)), Y2),
    "boosted_trees_regressor": (lambda d: E.BoostedTreesRegressor(
        COLS, n_batches_per_layer=1, n_trees=2, max_depth=2, config=config(d)), YR),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
    for name in args.only or list(CASES):
        started = time.time()
        make, labels = CASES[name]
        estimator = make(os.path.join(args.root, name))
        estimator.train(input_fn(labels), steps=STEPS)
        estimator.evaluate(input_fn(labels, repeat=False), steps=2)
        print(f"done {name} {time.time() - started:.1f}s", flush=True)


if __name__ == "__main__":
    main()
