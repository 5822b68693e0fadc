"""Seed 002 (hooks and early stopping), completed into a program.

As the seed wrote it: a LoggingTensorHook on the name "softmax_tensor" every 50 steps, a dict of
`tf.metrics` with `tf.summary.scalar(name, op[1])` for each, AdamOptimizer with
get_or_create_global_step, and `tf.contrib.estimator.stop_if_no_increase_hook` on 'acc' in the
TrainSpec of train_and_evaluate.
"""
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("data_dir", None, "Directory with digits_{train,eval}.tfrecords.")
flags.DEFINE_string("model_dir", None, "model_dir.")
flags.DEFINE_integer("max_steps", 3000, "Upper bound on training steps.")
FLAGS = flags.FLAGS


def train_inpf(path, training):
    def input_fn():
        def parse(record):
            parsed = tf.parse_single_example(record, {
                "label": tf.FixedLenFeature([], tf.int64),
                "image": tf.FixedLenFeature([], tf.string)})
            image = tf.reshape(tf.decode_raw(parsed["image"], tf.uint8), [28, 28, 1])
            return {"x": tf.cast(image, tf.float32) / 255.0}, parsed["label"]
        ds = tf.data.TFRecordDataset(path).map(parse)
        if training:
            ds = ds.shuffle(1500, seed=7).repeat()
        return ds.batch(32)
    return input_fn


def model_fn(features, labels, mode, params):
    net = tf.layers.conv2d(features["x"], 8, 3, activation=tf.nn.relu)
    net = tf.layers.max_pooling2d(net, 2, 2)
    net = tf.layers.dense(tf.layers.flatten(net), 32, activation=tf.nn.relu)
    logits = tf.layers.dense(net, 10)
    pred_ids = tf.argmax(logits, axis=1)
    probabilities = tf.nn.softmax(logits, name="softmax_tensor")
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"classes": pred_ids})
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)

    metrics = {
        'acc': tf.metrics.accuracy(labels, pred_ids),
        'precision': tf.metrics.precision(tf.equal(labels, 0), tf.equal(pred_ids, 0)),
        'recall': tf.metrics.recall(tf.equal(labels, 0), tf.equal(pred_ids, 0)),
        'auc': tf.metrics.auc(tf.equal(labels, 0), probabilities[:, 0]),
    }
    for metric_name, op in metrics.items():
        tf.summary.scalar(metric_name, op[1])

    ''' train and evaluate '''
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops=metrics)
    elif mode == tf.estimator.ModeKeys.TRAIN:
        train_op = tf.train.AdamOptimizer().minimize(loss=loss,
                                                     global_step=tf.train.get_or_create_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    config = tf.estimator.RunConfig(model_dir=FLAGS.model_dir, save_checkpoints_steps=50,
                                    tf_random_seed=3)
    estimator = tf.estimator.Estimator(model_fn, config=config)

    # print the dict's values every 50 steps of training
    tensors_to_log = {"probabilities": "softmax_tensor"}
    logging_hook = tf.train.LoggingTensorHook(tensors=tensors_to_log, every_n_iter=50)

    hook = tf.contrib.estimator.stop_if_no_increase_hook(estimator, 'acc', max_steps_without_increase=150,
                                                         min_steps=200, run_every_secs=None, run_every_steps=10)
    train_spec = tf.estimator.TrainSpec(input_fn=train_inpf(FLAGS.data_dir + "/digits_train.tfrecords", True),
                                        max_steps=FLAGS.max_steps, hooks=[hook, logging_hook])
    eval_spec = tf.estimator.EvalSpec(input_fn=train_inpf(FLAGS.data_dir + "/digits_eval.tfrecords", False),
                                      steps=None, start_delay_secs=0, throttle_secs=0)
    tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
    result = estimator.evaluate(train_inpf(FLAGS.data_dir + "/digits_eval.tfrecords", False))
    print("stopped at step %d (max_steps %d), acc = %.4f, auc = %.4f"
          % (result["global_step"], FLAGS.max_steps, result["acc"], result["auc"]))


if __name__ == "__main__":
    tf.app.run()
