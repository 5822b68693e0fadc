"""Learning to rank on ExampleInExample TFRecords with TF-Ranking's estimator API, in the style
of TF-Ranking's `tf_ranking_tfrecord.py` example (tensorflow-ranking 0.5 era).

The idioms it keeps: `tfr.data.build_ranking_dataset` over context and example feature specs,
`tf.compat.v1.data.make_one_shot_iterator(dataset).get_next()` and the label popped out of the
features dict it returned, context and example feature columns through
`encode_listwise_features`, a DNN score function, `tfr.head.create_ranking_head` with a
softmax loss and a Keras-free compat.v1 optimizer, `train_and_evaluate` then `predict`.
Prints `RESULT <json>` with the final evaluation and the first list's scores' shape.
"""
import json

from absl import flags
import numpy as np
import tensorflow as tf
from tensorflow import estimator as tf_estimator
import tensorflow_ranking as tfr

flags.DEFINE_string("data_dir", None, "Directory with train/vali.tfrecords (EIE).")
flags.DEFINE_string("output_dir", None, "Output directory for models.")
flags.DEFINE_integer("batch_size", 16, "Lists per batch.")
flags.DEFINE_integer("list_size", 25, "Documents per list.")
flags.DEFINE_integer("num_train_steps", 250, "Training steps.")
flags.DEFINE_float("learning_rate", 0.05, "Learning rate.")
FLAGS = flags.FLAGS

_LABEL_FEATURE = "relevance"
_PADDING_LABEL = -1


def context_feature_columns():
    return {"query_length": tf.feature_column.numeric_column("query_length", shape=(1,),
                                                             default_value=0.0)}


def example_feature_columns():
    names = ["f%d" % (i + 1) for i in range(20)]
    return {n: tf.feature_column.numeric_column(n, shape=(1,), default_value=0.0)
            for n in names}


def input_fn(path, num_epochs=None, shuffle=True):
    context_feature_spec = tf.feature_column.make_parse_example_spec(
        context_feature_columns().values())
    label_column = tf.feature_column.numeric_column(
        _LABEL_FEATURE, dtype=tf.float32, default_value=_PADDING_LABEL)
    example_feature_spec = tf.feature_column.make_parse_example_spec(
        list(example_feature_columns().values()) + [label_column])
    dataset = tfr.data.build_ranking_dataset(
        file_pattern=path, data_format=tfr.data.EIE, batch_size=FLAGS.batch_size,
        list_size=FLAGS.list_size, context_feature_spec=context_feature_spec,
        example_feature_spec=example_feature_spec, reader=tf.data.TFRecordDataset,
        shuffle=shuffle, num_epochs=num_epochs, seed=3)
    features = tf.compat.v1.data.make_one_shot_iterator(dataset).get_next()
    label = tf.squeeze(features.pop(_LABEL_FEATURE), axis=2)
    label = tf.cast(label, tf.float32)
    return features, label


def transform_fn(features, mode):
    return tfr.feature.encode_listwise_features(
        features=features, context_feature_columns=context_feature_columns(),
        example_feature_columns=example_feature_columns(), mode=mode,
        scope="transform_layer")


def score_fn(context_features, group_features, mode, params, config):
    with tf.compat.v1.name_scope("input_layer"):
        inputs = [tf.compat.v1.layers.flatten(context_features[n])
                  for n in sorted(context_feature_columns())]
        inputs += [tf.compat.v1.layers.flatten(group_features[n])
                   for n in sorted(example_feature_columns())]
        layer = tf.concat(inputs, 1)
    for width in (32, 16):
        layer = tf.compat.v1.layers.dense(layer, units=width, activation=tf.nn.relu)
    return tf.compat.v1.layers.dense(layer, units=1)


def main(_):
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)
    optimizer = tf.compat.v1.train.AdagradOptimizer(learning_rate=FLAGS.learning_rate)

    def train_op_fn(loss):
        return optimizer.minimize(loss=loss, global_step=tf.compat.v1.train.get_global_step())

    head = tfr.head.create_ranking_head(
        loss_fn=tfr.losses.make_loss_fn(tfr.losses.RankingLossKey.SOFTMAX_LOSS),
        eval_metric_fns={"metric/ndcg@5": tfr.metrics.make_ranking_metric_fn(
            tfr.metrics.RankingMetricKey.NDCG, topn=5)},
        train_op_fn=train_op_fn)
    estimator = tf_estimator.Estimator(
        model_fn=tfr.model.make_groupwise_ranking_fn(
            group_score_fn=score_fn, group_size=1, transform_fn=transform_fn,
            ranking_head=head),
        config=tf_estimator.RunConfig(FLAGS.output_dir, tf_random_seed=5,
                                      save_checkpoints_steps=125))
    train_path = FLAGS.data_dir + "/train.tfrecords"
    vali_path = FLAGS.data_dir + "/vali.tfrecords"
    tf_estimator.train_and_evaluate(
        estimator,
        tf_estimator.TrainSpec(input_fn=lambda: input_fn(train_path),
                               max_steps=FLAGS.num_train_steps),
        tf_estimator.EvalSpec(input_fn=lambda: input_fn(vali_path, num_epochs=1,
                                                        shuffle=False),
                              steps=None, start_delay_secs=0, throttle_secs=1))
    result = estimator.evaluate(lambda: input_fn(vali_path, num_epochs=1, shuffle=False))
    scores = next(estimator.predict(lambda: input_fn(vali_path, num_epochs=1, shuffle=False)))
    print("RESULT " + json.dumps(dict({k: float(v) for k, v in result.items()},
                                      scores_shape=list(np.shape(scores)))))


if __name__ == "__main__":
    flags.mark_flag_as_required("data_dir")
    flags.mark_flag_as_required("output_dir")
    tf.compat.v1.app.run()
