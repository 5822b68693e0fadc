"""The TF 1.0-1.2 "tf.contrib.learn Quickstart" (Iris) as it was written: a
`tf.contrib.layers.real_valued_column("", dimension=4)`, a 10-20-10
`tf.contrib.learn.DNNClassifier` over 3 classes, `fit(x, y, steps)`, `evaluate(x, y)` and
`predict_classes` on two new flowers. The data are iris-like: 40 + 10 flowers per class drawn
around the three species' means (numpy RandomState(0)), so the program runs anywhere,
TF 1.15 included.

    python iris_quickstart.py --model_dir DIR [--steps 400]
"""
import argparse
import json
import tempfile

import numpy as np
import tensorflow as tf

MEANS = [[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]]
STDS = [[0.35, 0.38, 0.17, 0.1], [0.5, 0.3, 0.47, 0.2], [0.64, 0.32, 0.55, 0.27]]


def iris_like(per_class, rng):
    x = np.concatenate([rng.normal(m, s, size=(per_class, 4)) for m, s in zip(MEANS, STDS)])
    y = np.repeat(np.arange(3), per_class)
    order = rng.permutation(len(y))
    return x[order].astype(np.float32), y[order].astype(np.int32)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", default=None)
    parser.add_argument("--steps", type=int, default=400)
    args = parser.parse_args()
    rng = np.random.RandomState(0)
    train_x, train_y = iris_like(40, rng)
    test_x, test_y = iris_like(10, rng)

    feature_columns = [tf.contrib.layers.real_valued_column("", dimension=4)]
    classifier = tf.contrib.learn.DNNClassifier(feature_columns=feature_columns,
                                                hidden_units=[10, 20, 10], n_classes=3,
                                                model_dir=args.model_dir or tempfile.mkdtemp())
    classifier.fit(x=train_x, y=train_y, steps=args.steps)
    scores = classifier.evaluate(x=test_x, y=test_y)
    print("Accuracy: {0:f}".format(scores["accuracy"]))

    new_samples = np.array([[6.4, 3.2, 4.5, 1.5], [5.8, 3.1, 5.0, 1.7]], dtype=np.float32)
    predicted = [int(p) for p in classifier.predict_classes(new_samples)]
    print("Predictions: {}".format(predicted))
    print("RESULT " + json.dumps({
        "accuracy": float(scores["accuracy"]), "loss": float(scores["loss"]),
        "global_step": int(scores["global_step"]), "metric_keys": sorted(scores),
        "predictions": predicted, "variables": classifier.get_variable_names()}))


if __name__ == "__main__":
    main()
