"""Heads: loss, predictions, metrics and export outputs of canned estimators, as tf.estimator's
(tf.estimator.Head and its subclasses)."""
from estimator_compat.canned.heads.base import (  # noqa: F401
    REDUCTIONS, SUM, SUM_OVER_BATCH_SIZE, V1_MEAN, V1_SUM, V1_SUM_BY_NONZERO_WEIGHTS,
    V1_SUM_OVER_BATCH_SIZE, Head)
from estimator_compat.canned.heads.classification import (  # noqa: F401
    BinaryClassHead, MultiClassHead)
from estimator_compat.canned.heads.multi_head import MultiHead  # noqa: F401
from estimator_compat.canned.heads.multi_label import MultiLabelHead  # noqa: F401
from estimator_compat.canned.heads.regression import (  # noqa: F401
    LogisticRegressionHead, PoissonRegressionHead, RegressionHead)
