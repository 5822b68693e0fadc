"""tf.contrib.estimator's head constructors: TF 1.15 returned TF1 `_Head` objects, with
`create_loss(features, mode, logits, labels)` (a LossSpec) and
`create_estimator_spec(features, mode, logits, labels=None, optimizer=None, train_op_fn=None,
regularization_losses=None)`. Each is estimator_compat's head of that kind
(`canned/heads/`, the same predictions, losses, metric keys and summaries) behind that TF1
interface, with contrib's default reduction (`weighted_sum_over_batch_size`)."""
import collections

import tensorflow as tf

from estimator_compat.canned import heads as heads_lib
from estimator_compat.export.outputs import RegressionOutput
from estimator_compat.mode_keys import ModeKeys

v1 = tf.compat.v1

LossSpec = collections.namedtuple(
    "LossSpec", ["training_loss", "unreduced_loss", "weights", "processed_labels"])
_V1_REDUCTIONS = (heads_lib.V1_SUM, heads_lib.V1_SUM_OVER_BATCH_SIZE, heads_lib.V1_MEAN,
                  heads_lib.V1_SUM_BY_NONZERO_WEIGHTS)
_DEFAULT = heads_lib.V1_SUM_OVER_BATCH_SIZE


class Head:
    """A TF1 head (`_Head`): `name`, `logits_dimension`, `create_loss`,
    `create_estimator_spec`."""

    def __init__(self, head):
        self._head = head

    name = property(lambda self: self._head.name)
    logits_dimension = property(lambda self: self._head.logits_dimension)

    def __getattr__(self, attr):  # the rest (loss_reduction, ...) is the head's own
        if attr.startswith("__") or attr == "_head":
            raise AttributeError(attr)
        return getattr(self._head, attr)

    def create_loss(self, features, mode, logits, labels):
        """LossSpec(training_loss, unreduced_loss [batch, 1 or d], weights (the weight column
        as [batch, 1], 1.0 without one), processed_labels [batch, 1 or d])."""
        head = self._head
        features = features or {}
        ctx = head._context(features, logits, labels, None)
        unreduced, processed = ctx.unreduced, ctx.labels
        if unreduced.shape.rank == 1:
            unreduced = tf.expand_dims(unreduced, -1)
        if processed.shape.rank == 1:
            processed = tf.expand_dims(processed, -1)
        weights = 1.0
        if head._weight_column is not None:
            key = getattr(head._weight_column, "key", head._weight_column)
            weights = tf.reshape(tf.cast(features[key], tf.float32), [-1, 1])
        return LossSpec(head._reduce(ctx.unreduced, ctx.weights), unreduced, weights, processed)

    def create_estimator_spec(self, features, mode, logits, labels=None, optimizer=None,
                              train_op_fn=None, regularization_losses=None, **v2_arguments):
        """The EstimatorSpec of `mode`: training minimizes the loss with `optimizer`, or
        runs `train_op_fn(loss)` (a V2 caller's trainable_variables / update_ops pass on)."""
        spec = self._head.create_estimator_spec(
            features, mode, logits, labels, optimizer=optimizer, train_op_fn=train_op_fn,
            regularization_losses=regularization_losses, **v2_arguments)
        if mode == ModeKeys.TRAIN and isinstance(self._head, heads_lib.MultiHead):
            with v1.name_scope(None):  # TF 1.15's multi_head: the total too, beside each head's
                v1.summary.scalar("loss", spec.loss)
        return spec


class _RegressionExport:
    """TF1 heads also exported a 'regression' output (the logistic of a binary head, the
    predictions of a regression head, whatever their dimension)."""
    _regression_key = "predictions"

    def _export_outputs(self, predictions):
        outputs = super()._export_outputs(predictions)
        outputs.setdefault("regression", RegressionOutput(predictions[self._regression_key]))
        return outputs


class _TrapezoidalPR:
    """TF1 heads' `auc_precision_recall`: compat.v1's trapezoidal PR AUC (TensorFlow 2's heads
    interpolate)."""

    def _metric_rows(self):
        return [(key, "auc_pr_trapezoidal" if kind == "auc_pr" else kind, threshold, fn)
                for key, kind, threshold, fn in super()._metric_rows()]


class _BinaryClassHead(_RegressionExport, _TrapezoidalPR, heads_lib.BinaryClassHead):
    _regression_key = "logistic"


class _MultiLabelHead(_TrapezoidalPR, heads_lib.MultiLabelHead):
    """TF 1.15's multi-label head predicted `logits` and `probabilities` only."""

    def _predictions(self, logits):
        predictions = super()._predictions(logits)
        return {k: predictions[k] for k in ("logits", "probabilities")}


class _RegressionHead(_RegressionExport, heads_lib.RegressionHead):
    pass


class _PoissonRegressionHead(_RegressionExport, heads_lib.PoissonRegressionHead):
    pass


class _LogisticRegressionHead(_RegressionExport, heads_lib.LogisticRegressionHead):
    pass


def _check(loss_reduction):
    if loss_reduction not in _V1_REDUCTIONS:
        raise ValueError(f"Invalid loss_reduction: {loss_reduction}. Valid options: "
                         f"{_V1_REDUCTIONS} (tf.compat.v1.losses.Reduction, not NONE)")
    return loss_reduction


def binary_classification_head(weight_column=None, thresholds=None, label_vocabulary=None,
                               loss_reduction=_DEFAULT, loss_fn=None, name=None):
    return Head(_BinaryClassHead(weight_column, thresholds, label_vocabulary,
                                          _check(loss_reduction), loss_fn, name))


def multi_class_head(n_classes, weight_column=None, label_vocabulary=None,
                     loss_reduction=_DEFAULT, loss_fn=None, name=None):
    return Head(heads_lib.MultiClassHead(n_classes, weight_column, label_vocabulary,
                                         _check(loss_reduction), loss_fn, name))


def multi_label_head(n_classes, weight_column=None, thresholds=None, label_vocabulary=None,
                     loss_reduction=_DEFAULT, loss_fn=None,
                     classes_for_class_based_metrics=None, name=None):
    return Head(_MultiLabelHead(n_classes, weight_column, thresholds,
                                         label_vocabulary, _check(loss_reduction), loss_fn,
                                         classes_for_class_based_metrics, name))


def regression_head(weight_column=None, label_dimension=1, loss_reduction=_DEFAULT,
                    loss_fn=None, inverse_link_fn=None, name=None):
    return Head(_RegressionHead(label_dimension, weight_column,
                                         _check(loss_reduction), loss_fn, inverse_link_fn,
                                         name))


def poisson_regression_head(weight_column=None, label_dimension=1, loss_reduction=_DEFAULT,
                            compute_full_loss=True, name=None):
    return Head(_PoissonRegressionHead(label_dimension, weight_column,
                                                _check(loss_reduction), compute_full_loss,
                                                name))


def logistic_regression_head(weight_column=None, loss_reduction=_DEFAULT, name=None):
    return Head(_LogisticRegressionHead(weight_column, _check(loss_reduction), name))


def multi_head(heads, head_weights=None):
    """One head over several named heads (logits and labels as dicts keyed by head name);
    the loss is their (weighted) sum."""
    inner = [h._head if isinstance(h, Head) else h for h in heads]
    return Head(heads_lib.MultiHead(inner, head_weights))
