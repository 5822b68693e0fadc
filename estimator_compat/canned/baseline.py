"""BaselineClassifier, BaselineRegressor, BaselineEstimator: a learned bias per logit that
ignores the features (the prior class distribution, or the mean label)."""
import tensorflow as tf

from estimator_compat.canned import heads as heads_lib
from estimator_compat.canned.base import _Canned, classification_head

v1 = tf.compat.v1
SUM_OVER_BATCH_SIZE = heads_lib.SUM_OVER_BATCH_SIZE
LEARNING_RATE = 0.3  # tf.estimator's rate for a named optimizer


def baseline_logits(units):
    def logits_fn(features, mode):
        some = next(iter(features.values())) if isinstance(features, dict) and features \
            else features
        batch = tf.shape(some.values if isinstance(some, tf.SparseTensor) else some)[0]
        with v1.variable_scope("baseline"):
            bias = v1.get_variable("bias", [units], initializer=v1.zeros_initializer())
        return tf.tile(bias[None, :], [batch, 1])
    return logits_fn


class BaselineClassifier(_Canned):
    def __init__(self, model_dir=None, n_classes=2, weight_column=None, label_vocabulary=None,
                 optimizer="Ftrl", config=None, loss_reduction=SUM_OVER_BATCH_SIZE):
        head = classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(head, baseline_logits(head.logits_dimension), optimizer,
                         LEARNING_RATE, model_dir, config)


class BaselineRegressor(_Canned):
    def __init__(self, model_dir=None, label_dimension=1, weight_column=None, optimizer="Ftrl",
                 config=None, loss_reduction=SUM_OVER_BATCH_SIZE):
        head = heads_lib.RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(head, baseline_logits(head.logits_dimension), optimizer,
                         LEARNING_RATE, model_dir, config)


class BaselineEstimator(_Canned):
    def __init__(self, head, model_dir=None, optimizer="Ftrl", config=None):
        super().__init__(head, baseline_logits(head.logits_dimension), optimizer,
                         LEARNING_RATE, model_dir, config)
