"""Canned estimators: DNN, Linear and Baseline classifiers and regressors, with a head.

Each is an Estimator whose model_fn turns `feature_columns` into tensors with TensorFlow's own
`tf.compat.v1.feature_column.input_layer` / `linear_model` (graph-mode feature columns, which
run inside estimator_compat's compiled steps), adds its layers under tf.estimator 2.15's model
variable names (`dnn/hiddenlayer_N/kernel`, `dnn/logits/kernel`,
`dnn/input_from_feature_columns/input_layer/...`, `linear/linear_model/<column>/weights`,
`linear/linear_model/bias_weights`) and lets the head build the EstimatorSpec. Optimizer slots
are compat.v1's (`<var>/Adagrad`), not 2.15's Keras ones (`training/Adagrad/<var>/accumulator`):
warm_start_from a 2.15 canned model_dir works; continuing its training does not.
"""
import math

import tensorflow as tf

from estimator_compat.canned import heads as heads_lib
from estimator_compat.canned.optimizers import get_optimizer
from estimator_compat.estimator import Estimator

v1 = tf.compat.v1


def _classification_head(n_classes, weight_column, label_vocabulary, loss_reduction):
    if n_classes is None or n_classes < 2:
        raise ValueError(f"n_classes must be > 1: {n_classes}.")
    if n_classes == 2:
        return heads_lib.BinaryClassHead(weight_column, label_vocabulary=label_vocabulary,
                                         loss_reduction=loss_reduction)
    return heads_lib.MultiClassHead(n_classes, weight_column, label_vocabulary,
                                    loss_reduction=loss_reduction)


def _check_columns(feature_columns):
    feature_columns = list(feature_columns or [])
    if not feature_columns:
        raise ValueError("feature_columns must be a non-empty list of tf.feature_column "
                         "columns.")
    return feature_columns


def _check_features(features, feature_columns):
    if not isinstance(features, dict):
        raise ValueError(f"features should be a dictionary of `Tensor`s. Given type: "
                         f"{type(features).__name__}")
    needed = set()
    for column in feature_columns:
        parse = getattr(column, "parse_example_spec", None) or {}
        needed.update(k for k in parse)
    missing = sorted(k for k in needed if k not in features)
    if missing:
        raise ValueError(f"The features of input_fn lack {missing}, needed by the feature "
                         f"columns; they have {sorted(features)}.")


def _dnn_logits(features, mode, feature_columns, hidden_units, units, activation_fn, dropout,
                batch_norm):
    training = mode == "train"
    with v1.variable_scope("dnn"):
        with v1.variable_scope("input_from_feature_columns"):
            net = v1.feature_column.input_layer(features, feature_columns)
        for i, size in enumerate(hidden_units):
            net = v1.layers.dense(net, size, activation=activation_fn, name=f"hiddenlayer_{i}",
                                  kernel_initializer=v1.glorot_uniform_initializer())
            if dropout is not None and training:
                net = tf.nn.dropout(net, rate=dropout)
            if batch_norm:
                net = v1.layers.batch_normalization(
                    net, training=training, name=f"hiddenlayer_{i}/batchnorm_{i}")
        return v1.layers.dense(net, units, name="logits",
                               kernel_initializer=v1.glorot_uniform_initializer())


def _linear_logits(features, feature_columns, units, sparse_combiner):
    with v1.variable_scope("linear"):
        return v1.feature_column.linear_model(features, feature_columns, units=units,
                                              sparse_combiner=sparse_combiner)


class _Canned(Estimator):
    def __init__(self, head, logits_fn, optimizer, learning_rate, model_dir, config,
                 warm_start_from=None, columns=()):
        self._head = head

        def model_fn(features, labels, mode, config):
            if columns:
                _check_features(features, columns)
            logits = logits_fn(features, mode)
            opt = get_optimizer(optimizer, learning_rate) if mode == "train" else None
            return head.create_estimator_spec(
                features, mode, logits, labels=labels, optimizer=opt,
                regularization_losses=v1.get_collection(v1.GraphKeys.REGULARIZATION_LOSSES))
        if isinstance(optimizer, str):
            get_optimizer(optimizer, learning_rate)  # an unknown name fails here, not later
        super().__init__(model_fn, model_dir=model_dir, config=config,
                         warm_start_from=warm_start_from)


def _dnn(head, hidden_units, feature_columns, model_dir, optimizer, activation_fn, dropout,
         config, warm_start_from, batch_norm):
    feature_columns = _check_columns(feature_columns)
    if not hidden_units:
        raise ValueError("hidden_units must be a non-empty list of layer sizes, e.g. [64, 32].")
    if dropout is not None and not 0 <= dropout < 1:
        raise ValueError(f"dropout must be in [0, 1), given: {dropout}")
    return dict(head=head, logits_fn=lambda f, m: _dnn_logits(
        f, m, feature_columns, hidden_units, head.logits_dimension, activation_fn, dropout,
        batch_norm), optimizer=optimizer, learning_rate=0.05, model_dir=model_dir,
        config=config, warm_start_from=warm_start_from, columns=feature_columns)


class DNNClassifier(_Canned):
    def __init__(self, hidden_units, feature_columns, model_dir=None, n_classes=2,
                 weight_column=None, label_vocabulary=None, optimizer="Adagrad",
                 activation_fn=tf.nn.relu, dropout=None, config=None, warm_start_from=None,
                 loss_reduction=heads_lib.SUM_OVER_BATCH_SIZE, batch_norm=False):
        head = _classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(**_dnn(head, hidden_units, feature_columns, model_dir, optimizer,
                                activation_fn, dropout, config, warm_start_from, batch_norm))


class DNNRegressor(_Canned):
    def __init__(self, hidden_units, feature_columns, model_dir=None, label_dimension=1,
                 weight_column=None, optimizer="Adagrad", activation_fn=tf.nn.relu, dropout=None,
                 config=None, warm_start_from=None, loss_reduction=heads_lib.SUM_OVER_BATCH_SIZE,
                 batch_norm=False):
        head = heads_lib.RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(**_dnn(head, hidden_units, feature_columns, model_dir, optimizer,
                                activation_fn, dropout, config, warm_start_from, batch_norm))


class DNNEstimator(_Canned):
    def __init__(self, head, hidden_units, feature_columns, model_dir=None,
                 optimizer="Adagrad", activation_fn=tf.nn.relu, dropout=None, config=None,
                 warm_start_from=None, batch_norm=False):
        super().__init__(**_dnn(head, hidden_units, feature_columns, model_dir, optimizer,
                                activation_fn, dropout, config, warm_start_from, batch_norm))


def _linear(head, feature_columns, model_dir, optimizer, config, warm_start_from,
            sparse_combiner):
    feature_columns = _check_columns(feature_columns)
    if sparse_combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"sparse_combiner must be one of 'mean', 'sqrtn', 'sum', given: "
                         f"{sparse_combiner!r}")
    learning_rate = min(0.2, 1.0 / math.sqrt(len(feature_columns)))
    return dict(head=head, logits_fn=lambda f, m: _linear_logits(
        f, feature_columns, head.logits_dimension, sparse_combiner), optimizer=optimizer,
        learning_rate=learning_rate, model_dir=model_dir, config=config,
        warm_start_from=warm_start_from, columns=feature_columns)


class LinearClassifier(_Canned):
    def __init__(self, feature_columns, model_dir=None, n_classes=2, weight_column=None,
                 label_vocabulary=None, optimizer="Ftrl", config=None, warm_start_from=None,
                 loss_reduction=heads_lib.SUM_OVER_BATCH_SIZE, sparse_combiner="sum"):
        head = _classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(**_linear(head, feature_columns, model_dir, optimizer, config,
                                   warm_start_from, sparse_combiner))


class LinearRegressor(_Canned):
    def __init__(self, feature_columns, model_dir=None, label_dimension=1, weight_column=None,
                 optimizer="Ftrl", config=None, warm_start_from=None,
                 loss_reduction=heads_lib.SUM_OVER_BATCH_SIZE, sparse_combiner="sum"):
        head = heads_lib.RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(**_linear(head, feature_columns, model_dir, optimizer, config,
                                   warm_start_from, sparse_combiner))


class LinearEstimator(_Canned):
    def __init__(self, head, feature_columns, model_dir=None, optimizer="Ftrl", config=None,
                 sparse_combiner="sum", warm_start_from=None):
        super().__init__(**_linear(head, feature_columns, model_dir, optimizer, config,
                                   warm_start_from, sparse_combiner))


def _baseline_logits(units):
    def logits_fn(features, mode):
        some = next(iter(features.values())) if isinstance(features, dict) and features else features
        batch = tf.shape(some.values if isinstance(some, tf.SparseTensor) else some)[0]
        with v1.variable_scope("baseline"):
            bias = v1.get_variable("bias", [units], initializer=v1.zeros_initializer())
        return tf.tile(bias[None, :], [batch, 1])
    return logits_fn


class BaselineClassifier(_Canned):
    """Predicts the prior class distribution (a learned bias), ignoring the features."""

    def __init__(self, model_dir=None, n_classes=2, weight_column=None, label_vocabulary=None,
                 optimizer="Ftrl", config=None, loss_reduction=heads_lib.SUM_OVER_BATCH_SIZE):
        head = _classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(head, _baseline_logits(head.logits_dimension), optimizer, 0.3,
                         model_dir, config)


class BaselineRegressor(_Canned):
    """Predicts the mean label (a learned bias), ignoring the features."""

    def __init__(self, model_dir=None, label_dimension=1, weight_column=None, optimizer="Ftrl",
                 config=None, loss_reduction=heads_lib.SUM_OVER_BATCH_SIZE):
        head = heads_lib.RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(head, _baseline_logits(head.logits_dimension), optimizer, 0.3,
                         model_dir, config)


def _combined(head, model_dir, linear_feature_columns, linear_optimizer, dnn_feature_columns,
              dnn_optimizer, dnn_hidden_units, dnn_activation_fn, dnn_dropout, config,
              warm_start_from, batch_norm, linear_sparse_combiner):
    linear_columns = list(linear_feature_columns or [])
    dnn_columns = list(dnn_feature_columns or [])
    if not linear_columns and not dnn_columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be defined.")
    if dnn_columns and not dnn_hidden_units:
        raise ValueError("dnn_hidden_units cannot be empty when dnn_feature_columns is given: "
                         f"{dnn_hidden_units!r}")

    def model_fn(features, labels, mode, config):
        _check_features(features, linear_columns + dnn_columns)
        logits = 0
        if dnn_columns:
            logits += _dnn_logits(features, mode, dnn_columns, dnn_hidden_units,
                                  head.logits_dimension, dnn_activation_fn, dnn_dropout,
                                  batch_norm)
        if linear_columns:
            logits += _linear_logits(features, linear_columns, head.logits_dimension,
                                     linear_sparse_combiner)

        def train_op_fn(loss):
            trainable = v1.trainable_variables()
            ops = []
            # tf.estimator's defaults for the combined model (lower than DNN's / Linear's own)
            linear_rate = min(0.005, 1 / math.sqrt(max(1, len(linear_columns))))
            for prefix, optimizer, rate in (("dnn/", dnn_optimizer, 0.001),
                                            ("linear/", linear_optimizer, linear_rate)):
                var_list = [v for v in trainable if v.name.startswith(prefix)]
                if var_list:
                    ops.append(get_optimizer(optimizer, rate).minimize(loss, var_list=var_list))
            with tf.control_dependencies(ops):
                return v1.train.get_global_step().assign_add(1)
        return head.create_estimator_spec(
            features, mode, logits, labels=labels, train_op_fn=train_op_fn,
            regularization_losses=v1.get_collection(v1.GraphKeys.REGULARIZATION_LOSSES))
    return model_fn


class _CombinedCanned(Estimator):
    def __init__(self, head, model_fn, model_dir, config, warm_start_from):
        self._head = head
        super().__init__(model_fn, model_dir=model_dir, config=config,
                         warm_start_from=warm_start_from)


class DNNLinearCombinedClassifier(_CombinedCanned):
    def __init__(self, model_dir=None, linear_feature_columns=None, linear_optimizer="Ftrl",
                 dnn_feature_columns=None, dnn_optimizer="Adagrad", dnn_hidden_units=None,
                 dnn_activation_fn=tf.nn.relu, dnn_dropout=None, n_classes=2, weight_column=None,
                 label_vocabulary=None, config=None, warm_start_from=None,
                 loss_reduction=heads_lib.SUM_OVER_BATCH_SIZE, batch_norm=False,
                 linear_sparse_combiner="sum"):
        head = _classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(head, _combined(
            head, model_dir, linear_feature_columns, linear_optimizer, dnn_feature_columns,
            dnn_optimizer, dnn_hidden_units, dnn_activation_fn, dnn_dropout, config,
            warm_start_from, batch_norm, linear_sparse_combiner), model_dir, config,
            warm_start_from)


class DNNLinearCombinedRegressor(_CombinedCanned):
    def __init__(self, model_dir=None, linear_feature_columns=None, linear_optimizer="Ftrl",
                 dnn_feature_columns=None, dnn_optimizer="Adagrad", dnn_hidden_units=None,
                 dnn_activation_fn=tf.nn.relu, dnn_dropout=None, label_dimension=1,
                 weight_column=None, config=None, warm_start_from=None,
                 loss_reduction=heads_lib.SUM_OVER_BATCH_SIZE, batch_norm=False,
                 linear_sparse_combiner="sum"):
        head = heads_lib.RegressionHead(label_dimension, weight_column, loss_reduction)
        super().__init__(head, _combined(
            head, model_dir, linear_feature_columns, linear_optimizer, dnn_feature_columns,
            dnn_optimizer, dnn_hidden_units, dnn_activation_fn, dnn_dropout, config,
            warm_start_from, batch_norm, linear_sparse_combiner), model_dir, config,
            warm_start_from)


class DNNLinearCombinedEstimator(_CombinedCanned):
    def __init__(self, head, model_dir=None, linear_feature_columns=None,
                 linear_optimizer="Ftrl", dnn_feature_columns=None, dnn_optimizer="Adagrad",
                 dnn_hidden_units=None, dnn_activation_fn=tf.nn.relu, dnn_dropout=None,
                 config=None, batch_norm=False, linear_sparse_combiner="sum"):
        super().__init__(head, _combined(
            head, model_dir, linear_feature_columns, linear_optimizer, dnn_feature_columns,
            dnn_optimizer, dnn_hidden_units, dnn_activation_fn, dnn_dropout, config, None,
            batch_norm, linear_sparse_combiner), model_dir, config, None)


class BaselineEstimator(_Canned):
    """A learned bias per logit, with any head."""

    def __init__(self, head, model_dir=None, optimizer="Ftrl", config=None):
        super().__init__(head, _baseline_logits(head.logits_dimension), optimizer, 0.3,
                         model_dir, config)
