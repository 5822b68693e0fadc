"""tf.compat.v1.estimator's canned model_fns, which public code called directly to build its
own Estimators around a canned network and a (v1) head (Cloud ML samples, TPU tests, kernel
methods): tensorflow_estimator 2.15's private `canned.dnn._dnn_model_fn`,
`canned.linear._linear_model_fn` and
`canned.dnn_linear_combined._dnn_linear_combined_model_fn`, with their signatures. They build
what the tf.compat.v1.estimator classes build (canned/v1.py): the same variables, optimizer
slots, summaries and default learning rates, the head given making the spec.
"""
import contextlib

import tensorflow as tf

from estimator_compat.canned import v1 as v1_canned
from estimator_compat.canned.base import check_features, regularization_losses
from estimator_compat.canned.dnn_linear_combined import combined_model_fn
from estimator_compat.canned.linear import linear_arguments
from estimator_compat.canned.optimizers import check_name, get_optimizer, with_slot_scope

v1 = tf.compat.v1


def _check_dict(features):
    if not isinstance(features, dict):
        raise ValueError("features should be a dictionary of `Tensor`s. Given type: "
                         f"{type(features)}")


def _spec(features, labels, mode, arguments, v1_names, cross_shard=False):
    """The EstimatorSpec a tf.compat.v1.estimator class's model_fn returns, from its
    _Canned arguments (canned/base.py's model_fn, with the head passed in)."""
    head = arguments["head"]
    check_features(features, arguments["columns"])
    features = dict(features)
    logits = arguments["logits_fn"](features, mode)
    optimizer = train_op_fn = None
    builder = arguments.get("train_op_builder")
    if mode == "train" and builder is not None:
        train_op_fn = lambda loss: builder(features, labels)  # noqa: E731
    elif mode == "train":
        optimizer = with_slot_scope(get_optimizer(arguments["optimizer"],
                                                  arguments["learning_rate"]), v1_names[1])
        if cross_shard:
            from estimator_compat.tpu import CrossShardOptimizer
            optimizer = CrossShardOptimizer(optimizer)
    scope = v1.name_scope(v1_names[0] + "/") if v1_names else contextlib.nullcontext()
    with scope:
        return head.create_estimator_spec(features=features, mode=mode, logits=logits,
                                          labels=labels, optimizer=optimizer,
                                          train_op_fn=train_op_fn,
                                          regularization_losses=regularization_losses())


def _dnn_model_fn(features, labels, mode, head, hidden_units, feature_columns,
                  optimizer="Adagrad", activation_fn=tf.nn.relu, dropout=None,
                  input_layer_partitioner=None, config=None, use_tpu=False, batch_norm=False):
    """tf.compat.v1.estimator.DNN*'s model_fn: dnn/hiddenlayer_N and dnn/logits on the
    feature columns' input layer, `optimizer` (a name trains at 0.05) minimizing `head`'s
    loss; `use_tpu` wraps it in a CrossShardOptimizer."""
    _check_dict(features)
    check_name(optimizer)
    partitioner = v1_canned._partitioner(input_layer_partitioner, config)
    arguments = v1_canned._dnn(head, hidden_units, tuple(feature_columns or ()), None,
                               optimizer, activation_fn, dropout, config, None, batch_norm,
                               partitioner=partitioner)
    return _spec(features, labels, mode, arguments, v1_canned.DNN_NAMES, cross_shard=use_tpu)


def _linear_model_fn(features, labels, mode, head, feature_columns, optimizer, partitioner,
                     config, sparse_combiner="sum"):
    """tf.compat.v1.estimator.Linear*'s model_fn: linear/linear_model on the feature columns,
    `optimizer` minimizing `head`'s loss (None: Ftrl at min(0.2, 1/sqrt(number of columns));
    a name: at 0.2; a LinearSDCA: its own train op)."""
    _check_dict(features)
    check_name(optimizer)
    partitioner = v1_canned._partitioner(partitioner, config)
    arguments = linear_arguments(head, tuple(feature_columns or ()), None, optimizer, config,
                                 None, sparse_combiner, v1_names=v1_canned.LINEAR_NAMES,
                                 partitioner=partitioner)
    return _spec(features, labels, mode, arguments, v1_canned.LINEAR_NAMES)


def _dnn_linear_combined_model_fn(features, labels, mode, head, linear_feature_columns=None,
                                  linear_optimizer="Ftrl", dnn_feature_columns=None,
                                  dnn_optimizer="Adagrad", dnn_hidden_units=None,
                                  dnn_activation_fn=tf.nn.relu, dnn_dropout=None,
                                  input_layer_partitioner=None, config=None, batch_norm=False,
                                  linear_sparse_combiner="sum"):
    """tf.compat.v1.estimator.DNNLinearCombined*'s model_fn: the DNN's and the linear
    model's logits summed, each part trained by its own optimizer (named ones at 0.001 and
    min(0.005, 1/sqrt(number of linear columns)))."""
    _check_dict(features)
    partitioner = v1_canned._partitioner(input_layer_partitioner, config)
    model_fn = combined_model_fn(
        head, linear_feature_columns, linear_optimizer, dnn_feature_columns, dnn_optimizer,
        dnn_hidden_units, dnn_activation_fn, dnn_dropout, batch_norm, linear_sparse_combiner,
        input_layer_partitioner=partitioner, linear_partitioner=partitioner,
        v1_summaries=True)
    return model_fn(features, labels, mode, config)
