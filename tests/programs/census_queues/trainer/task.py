"""Runs the census experiment with learn_runner, in the style of the 2017 Cloud ML Engine
samples (census/estimator/trainer/task.py): argparse flags, `hparam.HParams(**args.__dict__)`,
an Experiment with `saved_model_export_utils.make_export_strategy`, run as
`python -m trainer.task --train-files ... --eval-files ... --job-dir ...`.
"""
import argparse

import tensorflow as tf
from tensorflow.contrib.learn.python.learn import learn_runner
from tensorflow.contrib.learn.python.learn.utils import saved_model_export_utils
from tensorflow.contrib.training.python.training import hparam

import trainer.model as model


def generate_experiment_fn(**experiment_args):
    """Returns the experiment_fn learn_runner calls with a RunConfig and the HParams."""
    def _experiment_fn(run_config, hparams):
        train_input = model.generate_input_fn(hparams.train_files,
                                              num_epochs=hparams.num_epochs,
                                              batch_size=hparams.train_batch_size)
        eval_input = model.generate_input_fn(hparams.eval_files,
                                             batch_size=hparams.eval_batch_size,
                                             shuffle=False)
        return tf.contrib.learn.Experiment(
            model.build_estimator(
                embedding_size=hparams.embedding_size,
                hidden_units=[max(2, int(hparams.first_layer_size * hparams.scale_factor ** i))
                              for i in range(hparams.num_layers)],
                config=run_config),
            train_input_fn=train_input, eval_input_fn=eval_input, **experiment_args)
    return _experiment_fn


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--train-files', nargs='+', required=True)
    parser.add_argument('--num-epochs', type=int)
    parser.add_argument('--train-batch-size', type=int, default=40)
    parser.add_argument('--eval-batch-size', type=int, default=40)
    parser.add_argument('--eval-files', nargs='+', required=True)
    parser.add_argument('--embedding-size', type=int, default=8)
    parser.add_argument('--first-layer-size', type=int, default=100)
    parser.add_argument('--num-layers', type=int, default=4)
    parser.add_argument('--scale-factor', type=float, default=0.7)
    parser.add_argument('--job-dir', required=True)
    parser.add_argument('--verbosity', choices=['DEBUG', 'ERROR', 'FATAL', 'INFO', 'WARN'],
                        default='INFO')
    parser.add_argument('--eval-delay-secs', type=int, default=10)
    parser.add_argument('--min-eval-frequency', type=int, default=1)
    parser.add_argument('--train-steps', type=int)
    parser.add_argument('--eval-steps', type=int, default=100)
    parser.add_argument('--export-format', choices=['JSON', 'CSV', 'EXAMPLE'], default='JSON')
    args = parser.parse_args()
    tf.logging.set_verbosity(args.verbosity)

    learn_runner.run(
        generate_experiment_fn(
            min_eval_frequency=args.min_eval_frequency,
            eval_delay_secs=args.eval_delay_secs,
            train_steps=args.train_steps,
            eval_steps=args.eval_steps,
            export_strategies=[saved_model_export_utils.make_export_strategy(
                model.SERVING_FUNCTIONS[args.export_format], exports_to_keep=1)]),
        run_config=tf.contrib.learn.RunConfig(model_dir=args.job_dir),
        hparams=hparam.HParams(**args.__dict__))
