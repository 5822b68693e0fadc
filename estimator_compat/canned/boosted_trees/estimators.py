"""BoostedTreesClassifier, BoostedTreesRegressor, BoostedTreesEstimator and tf.contrib's
in-memory trainers: tf.estimator 2.8's gradient boosted trees, on TensorFlow 2.21.

TensorFlow 2.21 still declares the BoostedTrees ops but ships none of their kernels; the
algorithm runs here (model_fn.py: per-example work in TensorFlow ops, per-layer work in numpy
mirroring the kernels), with tf.estimator's heads, arguments, checkpoint names and errors.
"""
import tensorflow as tf

from estimator_compat.canned import heads as heads_lib
from estimator_compat.canned.boosted_trees import explain, state
from estimator_compat.canned.boosted_trees.model_fn import ModelFn, TreeHParams
from estimator_compat.eager_calls import eager_entry, eager_generator
from estimator_compat.estimator import Estimator

_HOLD = object()  # tf.contrib's n_classes / label_dimension placeholders


def _validate(hparams):
    for name in ("n_trees", "max_depth", "learning_rate", "quantile_sketch_epsilon"):
        if getattr(hparams, name) <= 0:
            raise ValueError(f"Expected {name} > 0, received: {getattr(hparams, name)}")
    for name in ("l1", "l2", "tree_complexity", "min_node_weight"):
        if getattr(hparams, name) < 0:
            raise ValueError(f"Expected {name} >= 0, received: {getattr(hparams, name)}")
    if hparams.pruning_mode not in ("none", "pre", "post"):
        raise ValueError(f"pruning_mode mode must be one of: none, post, pre. Found: "
                         f"{hparams.pruning_mode}")
    if hparams.tree_complexity > 0 and hparams.pruning_mode == "none":
        raise ValueError("Tree complexity have no effect unless pruning mode is chosen.")
    if hparams.tree_complexity <= 0 and hparams.pruning_mode != "none":
        raise ValueError("For pruning, tree_complexity must be positive.")


def per_example_maxent_loss(labels, logits, num_classes, eps=1e-15):
    """Multi-class log loss written to be twice differentiable (the hessians need it)."""
    labels = tf.reshape(tf.cast(labels, tf.int64), [-1])
    one_hot = tf.one_hot(labels, depth=num_classes)
    unnormalized = tf.exp(logits)
    probabilities = unnormalized / (tf.reduce_sum(unnormalized, 1, keepdims=True) + eps)
    real = tf.reduce_sum(one_hot * probabilities, 1)
    real = tf.where(real >= eps, real, tf.zeros_like(real) + eps)
    real = tf.where(real <= 1 - eps, real, tf.ones_like(real) - eps)
    return tf.expand_dims(-tf.math.log(real), 1)


def classification_head(n_classes, weight_column, label_vocabulary):
    """(head, closed-form gradients) as tf.estimator 2.8's boosted trees made them."""
    if n_classes == 2:
        head = heads_lib.BinaryClassHead(weight_column, label_vocabulary=label_vocabulary,
                                         loss_reduction=heads_lib.SUM_OVER_BATCH_SIZE)
        head._pr_auc_kind = "auc_pr_trapezoidal"  # a compat.v1 head's auc_precision_recall
        closed_form = _logloss_closed_form if weight_column is None and \
            label_vocabulary is None else None
        return head, closed_form
    if n_classes is None or n_classes < 2:
        raise ValueError(f"n_classes must be > 1: {n_classes}.")
    head = heads_lib.MultiClassHead(
        n_classes, weight_column, label_vocabulary,
        loss_reduction=heads_lib.V1_SUM_BY_NONZERO_WEIGHTS,
        loss_fn=lambda labels, logits: per_example_maxent_loss(labels, logits, n_classes))
    return head, None


def _logloss_closed_form(logits, labels):
    """Gradients and hessians of the mean log loss, in closed form (tf.estimator's)."""
    predictions = tf.math.reciprocal(tf.exp(-logits) + 1.0)
    normalizer = tf.math.reciprocal(tf.cast(tf.size(predictions), tf.float32))
    labels = tf.reshape(tf.cast(labels, tf.float32), [-1, 1])
    return (predictions - labels) * normalizer, predictions * (1.0 - predictions) * normalizer


class _BoostedTreesBase(Estimator):
    """An Estimator over ModelFn, with feature importances and explanations."""
    _meta_graph_buildable = False  # its train step calls the host (tf.numpy_function)
    _train_steps_per_execution = 1  # the stop condition is checked after every step
    _host_calls = True  # tf.numpy_function and dynamic shapes: never XLA-compiled

    @eager_entry
    def __init__(self, model_fn, model_dir, config, head, center_bias, is_classification):
        self._fill_missing_variables = state.fill_missing(head.logits_dimension)
        self._uncounted_steps = model_fn.n_batches_per_layer + 1  # quantile steps
        super().__init__(model_fn, model_dir=model_dir, config=config)
        self._bt, self._head = model_fn, head
        self._center_bias, self._is_classification = center_bias, is_classification

    @eager_entry
    def experimental_feature_importances(self, normalize=False):
        """OrderedDict {column name: gain-based importance}, most important first."""
        return explain.feature_importances(self.model_dir, self._bt.layout, normalize)

    @eager_entry
    def experimental_predict_with_explanations(self, input_fn, predict_keys=None, hooks=None,
                                               checkpoint_path=None):
        """Predictions with 'bias' and 'dfc' (directional feature contributions) added."""
        if not self._center_bias:
            raise ValueError("center_bias must be enabled during estimator instantiation when "
                             "using experimental_predict_with_explanations.")
        if self._head.logits_dimension > 1:
            raise ValueError("experimental_predict_with_explanations does not yet support "
                             "multi-class classification and multi-label regression.")
        if not self._is_classification and not isinstance(self._head, heads_lib.RegressionHead):
            raise ValueError("For now only identity inverse_link_fn in regression_head is "
                             "supported for experimental_predict_with_explanations.")
        return eager_generator(self._explained(input_fn, predict_keys, hooks, checkpoint_path))

    def _explained(self, input_fn, predict_keys, hooks, checkpoint_path):
        bt = self._bt

        def model_fn(features, labels, mode, config):
            return bt.explanation_spec(features)
        est = Estimator(model_fn, model_dir=self.model_dir, config=self.config)
        est._fill_missing_variables, est._host_calls = self._fill_missing_variables, True
        if predict_keys is not None:
            predict_keys = sorted(set(predict_keys) | set(explain.DEBUG_KEYS))
        for prediction in est.predict(input_fn, predict_keys=predict_keys, hooks=hooks,
                                      checkpoint_path=checkpoint_path):
            prediction["bias"], prediction["dfc"] = explain.directional_contributions(
                prediction, bt.layout.names, self._is_classification)
            yield prediction


def _hparams(n_trees, max_depth, learning_rate, l1, l2, tree_complexity, min_node_weight,
             center_bias, pruning_mode, quantile_sketch_epsilon):
    hparams = TreeHParams(n_trees, max_depth, learning_rate, l1, l2, tree_complexity,
                          min_node_weight, center_bias, pruning_mode, quantile_sketch_epsilon)
    _validate(hparams)
    return hparams


class BoostedTreesClassifier(_BoostedTreesBase):
    """Gradient boosted trees for classification."""

    def __init__(self, feature_columns, n_batches_per_layer, model_dir=None, n_classes=2,
                 weight_column=None, label_vocabulary=None, n_trees=100, max_depth=6,
                 learning_rate=0.1, l1_regularization=0., l2_regularization=0.,
                 tree_complexity=0., min_node_weight=0., config=None, center_bias=False,
                 pruning_mode="none", quantile_sketch_epsilon=0.01, train_in_memory=False):
        if n_classes > 2 and center_bias:
            raise ValueError("center_bias not yet support with n_classes > 2.")
        head, closed_form = classification_head(n_classes, weight_column, label_vocabulary)
        hparams = _hparams(n_trees, max_depth, learning_rate, l1_regularization,
                           l2_regularization, tree_complexity, min_node_weight, center_bias,
                           pruning_mode, quantile_sketch_epsilon)
        model_fn = ModelFn(head, feature_columns, hparams, n_batches_per_layer, train_in_memory,
                           closed_form, weight_column)
        super().__init__(model_fn, model_dir, config, head, center_bias, True)


class BoostedTreesRegressor(_BoostedTreesBase):
    """Gradient boosted trees for regression."""

    def __init__(self, feature_columns, n_batches_per_layer, model_dir=None, label_dimension=1,
                 weight_column=None, n_trees=100, max_depth=6, learning_rate=0.1,
                 l1_regularization=0., l2_regularization=0., tree_complexity=0.,
                 min_node_weight=0., config=None, center_bias=False, pruning_mode="none",
                 quantile_sketch_epsilon=0.01, train_in_memory=False):
        if label_dimension > 1 and center_bias:
            raise ValueError("center_bias not yet support with label_dimension > 1.")
        head = heads_lib.RegressionHead(label_dimension, weight_column,
                                        loss_reduction=heads_lib.SUM_OVER_BATCH_SIZE)
        hparams = _hparams(n_trees, max_depth, learning_rate, l1_regularization,
                           l2_regularization, tree_complexity, min_node_weight, center_bias,
                           pruning_mode, quantile_sketch_epsilon)
        model_fn = ModelFn(head, feature_columns, hparams, n_batches_per_layer, train_in_memory,
                           weight_column=weight_column)
        super().__init__(model_fn, model_dir, config, head, center_bias, False)


class BoostedTreesEstimator(_BoostedTreesBase):
    """Gradient boosted trees with a head of your own."""

    def __init__(self, feature_columns, n_batches_per_layer, head, model_dir=None,
                 weight_column=None, n_trees=100, max_depth=6, learning_rate=0.1,
                 l1_regularization=0., l2_regularization=0., tree_complexity=0.,
                 min_node_weight=0., config=None, center_bias=False, pruning_mode="none",
                 quantile_sketch_epsilon=0.01):
        hparams = _hparams(n_trees, max_depth, learning_rate, l1_regularization,
                           l2_regularization, tree_complexity, min_node_weight, center_bias,
                           pruning_mode, quantile_sketch_epsilon)
        model_fn = ModelFn(head, feature_columns, hparams, n_batches_per_layer, False)
        classification = isinstance(head, (heads_lib.BinaryClassHead, heads_lib.MultiClassHead))
        super().__init__(model_fn, model_dir, config, head, center_bias, classification)


def _repeated(train_input_fn):
    def input_fn():
        result = train_input_fn()
        return result.repeat() if isinstance(result, tf.data.Dataset) else result
    return input_fn


def _train_in_memory(head, closed_form, train_input_fn, feature_columns, model_dir,
                     weight_column, config, train_hooks, hparams, is_classification):
    model_fn = ModelFn(head, feature_columns, hparams, 1, True, closed_form, weight_column)
    estimator = _BoostedTreesBase(model_fn, model_dir, config, head, hparams.center_bias,
                                  is_classification)
    estimator.train(input_fn=_repeated(train_input_fn), hooks=train_hooks)
    return estimator


def boosted_trees_classifier_train_in_memory(
        train_input_fn, feature_columns, model_dir=None, n_classes=_HOLD, weight_column=None,
        label_vocabulary=None, n_trees=100, max_depth=6, learning_rate=0.1,
        l1_regularization=0., l2_regularization=0., tree_complexity=0., min_node_weight=0.,
        config=None, train_hooks=None, center_bias=False, pruning_mode="none",
        quantile_sketch_epsilon=0.01):
    """tf.contrib.estimator's: a classifier trained on the one batch `train_input_fn` gives
    (the whole dataset, unbatched), until n_trees trees are built."""
    n_classes = 2 if n_classes is _HOLD else n_classes
    head, closed_form = classification_head(n_classes, weight_column, label_vocabulary)
    hparams = _hparams(n_trees, max_depth, learning_rate, l1_regularization, l2_regularization,
                       tree_complexity, min_node_weight, center_bias, pruning_mode,
                       quantile_sketch_epsilon)
    return _train_in_memory(head, closed_form, train_input_fn, feature_columns, model_dir,
                            weight_column, config, train_hooks, hparams, True)


def boosted_trees_regressor_train_in_memory(
        train_input_fn, feature_columns, model_dir=None, label_dimension=_HOLD,
        weight_column=None, n_trees=100, max_depth=6, learning_rate=0.1, l1_regularization=0.,
        l2_regularization=0., tree_complexity=0., min_node_weight=0., config=None,
        train_hooks=None, center_bias=False, pruning_mode="none", quantile_sketch_epsilon=0.01):
    """tf.contrib.estimator's in-memory regressor (see the classifier)."""
    label_dimension = 1 if label_dimension is _HOLD else label_dimension
    head = heads_lib.RegressionHead(label_dimension, weight_column,
                                    loss_reduction=heads_lib.SUM_OVER_BATCH_SIZE)
    hparams = _hparams(n_trees, max_depth, learning_rate, l1_regularization, l2_regularization,
                       tree_complexity, min_node_weight, center_bias, pruning_mode,
                       quantile_sketch_epsilon)
    return _train_in_memory(head, None, train_input_fn, feature_columns, model_dir,
                            weight_column, config, train_hooks, hparams, False)
