"""A TF 2.0-2.10 estimator program in the migration guide's style (written here, not copied).

A custom model_fn over a `tf.keras.Sequential`, trained by a `tf.keras.optimizers` optimizer
whose `iterations` is set to the global step and whose `get_updates(...)[0]` is the train_op;
`tf.compat.v1.metrics` in the spec plus a Keras metric added by `tf.estimator.add_metrics`;
`train_and_evaluate` with a `FinalExporter`; the SavedModel loaded back with
`tf.saved_model.load` and its signature called. Three Gaussian blobs, no download.
"""
import argparse
import json
import os

import numpy as np
import tensorflow as tf

FEATURES = 4
CLASSES = 3


def make_data(n, seed):
    rng = np.random.RandomState(seed)
    labels = rng.randint(0, CLASSES, n)
    centers = np.array([[0, 0, 0, 0], [1.5, 1.5, 0, 0], [0, 1.5, 1.5, 0]], np.float32)
    x = centers[labels] + rng.normal(scale=0.6, size=(n, FEATURES))
    return x.astype(np.float32), labels.astype(np.int64)


def input_fn(x, y, training, batch_size=32):
    dataset = tf.data.Dataset.from_tensor_slices(({"x": x}, y))
    if training:
        dataset = dataset.shuffle(512, seed=1).repeat()
    return dataset.batch(batch_size)


def model_fn(features, labels, mode, params):
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(params["hidden"], activation="relu"),
        tf.keras.layers.Dense(CLASSES),
    ])
    training = mode == tf.estimator.ModeKeys.TRAIN
    logits = model(features["x"], training=training)
    classes = tf.argmax(logits, axis=1)
    predictions = {"class_ids": classes, "probabilities": tf.nn.softmax(logits)}
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions=predictions, export_outputs={
            "serving_default": tf.estimator.export.PredictOutput(predictions)})
    loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
        labels, logits, from_logits=True))
    accuracy = tf.compat.v1.metrics.accuracy(labels=labels, predictions=classes, name="acc_op")
    train_op = None
    if training:
        optimizer = tf.keras.optimizers.Adagrad(learning_rate=params["learning_rate"])
        optimizer.iterations = tf.compat.v1.train.get_or_create_global_step()
        train_op = optimizer.get_updates(loss, model.trainable_variables)[0]
    return tf.estimator.EstimatorSpec(mode, predictions, loss, train_op,
                                      eval_metric_ops={"accuracy": accuracy})


def logit_auc(labels, predictions):
    auc = tf.keras.metrics.AUC(name="auc")
    auc.update_state(tf.one_hot(labels, CLASSES), predictions["probabilities"])
    return {"auc": auc}


def serving_input_receiver_fn():
    x = tf.compat.v1.placeholder(tf.float32, [None, FEATURES], name="x")
    return tf.estimator.export.ServingInputReceiver({"x": x}, {"x": x})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    train_x, train_y = make_data(600, 0)
    eval_x, eval_y = make_data(300, 1)
    config = tf.estimator.RunConfig(tf_random_seed=7, save_checkpoints_steps=150,
                                    log_step_count_steps=100)
    estimator = tf.estimator.Estimator(model_fn, args.model_dir, config=config,
                                       params={"hidden": 16, "learning_rate": 0.3})
    estimator = tf.estimator.add_metrics(estimator, logit_auc)
    train_spec = tf.estimator.TrainSpec(lambda: input_fn(train_x, train_y, True),
                                        max_steps=args.steps)
    exporter = tf.estimator.FinalExporter("exporter", serving_input_receiver_fn)
    eval_spec = tf.estimator.EvalSpec(lambda: input_fn(eval_x, eval_y, False), steps=None,
                                      exporters=[exporter], start_delay_secs=0, throttle_secs=0)
    metrics, exports = tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
    print("RESULT " + json.dumps({k: float(metrics[k]) for k in ("accuracy", "auc", "loss")}
                                 | {"global_step": int(metrics["global_step"])}))
    export_dir = exports[0].decode() if isinstance(exports[0], bytes) else exports[0]
    loaded = tf.saved_model.load(export_dir)
    served = loaded.signatures["serving_default"](x=tf.constant(eval_x))
    served_accuracy = float(np.mean(served["class_ids"].numpy() == eval_y))
    print("RESULT " + json.dumps({"served_accuracy": served_accuracy,
                                  "export": os.path.relpath(export_dir, args.model_dir)}))


if __name__ == "__main__":
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)
    main()
