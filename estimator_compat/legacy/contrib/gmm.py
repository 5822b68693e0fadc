"""`tf.contrib.factorization.GMM`: the Gaussian-mixture estimator (a contrib.learn Estimator)
around `GmmAlgorithm` (gmm_ops.py).

As TF 1.15's: `fit` runs EM steps (each step one E and one M step on the batch; the means and
covariances are set once, from a batch of their own before the first step, as TF 1.15's init
hook did: that step does not advance global_step), the training
loss is the log likelihood (`log_likelihood_op`, the logsumexp of the per-point scores),
`predict` yields `{'assignments': component index}`, `evaluate` gives `scores` (the last
batch's per-point log likelihoods, [n, 1]) and `loss`, `score()` the logsumexp of those
scores, `weights()` / `clusters()` / `covariances()` the variables `alphas`, `clusters`
(squeezed to [k, d]) and `clusters_covs`. Features: a tensor, or a dict of them side by side
(sorted by key). One difference: TF 1.15's eval `loss` summed the log likelihood over the
evaluated batches; here it is their mean (the same for one batch, as `score` and most
programs evaluate).
"""
import numpy as np
import tensorflow as tf

from estimator_compat.learn.estimator import Estimator
from estimator_compat.learn.model_fn_ops import ModeKeys, ModelFnOps
from estimator_compat.legacy.contrib import gmm_ops

v1 = tf.compat.v1


def _points(features):
    if isinstance(features, dict):
        return tf.concat([tf.cast(features[k], tf.float32) for k in sorted(features)], 1)
    return tf.cast(features, tf.float32)


class GMM(Estimator):
    """An estimator for GMM clustering."""

    SCORES = "scores"
    LOG_LIKELIHOOD = "loss"
    ASSIGNMENTS = "assignments"

    def __init__(self, num_clusters, model_dir=None, random_seed=0, params="wmc",
                 initial_clusters="random", covariance_type=gmm_ops.FULL_COVARIANCE,
                 config=None):
        if isinstance(initial_clusters, str) and initial_clusters != "random":
            raise ValueError(f"GMM: initial_clusters {initial_clusters!r}: give 'random' or "
                             "the [num_clusters, d] initial means.")
        if covariance_type not in (gmm_ops.FULL_COVARIANCE, gmm_ops.DIAG_COVARIANCE):
            raise ValueError(f"GMM: covariance_type {covariance_type!r}: use 'full' or "
                             "'diag'.")
        self._num_clusters = num_clusters
        self._random_seed = random_seed
        self._gmm_params = params
        self._initial_clusters = initial_clusters
        self._covariance_type = covariance_type
        super().__init__(model_fn=self._gmm_model_fn, model_dir=model_dir, config=config)

    def _gmm_model_fn(self, features, labels, mode):
        if labels is not None:
            raise ValueError("GMM is unsupervised: its input_fn returns (features, None).")
        training = mode == ModeKeys.TRAIN
        algorithm = gmm_ops.GmmAlgorithm(
            [_points(features)], self._num_clusters, self._initial_clusters, self._gmm_params,
            self._covariance_type, self._random_seed, _inference_only=not training,
            _variables_only=training)
        if training:
            loss = algorithm.train_step(v1.train.get_global_step())
            return ModelFnOps(mode, loss=loss, train_op=loss.op)
        return ModelFnOps(
            mode, predictions={self.ASSIGNMENTS: algorithm.assignments()[0]},
            loss=algorithm.log_likelihood_op(),
            eval_metric_ops={self.SCORES: (algorithm.scores(), tf.no_op())})

    def predict_assignments(self, input_fn=None, batch_size=None, outputs=None):
        """The component index of each example."""
        for result in self.predict(input_fn=input_fn, batch_size=batch_size, outputs=outputs):
            yield result[self.ASSIGNMENTS]

    def score(self, input_fn=None, batch_size=None, steps=None):
        """The total log likelihood (logsumexp of the scores) of the last evaluated batch."""
        results = self.evaluate(input_fn=input_fn, batch_size=batch_size, steps=steps)
        scores = np.asarray(results[self.SCORES], np.float64)
        top = np.max(scores)
        return np.float32(top + np.log(np.sum(np.exp(scores - top))))

    def weights(self):
        """The mixture weights [k]."""
        return self.get_variable_value(gmm_ops.GmmAlgorithm.CLUSTERS_WEIGHT)

    def clusters(self):
        """The means [k, d]."""
        return np.squeeze(self.get_variable_value(gmm_ops.GmmAlgorithm.CLUSTERS_VARIABLE), 1)

    def covariances(self):
        """The covariances ([k, d, d] full, [k, d] diagonal)."""
        return self.get_variable_value(gmm_ops.GmmAlgorithm.CLUSTERS_COVS_VARIABLE)
