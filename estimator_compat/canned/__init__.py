"""Canned estimators and heads (tf.estimator.DNNClassifier, ..., tf.estimator.BinaryClassHead).

The V2 classes (tf.estimator.*) are here; tf.compat.v1.estimator's are in `canned.v1`.
"""
from estimator_compat.canned.baseline import (  # noqa: F401
    BaselineClassifier, BaselineEstimator, BaselineRegressor)
from estimator_compat.canned.dnn import DNNClassifier, DNNEstimator, DNNRegressor  # noqa: F401
from estimator_compat.canned.dnn_linear_combined import (  # noqa: F401
    DNNLinearCombinedClassifier, DNNLinearCombinedEstimator, DNNLinearCombinedRegressor)
from estimator_compat.canned.extenders import add_metrics  # noqa: F401
from estimator_compat.canned.heads import (  # noqa: F401
    BinaryClassHead, LogisticRegressionHead, MultiClassHead, MultiHead, MultiLabelHead,
    PoissonRegressionHead, RegressionHead)
from estimator_compat.canned.linear import (  # noqa: F401
    LinearClassifier, LinearEstimator, LinearRegressor)
