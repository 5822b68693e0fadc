"""Eager training in the style of TF 1.12-1.15's "Custom training: walkthrough" and "Eager
execution" guide: `tf.enable_eager_execution()`, `tfe = tf.contrib.eager`, a model of
`tfe.Variable`s, batches from `tfe.Iterator`, gradients from `tfe.implicit_value_and_gradients`
(even epochs) and `tf.GradientTape` (odd ones) applied by a `tf.train` optimizer with the global
step, `tfe.metrics.Mean` / `Accuracy` per epoch, then `tfe.Saver` and `tfe.Checkpoint` saves,
restored into new models (by `restore`, and by `tfe.restore_variables_on_create`).

The data: iris-like, three classes of four features around the iris class means (numpy's
RandomState, so TF 1.15 and estimator_compat train on the same numbers). Prints `RESULT {json}`.
"""
import argparse
import json
import os

import numpy as np
import tensorflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager

CENTERS = np.array([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]], np.float32)


def make_data(n, seed):
    rng = np.random.RandomState(seed)
    labels = np.arange(n) % 3
    features = CENTERS[labels] + rng.normal(scale=0.35, size=(n, 4))
    order = rng.permutation(n)
    return features[order].astype(np.float32), labels[order].astype(np.int32)


class Model(tfe.Checkpointable):
    """Two dense layers of tfe.Variables (their names as tf.layers.Dense gave them)."""

    def __init__(self):
        rng = np.random.RandomState(1)
        self.w1 = tfe.Variable(rng.normal(scale=0.3, size=(4, 10)).astype(np.float32),
                               name="dense/kernel")
        self.b1 = tfe.Variable(np.zeros(10, np.float32), name="dense/bias")
        self.w2 = tfe.Variable(rng.normal(scale=0.3, size=(10, 3)).astype(np.float32),
                               name="dense_1/kernel")
        self.b2 = tfe.Variable(np.zeros(3, np.float32), name="dense_1/bias")

    @property
    def variables(self):
        return [self.w1, self.b1, self.w2, self.b2]

    def __call__(self, x):
        hidden = tf.nn.relu(tf.matmul(x, self.w1) + self.b1)
        return tf.matmul(hidden, self.w2) + self.b2


def loss(model, x, y):
    return tf.losses.sparse_softmax_cross_entropy(labels=y, logits=model(x))


def accuracy(model, dataset):
    metric = tfe.metrics.Accuracy()
    for x, y in dataset:
        metric(tf.argmax(model(x), axis=1, output_type=tf.int32), y)
    return float(metric.result().numpy())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--epochs", type=int, default=20)
    args = parser.parse_args()
    assert tf.executing_eagerly() and tfe.in_eager_mode()

    train = tf.data.Dataset.from_tensor_slices(make_data(120, 0)).batch(32)
    test = tf.data.Dataset.from_tensor_slices(make_data(60, 1)).batch(30)
    model = Model()
    optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.05)
    global_step = tf.train.get_or_create_global_step()
    value_and_gradients = tfe.implicit_value_and_gradients(loss)
    history = []
    for epoch in range(args.epochs):
        epoch_loss, epoch_accuracy = tfe.metrics.Mean(), tfe.metrics.Accuracy()
        for x, y in tfe.Iterator(train):
            if epoch % 2 == 0:
                value, grads_and_vars = value_and_gradients(model, x, y)
                optimizer.apply_gradients(grads_and_vars, global_step)
            else:
                with tf.GradientTape() as tape:
                    value = loss(model, x, y)
                grads = tape.gradient(value, model.variables)
                optimizer.apply_gradients(zip(grads, model.variables), global_step)
            epoch_loss(value)
            epoch_accuracy(tf.argmax(model(x), axis=1, output_type=tf.int32), y)
        history.append((float(epoch_loss.result().numpy()),
                        float(epoch_accuracy.result().numpy())))
        if epoch % 5 == 0:
            print("Epoch {:03d}: Loss: {:.3f}, Accuracy: {:.3%}".format(
                epoch, history[-1][0], history[-1][1]))

    test_accuracy = accuracy(model, test)
    tf.gfile.MakeDirs(os.path.join(args.model_dir, "saver"))
    saver = tfe.Saver(model.variables + [global_step])
    saved = saver.save(os.path.join(args.model_dir, "saver", "model.ckpt"),
                       global_step=global_step)
    checkpoint = tfe.Checkpoint(optimizer=optimizer, model=model, optimizer_step=global_step)
    checkpoint.save(os.path.join(args.model_dir, "checkpoint", "ckpt"))

    fresh = Model()  # the same initial values as `model` had
    before = accuracy(fresh, test)
    saver_fresh = tfe.Saver(fresh.variables)
    saver_fresh.restore(saved)
    by_saver = accuracy(fresh, test)
    with tfe.restore_variables_on_create(saved):
        on_create = Model()
    by_creation = accuracy(on_create, test)
    other = Model()
    tfe.Checkpoint(model=other).restore(
        tf.train.latest_checkpoint(os.path.join(args.model_dir, "checkpoint")))
    by_checkpoint = accuracy(other, test)
    print("RESULT " + json.dumps({
        "loss": history[-1][0], "train_accuracy": history[-1][1],
        "first_loss": history[0][0], "test_accuracy": test_accuracy,
        "global_step": int(global_step.numpy()), "before_restore": before,
        "by_saver": by_saver, "by_creation": by_creation, "by_checkpoint": by_checkpoint,
        "saver_names": sorted(n for n, _ in tf.train.list_variables(saved)),
        "checkpoint_names": sorted(n for n, _ in tf.train.list_variables(
            tf.train.latest_checkpoint(os.path.join(args.model_dir, "checkpoint"))))}))


if __name__ == "__main__":
    main()
