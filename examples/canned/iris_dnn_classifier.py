"""A canned tf.estimator.DNNClassifier on feature columns, as the TF1 premade-estimator tutorial
did, on scikit-learn's iris (no download), after estimator_compat.install().

    python examples/canned/iris_dnn_classifier.py --model_dir runs/iris --steps 1000
"""
import argparse
import os
import sys

import numpy as np
import tensorflow.compat.v1 as tf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import estimator_compat  # noqa: E402

estimator_compat.install()

COLUMNS = ["SepalLength", "SepalWidth", "PetalLength", "PetalWidth"]
SPECIES = ["Setosa", "Versicolor", "Virginica"]


def load(seed=0):
    from sklearn.datasets import load_iris
    x, y = load_iris(return_X_y=True)
    order = np.random.RandomState(seed).permutation(len(y))
    x, y = x[order].astype(np.float32), np.array(SPECIES)[y[order]]
    return (x[:120], y[:120]), (x[120:], y[120:])


def input_fn(x, y, training, batch_size=32):
    def fn():
        ds = tf.data.Dataset.from_tensor_slices(({c: x[:, i] for i, c in enumerate(COLUMNS)}, y))
        return (ds.shuffle(1000).repeat() if training else ds).batch(batch_size)
    return fn


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--steps", type=int, default=1000)
    args = parser.parse_args(argv)
    (train_x, train_y), (test_x, test_y) = load()
    feature_columns = [tf.feature_column.numeric_column(key=c) for c in COLUMNS]
    classifier = tf.estimator.DNNClassifier(
        feature_columns=feature_columns, hidden_units=[10, 10], n_classes=3,
        label_vocabulary=SPECIES, model_dir=args.model_dir,
        config=tf.estimator.RunConfig(tf_random_seed=0))
    classifier.train(input_fn(train_x, train_y, True), steps=args.steps)
    result = classifier.evaluate(input_fn(test_x, test_y, False))
    print(f"test accuracy = {result['accuracy']:.4f} on {len(test_y)} held-out flowers")
    return result


if __name__ == "__main__":
    main()
