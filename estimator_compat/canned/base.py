"""What every canned estimator shares: argument checks, the feature check, and `_Canned`, an
Estimator whose model_fn is logits from feature columns plus a head.

Feature columns become tensors through TensorFlow's own graph-mode
`tf.compat.v1.feature_column.input_layer` / `linear_model`, which run inside estimator_compat's
compiled steps; model variables get tf.estimator 2.15's names. Optimizer slots are compat.v1's
(`<var>/Adagrad`); the V2 classes' checkpoints carry them under 2.15's Keras names
(`training/Adagrad/<var>/accumulator`: keras_slot_names), the compat.v1 classes' under
compat.v1's, as tf.estimator wrote each.
"""
import contextlib
import logging

import tensorflow as tf

from estimator_compat.canned import heads as heads_lib
from estimator_compat.canned.keras_slot_names import KerasSlotNames
from estimator_compat.canned.keras_slots import fill_from_keras_slots
from estimator_compat.canned.optimizers import check_name, get_optimizer, with_slot_scope
from estimator_compat.estimator import Estimator

v1 = tf.compat.v1


class _QuietOldColumnApi(logging.Filter):
    """TensorFlow's deprecation notice for the old _FeatureColumn methods, which the graph-mode
    input_layer / linear_model underneath call (the user's columns are the new ones; tf.estimator
    2.15, on the V2 path, printed none)."""

    def filter(self, record):
        return "The old _FeatureColumn APIs are being deprecated" not in record.getMessage()


logging.getLogger("tensorflow").addFilter(_QuietOldColumnApi())


def classification_head(n_classes, weight_column, label_vocabulary, loss_reduction):
    if n_classes is None or n_classes < 2:
        raise ValueError(f"n_classes must be > 1: {n_classes}.")
    if n_classes == 2:
        return heads_lib.BinaryClassHead(weight_column, label_vocabulary=label_vocabulary,
                                         loss_reduction=loss_reduction)
    return heads_lib.MultiClassHead(n_classes, weight_column, label_vocabulary,
                                    loss_reduction=loss_reduction)


def check_columns(feature_columns, what="feature_columns"):
    feature_columns = list(feature_columns or [])
    if not feature_columns:
        raise ValueError(f"{what} must be a non-empty list of tf.feature_column columns.")
    return feature_columns


def check_features(features, feature_columns):
    if not isinstance(features, dict):
        raise ValueError(f"features should be a dictionary of `Tensor`s. Given type: "
                         f"{type(features).__name__}")
    needed = set()
    for column in feature_columns:
        needed.update(getattr(column, "parse_example_spec", None) or {})
    missing = sorted(k for k in needed if k not in features)
    if missing:
        raise ValueError(f"The features of input_fn lack {missing}, needed by the feature "
                         f"columns; they have {sorted(features)}.")


def regularization_losses():
    return v1.get_collection(v1.GraphKeys.REGULARIZATION_LOSSES)


class _Canned(Estimator):
    """logits_fn(features, mode) -> logits, trained by one optimizer through the head.

    `v1_names` (scope, slot scope): tf.compat.v1.estimator's DNN / linear models called the
    head inside their variable scope and named optimizer slots `<var>/<slot scope>/<Name>`.
    """

    _fill_missing_variables = staticmethod(fill_from_keras_slots)  # 2.15 V2 model_dirs

    def __init__(self, head, logits_fn, optimizer, learning_rate, model_dir, config,
                 warm_start_from=None, columns=(), v1_names=None, train_op_builder=None):
        """`train_op_builder(features, labels)`: the train op, in place of `optimizer`
        minimizing the head's loss (LinearSDCA's)."""
        self._head = head
        check_name(optimizer)
        if not v1_names and not any(c.__module__ == "estimator_compat.canned.v1"
                                    for c in type(self).__mro__):
            self._fill_missing_variables = KerasSlotNames()  # a V2 class: Keras slot names

        def model_fn(features, labels, mode, config):
            if columns:
                check_features(features, columns)
            if isinstance(features, dict):  # logits_fn may add keys (a sequence mask): not
                features = dict(features)  # to the input element itself
            logits = logits_fn(features, mode)
            opt = train_op_fn = None
            if mode == "train" and train_op_builder is not None:
                train_op_fn = lambda loss: train_op_builder(features, labels)  # noqa: E731
            elif mode == "train":
                opt = get_optimizer(optimizer, learning_rate)
            scope = contextlib.nullcontext()
            if v1_names:
                scope = v1.name_scope(v1_names[0] + "/")
                opt = opt and with_slot_scope(opt, v1_names[1])
            with scope:
                return head.create_estimator_spec(
                    features, mode, logits, labels=labels, optimizer=opt,
                    train_op_fn=train_op_fn, regularization_losses=regularization_losses())
        super().__init__(model_fn, model_dir=model_dir, config=config,
                         warm_start_from=warm_start_from)
