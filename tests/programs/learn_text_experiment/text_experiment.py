"""A bag-of-words text classifier in the TF 1.x contrib.learn style (tf.contrib.learn.Estimator
with a `(features, target)` model_fn returning (predictions, loss, train_op), run by
learn_runner through an Experiment built from HParams, then predict()).

The habits of the TensorFlow 1.x text classification examples this program keeps: the
model_fn one-hot encodes `target` and builds its train_op before it looks at the mode (in
predict() TF 1.15 handed it placeholders shaped as the training labels); the experiment_fn
replaces save_checkpoints_steps on the RunConfig it was given (learn_runner compares the
configs' uid(), which leaves that out); min_eval_frequency makes the Experiment evaluate
during training ("Validation (step N)") and again at the end.

    estimator-compat run text_experiment.py --model_dir /tmp/text_experiment
"""
import argparse
import sys

import numpy as np
import tensorflow as tf
from tensorflow.contrib import learn
from tensorflow.contrib.learn import learn_runner

FLAGS = None
VOCAB_SIZE = 40
CLASSES = 3
DOC_LENGTH = 8
ESTIMATOR = []  # the Experiment's estimator, for predict() after training


def make_documents(n, seed):
    """Documents of word ids; each class draws most of its words from its own third of the
    vocabulary, the rest from anywhere (id 0 is padding)."""
    rng = np.random.RandomState(seed)
    labels = rng.randint(0, CLASSES, n)
    width = (VOCAB_SIZE - 1) // CLASSES
    own = 1 + labels[:, None] * width + rng.randint(0, width, (n, DOC_LENGTH))
    noise = rng.randint(1, VOCAB_SIZE, (n, DOC_LENGTH))
    docs = np.where(rng.rand(n, DOC_LENGTH) < 0.6, own, noise)
    docs[:, DOC_LENGTH - 2:][rng.rand(n, 2) < 0.5] = 0
    return docs.astype(np.int64), labels.astype(np.int64)


def bag_of_words_model(features, target, mode, params):
    target = tf.one_hot(target, CLASSES, 1, 0)
    encoded = tf.contrib.layers.bow_encoder(
        features["words"], vocab_size=VOCAB_SIZE, embed_dim=params.embed_dim)
    logits = tf.contrib.layers.fully_connected(encoded, CLASSES, activation_fn=None)
    loss = tf.contrib.losses.softmax_cross_entropy(logits, target)
    train_op = tf.contrib.layers.optimize_loss(
        loss, tf.contrib.framework.get_global_step(), optimizer="Adam",
        learning_rate=params.learning_rate)
    return ({"class": tf.argmax(logits, 1), "prob": tf.nn.softmax(logits)}, loss, train_op)


def experiment_fn(run_config, hparams):
    run_config = run_config.replace(save_checkpoints_steps=hparams.eval_every)
    estimator = learn.Estimator(model_fn=bag_of_words_model, config=run_config,
                                params=hparams)
    ESTIMATOR.append(estimator)
    x, y = make_documents(600, 0)
    x_eval, y_eval = make_documents(150, 1)
    train_input = tf.estimator.inputs.numpy_input_fn(
        {"words": x}, y, batch_size=32, num_epochs=None, shuffle=True)
    eval_input = tf.estimator.inputs.numpy_input_fn(
        {"words": x_eval}, y_eval, batch_size=50, num_epochs=1, shuffle=False)
    return learn.Experiment(
        estimator, train_input_fn=train_input, eval_input_fn=eval_input,
        train_steps=hparams.train_steps, eval_steps=None,
        min_eval_frequency=hparams.eval_every, check_interval_secs=0,
        eval_metrics={"accuracy": learn.MetricSpec(
            metric_fn=tf.contrib.metrics.streaming_accuracy, prediction_key="class")})


def main(unused_argv):
    hparams = tf.contrib.training.HParams(
        embed_dim=16, learning_rate=0.05, train_steps=FLAGS.train_steps, eval_every=50)
    config = learn.RunConfig(model_dir=FLAGS.model_dir, tf_random_seed=FLAGS.seed)
    result, _ = learn_runner.run(experiment_fn, run_config=config,
                                 schedule="train_and_evaluate", hparams=hparams)
    print("eval accuracy = %.4f, loss = %.4f, global_step = %d"
          % (result["accuracy"], result["loss"], result["global_step"]))
    x_test, y_test = make_documents(150, 2)
    predict_input = tf.estimator.inputs.numpy_input_fn(
        {"words": x_test}, batch_size=50, num_epochs=1, shuffle=False)
    classes = [p["class"] for p in ESTIMATOR[-1].predict(input_fn=predict_input,
                                                         as_iterable=True)]
    print("predicted %d documents, accuracy = %.4f"
          % (len(classes), float(np.mean(np.array(classes) == y_test))))


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--train_steps", type=int, default=150)
    parser.add_argument("--seed", type=int, default=7)
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
