"""Learning to rank on LibSVM data with TF-Ranking's estimator API, in the style of TF-Ranking's
`tf_ranking_libsvm.py` example (TF 2.x code of the tensorflow-ranking 0.5 era).

The idioms it keeps: the whole data set loaded into numpy arrays, fed to the input pipeline
through placeholders by an `IteratorInitializerHook` (`sess.run(iterator.initializer,
feed_dict=...)` in `after_create_session`), `tfr.feature.encode_listwise_features` in a
transform_fn, `tfr.head.create_ranking_head` with `tfr.metrics` NDCG metrics and a compat.v1
Adagrad train_op_fn, `tfr.model.make_groupwise_ranking_fn`, `train_and_evaluate` with a
`LatestExporter` of a tf.Example parsing receiver, and a final evaluate on the test set.
Prints `RESULT <json>` with the test metrics.
"""
import json

from absl import flags
import numpy as np
import tensorflow as tf
from tensorflow import estimator as tf_estimator
import tensorflow_ranking as tfr

flags.DEFINE_string("data_dir", None, "Directory with train.txt, vali.txt and test.txt.")
flags.DEFINE_string("output_dir", None, "Output directory for models.")
flags.DEFINE_integer("batch_size", 32, "The batch size for training.")
flags.DEFINE_integer("num_train_steps", 300, "Number of steps for training.")
flags.DEFINE_float("learning_rate", 0.05, "Learning rate for the optimizer.")
flags.DEFINE_list("hidden_layer_dims", ["32", "16"], "Sizes of the hidden layers.")
flags.DEFINE_integer("num_features", 20, "Number of features per document.")
flags.DEFINE_integer("list_size", 25, "Documents per list.")
flags.DEFINE_integer("seed", 7, "tf_random_seed of the RunConfig.")
FLAGS = flags.FLAGS


class IteratorInitializerHook(tf_estimator.SessionRunHook):
    """Runs the data iterator's initializer once the session exists."""

    def __init__(self):
        super(IteratorInitializerHook, self).__init__()
        self.iterator_initializer_fn = None

    def after_create_session(self, session, coord):
        del coord
        self.iterator_initializer_fn(session)


def feature_columns():
    return {str(i + 1): tf.feature_column.numeric_column(str(i + 1), shape=(1,),
                                                         default_value=0.0)
            for i in range(FLAGS.num_features)}


def read_libsvm(path, list_size):
    """{feature: [queries, list_size, 1]} and labels [queries, list_size] (-1 pads)."""
    rows = {}
    with open(path) as f:
        for line in f:
            tokens = line.split("#")[0].split()
            docs = rows.setdefault(tokens[1], [])
            docs.append((float(tokens[0]), dict(kv.split(":") for kv in tokens[2:])))
    features = {k: np.zeros([len(rows), list_size, 1], np.float32) for k in feature_columns()}
    labels = -np.ones([len(rows), list_size], np.float32)
    for q, docs in enumerate(rows.values()):
        for d, (label, values) in enumerate(docs[:list_size]):
            labels[q, d] = label
            for k, v in values.items():
                features[k][q, d, 0] = float(v)
    tf.compat.v1.logging.info("%s: %d queries", path, len(rows))
    return features, labels


def fed_input_fn(features, labels, batch_size=None):
    """An input_fn over placeholders, and the hook that feeds them the arrays."""
    hook = IteratorInitializerHook()

    def input_fn():
        feature_placeholders = {k: tf.compat.v1.placeholder(v.dtype, v.shape)
                                for k, v in features.items()}
        label_placeholder = tf.compat.v1.placeholder(labels.dtype, labels.shape)
        if batch_size:
            dataset = tf.data.Dataset.from_tensor_slices((feature_placeholders,
                                                          label_placeholder))
            dataset = dataset.shuffle(1000, seed=FLAGS.seed).repeat().batch(batch_size)
        else:  # the whole set as one batch
            dataset = tf.data.Dataset.from_tensors((feature_placeholders, label_placeholder))
        iterator = tf.compat.v1.data.make_initializable_iterator(dataset)
        feed_dict = {label_placeholder: labels}
        feed_dict.update({feature_placeholders[k]: features[k] for k in features})
        hook.iterator_initializer_fn = lambda sess: sess.run(iterator.initializer,
                                                             feed_dict=feed_dict)
        return iterator.get_next()

    return input_fn, hook


def transform_fn(features, mode):
    if mode == tf_estimator.ModeKeys.PREDICT:
        return tfr.feature.encode_pointwise_features(
            features=features, context_feature_columns=None,
            example_feature_columns=feature_columns(), mode=mode, scope="transform_layer")
    return tfr.feature.encode_listwise_features(
        features=features, context_feature_columns=None,
        example_feature_columns=feature_columns(), mode=mode, scope="transform_layer")


def score_fn(unused_context_features, group_features, mode, unused_params, unused_config):
    with tf.compat.v1.name_scope("input_layer"):
        layer = tf.concat([tf.compat.v1.layers.flatten(group_features[name])
                           for name in sorted(feature_columns())], 1)
        tf.compat.v1.summary.scalar("input_sparsity", tf.nn.zero_fraction(layer))
    training = mode == tf_estimator.ModeKeys.TRAIN
    layer = tf.compat.v1.layers.batch_normalization(layer, training=training)
    for width in FLAGS.hidden_layer_dims:
        layer = tf.compat.v1.layers.dense(layer, units=int(width))
        layer = tf.compat.v1.layers.batch_normalization(layer, training=training)
        layer = tf.nn.relu(layer)
    return tf.compat.v1.layers.dense(layer, units=1)


def metric_fns():
    fns = {"metric/%s" % name: tfr.metrics.make_ranking_metric_fn(name) for name in [
        tfr.metrics.RankingMetricKey.ARP, tfr.metrics.RankingMetricKey.ORDERED_PAIR_ACCURACY]}
    fns.update({"metric/ndcg@%d" % k: tfr.metrics.make_ranking_metric_fn(
        tfr.metrics.RankingMetricKey.NDCG, topn=k) for k in [1, 3, 5, 10]})
    return fns


def main(_):
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)
    read = lambda name: read_libsvm("%s/%s.txt" % (FLAGS.data_dir, name), FLAGS.list_size)  # noqa: E731
    train_input_fn, train_hook = fed_input_fn(*read("train"), batch_size=FLAGS.batch_size)
    vali_input_fn, vali_hook = fed_input_fn(*read("vali"))
    test_input_fn, test_hook = fed_input_fn(*read("test"))
    optimizer = tf.compat.v1.train.AdagradOptimizer(learning_rate=FLAGS.learning_rate)

    def train_op_fn(loss):
        update_ops = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS)
        minimize_op = optimizer.minimize(loss=loss,
                                         global_step=tf.compat.v1.train.get_global_step())
        return tf.group([minimize_op, update_ops])

    head = tfr.head.create_ranking_head(
        loss_fn=tfr.losses.make_loss_fn("pairwise_logistic_loss"),
        eval_metric_fns=metric_fns(), train_op_fn=train_op_fn)
    estimator = tf_estimator.Estimator(
        model_fn=tfr.model.make_groupwise_ranking_fn(
            group_score_fn=score_fn, group_size=1, transform_fn=transform_fn,
            ranking_head=head),
        config=tf_estimator.RunConfig(FLAGS.output_dir, save_checkpoints_steps=100,
                                      tf_random_seed=FLAGS.seed))
    serving = tf_estimator.export.build_parsing_serving_input_receiver_fn(
        tf.feature_column.make_parse_example_spec(feature_columns().values()))
    tf_estimator.train_and_evaluate(
        estimator,
        tf_estimator.TrainSpec(train_input_fn, hooks=[train_hook],
                               max_steps=FLAGS.num_train_steps),
        tf_estimator.EvalSpec(vali_input_fn, hooks=[vali_hook], steps=1,
                              exporters=tf_estimator.LatestExporter("latest_exporter", serving),
                              start_delay_secs=0, throttle_secs=1))
    result = estimator.evaluate(input_fn=test_input_fn, hooks=[test_hook])
    print("RESULT " + json.dumps({k: float(v) for k, v in result.items()}))


if __name__ == "__main__":
    flags.mark_flag_as_required("data_dir")
    flags.mark_flag_as_required("output_dir")
    tf.compat.v1.app.run()
