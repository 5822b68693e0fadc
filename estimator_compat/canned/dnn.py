"""DNNClassifier, DNNRegressor, DNNEstimator: a feed-forward network on feature columns."""
import tensorflow as tf

from estimator_compat.canned import heads as heads_lib
from estimator_compat.canned.base import _Canned, check_columns, classification_head
from estimator_compat.canned.gather_lookups import gather_lookups
from estimator_compat.canned.summaries import layer_summary

v1 = tf.compat.v1
SUM_OVER_BATCH_SIZE = heads_lib.SUM_OVER_BATCH_SIZE


def dnn_logits(features, mode, feature_columns, hidden_units, units, activation_fn, dropout,
               batch_norm, input_layer_partitioner=None, summary_prefix=""):
    """The network under tf.estimator's names (dnn/hiddenlayer_N, dnn/logits), with its
    per-layer summaries (tags prefixed by `summary_prefix`: "dnn/" for the
    tf.compat.v1.estimator classes); the input layer's variables (embeddings) split by the
    partitioner."""
    training = mode == "train"
    layers = []
    with v1.variable_scope("dnn"):
        with v1.variable_scope("input_from_feature_columns",
                               partitioner=input_layer_partitioner), gather_lookups():
            net = v1.feature_column.input_layer(features, feature_columns)
        for i, size in enumerate(hidden_units):
            net = v1.layers.dense(net, size, activation=activation_fn, name=f"hiddenlayer_{i}",
                                  kernel_initializer=v1.glorot_uniform_initializer())
            if dropout is not None and training:
                net = tf.nn.dropout(net, rate=dropout)
            if batch_norm:
                # tf.estimator's momentum (0.99 "crashes on certain problems", it said)
                net = v1.layers.batch_normalization(
                    net, momentum=0.999, training=training,
                    name=f"hiddenlayer_{i}/batchnorm_{i}")
            layers.append((f"dnn/hiddenlayer_{i}", net))
        logits = v1.layers.dense(net, units, name="logits",
                                 kernel_initializer=v1.glorot_uniform_initializer())
    for tag, value in layers + [("dnn/logits", logits)]:
        layer_summary(summary_prefix + tag, value)
    return logits


def check_hidden_units(hidden_units, what="hidden_units"):
    if not hidden_units:
        raise ValueError(f"{what} must be a non-empty list of layer sizes, e.g. [64, 32]; "
                         f"given: {hidden_units!r}")
    return list(hidden_units)


def dnn_arguments(head, hidden_units, feature_columns, model_dir, optimizer, activation_fn,
                  dropout, config, warm_start_from, batch_norm, learning_rate=None,
                  input_layer_partitioner=None, summary_prefix=""):
    """_Canned's arguments for a DNN. `learning_rate` None: Keras' default for a named
    optimizer (tf.estimator 2.15's V2 classes); tf.compat.v1.estimator's classes use 0.05."""
    feature_columns = check_columns(feature_columns)
    hidden_units = check_hidden_units(hidden_units)
    if dropout is not None and not 0 <= dropout < 1:
        raise ValueError(f"dropout must be in [0, 1), given: {dropout}")
    return dict(head=head, logits_fn=lambda f, m: dnn_logits(
        f, m, feature_columns, hidden_units, head.logits_dimension, activation_fn, dropout,
        batch_norm, input_layer_partitioner, summary_prefix), optimizer=optimizer,
        learning_rate=learning_rate,
        model_dir=model_dir, config=config, warm_start_from=warm_start_from,
        columns=feature_columns)


class DNNClassifier(_Canned):
    def __init__(self, hidden_units, feature_columns, model_dir=None, n_classes=2,
                 weight_column=None, label_vocabulary=None, optimizer="Adagrad",
                 activation_fn=tf.nn.relu, dropout=None, config=None, warm_start_from=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, batch_norm=False):
        head = classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(**dnn_arguments(head, hidden_units, feature_columns, model_dir,
                                         optimizer, activation_fn, dropout, config,
                                         warm_start_from, batch_norm))


class DNNRegressor(_Canned):
    def __init__(self, hidden_units, feature_columns, model_dir=None, label_dimension=1,
                 weight_column=None, optimizer="Adagrad", activation_fn=tf.nn.relu, dropout=None,
                 config=None, warm_start_from=None, loss_reduction=SUM_OVER_BATCH_SIZE,
                 batch_norm=False):
        head = heads_lib.RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(**dnn_arguments(head, hidden_units, feature_columns, model_dir,
                                         optimizer, activation_fn, dropout, config,
                                         warm_start_from, batch_norm))


class DNNEstimator(_Canned):
    def __init__(self, head, hidden_units, feature_columns, model_dir=None,
                 optimizer="Adagrad", activation_fn=tf.nn.relu, dropout=None, config=None,
                 warm_start_from=None, batch_norm=False):
        super().__init__(**dnn_arguments(head, hidden_units, feature_columns, model_dir,
                                         optimizer, activation_fn, dropout, config,
                                         warm_start_from, batch_norm))
