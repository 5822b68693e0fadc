"""Learning to rank on ExampleListWithContext TFRecords with sparse token features, in the
style of TF-Ranking's `tf_ranking_tfrecord.py` example (tensorflow-ranking 0.5 era).

The idioms it keeps: `tfr.data.build_ranking_dataset(data_format=tfr.data.ELWC,
reader=tf.data.TFRecordDataset)`, whose query tokens (context) and document tokens (examples)
come out as SparseTensors, read through `categorical_column_with_vocabulary_list` and
`embedding_column` in `encode_listwise_features`; the training input through
`make_one_shot_iterator(dataset).get_next()` with the label popped from its dict (TF-Ranking's
own), the evaluation input through an initializable iterator over a file-pattern placeholder
fed by an IteratorInitializerHook, predictions from a Dataset returned as is; a DNN score
function with batch normalization and dropout (its UPDATE_OPS grouped into the train op), a
softmax-loss ranking head with NDCG metrics, `train_and_evaluate` (one evaluation, at the
end) then `predict`. Prints `RESULT <json>` with the evaluation and the first list's scores'
shape.
"""
import json

from absl import flags
import numpy as np
import tensorflow as tf
from tensorflow import estimator as tf_estimator
import tensorflow_ranking as tfr

flags.DEFINE_string("data_dir", None, "Directory with train/vali_elwc.tfrecords.")
flags.DEFINE_string("output_dir", None, "Output directory for models.")
flags.DEFINE_integer("batch_size", 16, "Lists per batch.")
flags.DEFINE_integer("list_size", 25, "Documents per list.")
flags.DEFINE_integer("num_train_steps", 200, "Training steps.")
flags.DEFINE_float("learning_rate", 0.1, "Learning rate.")
FLAGS = flags.FLAGS

_LABEL_FEATURE = "relevance"
_PADDING_LABEL = -1
_EMBEDDING_DIMENSION = 8
_VOCABULARY = ["t%d" % i for i in range(6)] + ["w%d" % i for i in range(4)]


def context_feature_columns():
    tokens = tf.feature_column.categorical_column_with_vocabulary_list(
        key="query_tokens", vocabulary_list=_VOCABULARY)
    return {"query_tokens": tf.feature_column.embedding_column(tokens, _EMBEDDING_DIMENSION)}


def example_feature_columns():
    tokens = tf.feature_column.categorical_column_with_vocabulary_list(
        key="document_tokens", vocabulary_list=_VOCABULARY)
    columns = {"document_tokens": tf.feature_column.embedding_column(tokens,
                                                                      _EMBEDDING_DIMENSION)}
    for i in range(20):
        name = "f%d" % (i + 1)
        columns[name] = tf.feature_column.numeric_column(name, shape=(1,), default_value=0.0)
    return columns


def ranking_dataset(file_pattern, num_epochs=None, shuffle=True):
    context_feature_spec = tf.feature_column.make_parse_example_spec(
        context_feature_columns().values())
    label_column = tf.feature_column.numeric_column(
        _LABEL_FEATURE, dtype=tf.int64, default_value=_PADDING_LABEL)
    example_feature_spec = tf.feature_column.make_parse_example_spec(
        list(example_feature_columns().values()) + [label_column])
    return tfr.data.build_ranking_dataset(
        file_pattern=file_pattern, data_format=tfr.data.ELWC, batch_size=FLAGS.batch_size,
        list_size=FLAGS.list_size, context_feature_spec=context_feature_spec,
        example_feature_spec=example_feature_spec, reader=tf.data.TFRecordDataset,
        shuffle=shuffle, num_epochs=num_epochs, seed=3)


def pop_label(features):
    label = tf.squeeze(features.pop(_LABEL_FEATURE), axis=2)
    return features, tf.cast(label, tf.float32)


def make_input_fn(file_pattern):
    """TF-Ranking's example: a one-shot iterator, the label popped from get_next()'s dict."""
    def _input_fn():
        features = tf.compat.v1.data.make_one_shot_iterator(
            ranking_dataset(file_pattern)).get_next()
        return pop_label(features)
    return _input_fn


class IteratorInitializerHook(tf.compat.v1.train.SessionRunHook):
    """Feeds the input_fn's placeholders when the session is created."""

    def __init__(self):
        super(IteratorInitializerHook, self).__init__()
        self.iterator_initializer_fn = None

    def after_create_session(self, session, coord):
        del coord
        self.iterator_initializer_fn(session)


def make_fed_input_fn(file_pattern):
    """The file pattern fed to an initializable iterator by a hook, one epoch, in order."""
    hook = IteratorInitializerHook()

    def _input_fn():
        pattern = tf.compat.v1.placeholder(tf.string, shape=[])
        iterator = tf.compat.v1.data.make_initializable_iterator(
            ranking_dataset(pattern, num_epochs=1, shuffle=False))
        hook.iterator_initializer_fn = lambda sess: sess.run(
            iterator.initializer, feed_dict={pattern: file_pattern})
        return pop_label(iterator.get_next())
    return _input_fn, hook


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
    is_training = mode == tf_estimator.ModeKeys.TRAIN
    layer = tf.compat.v1.layers.batch_normalization(layer, training=is_training, momentum=0.9)
    for width in (32, 16):
        layer = tf.compat.v1.layers.dense(layer, units=width)
        layer = tf.nn.relu(layer)
        layer = tf.compat.v1.layers.dropout(layer, rate=0.1, training=is_training)
    return tf.compat.v1.layers.dense(layer, units=1)


def eval_metric_fns():
    return {"metric/ndcg@%d" % k: tfr.metrics.make_ranking_metric_fn(
        tfr.metrics.RankingMetricKey.NDCG, topn=k) for k in (1, 5, 10)}


def main(_):
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)
    optimizer = tf.compat.v1.train.AdagradOptimizer(learning_rate=FLAGS.learning_rate)

    def train_op_fn(loss):
        update_ops = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS)
        minimize_op = optimizer.minimize(loss=loss,
                                         global_step=tf.compat.v1.train.get_global_step())
        return tf.group([update_ops, minimize_op])

    head = tfr.head.create_ranking_head(
        loss_fn=tfr.losses.make_loss_fn(tfr.losses.RankingLossKey.SOFTMAX_LOSS),
        eval_metric_fns=eval_metric_fns(), train_op_fn=train_op_fn)
    estimator = tf_estimator.Estimator(
        model_fn=tfr.model.make_groupwise_ranking_fn(
            group_score_fn=score_fn, group_size=1, transform_fn=transform_fn,
            ranking_head=head),
        config=tf_estimator.RunConfig(FLAGS.output_dir, tf_random_seed=7,
                                      save_checkpoints_steps=200))
    vali_path = FLAGS.data_dir + "/vali_elwc.tfrecords"
    eval_input_fn, eval_hook = make_fed_input_fn(vali_path)
    result, _ = tf_estimator.train_and_evaluate(
        estimator,
        tf_estimator.TrainSpec(input_fn=make_input_fn(FLAGS.data_dir + "/train_elwc.tfrecords"),
                               max_steps=FLAGS.num_train_steps),
        tf_estimator.EvalSpec(input_fn=eval_input_fn, steps=None, hooks=[eval_hook],
                              start_delay_secs=0, throttle_secs=1))
    scores = next(estimator.predict(
        lambda: ranking_dataset(vali_path, num_epochs=1, shuffle=False).map(
            lambda features: pop_label(features)[0])))
    print("RESULT " + json.dumps(dict({k: float(v) for k, v in result.items()},
                                      scores_shape=list(np.shape(scores)))))


if __name__ == "__main__":
    flags.mark_flag_as_required("data_dir")
    flags.mark_flag_as_required("output_dir")
    tf.compat.v1.app.run()
