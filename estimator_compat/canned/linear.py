"""LinearClassifier, LinearRegressor, LinearEstimator: a linear model on feature columns."""
import math

import tensorflow as tf

from estimator_compat.canned import heads as heads_lib
from estimator_compat.canned.base import _Canned, check_columns, classification_head
from estimator_compat.canned.gather_lookups import gather_lookups
from estimator_compat.canned.linear_sdca import LinearSDCA, check_sdca, train_op_builder
from estimator_compat.canned.summaries import V1_PREFIX, linear_summaries

v1 = tf.compat.v1
SUM_OVER_BATCH_SIZE = heads_lib.SUM_OVER_BATCH_SIZE
LEARNING_RATE = 0.2  # tf.estimator's rate for a named optimizer


def linear_logits(features, feature_columns, units, sparse_combiner, partitioner=None,
                  summary_prefix=""):
    """linear/linear_model/<column>/weights and linear/linear_model/bias_weights, with the
    `bias` and `fraction_of_zero_weights` summaries (prefixed by `summary_prefix`: "linear/"
    for the tf.compat.v1.estimator classes); weights split by the partitioner."""
    with v1.variable_scope("linear", partitioner=partitioner), gather_lookups():
        logits = v1.feature_column.linear_model(features, feature_columns, units=units,
                                                sparse_combiner=sparse_combiner)
    linear_summaries("linear/linear_model/", summary_prefix)
    return logits


def check_sparse_combiner(sparse_combiner):
    if sparse_combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"sparse_combiner must be one of 'mean', 'sqrtn', 'sum', given: "
                         f"{sparse_combiner!r}")


def linear_arguments(head, feature_columns, model_dir, optimizer, config, warm_start_from,
                     sparse_combiner, v1_names=None, partitioner=None):
    """_Canned's arguments for a linear model. optimizer=None: Ftrl at min(0.2, 1/sqrt(number
    of columns)), as tf.estimator; a name: that optimizer at 0.2; a LinearSDCA: its train op.
    `v1_names`: tf.compat.v1.estimator's (see base._Canned)."""
    feature_columns = check_columns(feature_columns)
    check_sparse_combiner(sparse_combiner)
    learning_rate = LEARNING_RATE
    extra = dict(v1_names=v1_names) if v1_names else {}
    summary_prefix = V1_PREFIX["linear"] if v1_names else ""
    if isinstance(optimizer, LinearSDCA):
        check_sdca(optimizer, head, feature_columns, sparse_combiner)
        extra["train_op_builder"] = train_op_builder(optimizer, head, feature_columns,
                                                     v1_names=bool(v1_names))
    if optimizer is None:
        optimizer = "Ftrl"
        learning_rate = min(LEARNING_RATE, 1.0 / math.sqrt(len(feature_columns)))
    return dict(head=head, logits_fn=lambda f, m: linear_logits(
        f, feature_columns, head.logits_dimension, sparse_combiner, partitioner,
        summary_prefix),
        optimizer=optimizer,
        learning_rate=learning_rate, model_dir=model_dir, config=config,
        warm_start_from=warm_start_from, columns=feature_columns, **extra)


class LinearClassifier(_Canned):
    def __init__(self, feature_columns, model_dir=None, n_classes=2, weight_column=None,
                 label_vocabulary=None, optimizer="Ftrl", config=None, warm_start_from=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, sparse_combiner="sum"):
        head = classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(**linear_arguments(head, feature_columns, model_dir, optimizer, config,
                                            warm_start_from, sparse_combiner))


class LinearRegressor(_Canned):
    def __init__(self, feature_columns, model_dir=None, label_dimension=1, weight_column=None,
                 optimizer="Ftrl", config=None, warm_start_from=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, sparse_combiner="sum"):
        head = heads_lib.RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(**linear_arguments(head, feature_columns, model_dir, optimizer, config,
                                            warm_start_from, sparse_combiner))


class LinearEstimator(_Canned):
    def __init__(self, head, feature_columns, model_dir=None, optimizer="Ftrl", config=None,
                 sparse_combiner="sum", warm_start_from=None):
        super().__init__(**linear_arguments(head, feature_columns, model_dir, optimizer, config,
                                            warm_start_from, sparse_combiner))
