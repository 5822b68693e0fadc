"""tf.contrib.factorization against TF 1.15.5 (tests/tf115_cases/contrib_factorization.py):
graph-level KMeans from given centers (full-batch squared-Euclidean, mini-batch cosine) and
the KMeansClustering estimator (GMM and the WALS estimator: test_contrib_factorization_gmm.py,
test_contrib_factorization_wals.py)."""
import pytest
from tf115_cases import harness

MODULE = "contrib_factorization"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_bad_init_and_metric_are_named():
    import numpy as np
    import tensorflow as tf

    from estimator_compat.legacy.contrib import factorization
    points = tf.constant(np.zeros([4, 2], np.float32))
    with pytest.raises(ValueError, match="initial_clusters"):
        factorization.KMeans(points, 2, initial_clusters="kmeans++")
    with pytest.raises(ValueError, match="distance metric"):
        factorization.KMeans(points, 2, distance_metric="manhattan")


def test_tf115_deep_import_paths():
    from estimator_compat.legacy.contrib import factorization
    factorization.build()
    from tensorflow.contrib.factorization.python.ops import clustering_ops, kmeans
    assert clustering_ops.KMeans is factorization.KMeans
    assert clustering_ops.COSINE_DISTANCE == "cosine"
    assert kmeans.KMeansClustering is factorization.KMeansClustering


def test_wals_random_init_and_bad_weights():
    import tensorflow as tf

    from estimator_compat.legacy.contrib.wals import WALSModel
    with tf.Graph().as_default():
        model = WALSModel(5, 4, 3, num_row_shards=2, regularization=0.1)
        assert [v.shape.as_list() for v in model.row_factors] == [[3, 3], [2, 3]]
        with pytest.raises(ValueError, match="row_weights\\[1\\] has 1 weights"):
            WALSModel(5, 4, 3, num_row_shards=2, row_weights=[[1, 1, 1], [1]])
        with pytest.raises(ValueError, match="both be None"):
            WALSModel(5, 4, 3, row_weights=None)
        with pytest.raises(ValueError, match="shape"):
            WALSModel(5, 4, 3, row_init=[[0.0, 1.0]])
