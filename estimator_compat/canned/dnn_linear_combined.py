"""DNNLinearCombinedClassifier / Regressor / Estimator ("wide & deep"): the sum of a linear
model's and a DNN's logits, each part trained by its own optimizer."""
import math

import tensorflow as tf

from estimator_compat.canned import heads as heads_lib
from estimator_compat.canned.base import check_features, classification_head, \
    regularization_losses
from estimator_compat.canned.dnn import check_hidden_units, dnn_logits
from estimator_compat.canned.gather_lookups import gather_lookups
from estimator_compat.canned.keras_slot_names import KerasSlotNames
from estimator_compat.canned.keras_slots import fill_from_keras_slots
from estimator_compat.canned.linear import check_sparse_combiner, linear_logits
from estimator_compat.canned.optimizers import check_name, get_optimizer
from estimator_compat.canned.shared_transforms import with_shared_transforms
from estimator_compat.canned.summaries import V1_PREFIX, layer_summary
from estimator_compat.estimator import Estimator

v1 = tf.compat.v1
SUM_OVER_BATCH_SIZE = heads_lib.SUM_OVER_BATCH_SIZE
# tf.estimator's rates for named optimizers in the combined model (lower than DNN's/Linear's)
DNN_LEARNING_RATE = 0.001
LINEAR_LEARNING_RATE = 0.005


def _part_optimizer(optimizer, learning_rate):
    optimizer = get_optimizer(optimizer, learning_rate)
    if isinstance(optimizer, v1.train.SyncReplicasOptimizer):
        raise ValueError("SyncReplicasOptimizer does not support multi optimizers case. "
                         "Therefore, it is not supported in DNNLinearCombined model. If you "
                         "want to use this optimizer, please use either DNN or Linear model.")
    return optimizer


def combined_model_fn(head, linear_feature_columns, linear_optimizer, dnn_feature_columns,
                      dnn_optimizer, dnn_hidden_units, dnn_activation_fn, dnn_dropout,
                      batch_norm, linear_sparse_combiner, input_layer_partitioner=None,
                      linear_partitioner=None, v1_summaries=False):
    """The model_fn, after tf.estimator's checks of the arguments. `v1_summaries`: the
    tf.compat.v1.estimator classes' tags (canned/summaries.py)."""
    linear_columns = list(linear_feature_columns or [])
    dnn_columns = list(dnn_feature_columns or [])
    if not linear_columns and not dnn_columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be "
                         "defined.")
    if dnn_columns:
        dnn_hidden_units = check_hidden_units(dnn_hidden_units, "dnn_hidden_units")
    check_sparse_combiner(linear_sparse_combiner)
    check_name(linear_optimizer)
    check_name(dnn_optimizer)
    linear_rate = min(LINEAR_LEARNING_RATE, 1.0 / math.sqrt(max(1, len(linear_columns))))
    prefix = V1_PREFIX if v1_summaries else {"dnn": "", "linear": ""}

    def model_fn(features, labels, mode, config):
        check_features(features, linear_columns + dnn_columns)
        with gather_lookups():  # each column's ids computed once for both parts
            return spec_of(features, labels, mode)

    def spec_of(features, labels, mode):
        inputs = with_shared_transforms(features, linear_columns, dnn_columns)
        parts = []  # (scope, optimizer, learning rate), DNN first as tf.estimator built them
        logits = 0
        if dnn_columns:
            logits += dnn_logits(inputs, mode, dnn_columns, dnn_hidden_units,
                                 head.logits_dimension, dnn_activation_fn, dnn_dropout,
                                 batch_norm, input_layer_partitioner, prefix["dnn"])
            parts.append(("dnn/", dnn_optimizer, DNN_LEARNING_RATE))
        if linear_columns:
            linear = linear_logits(inputs, linear_columns, head.logits_dimension,
                                   linear_sparse_combiner, linear_partitioner,
                                   prefix["linear"])
            layer_summary(prefix["linear"] + "linear", linear)
            logits += linear
            parts.append(("linear/", linear_optimizer, linear_rate))

        def train_op_fn(loss):
            trainable = v1.trainable_variables()
            ops = []
            for prefix, optimizer, rate in parts:
                var_list = [v for v in trainable if v.name.startswith(prefix)]
                ops.append(_part_optimizer(optimizer, rate).minimize(loss, var_list=var_list))
            with tf.control_dependencies(ops):
                return v1.train.get_global_step().assign_add(1)
        return head.create_estimator_spec(features, mode, logits, labels=labels,
                                          train_op_fn=train_op_fn,
                                          regularization_losses=regularization_losses())
    return model_fn


def combined_arguments(local, **v1_arguments):
    """combined_model_fn's keyword arguments, from a constructor's locals() (and the
    tf.compat.v1 classes' partitioners and summary tags)."""
    names = ("linear_feature_columns", "linear_optimizer", "dnn_feature_columns",
             "dnn_optimizer", "dnn_hidden_units", "dnn_activation_fn", "dnn_dropout",
             "batch_norm", "linear_sparse_combiner")
    return dict({name: local[name] for name in names}, **v1_arguments)


class _Combined(Estimator):
    _fill_missing_variables = staticmethod(fill_from_keras_slots)  # 2.15 V2 model_dirs

    def __init__(self, head, model_dir, config, warm_start_from, **arguments):
        self._head = head
        if not arguments.get("v1_summaries"):  # the V2 classes: 2.15's Keras slot names
            self._fill_missing_variables = KerasSlotNames()
        super().__init__(combined_model_fn(head, **arguments), model_dir=model_dir,
                         config=config, warm_start_from=warm_start_from)


class DNNLinearCombinedClassifier(_Combined):
    def __init__(self, model_dir=None, linear_feature_columns=None, linear_optimizer="Ftrl",
                 dnn_feature_columns=None, dnn_optimizer="Adagrad", dnn_hidden_units=None,
                 dnn_activation_fn=tf.nn.relu, dnn_dropout=None, n_classes=2, weight_column=None,
                 label_vocabulary=None, config=None, warm_start_from=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, batch_norm=False,
                 linear_sparse_combiner="sum"):
        head = classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(
            head, model_dir, config, warm_start_from, **combined_arguments(locals()))


class DNNLinearCombinedRegressor(_Combined):
    def __init__(self, model_dir=None, linear_feature_columns=None, linear_optimizer="Ftrl",
                 dnn_feature_columns=None, dnn_optimizer="Adagrad", dnn_hidden_units=None,
                 dnn_activation_fn=tf.nn.relu, dnn_dropout=None, label_dimension=1,
                 weight_column=None, config=None, warm_start_from=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, batch_norm=False,
                 linear_sparse_combiner="sum"):
        head = heads_lib.RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(
            head, model_dir, config, warm_start_from, **combined_arguments(locals()))


class DNNLinearCombinedEstimator(_Combined):
    def __init__(self, head, model_dir=None, linear_feature_columns=None,
                 linear_optimizer="Ftrl", dnn_feature_columns=None, dnn_optimizer="Adagrad",
                 dnn_hidden_units=None, dnn_activation_fn=tf.nn.relu, dnn_dropout=None,
                 config=None, batch_norm=False, linear_sparse_combiner="sum"):
        super().__init__(
            head, model_dir, config, None, **combined_arguments(locals()))
