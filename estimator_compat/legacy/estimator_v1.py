"""`tf.compat.v1.estimator` after install(): the whole API, with tf.compat.v1.estimator's own
canned classes (summed loss, the TF1 signatures with `input_layer_partitioner` /
`partitioner`) in place of the V2 ones. Everything else is estimator_compat's."""
import estimator_compat as _api
from estimator_compat.canned.v1 import (  # noqa: F401
    BaselineClassifier, BaselineEstimator, BaselineRegressor, DNNClassifier, DNNEstimator,
    DNNLinearCombinedClassifier, DNNLinearCombinedEstimator, DNNLinearCombinedRegressor,
    DNNRegressor, LinearClassifier, LinearEstimator, LinearRegressor)

_OWN = {"BaselineClassifier", "BaselineEstimator", "BaselineRegressor", "DNNClassifier",
        "DNNEstimator", "DNNLinearCombinedClassifier", "DNNLinearCombinedEstimator",
        "DNNLinearCombinedRegressor", "DNNRegressor", "LinearClassifier", "LinearEstimator",
        "LinearRegressor"}


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(_api, name)


def __dir__():
    return sorted(_OWN | {n for n in dir(_api) if not n.startswith("_")})
