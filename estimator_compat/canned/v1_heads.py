"""tf.estimator's v1 head API (`tensorflow_estimator.python.estimator.canned.head`), which
libraries subclassed and built canned-estimator heads with, served on our heads.

- `_Head`: the interface (name, logits_dimension, create_loss, create_estimator_spec, the
  latter falling back on `_create_tpu_estimator_spec(...).as_estimator_spec()`), to subclass;
- `LossSpec`: what `create_loss` returns (training_loss, unreduced_loss [batch, d], weights,
  processed_labels);
- `_BinaryLogisticHeadWithSigmoidCrossEntropyLoss`, `_MultiClassHeadWithSoftmaxCrossEntropyLoss`,
  `_RegressionHeadWithMeanSquaredErrorLoss` and their factories `_binary_logistic_head_with_
  sigmoid_cross_entropy_loss`, `_multi_class_head_with_softmax_cross_entropy_loss`,
  `_regression_head`, `_binary_logistic_or_multi_class_head`: our BinaryClassHead /
  MultiClassHead / RegressionHead with the v1 defaults (loss summed over the batch), the v1
  create_loss, the binary head's extra `regression` export output (the logistic), the
  trapezoidal PR AUC, as TF's v1 heads computed them.
"""
import collections

import tensorflow as tf

from estimator_compat.canned import heads as heads_lib
from estimator_compat.export.outputs import RegressionOutput

v1 = tf.compat.v1
LossSpec = collections.namedtuple(
    "LossSpec", ["training_loss", "unreduced_loss", "weights", "processed_labels"])


def _summary_key(head_name, val):
    """`val/head_name` for a named head, else `val` (metric and summary keys)."""
    return f"{val}/{head_name}" if head_name else val


class _Head:
    """The v1 head interface: subclasses give `name`, `logits_dimension`, `create_loss` and
    `create_estimator_spec` (or `_create_tpu_estimator_spec`)."""

    @property
    def name(self):
        raise NotImplementedError(f"{type(self).__name__} must define the `name` property.")

    @property
    def logits_dimension(self):
        raise NotImplementedError(f"{type(self).__name__} must define the `logits_dimension` "
                                  "property.")

    def create_loss(self, features, mode, logits, labels):
        """Returns a LossSpec."""
        raise NotImplementedError(f"{type(self).__name__} must implement create_loss().")

    def create_estimator_spec(self, features, mode, logits, labels=None, optimizer=None,
                              train_op_fn=None, regularization_losses=None):
        try:
            spec = self._create_tpu_estimator_spec(
                features=features, mode=mode, logits=logits, labels=labels,
                optimizer=optimizer, train_op_fn=train_op_fn,
                regularization_losses=regularization_losses)
        except NotImplementedError:
            raise NotImplementedError(
                f"Subclasses of _Head must implement `create_estimator_spec()` or "
                f"_create_tpu_estimator_spec() ({type(self).__name__} implements neither).")
        return spec.as_estimator_spec()

    def _create_tpu_estimator_spec(self, features, mode, logits, labels=None, optimizer=None,
                                   train_op_fn=None, regularization_losses=None):
        raise NotImplementedError("TPUEstimatorSpec not available for this model head.")


class _OnOurHead:
    """The v1 API over one of our heads (mixed in before it)."""

    def create_loss(self, features, mode, logits, labels):
        """LossSpec: the reduced loss, the per-example loss [batch, d], the weights ([batch, 1],
        1.0 without weight_column) and the labels as the loss read them."""
        features = features or {}
        label_ids = self._label_ids(labels)
        unreduced, weights = self._loss_and_weights(features, logits, label_ids)
        training_loss = self._reduce(unreduced, weights)
        if unreduced.shape.rank == 1:
            unreduced = tf.expand_dims(unreduced, -1)
        given = 1.0 if self._weight_column is None else tf.reshape(
            tf.cast(features[getattr(self._weight_column, "key", self._weight_column)],
                    tf.float32), [-1, 1])
        return LossSpec(training_loss, unreduced, given, self._processed(label_ids))

    def _processed(self, label_ids):
        return label_ids if label_ids.shape.rank == 2 else tf.expand_dims(label_ids, -1)

    def create_estimator_spec(self, features, mode, logits, labels=None, optimizer=None,
                              train_op_fn=None, regularization_losses=None,
                              trainable_variables=None, update_ops=None):
        return heads_lib.Head.create_estimator_spec(
            self, features, mode, logits, labels=labels, optimizer=optimizer,
            trainable_variables=trainable_variables, train_op_fn=train_op_fn,
            update_ops=update_ops, regularization_losses=regularization_losses)


def _checked_reduction(loss_reduction):
    if loss_reduction == v1.losses.Reduction.NONE or \
            loss_reduction not in v1.losses.Reduction.all():
        raise ValueError(f"Invalid loss_reduction: {loss_reduction}: give one of "
                         f"tf.compat.v1.losses.Reduction's except NONE.")
    return loss_reduction


class _BinaryLogisticHeadWithSigmoidCrossEntropyLoss(_OnOurHead, heads_lib.BinaryClassHead,
                                                     _Head):
    """Sigmoid cross entropy on one logit; exports the logistic also as `regression`."""
    _pr_auc_kind = "auc_pr_trapezoidal"

    def __init__(self, weight_column=None, thresholds=None, label_vocabulary=None,
                 loss_reduction=v1.losses.Reduction.SUM, loss_fn=None, name=None):
        super().__init__(weight_column, thresholds, label_vocabulary,
                         _checked_reduction(loss_reduction), loss_fn, name)

    def _processed(self, label_ids):
        return tf.cast(tf.expand_dims(label_ids, -1), tf.float32)

    def _export_outputs(self, predictions):
        out = super()._export_outputs(predictions)
        out["regression"] = RegressionOutput(predictions["logistic"])
        return out


class _MultiClassHeadWithSoftmaxCrossEntropyLoss(_OnOurHead, heads_lib.MultiClassHead, _Head):
    """Softmax cross entropy over n_classes > 2 classes."""

    def __init__(self, n_classes, weight_column=None, label_vocabulary=None,
                 loss_reduction=v1.losses.Reduction.SUM, loss_fn=None, name=None):
        super().__init__(n_classes, weight_column, label_vocabulary,
                         _checked_reduction(loss_reduction), loss_fn, name)


class _RegressionHeadWithMeanSquaredErrorLoss(_OnOurHead, heads_lib.RegressionHead, _Head):
    """Mean squared error of the logits; predictions = inverse_link_fn(logits)."""

    def __init__(self, weight_column=None, label_dimension=1,
                 loss_reduction=v1.losses.Reduction.SUM, loss_fn=None, inverse_link_fn=None,
                 name=None):
        super().__init__(label_dimension, weight_column, _checked_reduction(loss_reduction),
                         loss_fn, inverse_link_fn, name)

    def _export_outputs(self, predictions):
        out = super()._export_outputs(predictions)
        if self._label_dimension != 1:  # the v1 head exported every dimension as regression
            out[heads_lib.base.SERVING_KEY] = out["regression"] = RegressionOutput(
                predictions["predictions"])
        return out


def _binary_logistic_head_with_sigmoid_cross_entropy_loss(
        weight_column=None, thresholds=None, label_vocabulary=None,
        loss_reduction=v1.losses.Reduction.SUM, loss_fn=None, name=None):
    return _BinaryLogisticHeadWithSigmoidCrossEntropyLoss(
        weight_column, thresholds, label_vocabulary, loss_reduction, loss_fn, name)


def _multi_class_head_with_softmax_cross_entropy_loss(
        n_classes, weight_column=None, label_vocabulary=None,
        loss_reduction=v1.losses.Reduction.SUM, loss_fn=None, name=None):
    return _MultiClassHeadWithSoftmaxCrossEntropyLoss(
        n_classes, weight_column, label_vocabulary, loss_reduction, loss_fn, name)


def _regression_head(weight_column=None, label_dimension=1,
                     loss_reduction=v1.losses.Reduction.SUM, loss_fn=None, inverse_link_fn=None,
                     name=None):
    return _RegressionHeadWithMeanSquaredErrorLoss(
        weight_column, label_dimension, loss_reduction, loss_fn, inverse_link_fn, name)


def _binary_logistic_or_multi_class_head(n_classes, weight_column, label_vocabulary,
                                         loss_reduction):
    """The binary head for n_classes == 2, else the multi-class head."""
    if n_classes == 2:
        return _binary_logistic_head_with_sigmoid_cross_entropy_loss(
            weight_column=weight_column, label_vocabulary=label_vocabulary,
            loss_reduction=loss_reduction)
    return _multi_class_head_with_softmax_cross_entropy_loss(
        n_classes, weight_column=weight_column, label_vocabulary=label_vocabulary,
        loss_reduction=loss_reduction)
