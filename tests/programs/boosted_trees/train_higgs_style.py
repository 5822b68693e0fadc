"""Boosted trees over HIGGS-shaped data, written as tensorflow/models' r1 sample was: TF 1.x
flags, the whole training set as one in-memory batch (`Dataset.from_tensors`), bucketized
columns at the data's percentiles, tf.contrib.estimator's in-memory trainer, evaluation on
batches, and an export whose serving input parses CSV lines (`tf.placeholder`,
`tf.decode_csv`)."""
import json
import os

import numpy as np
import tensorflow as tf

flags = tf.app.flags
flags.DEFINE_string("data_dir", "/tmp/higgs_data", "Directory holding HIGGS.csv.gz.npz.")
flags.DEFINE_string("model_dir", "/tmp/higgs_model", "Where the model is trained.")
flags.DEFINE_string("export_dir", None, "Where the SavedModel is exported (none: no export).")
flags.DEFINE_integer("train_count", 5000, "Rows used for training.")
flags.DEFINE_integer("eval_count", 1000, "Rows used for evaluation (after the training ones).")
flags.DEFINE_integer("n_trees", 20, "Trees to build.")
flags.DEFINE_integer("max_depth", 4, "Depth of each tree.")
flags.DEFINE_float("learning_rate", 0.1, "Shrinkage of each tree.")
FLAGS = flags.FLAGS


def read_data():
    with tf.gfile.Open(os.path.join(FLAGS.data_dir, "HIGGS.csv.gz.npz"), "rb") as f:
        with np.load(f) as npz:
            data = npz["data"]
    train = data[:FLAGS.train_count]
    return train, data[FLAGS.train_count:FLAGS.train_count + FLAGS.eval_count]


def inputs(features_np, label_np):
    """The in-memory input_fn, feature names and bucketized columns of the training data."""
    count = features_np.shape[1]
    columns_np = np.split(features_np, count, axis=1)
    names = ["feature_%02d" % (i + 1) for i in range(count)]
    sources = [tf.feature_column.numeric_column(name, dtype=tf.float32, default_value=0.0)
               for name in names]
    bucketized = [tf.feature_column.bucketized_column(
        sources[i], boundaries=np.unique(np.percentile(columns_np[i], range(0, 100))).tolist())
        for i in range(count)]

    def input_fn():
        features = {name: tf.constant(columns_np[i]) for i, name in enumerate(names)}
        return tf.data.Dataset.zip((tf.data.Dataset.from_tensors(features),
                                    tf.data.Dataset.from_tensors(label_np)))
    return input_fn, names, bucketized


def eval_inputs(features_np, label_np):
    columns_np = np.split(features_np, features_np.shape[1], axis=1)
    names = ["feature_%02d" % (i + 1) for i in range(features_np.shape[1])]

    def input_fn():
        features = {name: tf.constant(columns_np[i]) for i, name in enumerate(names)}
        return tf.data.Dataset.zip((tf.data.Dataset.from_tensor_slices(features),
                                    tf.data.Dataset.from_tensor_slices(label_np))).batch(500)
    return input_fn


def csv_serving_input_fn(names):
    def serving_input_receiver_fn():
        csv = tf.placeholder(dtype=tf.string, shape=[None], name="csv")
        features = dict(zip(names, tf.decode_csv(csv, [[0.0]] * len(names))))
        return tf.estimator.export.ServingInputReceiver(features, {"inputs": csv})
    return serving_input_receiver_fn


def main(_):
    if tf.gfile.Exists(FLAGS.model_dir):
        tf.gfile.DeleteRecursively(FLAGS.model_dir)
    train, evaluation = read_data()
    tf.logging.info("## Data loaded; train: %s, eval: %s", train.shape, evaluation.shape)
    train_input_fn, names, columns = inputs(train[:, 1:], train[:, 0:1])
    classifier = tf.contrib.estimator.boosted_trees_classifier_train_in_memory(
        train_input_fn, columns, model_dir=FLAGS.model_dir, n_trees=FLAGS.n_trees,
        max_depth=FLAGS.max_depth, learning_rate=FLAGS.learning_rate)
    results = classifier.evaluate(eval_inputs(evaluation[:, 1:], evaluation[:, 0:1]))
    out = {k: float(v) for k, v in results.items()}
    if FLAGS.export_dir is not None:
        path = classifier.export_savedmodel(FLAGS.export_dir, csv_serving_input_fn(names),
                                            strip_default_attrs=True)
        out["export"] = path.decode() if isinstance(path, bytes) else path
        rows = [",".join("%g" % v for v in row) for row in evaluation[:5, 1:]]
        with tf.Session(graph=tf.Graph()) as sess:
            meta = tf.saved_model.loader.load(sess, ["serve"], out["export"])
            signature = meta.signature_def["predict"]
            probabilities = sess.run(signature.outputs["probabilities"].name,
                                     {signature.inputs["inputs"].name: rows})
        out["served"] = probabilities[:, 1].tolist()
        out["expected_labels"] = evaluation[:5, 0].tolist()
    print("RESULT " + json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.app.run()
