"""tf.contrib.factorization's GMM against TF 1.15.5 (tests/tf115_cases/
contrib_factorization_gmm.py): GmmAlgorithm's EM steps (full and diagonal covariances, parameter
subsets), gmm() and the GMM estimator on fixed 2-D blobs from given means."""
import numpy as np
import pytest
from tf115_cases import harness

MODULE = "contrib_factorization_gmm"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_bad_arguments_are_named():
    import tensorflow as tf

    from estimator_compat.legacy.contrib.gmm import GMM
    from estimator_compat.legacy.contrib.gmm_ops import GmmAlgorithm
    with tf.Graph().as_default():
        points = [tf.zeros([4, 2])]
        with pytest.raises(ValueError, match="covariance_type 'spherical'"):
            GmmAlgorithm(points, 2, covariance_type="spherical")
        with pytest.raises(ValueError, match="letters of 'wmc'"):
            GmmAlgorithm(points, 2, params="wx")
        with pytest.raises(ValueError, match="initial_means 'kmeans'"):
            GmmAlgorithm(points, 2, initial_means="kmeans")
    with pytest.raises(ValueError, match="initial_clusters 'kmeans'"):
        GMM(2, initial_clusters="kmeans")


def test_random_init_draws_rows_of_the_data_and_deep_paths():
    import tensorflow as tf

    from estimator_compat.legacy.contrib import factorization
    from estimator_compat.legacy.contrib.gmm_ops import GmmAlgorithm
    factorization.build()
    from tensorflow.contrib.factorization.python.ops import gmm, gmm_ops
    assert gmm.GMM is factorization.GMM and gmm_ops.GmmAlgorithm is GmmAlgorithm
    points = np.arange(12, dtype=np.float32).reshape(6, 2)
    with tf.Graph().as_default():
        algorithm = GmmAlgorithm([tf.constant(points)], 3, random_seed=1)
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            sess.run(algorithm.init_ops())
            means = sess.run(algorithm.clusters())
    assert means.shape == (3, 1, 2)
    assert all(any(np.array_equal(m[0], p) for p in points) for m in means)
