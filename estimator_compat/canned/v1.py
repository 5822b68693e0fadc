"""tf.compat.v1.estimator's canned estimators: the TF1 classes' signatures and defaults.

They differ from the V2 classes (tf.estimator.*) in what a legacy script sees: the loss is
summed over the batch (`loss_reduction=tf.compat.v1.losses.Reduction.SUM`), a named DNN
optimizer trains at 0.05, and `input_layer_partitioner` / `partitioner` split the input
layer's (linear model's) variables; by default, with `ps` tasks in TF_CONFIG, into at most one
part per ps task of at least 64 MB each, as tf.estimator did. Their TensorBoard tags are
tf.compat.v1.estimator's (`dnn/dnn/hiddenlayer_N/...`, `linear/bias`, the training
`average_loss`: canned/summaries.py).
"""
import tensorflow as tf

from estimator_compat.canned import heads as heads_lib
from estimator_compat.canned.base import _Canned, classification_head
from estimator_compat.canned.baseline import LEARNING_RATE as BASELINE_RATE, baseline_logits
from estimator_compat.canned.dnn import dnn_arguments
from estimator_compat.canned.dnn_linear_combined import _Combined, combined_arguments
from estimator_compat.canned.linear import linear_arguments
from estimator_compat.canned.summaries import V1_PREFIX
from estimator_compat.run_config import RunConfig

SUM = heads_lib.V1_SUM
DNN_LEARNING_RATE = 0.05
relu = tf.nn.relu
DNN_NAMES, LINEAR_NAMES = ("dnn", "t_0"), ("linear", "part_0")  # see base._Canned


def _partitioner(given, config):
    """The partitioner given, else tf.estimator's default: with parameter servers, at most
    one part per ps task, none smaller than 64 MB (only very large embeddings are split)."""
    if given is not None:
        return given
    num_ps = (config or RunConfig()).num_ps_replicas
    if not num_ps:
        return None
    return tf.compat.v1.min_max_variable_partitioner(max_partitions=num_ps,
                                                     min_slice_size=64 << 20)


def _dnn(*args, partitioner):
    return dict(dnn_arguments(*args, DNN_LEARNING_RATE, input_layer_partitioner=partitioner,
                              summary_prefix=V1_PREFIX["dnn"]), v1_names=DNN_NAMES)


def _linear(*args, partitioner):
    return linear_arguments(*args, v1_names=LINEAR_NAMES, partitioner=partitioner)


def _combined(local):
    partitioner = _partitioner(local["input_layer_partitioner"], local["config"])
    return combined_arguments(local, input_layer_partitioner=partitioner,
                              linear_partitioner=partitioner, v1_summaries=True)


class DNNClassifier(_Canned):
    def __init__(self, hidden_units, feature_columns, model_dir=None, n_classes=2,
                 weight_column=None, label_vocabulary=None, optimizer="Adagrad",
                 activation_fn=relu, dropout=None, input_layer_partitioner=None, config=None,
                 warm_start_from=None, loss_reduction=SUM, batch_norm=False):
        head = classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(**_dnn(head, hidden_units, feature_columns, model_dir, optimizer,
                                activation_fn, dropout, config, warm_start_from, batch_norm,
                                partitioner=_partitioner(input_layer_partitioner, config)))


class DNNRegressor(_Canned):
    def __init__(self, hidden_units, feature_columns, model_dir=None, label_dimension=1,
                 weight_column=None, optimizer="Adagrad", activation_fn=relu, dropout=None,
                 input_layer_partitioner=None, config=None, warm_start_from=None,
                 loss_reduction=SUM, batch_norm=False):
        head = heads_lib.RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(**_dnn(head, hidden_units, feature_columns, model_dir, optimizer,
                                activation_fn, dropout, config, warm_start_from, batch_norm,
                                partitioner=_partitioner(input_layer_partitioner, config)))


class DNNEstimator(_Canned):
    def __init__(self, head, hidden_units, feature_columns, model_dir=None, optimizer="Adagrad",
                 activation_fn=relu, dropout=None, input_layer_partitioner=None, config=None,
                 warm_start_from=None, batch_norm=False):
        super().__init__(**_dnn(head, hidden_units, feature_columns, model_dir, optimizer,
                                activation_fn, dropout, config, warm_start_from, batch_norm,
                                partitioner=_partitioner(input_layer_partitioner, config)))


class LinearClassifier(_Canned):
    def __init__(self, feature_columns, model_dir=None, n_classes=2, weight_column=None,
                 label_vocabulary=None, optimizer="Ftrl", config=None, partitioner=None,
                 warm_start_from=None, loss_reduction=SUM, sparse_combiner="sum"):
        head = classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(**_linear(head, feature_columns, model_dir, optimizer, config,
                                   warm_start_from, sparse_combiner,
                                   partitioner=_partitioner(partitioner, config)))


class LinearRegressor(_Canned):
    def __init__(self, feature_columns, model_dir=None, label_dimension=1, weight_column=None,
                 optimizer="Ftrl", config=None, partitioner=None, warm_start_from=None,
                 loss_reduction=SUM, sparse_combiner="sum"):
        head = heads_lib.RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(**_linear(head, feature_columns, model_dir, optimizer, config,
                                   warm_start_from, sparse_combiner,
                                   partitioner=_partitioner(partitioner, config)))


class LinearEstimator(_Canned):
    def __init__(self, head, feature_columns, model_dir=None, optimizer="Ftrl", config=None,
                 partitioner=None, sparse_combiner="sum", warm_start_from=None):
        super().__init__(**_linear(head, feature_columns, model_dir, optimizer, config,
                                   warm_start_from, sparse_combiner,
                                   partitioner=_partitioner(partitioner, config)))


class BaselineClassifier(_Canned):
    def __init__(self, model_dir=None, n_classes=2, weight_column=None, label_vocabulary=None,
                 optimizer="Ftrl", config=None, loss_reduction=SUM):
        head = classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(head, baseline_logits(head.logits_dimension), optimizer,
                         BASELINE_RATE, model_dir, config)


class BaselineRegressor(_Canned):
    def __init__(self, model_dir=None, label_dimension=1, weight_column=None, optimizer="Ftrl",
                 config=None, loss_reduction=SUM):
        head = heads_lib.RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(head, baseline_logits(head.logits_dimension), optimizer,
                         BASELINE_RATE, model_dir, config)


class BaselineEstimator(_Canned):
    def __init__(self, head, model_dir=None, optimizer="Ftrl", config=None):
        super().__init__(head, baseline_logits(head.logits_dimension), optimizer,
                         BASELINE_RATE, model_dir, config)


class DNNLinearCombinedClassifier(_Combined):
    def __init__(self, model_dir=None, linear_feature_columns=None, linear_optimizer="Ftrl",
                 dnn_feature_columns=None, dnn_optimizer="Adagrad", dnn_hidden_units=None,
                 dnn_activation_fn=relu, dnn_dropout=None, n_classes=2, weight_column=None,
                 label_vocabulary=None, input_layer_partitioner=None, config=None,
                 warm_start_from=None, loss_reduction=SUM, batch_norm=False,
                 linear_sparse_combiner="sum"):
        head = classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(head, model_dir, config, warm_start_from,
                         **_combined(locals()))


class DNNLinearCombinedRegressor(_Combined):
    def __init__(self, model_dir=None, linear_feature_columns=None, linear_optimizer="Ftrl",
                 dnn_feature_columns=None, dnn_optimizer="Adagrad", dnn_hidden_units=None,
                 dnn_activation_fn=relu, dnn_dropout=None, label_dimension=1, weight_column=None,
                 input_layer_partitioner=None, config=None, warm_start_from=None,
                 loss_reduction=SUM, batch_norm=False, linear_sparse_combiner="sum"):
        head = heads_lib.RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(head, model_dir, config, warm_start_from,
                         **_combined(locals()))


class DNNLinearCombinedEstimator(_Combined):
    def __init__(self, head, model_dir=None, linear_feature_columns=None,
                 linear_optimizer="Ftrl", dnn_feature_columns=None, dnn_optimizer="Adagrad",
                 dnn_hidden_units=None, dnn_activation_fn=relu, dnn_dropout=None,
                 input_layer_partitioner=None, config=None, batch_norm=False,
                 linear_sparse_combiner="sum"):
        super().__init__(head, model_dir, config, None, **_combined(locals()))
