"""Seed 003 (Estimator → TrainSpec/EvalSpec → train_and_evaluate → export_savedmodel), completed.

As the seed wrote it: a two-task model_fn whose specs come from get_training_spec /
get_eval_spec / get_prediction_spec (tf.metrics.accuracy, sparse_precision_at_k), then
`estimator.export_savedmodel(..., serving_input_receiver_fn=serving_fn, as_text=True)` with a
`tf.placeholder` of images of any size resized by `tf.image.resize_images`; the export is then
served the TF1 way: `tf.Session` + `tf.saved_model.loader.load`. Here the "gender" task is the
digit's parity and the "age" task the digit itself.
"""
import argparse
import glob
import os

import numpy as np
import tensorflow as tf


def input_fn(path, training):
    def parse(record):
        parsed = tf.parse_single_example(record, {
            "label": tf.FixedLenFeature([], tf.int64),
            "image": tf.FixedLenFeature([], tf.string)})
        image = tf.reshape(tf.decode_raw(parsed["image"], tf.uint8), [28, 28, 1])
        image = tf.tile(tf.to_float(image) / 255.0, [1, 1, 3])
        label = parsed["label"]
        return {"image": image}, {"gender": label % 2, "age": label}

    def fn():
        ds = tf.data.TFRecordDataset(path).map(parse)
        if training:
            ds = ds.shuffle(1500, seed=11).repeat()
        return ds.batch(32)
    return fn


def get_training_spec(learning_rate, joint_loss):
    """The estimator spec for training."""
    optimizer = tf.train.AdamOptimizer(learning_rate=learning_rate)
    gender_train_op = optimizer.minimize(
        loss=joint_loss,
        global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode=tf.estimator.ModeKeys.TRAIN, loss=joint_loss, train_op=gender_train_op)


def get_eval_spec(gender_logits, age_logits, labels, loss):
    """The estimator spec for evaluation."""
    eval_metric_ops = {
        "gender_accuracy": tf.metrics.accuracy(
            labels=labels['gender'], predictions=tf.argmax(gender_logits, axis=1)),
        'age_accuracy': tf.metrics.accuracy(labels=labels['age'], predictions=tf.argmax(age_logits, axis=1)),
        'age_precision': tf.metrics.sparse_precision_at_k(labels=labels['age'],
                                                          predictions=age_logits, k=2)
    }
    return tf.estimator.EstimatorSpec(
        mode=tf.estimator.ModeKeys.EVAL, loss=loss, eval_metric_ops=eval_metric_ops)


def get_prediction_spec(age_logits, logits):
    """The estimator spec for prediction."""
    predictions = {
        "classes": tf.argmax(input=logits, axis=1),
        "age_class": tf.argmax(input=age_logits, name='age_class', axis=1),
        "age_prob": tf.nn.softmax(age_logits, name='age_prob'),
        "probabilities": tf.nn.softmax(logits, name="softmax_tensor")
    }
    return tf.estimator.EstimatorSpec(mode=tf.estimator.ModeKeys.PREDICT, predictions=predictions)


def my_model_fn(features, labels, mode, params, config=None):
    net = tf.layers.conv2d(features["image"], 8, 3, activation=tf.nn.relu, name="conv")
    net = tf.layers.max_pooling2d(net, 2, 2)
    net = tf.layers.dense(tf.layers.flatten(net), 32, activation=tf.nn.relu, name="shared")
    gender_logits = tf.layers.dense(net, 2, name="gender")
    age_logits = tf.layers.dense(net, 10, name="age")
    if mode == tf.estimator.ModeKeys.PREDICT:
        return get_prediction_spec(age_logits, gender_logits)
    joint_loss = (tf.losses.sparse_softmax_cross_entropy(labels["gender"], gender_logits) +
                  tf.losses.sparse_softmax_cross_entropy(labels["age"], age_logits))
    if mode == tf.estimator.ModeKeys.TRAIN:
        return get_training_spec(params["learning_rate"], joint_loss)
    return get_eval_spec(gender_logits, age_logits, labels, joint_loss)


def serving_fn():
    receiver_tensor = {
        'image': tf.placeholder(dtype=tf.float32, shape=[None, None, None, 3])
    }

    features = {
        'image': tf.image.resize_images(receiver_tensor['image'], [28, 28])
    }

    return tf.estimator.export.ServingInputReceiver(features, receiver_tensor)


def serve(export_dir, data_dir):
    """Loads the export as TF1 serving code did and classifies 56x56 versions of eval images."""
    images, labels = [], []
    for record in tf.python_io.tf_record_iterator(data_dir + "/digits_eval.tfrecords"):
        example = tf.train.Example.FromString(record)
        image = np.frombuffer(example.features.feature["image"].bytes_list.value[0], np.uint8)
        images.append(np.kron(image.reshape(28, 28) / 255.0, np.ones((2, 2))))
        labels.append(example.features.feature["label"].int64_list.value[0])
    batch = np.repeat(np.stack(images)[..., None], 3, axis=-1).astype(np.float32)
    with tf.Session(graph=tf.Graph()) as sess:
        meta_graph = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], export_dir)
        signature = meta_graph.signature_def["serving_default"]
        age = sess.run(signature.outputs["age_class"].name,
                       feed_dict={signature.inputs["image"].name: batch})
    return float(np.mean(age == np.array(labels)))


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    estimator = tf.estimator.Estimator(my_model_fn, model_dir=args.model_dir,
                                       params={"learning_rate": 0.003},
                                       config=tf.estimator.RunConfig(save_checkpoints_steps=200,
                                                                     tf_random_seed=5))
    train_spec = tf.estimator.TrainSpec(input_fn(args.data_dir + "/digits_train.tfrecords", True),
                                        max_steps=args.max_steps)
    eval_spec = tf.estimator.EvalSpec(input_fn(args.data_dir + "/digits_eval.tfrecords", False),
                                      steps=None, start_delay_secs=0, throttle_secs=0)
    metrics, _ = tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
    print("age_accuracy = %.4f, gender_accuracy = %.4f"
          % (metrics["age_accuracy"], metrics["gender_accuracy"]))
    estimator.export_savedmodel(export_dir_base='{}/serving'.format(args.model_dir),
                                serving_input_receiver_fn=serving_fn,
                                as_text=True)
    export_dir = sorted(glob.glob(os.path.join(args.model_dir, "serving", "*")))[-1]
    print("served age accuracy = %.4f (%s)" % (serve(export_dir, args.data_dir), export_dir))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_dir", required=True)
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--max_steps", type=int, default=600)
    args = parser.parse_args()
    tf.app.run(main, argv=[__file__])
