"""Click prediction with a large user-id embedding, as TF 1.x estimator jobs ran it on a
parameter-server cluster: the same file on every task (chief, workers, ps, evaluator), which
one it is comes from TF_CONFIG. The embedding is split into parts by a partitioner, so it can
be larger than one ps task's memory.

    estimator-compat run clicks_model_fn.py --model_dir /shared/clicks --max_steps 400
"""
import numpy as np
import tensorflow as tf

flags = tf.flags
FLAGS = flags.FLAGS
flags.DEFINE_string("model_dir", None, "Where checkpoints go (shared by every task).")
flags.DEFINE_integer("max_steps", 400, "Training steps.")
flags.DEFINE_integer("batch_size", 64, "Examples per step.")
flags.DEFINE_integer("num_users", 1000, "Rows of the user embedding.")
flags.DEFINE_integer("embedding_parts", 2, "Parts the user embedding is split into.")
flags.DEFINE_integer("save_checkpoints_steps", 100, "Steps between checkpoints.")


def make_data(n, seed):
    """A user's taste (hidden) and the item's features decide the click."""
    rng = np.random.RandomState(seed)
    taste = np.random.RandomState(7).normal(size=(FLAGS.num_users, 4)).astype(np.float32)
    users = rng.randint(0, FLAGS.num_users, size=n).astype(np.int64)
    items = rng.normal(size=(n, 4)).astype(np.float32)
    clicks = (np.sum(taste[users] * items, axis=1) > 0).astype(np.int32)
    return {"user": users, "item": items}, clicks


def train_input_fn():
    features, labels = make_data(20000, seed=1)
    dataset = tf.data.Dataset.from_tensor_slices((features, labels))
    return dataset.shuffle(5000).repeat().batch(FLAGS.batch_size)


def eval_input_fn():
    features, labels = make_data(2000, seed=2)
    return tf.data.Dataset.from_tensor_slices((features, labels)).batch(500)


def model_fn(features, labels, mode, params):
    embeddings = tf.get_variable(
        "user_embedding", [FLAGS.num_users, 4],
        initializer=tf.random_normal_initializer(stddev=0.1),
        partitioner=tf.fixed_size_partitioner(FLAGS.embedding_parts))
    user = tf.nn.embedding_lookup(embeddings, features["user"])
    item = tf.layers.dense(features["item"], 4, name="item_tower")
    logits = tf.reduce_sum(user * item, axis=1)
    predictions = {"probability": tf.sigmoid(logits),
                   "click": tf.cast(logits > 0, tf.int32)}
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions=predictions)
    loss = tf.losses.sigmoid_cross_entropy(labels, logits)
    tf.summary.scalar("mean_probability", tf.reduce_mean(predictions["probability"]))
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={
            "accuracy": tf.metrics.accuracy(labels, predictions["click"])})
    optimizer = tf.train.AdagradOptimizer(1.0)
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


class PlacementHook(tf.train.SessionRunHook):
    """Prints where each variable lives (the chief runs the hooks)."""

    def begin(self):
        for var in tf.global_variables():
            print("placed %s on %s" % (var.name, var.device or "local"))


def main(_):
    config = tf.estimator.RunConfig(model_dir=FLAGS.model_dir,
                                    save_checkpoints_steps=FLAGS.save_checkpoints_steps,
                                    log_step_count_steps=50)
    print("task %s:%d" % (config.task_type, config.task_id))
    estimator = tf.estimator.Estimator(model_fn, config=config)
    train_spec = tf.estimator.TrainSpec(train_input_fn, max_steps=FLAGS.max_steps,
                                        hooks=[PlacementHook()])
    serving_input_fn = tf.estimator.export.build_raw_serving_input_receiver_fn({
        "user": tf.placeholder(tf.int64, [None], name="user"),
        "item": tf.placeholder(tf.float32, [None, 4], name="item")})
    eval_spec = tf.estimator.EvalSpec(
        eval_input_fn, steps=None, start_delay_secs=0, throttle_secs=0,
        exporters=[tf.estimator.LatestExporter("clicks", serving_input_fn)])
    result = tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
    if result is not None and result[0] is not None:
        print("eval accuracy = %.4f, global_step = %d" % (result[0]["accuracy"],
                                                        result[0]["global_step"]))
    print("task %s:%d done" % (config.task_type, config.task_id))


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.app.run()
