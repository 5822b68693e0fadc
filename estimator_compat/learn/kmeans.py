"""`tf.contrib.learn.KMeansClustering`: the k-means estimator with contrib.learn's names.

The same k-means model as `tf.compat.v1.estimator.experimental.KMeans` here
(canned/kmeans.py, TensorFlow's clustering ops), with contrib.learn's API: `fit(input_fn,
steps)`, `predict` giving `{'all_scores', 'cluster_idx'}` per example, `predict_cluster_idx`,
`transform` (the scores: squared distances to every center for the squared-Euclidean metric),
`score(input_fn, steps)` (the sum of distances to the nearest centers), `clusters()`, and
evaluate's `{'scores', 'loss', 'global_step'}`.
"""
import tensorflow as tf

from estimator_compat.canned import kmeans as core_kmeans
from estimator_compat.learn.estimator import ContribAPI
from estimator_compat.spec import EstimatorSpec

v1 = tf.compat.v1


class KMeansClustering(ContribAPI, core_kmeans.KMeansClustering):
    SQUARED_EUCLIDEAN_DISTANCE = core_kmeans.KMeansClustering.SQUARED_EUCLIDEAN_DISTANCE
    COSINE_DISTANCE = core_kmeans.KMeansClustering.COSINE_DISTANCE
    RANDOM_INIT = core_kmeans.KMeansClustering.RANDOM_INIT
    KMEANS_PLUS_PLUS_INIT = core_kmeans.KMeansClustering.KMEANS_PLUS_PLUS_INIT
    SCORES = "scores"
    CLUSTER_IDX = "cluster_idx"
    CLUSTERS = "clusters"
    ALL_SCORES = "all_scores"
    LOSS_OP_NAME = "kmeans_loss"

    def __init__(self, num_clusters, model_dir=None, initial_clusters=RANDOM_INIT,
                 distance_metric=SQUARED_EUCLIDEAN_DISTANCE, random_seed=0,
                 use_mini_batch=True, mini_batch_steps_per_iteration=1,
                 kmeans_plus_plus_num_retries=2, relative_tolerance=None, config=None):
        super().__init__(num_clusters, model_dir=model_dir, initial_clusters=initial_clusters,
                         distance_metric=distance_metric, seed=random_seed,
                         use_mini_batch=use_mini_batch,
                         mini_batch_steps_per_iteration=mini_batch_steps_per_iteration,
                         kmeans_plus_plus_num_retries=kmeans_plus_plus_num_retries,
                         relative_tolerance=relative_tolerance, config=config)
        core_model_fn = self._model_fn
        core = core_kmeans.KMeansClustering

        def model_fn(features, labels, mode, config):
            spec = core_model_fn(features, mode, config)
            predictions = spec.predictions and {
                self.ALL_SCORES: spec.predictions[core.ALL_DISTANCES],
                self.CLUSTER_IDX: spec.predictions[core.CLUSTER_INDEX]}
            loss = tf.identity(spec.loss, name=self.LOSS_OP_NAME)
            return EstimatorSpec(
                spec.mode, predictions=predictions, loss=loss, train_op=spec.train_op,
                eval_metric_ops={self.SCORES: v1.metrics.mean(loss)},
                training_hooks=spec.training_hooks, export_outputs=spec.export_outputs)
        self._model_fn = model_fn
        self._contrib_setup()

    def predict_cluster_idx(self, input_fn=None, x=None, batch_size=None):
        """The index of the closest center, per example."""
        for result in self.predict(input_fn=input_fn, x=x, batch_size=batch_size,
                                   outputs=[self.CLUSTER_IDX]):
            yield result[self.CLUSTER_IDX]

    def score(self, input_fn=None, steps=None, x=None, batch_size=None):
        """The sum of distances to the nearest centers (TF 1.15: over `steps` batches)."""
        return self.evaluate(input_fn=input_fn, x=x, batch_size=batch_size,
                             steps=steps)[self.SCORES]

    def transform(self, input_fn=None, as_iterable=False, x=None, batch_size=None):
        """The scores (distances) to every center, per example."""
        results = (r[self.ALL_SCORES] for r in self.predict(
            input_fn=input_fn, x=x, batch_size=batch_size, outputs=[self.ALL_SCORES]))
        return results if as_iterable else list(results)

    def clusters(self):
        """The cluster centers [k, d]."""
        return self.get_variable_value(self.CLUSTERS)
