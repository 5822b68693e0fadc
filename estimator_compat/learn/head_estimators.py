"""contrib.learn's estimators that take a head: `LinearEstimator`, `DNNEstimator`,
`DNNLinearCombinedEstimator` (tf.contrib.learn's, not tf.estimator's).

Each is a contrib.learn `Estimator` (learn/estimator.py: fit / evaluate / predict dicts /
export_savedmodel) whose model_fn builds contrib.learn's model and hands the logits to the
head (learn/heads.py, or `multi_head`), so metrics and predictions are the head's. The models
are contrib.learn's own, not tf.estimator's, because their checkpoints differ:
- the DNN: `dnn/input_from_feature_columns/...`, `dnn/hiddenlayer_<i>/{weights,biases}`,
  `dnn/logits/{weights,biases}` (tf.contrib.layers.fully_connected), trained by
  `optimize_loss(name="dnn")` at 0.05 (its `learning_rate` variable in the head's scope); the
  head is called inside the `dnn` scope (`dnn/<head>/...`);
- the linear model: `linear/<column>/weight` and `linear/bias_weight` on contrib.layers
  columns (`weighted_sum_from_feature_columns`), `linear/linear_model/...` on core columns,
  trained by Ftrl at min(0.2, 1/sqrt(number of columns)) through `apply_gradients`;
- wide & deep: both under the head, one `optimize_loss` each; without
  `fix_global_step_increment_bug=True` each step adds 2 to the global step, as TF 1.15's did.
Layer summaries are `<scope>/fraction_of_zero_values` and `<scope>/activation`. As in TF 1.15
the variables are partitioned (into one part without ps tasks), so the optimizer slots have
TF 1.15's checkpoint keys too (`dnn/hiddenlayer_0/weights/enlayer_0/weights/part_0/Adagrad`:
the slot's name, from the head's scope, cut at the length of the part's name) and a model_dir
moves between TF 1.15 and here in both directions.
"""
import math

import tensorflow as tf

from estimator_compat.canned.gather_lookups import gather_lookups
from estimator_compat.canned.summaries import layer_summary
from estimator_compat.learn.estimator import Estimator

v1 = tf.compat.v1
DNN_LEARNING_RATE = 0.05
LINEAR_LEARNING_RATE = 0.2


def _slim():
    from estimator_compat.legacy.contrib.tf_slim_loader import tf_slim
    return tf_slim()


def _tf1_equality(model_fn):
    """model_fn run with TF 1.x's identity `==` on tensors and variables: tf_slim's layers
    and contrib.layers' columns look variables up in collections (`var not in ...`), which
    inside the Estimator's tf.function would compare them elementwise."""
    from estimator_compat.legacy.contrib.tf_slim_loader import _with_identity_equality
    return _with_identity_equality(model_fn)


def _contrib_columns():
    from estimator_compat.legacy.contrib.layers.feature_columns import columns, ops
    return columns, ops


def _is_contrib(feature_columns):
    """Whether every column is a tf.contrib.layers one (TF 1.15 took contrib.layers' path
    only then; otherwise the core one)."""
    columns, _ = _contrib_columns()
    return all(isinstance(c, columns._Column) for c in feature_columns)


def _feature_dict(features):
    return features if isinstance(features, dict) else {"": features}


def _partitioner(config, min_slice_size=None):
    """TF 1.15's min_max partitioner over the ps tasks: one part without ps tasks."""
    num_ps = max(config.num_ps_replicas if config else 0, 1)
    if min_slice_size is None:
        return v1.min_max_variable_partitioner(max_partitions=num_ps)
    return v1.min_max_variable_partitioner(max_partitions=num_ps,
                                           min_slice_size=min_slice_size)


def _columns(feature_columns, what):
    feature_columns = list(feature_columns or [])
    if not feature_columns:
        raise ValueError(f"{what} must be a non-empty list of feature columns "
                         "(tf.contrib.layers.* or tf.feature_column.*).")
    return feature_columns


def _activation(activation_fn):
    names = {"relu": tf.nn.relu, "tanh": tf.nn.tanh, "sigmoid": tf.nn.sigmoid}
    if isinstance(activation_fn, str):
        if activation_fn not in names:
            raise ValueError(f"Activation name should be one of {sorted(names)}, you provided "
                             f"{activation_fn}.")
        return names[activation_fn]
    return activation_fn or tf.nn.relu


def dnn_logits(features, mode, head, feature_columns, hidden_units, activation_fn, dropout,
               input_layer_partitioner=None):
    """contrib.learn's DNN in the current `dnn` variable scope: (logits, the input layer's
    scope name)."""
    slim = _slim()
    parent = v1.get_variable_scope().name
    with v1.variable_scope("input_from_feature_columns", values=tuple(features.values()),
                           partitioner=input_layer_partitioner) as input_scope:
        if _is_contrib(feature_columns):
            net = _contrib_columns()[1].input_from_feature_columns(
                features, feature_columns, weight_collections=[parent], scope=input_scope)
        else:
            with gather_lookups():
                net = v1.feature_column.input_layer(features, feature_columns,
                                                    weight_collections=[parent])
    for i, units in enumerate(hidden_units):
        with v1.variable_scope(f"hiddenlayer_{i}", values=(net,)) as scope:
            net = slim.layers.fully_connected(net, units, activation_fn=activation_fn,
                                              variables_collections=[parent], scope=scope)
            if dropout is not None and mode == "train":
                net = slim.layers.dropout(net, keep_prob=1.0 - dropout)
        layer_summary(scope.name, net)
    with v1.variable_scope("logits", values=(net,)) as scope:
        logits = slim.layers.fully_connected(net, head.logits_dimension, activation_fn=None,
                                             variables_collections=[parent], scope=scope)
    layer_summary(scope.name, logits)
    return logits, input_scope.name


def linear_logits(features, head, feature_columns, joint_weights, scope):
    """contrib.learn's linear model in the current `linear` variable scope `scope`."""
    parent = scope.name
    if _is_contrib(feature_columns):
        ops = _contrib_columns()[1]
        weighted_sum = (ops.joint_weighted_sum_from_feature_columns if joint_weights
                        else ops.weighted_sum_from_feature_columns)
        logits, _, _ = weighted_sum(features, feature_columns, head.logits_dimension,
                                    weight_collections=[parent], scope=scope)
        return logits
    with gather_lookups():
        return v1.feature_column.linear_model(features, feature_columns,
                                              units=head.logits_dimension,
                                              weight_collections=[parent])


def embedding_multipliers(multipliers, collection, input_scope):
    """optimize_loss's gradient_multipliers from {contrib EmbeddingColumn: multiplier}."""
    if not multipliers:
        return None
    columns, _ = _contrib_columns()
    out = {}
    for column, multiplier in multipliers.items():
        if not isinstance(column, columns._EmbeddingColumn):
            raise ValueError("learning rate multipler can only be defined for embedding "
                             f"columns. It is defined for {column}")
        found = v1.get_collection(collection, f"{input_scope}/{column.name}")
        if not found:
            raise ValueError(f"Couldn't find a variable for column {column}")
        out.update({v: multiplier for v in found})
    return out


def _optimizer(optimizer):
    """contrib.learn's DNN / combined optimizer argument: a callable is called in model_fn."""
    return optimizer() if callable(optimizer) else optimizer


def _linear_optimizer(optimizer, feature_columns):
    if optimizer is None:
        return v1.train.FtrlOptimizer(min(LINEAR_LEARNING_RATE,
                                          1.0 / math.sqrt(len(feature_columns))))
    if isinstance(optimizer, str):
        return _slim().optimizers.OPTIMIZER_CLS_NAMES[optimizer](
            learning_rate=LINEAR_LEARNING_RATE)
    return _optimizer(optimizer)


def _dnn_model_fn(features, labels, mode, params, config):
    head = params["head"]
    features = _feature_dict(features)
    slice_size = params.get("input_layer_min_slice_size") or 64 << 20
    with v1.variable_scope("dnn", values=tuple(features.values()),
                           partitioner=_partitioner(config)):
        logits, input_scope = dnn_logits(
            features, mode, head, params["feature_columns"], params["hidden_units"],
            _activation(params.get("activation_fn")), params.get("dropout"),
            _partitioner(config, slice_size))

        def train_op_fn(loss):
            return _slim().optimizers.optimize_loss(
                loss, v1.train.get_global_step(), learning_rate=DNN_LEARNING_RATE,
                optimizer=_optimizer(params.get("optimizer") or "Adagrad"),
                gradient_multipliers=embedding_multipliers(
                    params.get("embedding_lr_multipliers"), "dnn", input_scope),
                clip_gradients=params.get("gradient_clip_norm"), name="dnn", summaries=[])
        return head.create_model_fn_ops(features, mode, labels=labels, train_op_fn=train_op_fn,
                                        logits=logits)


def _linear_model_fn(features, labels, mode, params, config):
    head = params["head"]
    columns = params["feature_columns"]
    features = _feature_dict(features)
    with v1.variable_scope("linear", values=tuple(features.values()),
                           partitioner=_partitioner(config, 64 << 20)) as scope:
        logits = linear_logits(features, head, columns, params.get("joint_weights"), scope)

        def train_op_fn(loss):
            variables = v1.get_collection("linear")
            grads = tf.gradients(loss, variables)
            if params.get("gradient_clip_norm"):
                grads, _ = tf.clip_by_global_norm(grads, params["gradient_clip_norm"])
            return _linear_optimizer(params.get("optimizer"), columns).apply_gradients(
                zip(grads, variables), global_step=v1.train.get_global_step())
        return head.create_model_fn_ops(features, mode, labels=labels, train_op_fn=train_op_fn,
                                        logits=logits)


def _combined_model_fn(features, labels, mode, params, config):
    head = params["head"]
    linear_columns = params.get("linear_feature_columns")
    dnn_columns = params.get("dnn_feature_columns")
    if not linear_columns and not dnn_columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be "
                         "defined.")
    features = _feature_dict(features)
    linear_optimizer = _optimizer(params.get("linear_optimizer") or "Ftrl")
    dnn_optimizer = _optimizer(params.get("dnn_optimizer") or "Adagrad")
    parts = []
    if dnn_columns:
        if not params.get("dnn_hidden_units"):
            raise ValueError("dnn_hidden_units must be defined when dnn_feature_columns is "
                             "specified.")
        with v1.variable_scope("dnn", values=tuple(features.values()),
                               partitioner=_partitioner(config)):
            logits, input_scope = dnn_logits(
                features, mode, head, dnn_columns, params["dnn_hidden_units"],
                params.get("dnn_activation_fn") or tf.nn.relu, params.get("dnn_dropout"),
                params.get("input_layer_partitioner") or _partitioner(config, 64 << 20))
        parts.append(("dnn", logits, DNN_LEARNING_RATE, dnn_optimizer, embedding_multipliers,
                      input_scope))
    if linear_columns:
        with v1.variable_scope("linear", values=tuple(features.values()),
                               partitioner=_partitioner(config, 64 << 20)) as scope:
            logits = linear_logits(features, head, linear_columns,
                                   params.get("joint_linear_weights"), scope)
            layer_summary(scope.name, logits)
        rate = min(LINEAR_LEARNING_RATE, 1.0 / math.sqrt(len(linear_columns)))
        parts.append(("linear", logits, rate, linear_optimizer, None, None))
    logits = parts[0][1] if len(parts) == 1 else parts[0][1] + parts[1][1]
    fixed = params.get("fix_global_step_increment_bug", True)

    def train_op_fn(loss):
        global_step = v1.train.get_global_step()
        train_ops = []
        for name, _, rate, optimizer, multipliers, input_scope in parts:
            train_ops.append(_slim().optimizers.optimize_loss(
                loss, global_step, learning_rate=rate, optimizer=optimizer,
                gradient_multipliers=multipliers and multipliers(
                    params.get("embedding_lr_multipliers"), name, input_scope),
                clip_gradients=params.get("gradient_clip_norm"),
                variables=v1.get_collection(name), name=name, summaries=[],
                increment_global_step=not fixed))
        train_op = tf.group(*train_ops)
        if not fixed:
            return train_op
        with tf.control_dependencies([train_op]):
            return v1.assign_add(global_step, 1).op
    return head.create_model_fn_ops(features, mode, labels=labels, train_op_fn=train_op_fn,
                                    logits=logits)


def _check_optimizer(optimizer, what):
    if type(optimizer).__name__ == "SDCAOptimizer":
        raise ValueError(f"{what} does not support SDCA optimizer.")


class LinearEstimator(Estimator):
    """tf.contrib.learn.LinearEstimator: a linear model of `feature_columns` under `head`.
    `weight_column_name` is accepted and unused, as in TF 1.15 (the head has its own)."""

    def __init__(self, feature_columns, head, model_dir=None, weight_column_name=None,
                 optimizer=None, gradient_clip_norm=None, _joint_weights=False, config=None,
                 feature_engineering_fn=None):
        _check_optimizer(optimizer, "LinearEstimator")
        params = dict(head=head, feature_columns=_columns(feature_columns, "feature_columns"),
                      optimizer=optimizer, gradient_clip_norm=gradient_clip_norm,
                      joint_weights=_joint_weights)
        super().__init__(_tf1_equality(_linear_model_fn), model_dir=model_dir, config=config,
                         params=params, feature_engineering_fn=feature_engineering_fn)


class DNNEstimator(Estimator):
    """tf.contrib.learn.DNNEstimator: a feed-forward network of `feature_columns` under
    `head`."""

    def __init__(self, head, hidden_units, feature_columns, model_dir=None, optimizer=None,
                 activation_fn=tf.nn.relu, dropout=None, gradient_clip_norm=None, config=None,
                 feature_engineering_fn=None, embedding_lr_multipliers=None,
                 input_layer_min_slice_size=None):
        if not hidden_units:
            raise ValueError("hidden_units must be a non-empty list of layer sizes, e.g. "
                             f"[64, 32]; given: {hidden_units!r}")
        params = dict(head=head, hidden_units=list(hidden_units),
                      feature_columns=_columns(feature_columns, "feature_columns"),
                      optimizer=optimizer, activation_fn=activation_fn, dropout=dropout,
                      gradient_clip_norm=gradient_clip_norm,
                      embedding_lr_multipliers=embedding_lr_multipliers,
                      input_layer_min_slice_size=input_layer_min_slice_size)
        super().__init__(_tf1_equality(_dnn_model_fn), model_dir=model_dir, config=config,
                         params=params, feature_engineering_fn=feature_engineering_fn)


class DNNLinearCombinedEstimator(Estimator):
    """tf.contrib.learn.DNNLinearCombinedEstimator: wide (linear) and deep (DNN) logits
    summed under `head`, each part trained by its own optimizer."""

    def __init__(self, head, model_dir=None, linear_feature_columns=None,
                 linear_optimizer=None, _joint_linear_weights=False, dnn_feature_columns=None,
                 dnn_optimizer=None, dnn_hidden_units=None, dnn_activation_fn=None,
                 dnn_dropout=None, gradient_clip_norm=None, config=None,
                 feature_engineering_fn=None, embedding_lr_multipliers=None,
                 fix_global_step_increment_bug=False, input_layer_partitioner=None):
        linear_feature_columns = list(linear_feature_columns or [])
        dnn_feature_columns = list(dnn_feature_columns or [])
        if not linear_feature_columns and not dnn_feature_columns:
            raise ValueError("Either linear_feature_columns or dnn_feature_columns must be "
                             "defined.")
        for optimizer in (linear_optimizer, dnn_optimizer):
            if type(optimizer).__name__ == "SyncReplicasOptimizer":
                raise ValueError("SyncReplicasOptimizer is not supported in DNNLinearCombined "
                                 "model. If you want to use this optimizer, please use either "
                                 "DNN or Linear model.")
        params = dict(head=head, linear_feature_columns=linear_feature_columns,
                      linear_optimizer=linear_optimizer,
                      joint_linear_weights=_joint_linear_weights,
                      dnn_feature_columns=dnn_feature_columns, dnn_optimizer=dnn_optimizer,
                      dnn_hidden_units=dnn_hidden_units, dnn_activation_fn=dnn_activation_fn,
                      dnn_dropout=dnn_dropout, gradient_clip_norm=gradient_clip_norm,
                      embedding_lr_multipliers=embedding_lr_multipliers,
                      input_layer_partitioner=input_layer_partitioner,
                      fix_global_step_increment_bug=fix_global_step_increment_bug)
        super().__init__(_tf1_equality(_combined_model_fn), model_dir=model_dir, config=config,
                         params=params, feature_engineering_fn=feature_engineering_fn)


def model_fn(kind):
    """contrib.learn's model_fn of `kind` ('dnn', 'linear', 'combined'), taking the params
    the estimators above give it (learn/canned_classes.py builds the canned classes on it)."""
    return _tf1_equality({"dnn": _dnn_model_fn, "linear": _linear_model_fn,
                          "combined": _combined_model_fn}[kind])


def input_layer_partitioner(config, min_slice_size):
    """wide & deep's input layer partitioner for `input_layer_min_slice_size`."""
    return None if min_slice_size is None else _partitioner(config, min_slice_size)


SERVED = {cls.__name__: cls for cls in (LinearEstimator, DNNEstimator,
                                        DNNLinearCombinedEstimator)}
