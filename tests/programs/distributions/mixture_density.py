"""A TF 1.x mixture density network with a Poisson count head, in the style of the 2017-2018
tf.contrib.distributions models: a tf.estimator model_fn whose outputs parameterize
MixtureSameFamily(Categorical, Normal) for a bimodal target and Poisson(log_rate) for a count,
trained on their negative log-likelihood with tf.train.AdamOptimizer, evaluated with
tf.metrics. Synthetic data: y = +-(1 + x) + noise (either branch with probability 1/2),
count ~ Poisson(exp(0.5 + x)).

    python mixture_density.py --model_dir DIR [--steps 200]
Prints `RESULT {"loss": ..., "mixture_nll": ..., "poisson_nll": ..., ...}`.
"""
import json

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "where the Estimator writes")
flags.DEFINE_integer("steps", 200, "training steps")
FLAGS = flags.FLAGS

ds = tf.contrib.distributions
COMPONENTS = 3


def data(n, seed):
    rng = np.random.RandomState(seed)
    x = rng.uniform(-1., 1., size=[n, 1]).astype(np.float32)
    branch = np.where(rng.rand(n, 1) < 0.5, 1., -1.)
    y = (branch * (1. + x) + 0.1 * rng.randn(n, 1)).astype(np.float32)
    counts = rng.poisson(np.exp(0.5 + x)).astype(np.float32)
    return {"x": x}, {"y": y[:, 0], "count": counts[:, 0]}


def input_fn(n, seed, train):
    def fn():
        features, labels = data(n, seed)
        dataset = tf.data.Dataset.from_tensor_slices((features, labels))
        dataset = dataset.shuffle(n, seed=1).repeat() if train else dataset
        return dataset.batch(64)
    return fn


def model_fn(features, labels, mode):
    hidden = tf.layers.dense(features["x"], 16, tf.nn.tanh, name="hidden")
    logits = tf.layers.dense(hidden, COMPONENTS, name="mixture_logits")
    locs = tf.layers.dense(hidden, COMPONENTS, name="locs")
    scales = tf.nn.softplus(tf.layers.dense(hidden, COMPONENTS, name="scales")) + 1e-3
    mixture = ds.MixtureSameFamily(ds.Categorical(logits=logits),
                                   ds.Normal(loc=locs, scale=scales))
    log_rate = tf.squeeze(tf.layers.dense(features["x"], 1, name="log_rate"), -1)
    counts = ds.Poisson(log_rate=log_rate)
    predictions = {"mean": mixture.mean(), "stddev": mixture.stddev(),
                   "rate": counts.mean()}
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions=predictions)
    mixture_nll = -mixture.log_prob(labels["y"])
    poisson_nll = -counts.log_prob(labels["count"])
    loss = tf.reduce_mean(mixture_nll) + tf.reduce_mean(poisson_nll)
    metrics = {"mixture_nll": tf.metrics.mean(mixture_nll),
               "poisson_nll": tf.metrics.mean(poisson_nll),
               "rate_error": tf.metrics.mean_absolute_error(
                   tf.exp(0.5 + features["x"][:, 0]), counts.mean())}
    train_op = tf.train.AdamOptimizer(0.03).minimize(loss, tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      eval_metric_ops=metrics)


def main(_):
    config = tf.estimator.RunConfig(tf_random_seed=0, save_checkpoints_steps=1000)
    estimator = tf.estimator.Estimator(model_fn, FLAGS.model_dir, config=config)
    estimator.train(input_fn(1024, 0, True), steps=FLAGS.steps)
    result = estimator.evaluate(input_fn(512, 1, False))
    weights = estimator.get_variable_value("log_rate/kernel")
    bias = estimator.get_variable_value("log_rate/bias")
    print("RESULT " + json.dumps({
        "loss": float(result["loss"]), "mixture_nll": float(result["mixture_nll"]),
        "poisson_nll": float(result["poisson_nll"]),
        "rate_error": float(result["rate_error"]),
        "log_rate": [float(weights[0, 0]), float(bias[0])],
        "variables": sorted(estimator.get_variable_names())}))


if __name__ == "__main__":
    tf.app.run()
