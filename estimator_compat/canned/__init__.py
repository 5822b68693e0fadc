"""Canned estimators and heads (tf.estimator.DNNClassifier, ..., tf.estimator.BinaryClassHead)."""
from estimator_compat.canned.estimators import (  # noqa: F401
    BaselineClassifier, BaselineEstimator, BaselineRegressor, DNNClassifier, DNNEstimator,
    DNNLinearCombinedClassifier, DNNLinearCombinedEstimator, DNNLinearCombinedRegressor,
    DNNRegressor, LinearClassifier, LinearEstimator, LinearRegressor)
from estimator_compat.canned.extenders import add_metrics  # noqa: F401
from estimator_compat.canned.heads import (  # noqa: F401
    BinaryClassHead, LogisticRegressionHead, MultiClassHead, MultiHead, MultiLabelHead,
    PoissonRegressionHead, RegressionHead)
