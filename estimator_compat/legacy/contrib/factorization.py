"""`tf.contrib.factorization`, served whole: every TF 1.15 name served.

TF 1.15 name                         here
`KMeans` (graph-level k-means)       `KMeans` below: TensorFlow 2.21's own k-means graph
                                     (`clustering_ops.KMeans`, the class contrib's moved to)
`KMeansClustering` (estimator)       `KMeansClustering` below: canned/kmeans.py with
                                     contrib's `random_seed` argument
`COSINE_DISTANCE`, `SQUARED_EUCLIDEAN_DISTANCE`, `RANDOM_INIT`, `KMEANS_PLUS_PLUS_INIT`:
                                     the k-means ops' own constants
`GmmAlgorithm`, `gmm`                gmm_ops.py: EM on tf.linalg (full or diagonal covariances)
`GMM` (estimator)                    gmm.py: contrib.learn's Estimator around GmmAlgorithm
`WALSModel`                          wals.py: the closed-form solves on tf.linalg (its
                                     kernel, WALSComputePartialLhsAndRhs, is gone from TF 2)
`WALSMatrixFactorization`            wals_estimator.py: contrib.learn's Estimator sweeping
                                     WALSModel's rows and columns in turn
"""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops import clustering_ops

from estimator_compat.canned import kmeans as core_kmeans
from estimator_compat.legacy.contrib.gmm import GMM
from estimator_compat.legacy.contrib.gmm_ops import GmmAlgorithm, gmm
from estimator_compat.legacy.contrib.wals import WALSModel
from estimator_compat.legacy.contrib.wals_estimator import WALSMatrixFactorization

COSINE_DISTANCE = clustering_ops.COSINE_DISTANCE
SQUARED_EUCLIDEAN_DISTANCE = clustering_ops.SQUARED_EUCLIDEAN_DISTANCE
RANDOM_INIT = clustering_ops.RANDOM_INIT
KMEANS_PLUS_PLUS_INIT = clustering_ops.KMEANS_PLUS_PLUS_INIT


def _as_init(initial_clusters):
    """The initial centers as the k-means ops take them: a name or a function as given; given
    centers (array or tensor) as a function of (inputs, k), since the ops compare a non-callable
    with their init names (an array or tensor there would compare element-wise)."""
    if isinstance(initial_clusters, str):
        if initial_clusters not in (RANDOM_INIT, KMEANS_PLUS_PLUS_INIT):
            raise ValueError(f"Unsupported initial_clusters {initial_clusters!r}: use "
                             f"{RANDOM_INIT!r}, {KMEANS_PLUS_PLUS_INIT!r}, a [k, d] array of "
                             f"centers or a function (inputs, k) -> centers.")
        return initial_clusters
    if callable(initial_clusters):
        return initial_clusters
    if not tf.is_tensor(initial_clusters):
        initial_clusters = np.asarray(initial_clusters, np.float32)
    given = initial_clusters
    return lambda inputs, k: tf.convert_to_tensor(given)


class KMeans(clustering_ops.KMeans):
    """Graph-level k-means (TF 1.15's `tf.contrib.factorization.KMeans`): `training_graph()`
    gives (all_scores, cluster_idx, scores, cluster_centers_initialized, init_op,
    training_op), on variables `clusters`, `initialized` (and mini-batch's `clusters_snapshot`,
    `cluster_counts`, `update_in_steps`)."""

    def __init__(self, inputs, num_clusters, initial_clusters=RANDOM_INIT,
                 distance_metric=SQUARED_EUCLIDEAN_DISTANCE, use_mini_batch=False,
                 mini_batch_steps_per_iteration=1, random_seed=0,
                 kmeans_plus_plus_num_retries=2, kmc2_chain_length=200):
        if distance_metric not in (SQUARED_EUCLIDEAN_DISTANCE, COSINE_DISTANCE):
            raise ValueError(f"Unsupported distance metric {distance_metric!r}; use "
                             f"{SQUARED_EUCLIDEAN_DISTANCE!r} or {COSINE_DISTANCE!r}.")
        super().__init__(inputs, num_clusters, initial_clusters=_as_init(initial_clusters),
                         distance_metric=distance_metric, use_mini_batch=use_mini_batch,
                         mini_batch_steps_per_iteration=mini_batch_steps_per_iteration,
                         random_seed=random_seed,
                         kmeans_plus_plus_num_retries=kmeans_plus_plus_num_retries,
                         kmc2_chain_length=kmc2_chain_length)

    def _create_variables(self, num_clusters):
        """The variables, as resource variables even in a TF1 program's graph (where plain
        ones are reference variables): the init and update ops assign them inside `tf.cond`
        branches, which TensorFlow 2's control flow cannot do on reference variables. Names,
        shapes and checkpoint keys are TF 1.15's."""
        v1 = tf.compat.v1
        with v1.variable_scope(v1.get_variable_scope(), use_resource=True,
                               auxiliary_name_scope=False):
            return super()._create_variables(num_clusters)

    def training_graph(self):
        with core_kmeans._identity_equality():  # `centers == centers_var` as TF1's identity
            return super().training_graph()


class KMeansClustering(core_kmeans.KMeansClustering):
    """The k-means estimator (TF 1.15's `tf.contrib.factorization.KMeansClustering`, which
    became `tf.compat.v1.estimator.experimental.KMeans`): the same model, with contrib's
    `random_seed` argument."""

    def __init__(self, num_clusters, model_dir=None, initial_clusters=RANDOM_INIT,
                 distance_metric=SQUARED_EUCLIDEAN_DISTANCE, random_seed=0,
                 use_mini_batch=True, mini_batch_steps_per_iteration=1,
                 kmeans_plus_plus_num_retries=2, relative_tolerance=None, config=None,
                 feature_columns=None):
        super().__init__(num_clusters, model_dir=model_dir, initial_clusters=initial_clusters,
                         distance_metric=distance_metric, seed=random_seed,
                         use_mini_batch=use_mini_batch,
                         mini_batch_steps_per_iteration=mini_batch_steps_per_iteration,
                         kmeans_plus_plus_num_retries=kmeans_plus_plus_num_retries,
                         relative_tolerance=relative_tolerance, config=config,
                         feature_columns=feature_columns)


def build():
    from estimator_compat.legacy.namespaces import namespace
    constants = {"COSINE_DISTANCE": COSINE_DISTANCE,
                 "SQUARED_EUCLIDEAN_DISTANCE": SQUARED_EUCLIDEAN_DISTANCE,
                 "RANDOM_INIT": RANDOM_INIT, "KMEANS_PLUS_PLUS_INIT": KMEANS_PLUS_PLUS_INIT}
    path = "tensorflow.contrib.factorization.python"  # TF 1.15's deep import paths
    clustering_ops_ = namespace(path + ".ops.clustering_ops",
                                "tf.contrib.factorization's k-means graph",
                                KMeans=KMeans, **constants)
    kmeans = namespace(path + ".ops.kmeans", "tf.contrib.factorization's k-means estimator",
                       KMeansClustering=KMeansClustering)
    ops = namespace(path + ".ops", "tf.contrib.factorization's ops",
                    clustering_ops=clustering_ops_, kmeans=kmeans)
    ops.factorization_ops = namespace(path + ".ops.factorization_ops",
                                      "tf.contrib.factorization's WALS model",
                                      WALSModel=WALSModel)
    from estimator_compat.legacy.contrib import gmm_ops
    ops.gmm_ops = namespace(path + ".ops.gmm_ops", "tf.contrib.factorization's GMM graph",
                            GmmAlgorithm=GmmAlgorithm, gmm=gmm, MEPS=gmm_ops.MEPS,
                            FULL_COVARIANCE=gmm_ops.FULL_COVARIANCE,
                            DIAG_COVARIANCE=gmm_ops.DIAG_COVARIANCE)
    ops.gmm = namespace(path + ".ops.gmm", "tf.contrib.factorization's GMM estimator", GMM=GMM)
    ops.wals = namespace(path + ".ops.wals", "tf.contrib.factorization's WALS estimator",
                         WALSMatrixFactorization=WALSMatrixFactorization)
    python = namespace(path, "tf.contrib.factorization", ops=ops)
    return namespace("tensorflow.contrib.factorization", "tf.contrib.factorization",
                     __served_whole__=True, python=python, KMeans=KMeans,
                     KMeansClustering=KMeansClustering, WALSModel=WALSModel, GMM=GMM,
                     GmmAlgorithm=GmmAlgorithm, gmm=gmm,
                     WALSMatrixFactorization=WALSMatrixFactorization, **constants)
