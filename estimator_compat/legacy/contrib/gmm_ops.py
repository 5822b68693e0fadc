"""`tf.contrib.factorization.GmmAlgorithm` and `gmm()`: a Gaussian mixture fit by EM, as graph
ops on TensorFlow 2's public ops (TF 1.15's `gmm_ops`, read by running it).

Variables (TF1's names, all in GLOBAL_VARIABLES and TRAINABLE_VARIABLES, as TF 1.15 made them):
`clusters` [k, 1, d], `clusters_covs` ([k, d, d] full, [k, d] diagonal), `alphas` [k] (the
mixture weights, 1/k at first), `initialized` (bool). `init_ops()` sets, once, the means (the
given ones, or k rows of the data drawn with `random_seed`) and every covariance to the first
shard's sample covariance (n - 1) plus 1e-3 I. One EM step (`training_ops()`):

- E-step: log N(x | mu_k, C_k + 1e-3 I) + log alpha_k per point (the 1e-3 is added again, as
  TF 1.15 did); `scores()` [n, 1] are their logsumexp over k, `log_likelihood_op()` the
  logsumexp of the scores, `assignments()` [[argmax_k]] per shard.
- M-step: `w` (params) alpha_k = n_k / n; `m` mu_k = sum_i w_ik x_i / n_k; `c` C_k =
  sum_i w_ik x_i x_i^T / n_k - mu_k mu_k^T + 1e-3 I, with mu_k the means variable (the new
  means when `m` is updated too). As in TF 1.15 the means are updated only together with the
  covariances (`params='m'` or `'wm'` leave them as they are).

Variables are resource variables even in a TF1 program's graph, so a `tf.function` step (the
GMM estimator's) orders the init, the E-step's reads and the M-step's writes as written.
"""
import math

import numpy as np
import tensorflow as tf

v1 = tf.compat.v1

FULL_COVARIANCE = "full"
DIAG_COVARIANCE = "diag"
MEPS = float(np.finfo(float).eps)
_MIN_VAR = 1e-3


def _shards(data):
    if isinstance(data, (list, tuple)):
        if not data:
            raise ValueError("GmmAlgorithm: `data` is an empty list; give a list of [n, d] "
                             "tensors.")
        return [tf.convert_to_tensor(d, tf.float32) for d in data]
    return [tf.convert_to_tensor(data, tf.float32)]


def _sample_covariance(points):
    """The (n - 1) sample covariance [d, d] of [n, d] points."""
    n = tf.cast(tf.shape(points)[0], tf.float32)
    centered = points - tf.reduce_mean(points, 0, keepdims=True)
    return tf.matmul(centered, centered, transpose_a=True) / (n - 1.0)


class GmmAlgorithm:
    """EM for a Gaussian mixture of `num_classes` components over `data` (a list of [n, d]
    float tensors, one per shard; their points are pooled, where TF 1.15's scores failed on
    more than one shard). `_inference_only` (the GMM estimator's evaluation and prediction):
    no init or EM update ops, which a tf.function step would run; `_variables_only` (its
    training step): the variables alone, the step building the rest (`train_step`)."""

    CLUSTERS_VARIABLE = "clusters"
    CLUSTERS_COVS_VARIABLE = "clusters_covs"
    CLUSTERS_WEIGHT = "alphas"

    def __init__(self, data, num_classes, initial_means=None, params="wmc",
                 covariance_type=FULL_COVARIANCE, random_seed=0, _inference_only=False,
                 _variables_only=False):
        if covariance_type not in (FULL_COVARIANCE, DIAG_COVARIANCE):
            raise ValueError(f"GmmAlgorithm: covariance_type {covariance_type!r} is not "
                             f"supported; use {FULL_COVARIANCE!r} or {DIAG_COVARIANCE!r}.")
        if not isinstance(params, str) or set(params) - set("wmc"):
            raise ValueError(f"GmmAlgorithm: params {params!r} must be letters of 'wmc' "
                             "(w: weights, m: means, c: covariances).")
        self._num_classes = int(num_classes)
        self._params = params
        self._covariance_type = covariance_type
        self._random_seed = random_seed
        shards = _shards(data)
        self._shard_sizes = [tf.shape(s)[0] for s in shards]
        points = shards[0] if len(shards) == 1 else tf.concat(shards, 0)
        self._dimensions = tf.shape(shards[0])[1]
        self._num_examples = tf.shape(points)[0]
        self._min_var = tf.eye(self._dimensions) * _MIN_VAR
        self._create_variables()
        self._points, self._first_shard = points, shards[0]
        self._initial_means_given = initial_means
        if _variables_only:
            return
        # program order is execution order in a tf.function: init, E-step, M-step
        self._init_ops = None if _inference_only else self._initialize(shards[0], initial_means)
        self._expectation(points)
        self._train_ops = None if _inference_only else self._maximization(points)

    # variables
    @staticmethod
    def _variable(initial, name, **kwargs):
        return v1.Variable(initial, name=name, use_resource=True, **kwargs)

    def _create_variables(self):
        empty = tf.constant([], tf.float32)
        unknown = dict(validate_shape=False, shape=tf.TensorShape(None))
        self._means = self._variable(empty, self.CLUSTERS_VARIABLE, **unknown)
        self._covs = self._variable(empty, self.CLUSTERS_COVS_VARIABLE, **unknown)
        self._alpha = self._variable(tf.fill([self._num_classes], 1.0 / self._num_classes),
                                     self.CLUSTERS_WEIGHT, **unknown)
        self._cluster_centers_initialized = self._variable(False, "initialized",
                                                           dtype=tf.bool)

    def _initial_means(self, points, initial_means):
        k = self._num_classes
        if initial_means is None or (isinstance(initial_means, str)
                                     and initial_means == "random"):
            order = tf.random.shuffle(tf.range(tf.shape(points)[0]), seed=self._random_seed)
            chosen = tf.gather(points, order[:k])
        elif isinstance(initial_means, str):
            raise ValueError(f"GmmAlgorithm: initial_means {initial_means!r}: give 'random', "
                             "None (random rows of the data) or the [k, d] means.")
        else:
            chosen = tf.convert_to_tensor(initial_means, tf.float32)
        return tf.reshape(chosen, [k, 1, -1])

    def _initialize(self, points, initial_means):
        """Sets the means and covariances once (a no-op while `initialized` is True)."""
        k = self._num_classes
        initialized = self._cluster_centers_initialized

        def first():
            cov = _sample_covariance(points) + self._min_var
            if self._covariance_type == DIAG_COVARIANCE:
                covs = tf.tile(tf.linalg.diag_part(cov)[None], [k, 1])
            else:
                covs = tf.tile(cov[None], [k, 1, 1])
            return self._initial_means(points, initial_means), covs

        def kept():
            return self._means.read_value(), self._covs.read_value()
        means, covs = tf.cond(initialized.read_value(), kept, first)
        with tf.control_dependencies([v1.assign(self._means, means, validate_shape=False),
                                      v1.assign(self._covs, covs, validate_shape=False)]):
            done = v1.assign(initialized, True)
        return tf.group(done)

    # the E-step
    def _log_gaussians(self, points):
        """log N(x_i | mu_k, C_k + 1e-3 I): [n, k]."""
        k, d = self._num_classes, self._dimensions
        means = tf.reshape(self._means.read_value(), [k, -1])
        diff = points[None, :, :] - means[:, None, :]  # [k, n, d]
        if self._covariance_type == DIAG_COVARIANCE:
            var = tf.reshape(self._covs.read_value(), [k, -1]) + _MIN_VAR
            mahalanobis = tf.reduce_sum(tf.square(diff) / var[:, None, :], 2)
            log_det = tf.reduce_sum(tf.math.log(var), 1)
        else:
            covs = tf.reshape(self._covs.read_value(), [k, d, d]) + self._min_var
            chol = tf.linalg.cholesky(covs)
            solved = tf.linalg.triangular_solve(chol, tf.transpose(diff, [0, 2, 1]),
                                                lower=True)
            mahalanobis = tf.reduce_sum(tf.square(solved), 1)
            log_det = 2.0 * tf.reduce_sum(tf.math.log(tf.linalg.diag_part(chol)), 1)
        dims = tf.cast(d, tf.float32)
        log_p = -0.5 * (dims * math.log(2 * math.pi) + log_det[:, None] + mahalanobis)
        return tf.transpose(log_p)

    def _expectation(self, points):
        """Scores, log likelihood, posteriors w [n, k] and assignments from the variables."""
        probs = self._log_gaussians(points) + tf.math.log(self._alpha.read_value())[None, :]
        self._scores = tf.reduce_logsumexp(probs, axis=1, keepdims=True)  # [n, 1]
        self._w = tf.exp(probs - self._scores)
        self._log_likelihood_op = tf.reduce_logsumexp(self._scores)
        assignments = tf.argmax(self._w, 1)
        if len(self._shard_sizes) > 1:
            self._assignments = tf.split(assignments, tf.stack(self._shard_sizes))
        else:
            self._assignments = [assignments]

    # the M-step
    def _maximization(self, points):
        k = self._num_classes
        w = self._w
        points_in_k = tf.reduce_sum(w, 0)  # [k]
        ops = []
        if "w" in self._params:
            n = tf.cast(self._num_examples, tf.float32)
            ops.append(v1.assign(self._alpha, points_in_k / n, validate_shape=False))
        if "c" in self._params:
            updates = []
            if "m" in self._params:
                means = tf.matmul(w, points, transpose_a=True) / (points_in_k[:, None] + MEPS)
                updates.append(v1.assign(self._means, means[:, None, :], validate_shape=False))
            with tf.control_dependencies(updates):
                mu = tf.reshape(self._means.read_value(), [k, -1])
            count = points_in_k + MEPS
            if self._covariance_type == DIAG_COVARIANCE:
                second = tf.matmul(w, tf.square(points), transpose_a=True) / count[:, None]
                covs = second - tf.square(mu) + _MIN_VAR
            else:
                second = tf.einsum("nk,ni,nj->kij", w, points, points) / count[:, None, None]
                covs = second - mu[:, :, None] * mu[:, None, :] + self._min_var[None]
            ops.append(v1.assign(self._covs, covs, validate_shape=False))
        return tf.group(*ops)

    def train_step(self, global_step):
        """The GMM estimator's train step (on a `_variables_only` algorithm): while the
        means are not set, sets them from the batch and leaves global_step as it is (TF
        1.15's init hook read a batch of its own before the first step); then one EM step on
        the batch, advancing global_step. Returns the log likelihood (before the update)."""
        def em_step():
            self._expectation(self._points)
            loss = self._log_likelihood_op
            with tf.control_dependencies([self._maximization(self._points)]):
                advanced = v1.assign_add(global_step, 1)
            with tf.control_dependencies([advanced]):
                return tf.identity(loss)

        def initialize():
            with tf.control_dependencies([self._initialize(self._first_shard,
                                                           self._initial_means_given)]):
                self._expectation(self._points)
                return tf.identity(self._log_likelihood_op)
        return tf.cond(self._cluster_centers_initialized.read_value(), em_step, initialize)

    # the public view
    def training_ops(self):
        """One EM step (run `init_ops()` once first)."""
        if self._train_ops is None:
            raise ValueError("This GmmAlgorithm was built for inference: no training ops.")
        return self._train_ops

    def init_ops(self):
        """Sets the initial means and covariances, the first time it runs."""
        return self._init_ops

    def is_initialized(self):
        return self._cluster_centers_initialized

    def alphas(self):
        return self._alpha

    def clusters(self):
        return self._means

    def covariances(self):
        return self._covs

    def assignments(self):
        """[argmax_k of the posterior, per point] per shard."""
        return self._assignments

    def scores(self):
        """log p(x_i) under the mixture, [n, 1]."""
        return self._scores

    def log_likelihood_op(self):
        """The logsumexp of the scores (what TF 1.15's GMM reports as its loss)."""
        return self._log_likelihood_op


def gmm(inp, initial_clusters, num_clusters, random_seed, covariance_type=FULL_COVARIANCE,
        params="wmc"):
    """(log likelihood, scores, [assignments per shard], training op, init op,
    `initialized` variable) of a GmmAlgorithm on `inp` (a tensor, or a list of them)."""
    if isinstance(initial_clusters, str) and initial_clusters != "random":
        raise ValueError(f"gmm: initial_clusters {initial_clusters!r}: give 'random' or the "
                         "[k, d] means.")
    data = list(inp) if isinstance(inp, (list, tuple)) else [inp]
    algorithm = GmmAlgorithm(data, num_clusters, initial_clusters, params, covariance_type,
                             random_seed)
    return (algorithm.log_likelihood_op(), algorithm.scores(), [algorithm.assignments()],
            algorithm.training_ops(), algorithm.init_ops(), algorithm.is_initialized())
