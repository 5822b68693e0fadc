"""Wide & deep on ad impressions with tf.contrib.learn's learn_runner, as TF 1.x jobs ran it
on a parameter-server cluster: every task runs this file, learn_runner picks the schedule from
TF_CONFIG (ps: run_std_server, worker: train, chief: train_and_evaluate, evaluator:
continuous_eval). The DNN's input layer (the embeddings) is split across the ps tasks.

    estimator-compat run wide_deep_learn_runner.py --model_dir /shared/ads --train_steps 300
"""
import numpy as np
import tensorflow as tf
from tensorflow.contrib.learn.python.learn import learn_runner

flags = tf.flags
FLAGS = flags.FLAGS
flags.DEFINE_string("model_dir", None, "Shared by every task.")
flags.DEFINE_integer("train_steps", 300, "Training steps.")

SITES = ["site_%d" % i for i in range(50)]
CATEGORIES = ["news", "sports", "games", "music", "travel", "food"]


def make_data(n, seed):
    rng = np.random.RandomState(seed)
    site = rng.randint(0, len(SITES), size=n)
    category = rng.randint(0, len(CATEGORIES), size=n)
    hour = rng.randint(0, 24, size=n).astype(np.float32)
    affinity = np.random.RandomState(3).normal(size=(len(SITES), len(CATEGORIES)))
    score = affinity[site, category] + 0.5 * np.sin(hour / 24.0 * 6.28)
    features = {"site": np.array(SITES)[site], "category": np.array(CATEGORIES)[category],
                "hour": hour}
    return features, (score > 0).astype(np.int64)


def input_fn(n, seed, repeat):
    def fn():
        features, labels = make_data(n, seed)
        dataset = tf.data.Dataset.from_tensor_slices((features, labels))
        if repeat:
            dataset = dataset.shuffle(2000).repeat()
        return dataset.batch(128)
    return fn


class PlacementHook(tf.train.SessionRunHook):
    """Prints where each variable lives (on the chief, which runs the training hooks)."""

    def begin(self):
        for var in tf.global_variables():
            print("placed %s on %s" % (var.name, var.device or "local"))


def experiment_fn(run_config, hparams):
    site = tf.feature_column.categorical_column_with_vocabulary_list("site", SITES)
    category = tf.feature_column.categorical_column_with_vocabulary_list("category", CATEGORIES)
    hour = tf.feature_column.numeric_column("hour")
    site_x_category = tf.feature_column.crossed_column([site, category], hash_bucket_size=500)
    estimator = tf.estimator.DNNLinearCombinedClassifier(
        config=run_config,
        linear_feature_columns=[site, category, site_x_category],
        dnn_feature_columns=[tf.feature_column.embedding_column(site, 8),
                             tf.feature_column.embedding_column(category, 4), hour],
        dnn_hidden_units=[32, 16],
        dnn_optimizer=tf.train.AdagradOptimizer(0.1),
        linear_optimizer=tf.train.FtrlOptimizer(0.1),
        input_layer_partitioner=tf.fixed_size_partitioner(2))
    return tf.contrib.learn.Experiment(
        estimator, train_input_fn=input_fn(8000, 1, True),
        eval_input_fn=input_fn(2000, 2, False), train_steps=FLAGS.train_steps,
        train_monitors=[PlacementHook()],
        eval_steps=None, min_eval_frequency=100, eval_delay_secs=0,
        continuous_eval_throttle_secs=1)


def main(_):
    config = tf.contrib.learn.RunConfig(model_dir=FLAGS.model_dir, save_checkpoints_steps=100)
    result = learn_runner.run(experiment_fn, run_config=config)
    if isinstance(result, tuple) and result[0]:
        print("eval accuracy = %.4f, auc = %.4f, global_step = %d"
              % (result[0]["accuracy"], result[0]["auc"], result[0]["global_step"]))
    print("task %s:%d done" % (config.task_type, config.task_id))


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.app.run()
