"""SparseTensor and RaggedTensor features through every input path an input_fn takes: a plain
Dataset, tensors returned, a one-shot iterator with ops after `get_next()` (the pruned tf.data
pipeline), an initializable iterator, placeholders (`sparse_placeholder`, a ragged tensor's
row splits) fed by a hook, and a queue-runner batch (the TF1 session). The model_fn gets them
as the composite tensors they were, values intact (TF-Ranking's sparse context features took
the one-shot path and failed before: composite tensors were passed as one argument)."""
import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec

v1 = tf.compat.v1
ROWS = [[1, 2], [3], [], [4, 5, 6]]
WIDTH = 3
LABELS = np.arange(4, dtype=np.float32).reshape(4, 1)


def sparse_value():
    indices = [[i, j] for i, row in enumerate(ROWS) for j in range(len(row))]
    return v1.SparseTensorValue(np.array(indices, np.int64).reshape(-1, 2),
                                np.array([v for row in ROWS for v in row], np.int64),
                                np.array([len(ROWS), WIDTH], np.int64))


def ragged_parts():
    values = np.array([v for row in ROWS for v in row], np.float32) / 10
    splits = np.cumsum([0] + [len(row) for row in ROWS]).astype(np.int64)
    return values, splits


def expected_batches():
    dense = np.array([row + [0] * (WIDTH - len(row)) for row in ROWS], np.int64)
    values, splits = ragged_parts()
    ragged = tf.RaggedTensor.from_row_splits(values, splits)
    return [(dense[i:i + 2], ragged[i:i + 2].to_tensor(-1.0).numpy()) for i in (0, 2)]


def model_fn(features, labels, mode):
    assert isinstance(features["s"], tf.SparseTensor), type(features["s"])
    assert isinstance(features["r"], tf.RaggedTensor), type(features["r"])
    predictions = {"s": tf.sparse.to_dense(features["s"]),
                   "r": features["r"].to_tensor(-1.0)}
    return ec.EstimatorSpec(mode, predictions=predictions)


def dataset(v1_dataset=False):
    values, splits = ragged_parts()
    module = v1.data if v1_dataset else tf.data
    features = {"s": tf.SparseTensor(*sparse_value()),
                "r": tf.RaggedTensor.from_row_splits(values, splits)}
    return module.Dataset.from_tensor_slices((features, LABELS)).batch(2)


class FeedHook(v1.train.SessionRunHook):
    """The IteratorInitializerHook idiom: feeds the input_fn's placeholders."""

    def __init__(self):
        self.initialize = lambda session: None

    def after_create_session(self, session, coord):
        self.initialize(session)


def plain_dataset(hook):
    return dataset()


def one_shot_with_ops_after_get_next(hook):
    features, labels = v1.data.make_one_shot_iterator(dataset()).get_next()
    features["s"] = tf.sparse.reorder(features["s"])
    features["r"] = features["r"] * 1.0
    return features, labels


def one_shot_method_v1(hook):
    return dataset(v1_dataset=True).make_one_shot_iterator().get_next()


def initializable_in_table_initializers(hook):
    iterator = v1.data.make_initializable_iterator(dataset())
    v1.add_to_collection(v1.GraphKeys.TABLE_INITIALIZERS, iterator.initializer)
    return iterator.get_next()


def placeholders_fed_by_a_hook(hook):
    sparse = v1.sparse_placeholder(tf.int64, shape=[None, WIDTH])
    values = v1.placeholder(tf.float32, [None])
    splits = v1.placeholder(tf.int64, [None])
    labels = v1.placeholder(tf.float32, [None, 1])
    features = {"s": sparse, "r": tf.RaggedTensor.from_row_splits(values, splits)}
    iterator = v1.data.make_initializable_iterator(
        tf.data.Dataset.from_tensor_slices((features, labels)).batch(2))
    ragged_values, ragged_splits = ragged_parts()
    hook.initialize = lambda session: session.run(iterator.initializer, feed_dict={
        sparse: sparse_value(), values: ragged_values, splits: ragged_splits, labels: LABELS})
    return iterator.get_next()


def queue_runner_batch(hook):
    dense = tf.constant([row + [0] * (WIDTH - len(row)) for row in ROWS], tf.int64)
    row, label = v1.train.slice_input_producer([dense, tf.constant(LABELS)], num_epochs=1,
                                               shuffle=False)
    batch = v1.train.batch({"s": tf.sparse.from_dense(row), "label": label}, 2)
    values = tf.cast(batch["s"].values, tf.float32) / 10
    rows = tf.shape(batch["label"], out_type=tf.int64)[0]
    batch["r"] = tf.RaggedTensor.from_value_rowids(values, batch["s"].indices[:, 0], nrows=rows)
    return batch, batch.pop("label")


PATHS = [plain_dataset, one_shot_with_ops_after_get_next, one_shot_method_v1,
         initializable_in_table_initializers, placeholders_fed_by_a_hook, queue_runner_batch]


@pytest.mark.parametrize("make_input", PATHS, ids=[p.__name__ for p in PATHS])
def test_sparse_and_ragged_features_reach_model_fn_intact(tmp_path, make_input):
    hook = FeedHook()
    est = ec.Estimator(model_fn, model_dir=str(tmp_path))
    got = list(est.predict(lambda: make_input(hook), hooks=[hook],
                           yield_single_examples=False))
    assert len(got) == 2
    for batch, (dense, ragged) in zip(got, expected_batches()):
        np.testing.assert_array_equal(batch["s"], dense)
        np.testing.assert_allclose(batch["r"], ragged)


def test_tensors_returned_with_a_sparse_feature(tmp_path):
    """An input_fn returning tensors (evaluated again each step) with a SparseTensor and a
    RaggedTensor among its features."""
    values, splits = ragged_parts()

    def input_fn():
        return ({"s": tf.SparseTensor(*sparse_value()),
                 "r": tf.RaggedTensor.from_row_splits(values, splits)}, tf.constant(LABELS))
    est = ec.Estimator(model_fn, model_dir=str(tmp_path))
    batch = next(est.predict(input_fn, yield_single_examples=False))
    (dense, _), (dense2, _) = expected_batches()
    np.testing.assert_array_equal(batch["s"], np.concatenate([dense, dense2]))
    np.testing.assert_allclose(batch["r"], tf.RaggedTensor.from_row_splits(
        values, splits).to_tensor(-1.0))


def test_model_fn_adding_to_its_features(tmp_path):
    """A model_fn that puts what it computed from a vocabulary lookup back into its features
    dict (TF-Ranking's groupwise model_fn does): the step's wait-for-input control edges are
    taken from the element as the input gave it, not from the model's outputs (a cycle)."""
    def input_fn():
        tokens = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], ["a", "b", "c"], [2, 2])
        return tf.data.Dataset.from_tensors(({"q": tokens}, tf.ones([2, 1]))).repeat()

    def mutating_model_fn(features, labels, mode):
        column = tf.feature_column.embedding_column(
            tf.feature_column.categorical_column_with_vocabulary_list("q", ["a", "b", "c"]), 2)
        features["encoded"] = v1.feature_column.input_layer(features, [column])
        loss = tf.reduce_mean(tf.square(v1.layers.dense(features["encoded"], 1) - labels))
        return ec.EstimatorSpec(mode, loss=loss, train_op=v1.train.GradientDescentOptimizer(
            0.1).minimize(loss, v1.train.get_or_create_global_step()))
    est = ec.Estimator(mutating_model_fn, model_dir=str(tmp_path))
    est.train(input_fn, steps=2)
    assert est.get_variable_value("global_step") == 2
