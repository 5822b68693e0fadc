"""engine/batched_slices.py: in-memory arrays sliced and batched are read a whole batch at a
time, with the same elements, order, element_spec and cardinality; other pipelines as
written; an Estimator trained and evaluated through the rewrite gets what the pipeline as
written gives."""
import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from estimator_compat.engine import batched_slices

X = np.arange(70 * 3, dtype=np.float32).reshape(70, 3)
Y = np.arange(70, dtype=np.int64)
slices = tf.data.Dataset.from_tensor_slices


def _elements(dataset, n=None):
    dataset = dataset if n is None else dataset.take(n)
    return [tf.nest.map_structure(lambda t: t.numpy().tolist(), e) for e in dataset]


REWRITTEN = {
    "batch with a remainder": lambda: slices((X, Y)).batch(16),
    "batch dropping it": lambda: slices((X, Y)).batch(16, drop_remainder=True),
    "batch dividing the length": lambda: slices((X[:64], Y[:64])).batch(16),
    "a dict, repeated after": lambda: slices({"a": X, "b": Y}).batch(16).repeat(3),
    "repeated before, dividing": lambda: slices((X[:64], Y[:64])).repeat(2).batch(16),
    "prefetched": lambda: slices(X).batch(16).prefetch(2),
    "repeated once before, straddling nothing": lambda: slices((X, Y)).repeat(1).batch(16),
    "3-d features": lambda: slices(X.reshape(70, 3, 1)).batch(8, drop_remainder=True),
}


@pytest.mark.parametrize("name", sorted(REWRITTEN))
def test_the_rewrite_gives_the_same_elements_spec_and_cardinality(name):
    written = REWRITTEN[name]()
    read = batched_slices.rebatched(written)
    assert read is not written
    assert read.element_spec == written.element_spec
    assert int(read.cardinality()) == int(written.cardinality())
    assert _elements(read) == _elements(written)


def test_an_endless_repetition_gives_the_same_batches_across_epochs():
    written = slices(X[:64]).repeat().batch(16, drop_remainder=True).prefetch(tf.data.AUTOTUNE)
    read = batched_slices.rebatched(written)
    assert read is not written and read.element_spec == written.element_spec
    assert _elements(read, 11) == _elements(written, 11)


KEPT = {
    "repeated before, straddling": lambda: slices(X).repeat(2).batch(16),
    "shuffled": lambda: slices(X).shuffle(8).batch(16),
    "mapped": lambda: slices(X).map(lambda x: x * 2).batch(16),
    "only a partial batch": lambda: slices(X[:5]).batch(16),
    "taken": lambda: slices(X).take(40).batch(16),
    "sparse": lambda: slices(tf.sparse.from_dense(X)).batch(16),
    "ragged": lambda: slices(tf.ragged.constant([[1], [2, 3]] * 20)).batch(16),
    "not batched": lambda: slices(X),
    "named": lambda: slices(X, name="rows").batch(16),
}


@pytest.mark.parametrize("name", sorted(KEPT))
def test_other_pipelines_are_read_as_written(name):
    written = KEPT[name]()
    assert batched_slices.rebatched(written) is written


def test_a_batch_is_a_slice_of_the_arrays_not_a_copy():
    """The point of it: a batch shares the arrays' buffer (tf.data copied each example)."""
    data = tf.constant(np.random.RandomState(0).rand(64, 1000).astype(np.float32))
    first = next(iter(batched_slices.rebatched(slices(data).batch(16, drop_remainder=True))))
    np.testing.assert_array_equal(first.numpy(), data.numpy()[:16])


def _model_fn(features, labels, mode):
    w = tf.compat.v1.get_variable("w", [3, 1], initializer=tf.compat.v1.zeros_initializer())
    pred = tf.matmul(features["x"], w)
    if mode == ec.ModeKeys.PREDICT:
        return ec.EstimatorSpec(mode, predictions={"y": pred})
    loss = tf.reduce_mean(tf.square(pred - labels))
    step = tf.compat.v1.train.get_or_create_global_step()
    train_op = tf.compat.v1.train.GradientDescentOptimizer(1e-4).minimize(loss, step)
    return ec.EstimatorSpec(mode, loss=loss, train_op=train_op,
                            eval_metric_ops={"mae": tf.compat.v1.metrics.mean_absolute_error(
                                labels, pred)})


def test_an_estimator_gets_what_the_pipeline_as_written_gives(tmp_path, monkeypatch):
    """Trained, evaluated and predicted through the rewrite, and through a pipeline it leaves
    alone (an identity map): the same weights, metrics and predictions."""
    rewrote = []
    rebatched = batched_slices.rebatched
    monkeypatch.setattr(batched_slices, "rebatched",
                        lambda ds: rewrote.append(rebatched(ds) is not ds) or rebatched(ds))
    x = np.random.RandomState(1).rand(96, 3).astype(np.float32)
    y = x @ np.array([[1.0], [2.0], [3.0]], np.float32)

    def run(identity, directory):
        def pipe(ds):
            return ds.map(lambda *e: e if len(e) > 1 else e[0]) if identity else ds

        est = ec.Estimator(_model_fn, model_dir=str(tmp_path / directory))
        est.train(lambda: pipe(slices(({"x": x}, y))).repeat().batch(32), steps=7)
        metrics = est.evaluate(lambda: pipe(slices(({"x": x}, y))).batch(20))
        preds = [p["y"].tolist() for p in est.predict(lambda: pipe(slices({"x": x})).batch(20))]
        return est.get_variable_value("w").tolist(), metrics, preds

    rewritten = run(False, "a")
    assert rewrote == [True, True, True]  # train, evaluate, predict
    written = run(True, "b")
    assert rewrote[3:] and not any(rewrote[3:])  # an identity map: nothing rewritten
    assert rewritten[0] == written[0] and rewritten[2] == written[2]
    assert rewritten[1] == pytest.approx(written[1])
    assert rewritten[1]["global_step"] == 7
