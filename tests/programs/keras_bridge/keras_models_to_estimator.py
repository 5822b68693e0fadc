"""model_to_estimator over the Keras model kinds users converted, from fixed initial weights.

Sequential, functional with two named inputs, subclassed, and a model saved to a file; each
compiled with loss, optimizer and metrics, trained without shuffling or dropout from weights
drawn by numpy, so TensorFlow 2.15 + tf.estimator 2.15 and estimator_compat can be compared
number for number. Usage: python keras_models_to_estimator.py WORK_DIR. Prints `RESULT`s.
"""
import json
import os
import sys

import numpy as np
import tensorflow as tf
from sklearn.datasets import load_iris

work = sys.argv[1]
iris = load_iris()
X = ((iris.data - iris.data.mean(0)) / iris.data.std(0)).astype(np.float32)
Y = iris.target.astype(np.int64)


def fixed_weights(model):
    rng = np.random.RandomState(3)
    model.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype(np.float32)
                       for w in model.get_weights()])


def compiled(model, metrics=('accuracy',)):
    fixed_weights(model)
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=list(metrics))
    return model


def report(name, est, input_fn, extra=None):
    before = est.evaluate(input_fn, steps=5) if extra == "warm" else None
    est.train(input_fn, steps=60)
    result = {k: round(float(v), 4) for k, v in est.evaluate(input_fn, steps=5).items()}
    if before is not None:
        result["loss_before_training"] = round(float(before["loss"]), 4)
    print("RESULT", name, json.dumps(result, sort_keys=True))
    return est


def batches(features, labels=None, repeat=True):
    def input_fn():
        ds = tf.data.Dataset.from_tensor_slices(features if labels is None else (features, labels))
        ds = ds.batch(30)
        return ds.repeat() if repeat else ds
    return input_fn


# Sequential, the features as a bare tensor; warm-started from the model's weights.
seq = compiled(tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"),
                                    tf.keras.layers.Dense(3)]))
est = tf.keras.estimator.model_to_estimator(keras_model=seq, model_dir=os.path.join(work, "seq"))
report("sequential", est, batches(X, Y), extra="warm")

# Functional, two named inputs, features keyed by input names; metric renamed.
a = tf.keras.Input((2,), name="sepal")
b = tf.keras.Input((2,), name="petal")
hidden = tf.keras.layers.Dense(8, activation="relu", name="hidden")(tf.keras.layers.concatenate([a, b]))
functional = compiled(tf.keras.Model([a, b], tf.keras.layers.Dense(3, name="logits")(hidden)))
est = tf.keras.estimator.model_to_estimator(
    keras_model=functional, model_dir=os.path.join(work, "functional"),
    metric_names_map={"accuracy": "acc"})
report("functional", est, batches({"sepal": X[:, :2], "petal": X[:, 2:]}, Y))
export_dir = est.export_saved_model(
    os.path.join(work, "export"),
    tf.estimator.export.build_raw_serving_input_receiver_fn(
        {"sepal": tf.zeros([1, 2]), "petal": tf.zeros([1, 2])}))  # batch dim made None
served = tf.saved_model.load(export_dir if isinstance(export_dir, str) else export_dir.decode())
out = served.signatures["serving_default"](sepal=tf.constant(X[:150, :2]), petal=tf.constant(X[:150, 2:]))
served_acc = float(np.mean(np.argmax(out["logits"].numpy(), 1) == Y))
print("RESULT export", json.dumps({"keys": sorted(out), "accuracy": round(served_acc, 4)}))


# Subclassed.
class Classifier(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.hidden = tf.keras.layers.Dense(8, activation="relu")
        self.out = tf.keras.layers.Dense(3)

    def call(self, x):
        return self.out(self.hidden(x))


sub = Classifier()
sub(X[:1])
est = tf.keras.estimator.model_to_estimator(keras_model=compiled(sub), checkpoint_format="saver",
                                            model_dir=os.path.join(work, "subclassed"))
report("subclassed", est, batches(X, Y))

# A model saved to a file (Keras 3: .keras; TF 2.15: .h5).
path = os.path.join(work, "model.keras" if tf.__version__ >= "2.16" else "model.h5")
compiled(tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"),
                              tf.keras.layers.Dense(3)])).save(path)
est = tf.keras.estimator.model_to_estimator(keras_model_path=path, model_dir=os.path.join(work, "file"))
report("file", est, batches(X, Y))

# Resume: a new Estimator on the first model_dir goes on from its checkpoint.
est = tf.keras.estimator.model_to_estimator(keras_model=seq, model_dir=os.path.join(work, "seq"))
report("resumed", est, batches(X, Y))
