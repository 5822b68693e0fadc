"""Seed 000 (tf.contrib.learn's learn_runner + Experiment), completed into a program.

As the seed wrote it: `run_experiment` → `learn_runner.run(experiment_fn, schedule, run_config,
hparams)`; `experiment_fn(run_config, params)` builds the Estimator and a
`tf.contrib.learn.Experiment`; input functions come with an (unused) input hook; the model_fn
minimizes with `tf.contrib.layers.optimize_loss` and `tf.contrib.framework.get_global_step()`.
"""
import tensorflow as tf
from tensorflow.contrib.learn import learn_runner

tf.flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
tf.flags.DEFINE_string("dataset_dir", None, "Directory of the TFRecord files.")
tf.flags.DEFINE_integer("train_steps", 300, "Training steps.")
FLAGS = tf.flags.FLAGS


class IteratorInitializerHook(tf.train.SessionRunHook):
    """Hook to initialise data iterator after Session is created."""

    def __init__(self):
        super(IteratorInitializerHook, self).__init__()
        self.iterator_initializer_func = None

    def after_create_session(self, session, coord):
        """Initialise the iterator after the session has been created."""
        if self.iterator_initializer_func is not None:
            self.iterator_initializer_func(session)


def _inputs(batch_size, dataset_dir, dataset_file_pattern, training):
    hook = IteratorInitializerHook()

    def input_fn():
        files = tf.gfile.Glob(dataset_dir + "/" + dataset_file_pattern)
        dataset = tf.data.TFRecordDataset(files)

        def parse(record):
            parsed = tf.parse_single_example(record, {
                "image": tf.FixedLenFeature([], tf.string),
                "label": tf.FixedLenFeature([], tf.int64)})
            image = tf.reshape(tf.decode_raw(parsed["image"], tf.uint8), [28, 28, 1])
            return tf.to_float(image) / 255.0, parsed["label"]

        dataset = dataset.map(parse)
        if training:
            dataset = dataset.shuffle(2000, seed=3).repeat(None)
        iterator = dataset.batch(batch_size).make_one_shot_iterator()
        return iterator.get_next()
    return input_fn, hook


def get_train_inputs(batch_size, dataset_dir, dataset_file_pattern):
    return _inputs(batch_size, dataset_dir, dataset_file_pattern, True)


def get_val_inputs(batch_size, dataset_dir, dataset_file_pattern):
    return _inputs(batch_size, dataset_dir, dataset_file_pattern.replace("train", "eval"), False)


def architecture(inputs, is_training, scope="MnistConvNet"):
    with tf.variable_scope(scope):
        net = tf.layers.conv2d(inputs, 16, [5, 5], padding="same", activation=tf.nn.relu)
        net = tf.layers.max_pooling2d(net, 2, 2)
        net = tf.layers.flatten(net)
        net = tf.contrib.layers.fully_connected(net, 64)
        net = tf.layers.dropout(net, rate=0.25, training=is_training)
        return tf.contrib.layers.fully_connected(net, 10, activation_fn=None)


def model_fn(features, labels, mode, params):
    is_training = mode == tf.estimator.ModeKeys.TRAIN
    logits = architecture(features, is_training=is_training)
    predictions = tf.argmax(logits, axis=-1)
    loss = None
    train_op = None
    eval_metric_ops = {}
    if mode != tf.estimator.ModeKeys.PREDICT:
        loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
        train_op = tf.contrib.layers.optimize_loss(
            loss=loss,
            global_step=tf.contrib.framework.get_global_step(),
            optimizer=tf.train.AdamOptimizer,
            learning_rate=params.learning_rate)
        eval_metric_ops = {"Accuracy": tf.metrics.accuracy(labels=labels, predictions=predictions)}
    return tf.estimator.EstimatorSpec(mode=mode, predictions=predictions, loss=loss,
                                      train_op=train_op, eval_metric_ops=eval_metric_ops)


def get_estimator(run_config, params):
    return tf.estimator.Estimator(model_fn=model_fn, params=params, config=run_config)


def experiment_fn(run_config, params):
    """Create an experiment to train and evaluate the model."""
    # Define the estimator
    estimator = get_estimator(run_config, params)

    # Setup data loaders
    train_input_fn, train_input_hook = get_train_inputs(
        params.train_batch_size, params.dataset_dir, params.dataset_file_pattern)
    eval_input_fn, eval_input_hook = get_val_inputs(
        params.eval_batch_size, params.dataset_dir, params.dataset_file_pattern)

    # Define the experiment
    experiment = tf.contrib.learn.Experiment(
        estimator=estimator,  # Estimator
        train_input_fn=train_input_fn,  # First-class function
        eval_input_fn=eval_input_fn,  # First-class function
        train_steps=params.train_steps,  # Minibatch steps
        min_eval_frequency=params.eval_min_frequency,  # Eval frequency
        # train_monitors=[],  # Hooks for training
        # eval_hooks=[eval_input_hook],  # Hooks for evaluation
        eval_steps=params.eval_steps  # Use evaluation feeder until its empty
    )
    return experiment


def run_experiment(argv=None):
    params = tf.contrib.training.HParams(
        learning_rate=0.002, train_batch_size=32, eval_batch_size=64,
        dataset_dir=FLAGS.dataset_dir, dataset_file_pattern="digits_train.tfrecords",
        train_steps=FLAGS.train_steps, eval_min_frequency=100, eval_steps=None)
    run_config = tf.contrib.learn.RunConfig()
    run_config = run_config.replace(model_dir=FLAGS.model_dir, tf_random_seed=2,
                                    save_checkpoints_steps=100)
    results = learn_runner.run(
        experiment_fn=experiment_fn,  # First-class function
        run_config=run_config,  # RunConfig
        schedule="train_and_evaluate",  # What to run
        hparams=params  # HParams
    )
    print("eval accuracy = %.4f" % results[0]["Accuracy"])


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.app.run(main=run_experiment)
