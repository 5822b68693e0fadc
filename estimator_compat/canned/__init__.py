"""Canned estimators and heads (tf.estimator.DNNClassifier, ..., tf.estimator.BinaryClassHead)."""
from estimator_compat.canned.estimators import (  # noqa: F401
    BaselineClassifier, BaselineRegressor, DNNClassifier, DNNEstimator, DNNRegressor,
    LinearClassifier, LinearEstimator, LinearRegressor)
from estimator_compat.canned.heads import (  # noqa: F401
    BinaryClassHead, MultiClassHead, RegressionHead)
