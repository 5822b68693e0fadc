"""Seed 001 (tf.estimator.Estimator: input_fn → model_fn → main), completed into a program.

The seed's code as written: a TFRecord input_fn ending in `dataset.make_one_shot_iterator()`,
a model_fn branching on mode, `GradientDescentOptimizer(...).minimize(loss)` *without* a
global_step (so the step never advances), a ConfigProto in RunConfig, training until the input
is exhausted.
"""
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("data_dir", None, "Directory with digits_{train,eval}.tfrecords.")
flags.DEFINE_string("model_output_dir", None, "model_dir.")
flags.DEFINE_float("lr", 0.1, "Learning rate.")
flags.DEFINE_integer("num_epochs", 10, "Training epochs.")
flags.DEFINE_bool("do_train", True, "Train.")
flags.DEFINE_bool("do_eval", True, "Evaluate.")
flags.DEFINE_bool("do_predict", True, "Predict.")
FLAGS = flags.FLAGS


def input_fn(filenames, batch_size=32, num_epochs=None, perform_shuffle=False):
    """Reads TFRecords into batches of (features, labels)."""
    def _parse_fn(record):
        features = {
            "label": tf.FixedLenFeature([], tf.int64),
            "image": tf.FixedLenFeature([], tf.string),
        }
        parsed = tf.parse_single_example(record, features)
        # image
        image = tf.decode_raw(parsed["image"], tf.uint8)
        image = tf.reshape(image, [28, 28])
        # label
        label = tf.cast(parsed["label"], tf.int64)
        return {"image": image}, label

    dataset = tf.data.TFRecordDataset(filenames).map(_parse_fn, num_parallel_calls=10).prefetch(500000)
    if perform_shuffle:
        dataset = dataset.shuffle(buffer_size=256, seed=1)
    dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size)
    iterator = dataset.make_one_shot_iterator()
    batch_features, batch_labels = iterator.get_next()
    return batch_features, batch_labels


def create_model(features):
    x = tf.reshape(tf.to_float(features["image"]) / 255.0, [-1, 28 * 28])
    hidden = tf.layers.dense(x, 64, activation=tf.nn.relu, name="hidden")
    return tf.layers.dense(hidden, 10, name="logits")


def get_loss(logits, labels):
    return tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)


def model_fn(features, labels, mode, params):
    # step1: the network
    logits = create_model(features)
    predict = tf.nn.softmax(logits, axis=-1, name="softmax_tensor")

    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode=mode, predictions={
            "probabilities": predict, "classes": tf.argmax(logits, axis=1)})

    # step2: loss, optimization
    loss = get_loss(logits, labels)
    train_op = tf.train.GradientDescentOptimizer(params['lr']).minimize(loss)

    # step3: EstimatorSpec by mode
    if mode == tf.estimator.ModeKeys.TRAIN:
        logging_hook = tf.train.LoggingTensorHook({"loss": loss}, every_n_iter=20)
        output_spec = tf.estimator.EstimatorSpec(
            mode=mode,
            loss=loss,
            train_op=train_op,
            training_hooks=[logging_hook])
    else:
        eval_metrics = {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, axis=1))}
        output_spec = tf.estimator.EstimatorSpec(
            mode=mode,
            loss=loss,
            eval_metric_ops=eval_metrics)
    return output_spec


def main_(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    # 1. parameters
    params = {'lr': FLAGS.lr}

    # 2. config
    session_config = tf.ConfigProto(log_device_placement=False,
                                    inter_op_parallelism_threads=0,
                                    intra_op_parallelism_threads=0,
                                    allow_soft_placement=True)
    run_config = tf.estimator.RunConfig(model_dir=FLAGS.model_output_dir,
                                        save_checkpoints_steps=5000,
                                        keep_checkpoint_max=3,
                                        tf_random_seed=1,
                                        session_config=session_config)

    # 3. the estimator
    estimator = tf.estimator.Estimator(
        model_fn=model_fn,
        config=run_config,
        params=params)

    train_file = FLAGS.data_dir + "/digits_train.tfrecords"
    eval_file = FLAGS.data_dir + "/digits_eval.tfrecords"
    if FLAGS.do_train:
        estimator.train(input_fn=lambda: input_fn(train_file, num_epochs=FLAGS.num_epochs,
                                                  perform_shuffle=True))
    if FLAGS.do_eval:
        result = estimator.evaluate(input_fn=lambda: input_fn(eval_file, num_epochs=1))
        print("eval accuracy = %.4f, global_step = %d" % (result["accuracy"], result["global_step"]))
    if FLAGS.do_predict:
        predictions = estimator.predict(input_fn=lambda: input_fn(eval_file, num_epochs=1))
        classes = [p["classes"] for p in predictions]
        print("predicted %d examples, first classes %s" % (len(classes), classes[:10]))


if __name__ == "__main__":
    tf.app.run(main_)
