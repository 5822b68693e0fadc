"""(1) The tf.contrib.learn way: learn_runner.run + Experiment + HParams.

    python examples/mnist/learn_runner_experiment.py --model_dir runs/mnist_learn --steps 1000
"""
import argparse
import os

import mnist_model
import tensorflow.compat.v1 as tf
from digits_data import write_tfrecords
from tensorflow.contrib.learn.python.learn import learn_runner


def main(argv=None):
    args = mnist_model.common_args(argparse.ArgumentParser(description=__doc__), 1000).parse_args(argv)
    tf.logging.set_verbosity(tf.logging.INFO)
    train_path, eval_path = write_tfrecords(args.data_dir or os.path.join(args.model_dir, "data"))

    def experiment_fn(run_config, hparams):
        estimator = tf.estimator.Estimator(mnist_model.cnn_model_fn, config=run_config,
                                           params=hparams.values())
        return tf.contrib.learn.Experiment(
            estimator=estimator,
            train_input_fn=mnist_model.make_input_fn(train_path, args.batch_size, True),
            eval_input_fn=mnist_model.make_input_fn(eval_path, 128, False),
            train_steps=hparams.train_steps, min_eval_frequency=500, eval_steps=None)

    run_config = tf.contrib.learn.RunConfig(model_dir=args.model_dir, save_checkpoints_steps=500,
                                            tf_random_seed=0)
    params = tf.contrib.training.HParams(learning_rate=1e-3, filters=args.filters,
                                         dense_units=args.dense_units, train_steps=args.steps)
    results, _ = learn_runner.run(experiment_fn=experiment_fn, schedule="train_and_evaluate",
                                  run_config=run_config, hparams=params)
    print(f"eval accuracy = {results['accuracy']:.4f}, global_step = {results['global_step']}")
    return results


if __name__ == "__main__":
    main()
