"""(3) TrainSpec / EvalSpec / train_and_evaluate with an exporter, then export_saved_model with a
serving_input_receiver_fn, loading the export and predicting with it.

    python examples/mnist/train_and_evaluate_export.py --model_dir runs/mnist_tae --steps 1000
"""
import argparse
import os

import mnist_model
import numpy as np
import tensorflow as tf2
import tensorflow.compat.v1 as tf
from digits_data import load_digits_28x28, write_tfrecords


def main(argv=None):
    args = mnist_model.common_args(argparse.ArgumentParser(description=__doc__), 1000).parse_args(argv)
    tf.logging.set_verbosity(tf.logging.INFO)
    train_path, eval_path = write_tfrecords(args.data_dir or os.path.join(args.model_dir, "data"))
    config = tf.estimator.RunConfig(model_dir=args.model_dir, save_checkpoints_steps=250,
                                    tf_random_seed=0)
    estimator = tf.estimator.Estimator(mnist_model.cnn_model_fn, config=config, params={
        "filters": args.filters, "dense_units": args.dense_units, "learning_rate": 1e-3})
    train_spec = tf.estimator.TrainSpec(
        mnist_model.make_input_fn(train_path, args.batch_size, True), max_steps=args.steps)
    exporter = tf.estimator.LatestExporter("mnist", mnist_model.serving_input_receiver_fn,
                                           exports_to_keep=2)
    eval_spec = tf.estimator.EvalSpec(mnist_model.make_input_fn(eval_path, 128, False),
                                      steps=None, exporters=[exporter], throttle_secs=0)
    results, _ = tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)

    export_dir = estimator.export_saved_model(os.path.join(args.model_dir, "serving"),
                                              mnist_model.serving_input_receiver_fn).decode()
    images, labels = load_digits_28x28()
    batch = images[:32, :, :, None].astype(np.float32) / 255.0
    served = tf2.saved_model.load(export_dir).signatures["serving_default"]
    classes = served(images=tf2.constant(batch))["classes"].numpy()
    served_accuracy = float(np.mean(classes == labels[:32]))
    print(f"eval accuracy = {results['accuracy']:.4f}; exported to {export_dir}; "
          f"served accuracy on 32 digits = {served_accuracy:.4f}")
    return results, export_dir, served_accuracy


if __name__ == "__main__":
    main()
