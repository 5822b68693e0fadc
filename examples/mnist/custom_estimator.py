"""(2) A custom Estimator with a TFRecord input_fn, the tutorial's LoggingTensorHook and
early stopping with stop_if_no_increase_hook.

    python examples/mnist/custom_estimator.py --model_dir runs/mnist --steps 1000
"""
import argparse
import logging
import os

import mnist_model
import tensorflow.compat.v1 as tf
from digits_data import write_tfrecords


def main(argv=None):
    args = mnist_model.common_args(argparse.ArgumentParser(description=__doc__), 1000).parse_args(argv)
    tf.logging.set_verbosity(tf.logging.INFO)
    logging.getLogger("tensorflow").setLevel(logging.INFO)
    train_path, eval_path = write_tfrecords(args.data_dir or os.path.join(args.model_dir, "data"))
    config = tf.estimator.RunConfig(model_dir=args.model_dir, save_checkpoints_steps=200,
                                    log_step_count_steps=100, tf_random_seed=0)
    classifier = tf.estimator.Estimator(mnist_model.cnn_model_fn, config=config, params={
        "filters": args.filters, "dense_units": args.dense_units, "learning_rate": 1e-3})
    logging_hook = tf.train.LoggingTensorHook(tensors={"probabilities": "softmax_tensor"},
                                              every_n_iter=50)
    early_stopping = tf.estimator.experimental.stop_if_no_increase_hook(
        classifier, "accuracy", max_steps_without_increase=600, min_steps=200,
        run_every_secs=None, run_every_steps=200)
    eval_input_fn = mnist_model.make_input_fn(eval_path, 128, False)

    class EvaluateOnCheckpoint(tf.estimator.CheckpointSaverListener):
        def after_save(self, session, global_step_value):
            if global_step_value > 0:
                classifier.evaluate(eval_input_fn)

    classifier.train(mnist_model.make_input_fn(train_path, args.batch_size, True),
                     steps=args.steps, hooks=[logging_hook, early_stopping],
                     saving_listeners=[EvaluateOnCheckpoint()])
    results = classifier.evaluate(eval_input_fn)
    print(f"eval accuracy = {results['accuracy']:.4f}, loss = {results['loss']:.4f}, "
          f"global_step = {results['global_step']}")
    return results


if __name__ == "__main__":
    main()
