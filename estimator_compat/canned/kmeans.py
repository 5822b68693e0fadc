"""`tf.compat.v1.estimator.experimental.KMeans`, on TensorFlow's own k-means graph.

TensorFlow 2.21 still ships the k-means ops (`clustering_ops.KMeans`: random and k-means++
initialisation, squared-Euclidean and cosine distances, full-batch and mini-batch updates).
tf.estimator ran their init op from a hook before the first train step, on a batch of its
own when the centers are drawn from the data; here such a train step, finding no centers yet,
only chooses them from its batch and does not count as a step (global_step stays), so the same
batches train the same steps. Evaluation and prediction build only the inference part
(private methods of TensorFlow's KMeans), on the same variables. Keys, metrics and variable
names (`clusters`, `initialized`) are 2.15's. `_ModelFn` is 2.15's private model_fn object
(`_ModelFn(num_clusters, ...).model_fn`), the model_fn KMeansClustering itself trains with.
"""
import contextlib

import numpy as np
import tensorflow as tf
from tensorflow.python.ops import clustering_ops

from estimator_compat.estimator import Estimator
from estimator_compat.export.outputs import PredictOutput
from estimator_compat.hooks import SessionRunArgs, SessionRunHook
from estimator_compat.mode_keys import ModeKeys
from estimator_compat.spec import EstimatorSpec

v1 = tf.compat.v1


class _LossRelativeChangeHook(SessionRunHook):
    """Stops training once the loss changes by less than `tolerance` (relative) in a step."""

    def __init__(self, loss, tolerance):
        self._loss, self._tolerance, self._previous = loss, tolerance, None

    def before_run(self, run_context):
        return SessionRunArgs(self._loss)

    def after_run(self, run_context, run_values):
        loss = float(run_values.results)
        if self._previous is not None and \
                abs(loss - self._previous) / (1 + abs(loss)) < self._tolerance:
            run_context.request_stop()
        self._previous = loss


@contextlib.contextmanager
def _identity_equality():
    """The k-means graph compares variables with `==` (`assert centers == centers_var`), which
    TF1 graphs evaluated as identity; a tf.function would build an Equal op."""
    saved = tf.Tensor._USE_EQUALITY  # Variable.__eq__ reads the same flag
    tf.compat.v1.disable_tensor_equality()
    try:
        yield
    finally:
        tf.Tensor._USE_EQUALITY = saved


def _inference(kmeans, num_clusters, distance_metric):
    """(all distances, cluster indices, distances to the nearest) from the clusters variable:
    the inference part of `training_graph`, on the same variables."""
    clusters = kmeans._create_variables(tf.convert_to_tensor(num_clusters))[0]
    inputs = kmeans._inputs
    if distance_metric == clustering_ops.COSINE_DISTANCE:
        inputs = kmeans._l2_normalize_data(inputs)
        if not kmeans._clusters_l2_normalized():
            clusters = tf.nn.l2_normalize(clusters, axis=1)
    all_scores, scores, cluster_idx = kmeans._infer_graph(inputs, clusters)
    return all_scores, cluster_idx, scores


def _sharing_variables(make):
    """make() -> a KMeans whose variables are those of the first one made (each KMeans makes
    its own; in one trace a second `clusters` would be a new `clusters_1`)."""
    made = []

    def make_sharing():
        kmeans = make()
        create = kmeans._create_variables

        def shared(num_clusters):
            if not made:
                made.append(create(num_clusters))
            return made[0]
        kmeans._create_variables = shared
        return kmeans
    return make_sharing


def _train_step(make_kmeans, num_clusters, distance_metric, init_takes_a_batch):
    """(train_op, [per-example distances]) of a train step, choosing the centers as
    tf.estimator's init hook did before the first step. Given centers: set, then trained on by
    the first step. Random / k-means++ ones (`init_takes_a_batch`): the hook drew them from a
    batch of their own, so until they are chosen a step only chooses them from its batch and
    leaves global_step alone; the following steps train."""
    def train():
        _, _, losses, _, init_op, training_op = make_kmeans().training_graph()
        with tf.control_dependencies([init_op, training_op]):  # init: a no-op once chosen
            advanced = v1.assign_add(v1.train.get_global_step(), 1)
        with tf.control_dependencies([advanced]):
            return tf.identity(losses[0])

    def initialize():
        kmeans = make_kmeans()
        k = tf.convert_to_tensor(num_clusters)
        centers, is_set, _, updated, _ = kmeans._create_variables(k)
        init_op = clustering_ops._InitializeClustersOpFactory(
            kmeans._inputs, k, kmeans._initial_clusters, kmeans._distance_metric, kmeans._seed,
            kmeans._kmeans_plus_plus_num_retries, kmeans._kmc2_chain_length, centers, updated,
            is_set).op()
        with tf.control_dependencies([init_op]):
            return tf.identity(_inference(make_kmeans(), num_clusters, distance_metric)[2][0])
    if init_takes_a_batch:
        initialized = make_kmeans()._create_variables(tf.convert_to_tensor(num_clusters))[1]
        losses = tf.cond(initialized.read_value(), train, initialize)
    else:
        losses = train()
    return losses.op, [losses]


def _points(features, feature_columns):
    """The input points [n, d]: a tensor as given; a dict by feature columns, or its values
    (sorted by key) side by side."""
    if not isinstance(features, dict):
        return features
    if feature_columns:
        return v1.feature_column.input_layer(features, feature_columns)
    return tf.concat([features[k] for k in sorted(features)], axis=1)


class _ModelFn:
    """2.15's model_fn object: `model_fn(features, mode, config)` gives KMeansClustering's
    EstimatorSpec for these settings (the clusters chosen inside the first train step, see the
    module docstring, where 2.15's spec brought an `_InitializeClustersHook`)."""

    def __init__(self, num_clusters, initial_clusters, distance_metric, seed, use_mini_batch,
                 mini_batch_steps_per_iteration, kmeans_plus_plus_num_retries,
                 relative_tolerance, feature_columns):
        self._num_clusters = num_clusters
        self._initial_clusters = initial_clusters
        self._distance_metric = distance_metric
        self._seed = seed
        self._use_mini_batch = use_mini_batch
        self._mini_batch_steps_per_iteration = mini_batch_steps_per_iteration
        self._kmeans_plus_plus_num_retries = kmeans_plus_plus_num_retries
        self._relative_tolerance = relative_tolerance
        self._feature_columns = feature_columns
        self._columns = list(feature_columns) if feature_columns else None  # once: an iterator

    def model_fn(self, features, mode, config):
        """The KMeans EstimatorSpec for `mode` (config is not used, as in 2.15)."""
        del config
        num_clusters, distance_metric = self._num_clusters, self._distance_metric
        initial_clusters = self._initial_clusters
        init_takes_a_batch = isinstance(initial_clusters, str) or callable(initial_clusters)
        if not init_takes_a_batch:
            # given centers: as a function of (inputs, k), which the k-means ops take without
            # comparing it to their init names (a tensor there would make an Equal op)
            given = np.asarray(initial_clusters, np.float32)
            initial_clusters = lambda inputs, k: tf.constant(given)
        points = _points(features, self._columns)
        make_kmeans = _sharing_variables(lambda: clustering_ops.KMeans(
            inputs=points, num_clusters=num_clusters, initial_clusters=initial_clusters,
            distance_metric=distance_metric, use_mini_batch=self._use_mini_batch,
            mini_batch_steps_per_iteration=self._mini_batch_steps_per_iteration,
            random_seed=self._seed or 0,
            kmeans_plus_plus_num_retries=self._kmeans_plus_plus_num_retries))
        train_op, hooks, predictions = None, [], None
        with _identity_equality():
            if mode == ModeKeys.TRAIN:
                train_op, losses = _train_step(make_kmeans, num_clusters, distance_metric,
                                               init_takes_a_batch)
            else:  # no init or update ops, which evaluation must not run
                all_distances, model_predictions, losses = _inference(
                    make_kmeans(), num_clusters, distance_metric)
                predictions = {KMeansClustering.ALL_DISTANCES: all_distances[0],
                               KMeansClustering.CLUSTER_INDEX: model_predictions[0]}
        loss = tf.reduce_sum(losses)
        v1.summary.scalar("loss/raw", loss)
        if mode == ModeKeys.TRAIN and self._relative_tolerance is not None:
            hooks.append(_LossRelativeChangeHook(loss, self._relative_tolerance))
        return EstimatorSpec(
            mode, predictions=predictions, loss=loss, train_op=train_op,
            eval_metric_ops={KMeansClustering.SCORE: v1.metrics.mean(loss)},
            training_hooks=hooks, export_outputs=predictions and _export_outputs(predictions))


def _export_outputs(predictions):
    index = PredictOutput(predictions[KMeansClustering.CLUSTER_INDEX])
    return {KMeansClustering.ALL_DISTANCES:
            PredictOutput(predictions[KMeansClustering.ALL_DISTANCES]),
            KMeansClustering.CLUSTER_INDEX: index,
            tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY:
                PredictOutput(predictions[KMeansClustering.CLUSTER_INDEX])}


class KMeansClustering(Estimator):
    """K-means clustering; `train` runs iterations, `predict` gives cluster indices and
    distances to every center."""

    RANDOM_INIT = clustering_ops.RANDOM_INIT
    KMEANS_PLUS_PLUS_INIT = clustering_ops.KMEANS_PLUS_PLUS_INIT
    SQUARED_EUCLIDEAN_DISTANCE = clustering_ops.SQUARED_EUCLIDEAN_DISTANCE
    COSINE_DISTANCE = clustering_ops.COSINE_DISTANCE
    ALL_DISTANCES = "all_distances"
    CLUSTER_INDEX = "cluster_index"
    SCORE = "score"
    CLUSTER_CENTERS_VAR_NAME = clustering_ops.CLUSTERS_VAR_NAME

    def __init__(self, num_clusters, model_dir=None, initial_clusters=RANDOM_INIT,
                 distance_metric=SQUARED_EUCLIDEAN_DISTANCE, seed=None, use_mini_batch=True,
                 mini_batch_steps_per_iteration=1, kmeans_plus_plus_num_retries=2,
                 relative_tolerance=None, config=None, feature_columns=None):
        if distance_metric not in (self.SQUARED_EUCLIDEAN_DISTANCE, self.COSINE_DISTANCE):
            raise ValueError(f"Unsupported distance metric {distance_metric!r}; use "
                             f"{self.SQUARED_EUCLIDEAN_DISTANCE!r} or {self.COSINE_DISTANCE!r}.")
        if isinstance(initial_clusters, str) and initial_clusters not in (
                self.RANDOM_INIT, self.KMEANS_PLUS_PLUS_INIT):
            raise ValueError(f"Unsupported initial_clusters {initial_clusters!r}.")
        self._distance_metric = distance_metric
        super().__init__(_ModelFn(num_clusters, initial_clusters, distance_metric, seed,
                                  use_mini_batch, mini_batch_steps_per_iteration,
                                  kmeans_plus_plus_num_retries, relative_tolerance,
                                  feature_columns).model_fn,
                         model_dir=model_dir, config=config)

    def _predict_one_key(self, input_fn, key):
        for result in self.predict(input_fn=input_fn, predict_keys=[key]):
            yield result[key]

    def predict_cluster_index(self, input_fn):
        """The index of the closest cluster center, per example."""
        yield from self._predict_one_key(input_fn, self.CLUSTER_INDEX)

    def score(self, input_fn):
        """The sum of distances to the nearest centers over one batch of input_fn (not
        sklearn's negative sum)."""
        return self.evaluate(input_fn=input_fn, steps=1)[self.SCORE]

    def transform(self, input_fn):
        """Distances to every center, per example (Euclidean for the squared-Euclidean
        metric, as sklearn's transform)."""
        for distances in self._predict_one_key(input_fn, self.ALL_DISTANCES):
            yield np.sqrt(distances) if self._distance_metric == \
                self.SQUARED_EUCLIDEAN_DISTANCE else distances

    def cluster_centers(self):
        return self.get_variable_value(self.CLUSTER_CENTERS_VAR_NAME)
