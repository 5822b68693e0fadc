"""Gradient boosted trees (tf.estimator.BoostedTrees*), reimplemented: TensorFlow 2.21 keeps
the ops' declarations but not their kernels. See estimators.py."""
from estimator_compat.canned.boosted_trees.estimators import (  # noqa: F401
    BoostedTreesClassifier, BoostedTreesEstimator, BoostedTreesRegressor,
    boosted_trees_classifier_train_in_memory, boosted_trees_regressor_train_in_memory)
