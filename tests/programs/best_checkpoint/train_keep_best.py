"""Keeps the best checkpoint by hand, in the style of ALBERT's run_classifier.py (TF 1.x): a
loop of `estimator.train(max_steps=...)` / `estimator.evaluate()`, and when the metric improves
the checkpoint's three files (`.index`, `.data-00000-of-00001`, `.meta`) are copied to
`model.ckpt-best.*` with tf.gfile.Copy and the result written next to them. Afterwards, as a
TF 1.x tool would, the best checkpoint is loaded from its .meta with
`tf.train.import_meta_graph` and restored in a `tf.Session`, and its predictions are compared
with the Estimator's. Prints `RESULT <json>`.
"""
import json
import os

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("data_dir", None, "Directory of make_data.py's files.")
flags.DEFINE_string("output_dir", None, "Model directory.")
flags.DEFINE_integer("train_steps", 150, "Training steps.")
flags.DEFINE_integer("eval_every", 50, "Steps between evaluations.")
FLAGS = flags.FLAGS


def input_fn(name, training):
    def _input_fn():
        def parse(record):
            example = tf.parse_single_example(record, {
                "image": tf.FixedLenFeature([], tf.string),
                "label": tf.FixedLenFeature([], tf.int64)})
            image = tf.cast(tf.decode_raw(example["image"], tf.uint8), tf.float32) / 255.0
            return {"image": tf.reshape(image, [784])}, example["label"]
        d = tf.data.TFRecordDataset(os.path.join(FLAGS.data_dir, name)).map(parse)
        if training:
            d = d.shuffle(1000, seed=2).repeat()
        return d.batch(32)
    return _input_fn


def model_fn(features, labels, mode):
    hidden = tf.layers.dense(features["image"], 64, activation=tf.nn.relu, name="hidden")
    logits = tf.layers.dense(hidden, 10, name="logits")
    probabilities = tf.nn.softmax(logits, name="probabilities")
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"probabilities": probabilities})
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = tf.train.AdamOptimizer(0.002).minimize(loss, tf.train.get_global_step())
    accuracy = tf.metrics.accuracy(labels, tf.argmax(logits, axis=1))
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      eval_metric_ops={"eval_accuracy": accuracy})


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    config = tf.estimator.RunConfig(model_dir=FLAGS.output_dir, tf_random_seed=3,
                                    save_checkpoints_steps=FLAGS.eval_every)
    estimator = tf.estimator.Estimator(model_fn, config=config)
    best, best_step = -1.0, 0
    global_step = 0
    while global_step < FLAGS.train_steps:
        estimator.train(input_fn("digits_train.tfrecords", True),
                        max_steps=global_step + FLAGS.eval_every)
        result = estimator.evaluate(input_fn("digits_eval.tfrecords", False))
        global_step = int(result["global_step"])
        if result["eval_accuracy"] > best:
            best, best_step = float(result["eval_accuracy"]), global_step
            for ext in ["meta", "data-00000-of-00001", "index"]:
                src_ckpt = "model.ckpt-{}.{}".format(global_step, ext)
                tgt_ckpt = "model.ckpt-best.{}".format(ext)
                tf.logging.info("saving {} to {}".format(src_ckpt, tgt_ckpt))
                tf.gfile.Copy(os.path.join(FLAGS.output_dir, src_ckpt),
                              os.path.join(FLAGS.output_dir, tgt_ckpt), overwrite=True)
            with tf.gfile.GFile(os.path.join(FLAGS.output_dir, "best_result.txt"), "w") as f:
                f.write("%d %.6f\n" % (best_step, best))

    # As a TF 1.x tool: the best model from its .meta, in a session.
    images = np.random.RandomState(0).rand(4, 784).astype(np.float32)
    best_prefix = os.path.join(FLAGS.output_dir, "model.ckpt-best")
    with tf.Graph().as_default() as graph, tf.Session() as sess:
        saver = tf.train.import_meta_graph(best_prefix + ".meta")
        saver.restore(sess, best_prefix)
        step = sess.run(tf.train.get_global_step())
        probs = sess.run(graph.get_tensor_by_name("probabilities:0"),
                         {graph.get_tensor_by_name("IteratorGetNext:0"): images})
    served = np.stack([p["probabilities"] for p in estimator.predict(
        lambda: tf.data.Dataset.from_tensor_slices({"image": images}).batch(4),
        checkpoint_path=best_prefix)])
    print("RESULT " + json.dumps({"best_step": best_step, "best_accuracy": best,
                                  "meta_step": int(step),
                                  "max_diff": float(np.abs(probs - served).max())}))


if __name__ == "__main__":
    flags.mark_flag_as_required("data_dir")
    flags.mark_flag_as_required("output_dir")
    tf.app.run()
