"""A hook's `session.run(..., feed_dict=...)` (hooks/feeds.py, hooks/graph_reader.py) and 2.15's
`early_stopping._MultiWorkerEarlyStoppingHook`, which sets its stop variable that way."""
import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec

v1 = tf.compat.v1


def input_fn():
    ones = np.ones([4, 1], np.float32)
    return tf.data.Dataset.from_tensors(({"x": ones}, ones)).repeat()


def model_fn(features, labels, mode):
    y = v1.layers.dense(features["x"], 1, kernel_initializer=v1.zeros_initializer())
    loss = v1.losses.mean_squared_error(labels, y)
    train = v1.train.GradientDescentOptimizer(0.1).minimize(loss, v1.train.get_global_step())
    return ec.EstimatorSpec(mode, loss=loss, train_op=train)


class FeedingHook(v1.train.SessionRunHook):
    """Adds 10 * global_step, fed into a placeholder, to a variable it made, after each step."""

    def __init__(self, feed=None):
        self.feed = feed  # {name: value} to feed instead (the bad feeds)
        self.seen, self.ran = [], []

    def begin(self):
        with v1.variable_scope("fed", reuse=v1.AUTO_REUSE):
            self.var = v1.get_variable("v", [], tf.float32, v1.zeros_initializer(),
                                       trainable=False)
        self.placeholder = v1.placeholder_with_default(0.0, [], name="feed_value")
        self.add = v1.assign_add(self.var, self.placeholder)
        self.step = v1.train.get_global_step()

    def before_run(self, run_context):
        return v1.train.SessionRunArgs({"step": self.step, "var": self.var})

    def after_run(self, run_context, run_values):
        self.seen.append(float(run_values.results["var"]))
        feed = self.feed or {self.placeholder.name: 10.0 * run_values.results["step"]}
        self.ran.append(run_context.session.run([self.add, "feed_value:0"], feed_dict=feed))


def test_fed_placeholder_is_assigned(tmp_path):
    hook = FeedingHook()
    est = ec.Estimator(model_fn, model_dir=str(tmp_path))
    est.train(input_fn, steps=4, hooks=[hook])
    assert hook.seen == [0.0, 10.0, 30.0, 60.0]  # what the step's before_run read
    # the assign's value (the written variable) and the fed tensor's value (the fed value)
    assert [[float(a), float(b)] for a, b in hook.ran] == [
        [10.0, 10.0], [30.0, 20.0], [60.0, 30.0], [100.0, 40.0]]
    assert est.get_variable_value("fed/v") == 100.0


@pytest.mark.parametrize("feed, error, match", [
    ({"feed_value:0": [1.0, 2.0]}, ValueError,
     r"Cannot feed value of shape \(2,\) for Tensor 'feed_value:0', which has shape '\(\)'"),
    ({"feed_value:0": "abc"}, ValueError, "could not convert string to float"),
    ({"feed_value": 1.0}, TypeError, "refers to an Operation, not a Tensor"),
    ({"nope:0": 1.0}, TypeError, "has no tensor 'nope:0'"),
    ({"feed_value:0": tf.constant(1.0)}, TypeError, "cannot be a tf.Tensor"),
])
def test_bad_feed_fails_clearly(tmp_path, feed, error, match):
    est = ec.Estimator(model_fn, model_dir=str(tmp_path))
    with pytest.raises(error, match=match):
        est.train(input_fn, steps=1, hooks=[FeedingHook(feed)])


def test_multi_worker_early_stopping_hook_stops_where_215_did(tmp_path):
    """tensorflow_estimator 2.15 (MirroredStrategy on one CPU, the only way its begin() runs),
    same program, should_stop_fn true on its 3rd call, run_every_steps=2: stopped at global
    step 6 after 3 calls, STOP == 1."""
    ec.install()
    from tensorflow_estimator.python.estimator import early_stopping
    calls = []

    def should_stop():
        calls.append(1)
        return len(calls) >= 3

    est = ec.Estimator(model_fn, model_dir=str(tmp_path))
    hook = early_stopping._MultiWorkerEarlyStoppingHook(should_stop, run_every_steps=2)
    est.train(input_fn, steps=20, hooks=[hook])
    assert (est.get_variable_value("global_step"), len(calls)) == (6, 3)
    assert est.get_variable_value("signal_early_stopping/STOP") == 1
    with pytest.raises(TypeError, match="must be callable"):
        early_stopping._MultiWorkerEarlyStoppingHook(None)


def test_kmeans_model_fn_object_trains_as_kmeans_clustering(tmp_path):
    """2.15's `canned.kmeans._ModelFn(...).model_fn` in an Estimator. tensorflow_estimator
    2.15, same data, full batch from given centers, 3 steps: centers [[1/3, 1/3], [16/3, 16/3]]
    (0.33333322, 5.3333316), score 2.666658, variables clusters / global_step / initialized,
    for both the Estimator and KMeansClustering."""
    ec.install()
    from tensorflow_estimator.python.estimator.canned import kmeans
    points = np.array([[0, 0], [0, 1], [1, 0], [5, 5], [5, 6], [6, 5]], np.float32)
    init = np.array([[1, 1], [4, 4]], np.float32)

    def points_fn():
        return tf.data.Dataset.from_tensors({"x": points}).repeat()

    model = kmeans._ModelFn(2, init, kmeans.KMeansClustering.SQUARED_EUCLIDEAN_DISTANCE, None,
                            False, 1, 2, None, None)
    est = ec.Estimator(model_fn=model.model_fn, model_dir=str(tmp_path / "fn"))
    est.train(points_fn, steps=3)
    ref = kmeans.KMeansClustering(2, model_dir=str(tmp_path / "ref"), initial_clusters=init,
                                  use_mini_batch=False)
    ref.train(points_fn, steps=3)
    centers = est.get_variable_value("clusters")
    np.testing.assert_allclose(centers, ref.cluster_centers())
    np.testing.assert_allclose(centers, [[0.33333322, 0.33333322], [5.3333316, 5.3333316]],
                               rtol=1e-6)
    assert est.evaluate(points_fn, steps=1)["score"] == pytest.approx(2.666658, rel=1e-6)
    assert sorted(est.get_variable_names()) == ["clusters", "global_step", "initialized"]


def test_a_hook_keys_its_feed_dict_by_the_tensor(tmp_path):
    """TF1 hooks write `feed_dict={self.placeholder: value}`: in after_run the tensor is a
    dict key, as in a TF1 graph (hooks/runner.py runs hooks with TF1's identity hashing)."""
    class KeyedFeed(FeedingHook):
        def after_run(self, run_context, run_values):
            self.seen.append(float(run_values.results["var"]))
            self.ran.append(run_context.session.run(
                self.add, feed_dict={self.placeholder: 10.0 * run_values.results["step"]}))
    hook = KeyedFeed()
    ec.Estimator(model_fn, model_dir=str(tmp_path)).train(input_fn, steps=4, hooks=[hook])
    assert [float(a) for a in hook.ran] == [10.0, 30.0, 60.0, 100.0]
