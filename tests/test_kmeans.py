"""tf.compat.v1.estimator.experimental.KMeans on TensorFlow's k-means ops; numbers from TF 2.15
+ tf.estimator 2.15 (side venv) on the same points, initial centers and seeds.

Mini-batch training is compared with the algorithm itself (numpy) rather than with 2.15: its
estimator graph read the cluster counts with no order against their update, so some steps used
a learning rate of 1/(n + 2m) instead of 1/(n + m), and its numbers varied run to run (e.g.
scores 366.8 and 368.3 for the same script). TensorFlow's own k-means graph, run in a TF 2.15
session in order, gives the numpy numbers, as estimator_compat does.
"""
import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec

KMeans = ec.experimental.KMeans
# TF 2.15, full-batch updates on batches of 50 (12 steps, tf_random_seed=1): random and
# k-means++ centers (seed=3) drawn from a first batch of their own, given ones (points[:3])
# trained on from the first step; sorted centers, score on all 300 points.
TF215_BATCHES = {
    "random": ([[-0.1284, 0.0766], [-0.1111, 4.9978], [4.793, 5.9339]], 296.71),
    "kmeans_plus_plus": ([[-0.1284, 0.0766], [-0.1111, 4.9978], [4.793, 5.9339]], 296.71),
    "given": ([[-0.0151, 0.2831], [0.2804, 5.0396], [4.8933, 5.8251]], 311.918),
}
# TF 2.15: 12 steps from initial_clusters=points[:3]; sorted centers, score on all 300 points.
TF215 = {
    "full": ([[-0.0787, 0.0999], [-0.0007, 4.9209], [4.8998, 5.9278]], 293.184,
             [0.6968, 6.5729, 6.0794]),
    "cosine": ([[-0.2113, -0.9774], [-0.1683, 0.6525], [0.7578, 0.9857]], 25.851,
               [1.0549, 1.3213, 0.3543]),
}


def _points():
    rng = np.random.RandomState(0)
    centers = np.array([[0, 0], [5, 5], [0, 6]], np.float32)
    points = np.concatenate([c + rng.randn(100, 2).astype(np.float32) * 0.7 for c in centers])
    rng.shuffle(points)
    return points


def _fit(tmp_path, batch, **kwargs):
    points = _points()
    km = KMeans(num_clusters=3, initial_clusters=points[:3].copy(), model_dir=str(tmp_path),
                **kwargs)
    km.train(lambda: tf.data.Dataset.from_tensor_slices(points).batch(batch).repeat(), steps=12)
    return km, points


@pytest.mark.parametrize("name,kwargs", [
    ("full", dict(use_mini_batch=False)),
    ("cosine", dict(use_mini_batch=False, distance_metric=KMeans.COSINE_DISTANCE))])
def test_full_batch_matches_tf215(tmp_path, name, kwargs):
    km, points = _fit(tmp_path, 300, **kwargs)
    centers, score, transform0 = TF215[name]
    assert np.sort(km.cluster_centers(), 0) == pytest.approx(np.array(centers), abs=2e-4)
    everything = lambda: tf.data.Dataset.from_tensor_slices(points).batch(300)  # noqa: E731
    assert km.score(everything) == pytest.approx(score, abs=2e-3)
    first = lambda: tf.data.Dataset.from_tensor_slices(points[:1]).batch(1)  # noqa: E731
    assert next(km.transform(first)) == pytest.approx(transform0, abs=2e-4)
    evaluation = km.evaluate(everything, steps=1)
    assert sorted(evaluation) == ["global_step", "loss", "score"]


@pytest.mark.parametrize("init", sorted(TF215_BATCHES))
def test_batches_and_initial_centers_as_tf215(tmp_path, init):
    points = _points()
    initial = {"random": KMeans.RANDOM_INIT, "kmeans_plus_plus": KMeans.KMEANS_PLUS_PLUS_INIT,
               "given": points[:3].copy()}[init]
    km = KMeans(num_clusters=3, initial_clusters=initial, seed=3, use_mini_batch=False,
                model_dir=str(tmp_path), config=ec.RunConfig(tf_random_seed=1))
    km.train(lambda: tf.data.Dataset.from_tensor_slices(points).batch(50).repeat(), steps=12)
    centers, score = TF215_BATCHES[init]
    assert km.get_variable_value("global_step") == 12
    assert np.sort(km.cluster_centers(), 0) == pytest.approx(np.array(centers), abs=2e-4)
    everything = lambda: tf.data.Dataset.from_tensor_slices(points).batch(300)  # noqa: E731
    assert km.score(everything) == pytest.approx(score, abs=2e-3)


def _mini_batch_reference(points, centers, batch, steps):
    """Mini-batch k-means: each center moves to the mean of all points assigned to it so
    far (starting with a count of one for the initial center)."""
    centers, counts = centers.astype(np.float64), np.ones(len(centers))
    for step in range(steps):
        start = step * batch % len(points)
        x = points[start:start + batch]
        nearest = ((x[:, None] - centers[None]) ** 2).sum(-1).argmin(1)
        for k in range(len(centers)):
            mine = x[nearest == k]
            if len(mine):
                centers[k] = (centers[k] * counts[k] + mine.sum(0)) / (counts[k] + len(mine))
                counts[k] += len(mine)
    return centers


def test_mini_batch_is_the_algorithm(tmp_path):
    km, points = _fit(tmp_path, 50)
    np.testing.assert_allclose(km.cluster_centers(),
                               _mini_batch_reference(points, points[:3], 50, 12), atol=1e-4)


def test_mini_batch_random_and_kmeans_plus_plus_init(tmp_path):
    """Mini-batch updates (also synced every 3 steps), random and k-means++ initialisation:
    the centers found are the three true ones (TF 2.15's scores: 300-336)."""
    points = _points()
    everything = lambda: tf.data.Dataset.from_tensor_slices(points).batch(300)  # noqa: E731
    for i, kwargs in enumerate([dict(), dict(mini_batch_steps_per_iteration=3),
                                dict(initial_clusters=KMeans.KMEANS_PLUS_PLUS_INIT, seed=3)]):
        if "initial_clusters" in kwargs:
            km = KMeans(num_clusters=3, model_dir=str(tmp_path / str(i)), **kwargs)
            km.train(lambda: tf.data.Dataset.from_tensor_slices(points).batch(50).repeat(),
                     steps=30)
        else:
            km, _ = _fit(tmp_path / str(i), 50, **kwargs)
        found = np.sort(km.cluster_centers(), 0)
        assert found == pytest.approx(np.array([[0, 0], [0, 5], [5, 6]]), abs=0.5), found
        assert km.score(everything) < 360
        indices = list(km.predict_cluster_index(everything))
        assert len(indices) == 300 and len(set(indices)) == 3
    names = dict(tf.train.list_variables(str(tmp_path / "1")))
    assert names["clusters"] == [3, 2] and "initialized" in names and "update_in_steps" in names


def test_relative_tolerance_stops_training(tmp_path):
    km, _ = _fit(tmp_path, 300, use_mini_batch=False, relative_tolerance=1e-4)
    assert km.get_variable_value("global_step") < 12


def test_bad_arguments():
    with pytest.raises(ValueError, match="Unsupported distance metric"):
        KMeans(num_clusters=3, distance_metric="manhattan")
    with pytest.raises(ValueError, match="Unsupported initial_clusters"):
        KMeans(num_clusters=3, initial_clusters="farthest_point")


def test_random_init_batch_does_not_count_as_a_step(tmp_path, caplog):
    """Training to the end of a finite input: the first batch only chooses the centers (as
    2.15's init hook consumed it), the other five train, and no stalled-step warning."""
    points = _points()
    km = KMeans(num_clusters=3, seed=1, model_dir=str(tmp_path))
    with caplog.at_level("WARNING", logger="tensorflow"):
        km.train(lambda: tf.data.Dataset.from_tensor_slices(points).batch(50))
    assert km.get_variable_value("global_step") == 5
    assert "has not been increased" not in caplog.text
