"""What every head shares: weights, loss reduction, the Head API (loss, predictions, metrics,
update_metrics, create_estimator_spec) and the train op.

Heads build their graph with tf.compat.v1 ops and metrics inside model_fn, so they run in
estimator_compat's compiled steps; `metrics()` / `update_metrics()` give Keras metric objects,
which EstimatorSpec.eval_metric_ops also takes.
"""
import types

import tensorflow as tf

from estimator_compat.canned.heads import metric_table
from estimator_compat.canned.optimizers import get_optimizer
from estimator_compat.fn_args import fn_args
from estimator_compat.mode_keys import ModeKeys
from estimator_compat.spec import EstimatorSpec

v1 = tf.compat.v1
SUM_OVER_BATCH_SIZE = "sum_over_batch_size"
SUM = "sum"
# tf.compat.v1.losses.Reduction values, the loss_reduction of tf.compat.v1.estimator's classes
V1_SUM = "weighted_sum"
V1_SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
V1_MEAN = "weighted_mean"
V1_SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
REDUCTIONS = (SUM_OVER_BATCH_SIZE, SUM, "auto", V1_SUM, V1_SUM_OVER_BATCH_SIZE, V1_MEAN,
              V1_SUM_BY_NONZERO_WEIGHTS)
SERVING_KEY = tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY


def check_loss_fn(loss_fn):
    if loss_fn is None:
        return None
    args = set(fn_args(loss_fn))
    for required in ("labels", "logits"):
        if required not in args:
            raise ValueError(f"loss_fn must contain argument: {required}. Given arguments: "
                             f"{tuple(sorted(args))}")
    extra = args - {"labels", "logits", "features"}
    if extra:
        raise ValueError(f"loss_fn has unexpected args: {sorted(extra)}")
    return loss_fn


class Head:
    """The interface of tf.estimator.Head, with the shared implementation."""

    def __init__(self, weight_column=None, loss_reduction=SUM_OVER_BATCH_SIZE, loss_fn=None,
                 name=None):
        if loss_reduction not in REDUCTIONS:
            raise ValueError(f"Invalid loss_reduction: {loss_reduction}. Valid options: "
                             f"{REDUCTIONS}")
        self._weight_column, self._loss_reduction = weight_column, loss_reduction
        self._loss_fn, self._name = check_loss_fn(loss_fn), name

    name = property(lambda self: self._name)
    loss_reduction = property(lambda self: self._loss_reduction)

    def _summary_key(self, key):
        return f"{key}/{self._name}" if self._name else key

    # --- loss -----------------------------------------------------------------------------
    def _weights(self, features, like):
        """The weight column, shaped to broadcast against `like` (ones without one)."""
        if self._weight_column is None:
            return tf.ones_like(like)
        key = self._weight_column if isinstance(self._weight_column, str) else \
            self._weight_column.key
        if not isinstance(features, dict) or key not in features:
            raise ValueError(f"weight_column {key!r} is not in features: "
                             f"{sorted(features) if isinstance(features, dict) else features}")
        weights = tf.cast(features[key], tf.float32)
        rank = like.shape.rank or 1
        weights = tf.reshape(weights, [-1] + [1] * (rank - 1))
        return tf.broadcast_to(weights, tf.shape(like))

    def _reduce(self, unreduced, weights):
        total = tf.reduce_sum(unreduced * weights)
        if self._loss_reduction in (SUM, V1_SUM):
            return total
        if self._loss_reduction == V1_MEAN:
            return tf.math.divide_no_nan(total, tf.reduce_sum(weights))
        if self._loss_reduction == V1_SUM_BY_NONZERO_WEIGHTS:
            return tf.math.divide_no_nan(total, tf.cast(tf.math.count_nonzero(weights),
                                                        tf.float32))
        return total / tf.cast(tf.size(unreduced), tf.float32)

    def _call_loss_fn(self, labels, logits, features):
        kwargs = {"labels": labels, "logits": logits}
        if "features" in fn_args(self._loss_fn):
            kwargs["features"] = features
        return tf.cast(self._loss_fn(**kwargs), tf.float32)

    def _unreduced_loss(self, features, logits, labels):
        """(per-example loss, weights of the same shape)."""
        return self._loss_and_weights(features, logits, self._label_ids(labels))

    def _loss_and_weights(self, features, logits, label_ids):
        loss = self._per_example_loss(label_ids, logits, features)
        return loss, self._weights(features, loss)

    def loss(self, labels, logits, features=None, mode=None, regularization_losses=None):
        """The reduced training loss (plus regularization_losses)."""
        unreduced, weights = self._unreduced_loss(features or {}, logits, labels)
        return self._regularized(self._reduce(unreduced, weights), regularization_losses)

    @staticmethod
    def _regularized(loss, regularization_losses):
        if regularization_losses:
            return loss + tf.add_n(list(regularization_losses))
        return loss

    # --- predictions and metrics ------------------------------------------------------------
    def predictions(self, logits, keys=None):
        """The prediction dict (only `keys`, when given)."""
        out = self._predictions(logits)
        if keys is None:
            return out
        unknown = sorted(set(keys) - set(out))
        if unknown:
            raise ValueError(f"keys {unknown} are not among the predictions: {sorted(out)}")
        return {k: out[k] for k in keys}

    def _context(self, features, logits, labels, regularization_losses, predictions=None):
        """What the metric rows read; labels are converted (and checked) once."""
        label_ids = self._label_ids(labels)
        unreduced, weights = self._loss_and_weights(features, logits, label_ids)
        regularization = tf.add_n(list(regularization_losses)) if regularization_losses \
            else None
        return types.SimpleNamespace(
            predictions=self._predictions(logits) if predictions is None else predictions,
            labels=label_ids, unreduced=unreduced, weights=weights,
            regularization=regularization)

    def _rows(self, with_regularization):
        rows = [metric_table.Row(self._summary_key(k), kind, t, fn)
                for k, kind, t, fn in self._metric_rows()]
        if with_regularization:
            rows.append(metric_table.Row(self._summary_key("regularization_loss"), "mean", None,
                                         lambda c: (None, c.regularization, None)))
        return rows

    def metrics(self, regularization_losses=None):
        """Keras metric objects for this head's eval metrics, keyed as tf.estimator named them."""
        return metric_table.make_keras(self._rows(bool(regularization_losses)))

    def update_metrics(self, eval_metrics, features, logits, labels,
                       regularization_losses=None, mode=None):
        """Updates the objects `metrics()` returned with one batch; returns them."""
        ctx = self._context(features, logits, labels, regularization_losses)
        return metric_table.update_keras(self._rows(bool(regularization_losses)), eval_metrics,
                                         ctx)

    # --- the EstimatorSpec ------------------------------------------------------------------
    def create_estimator_spec(self, features, mode, logits, labels=None, optimizer=None,
                              trainable_variables=None, train_op_fn=None, update_ops=None,
                              regularization_losses=None):
        """The EstimatorSpec of `mode` for these logits."""
        with tf.name_scope(self._name or "head"):
            predictions = self._predictions(logits)
            if mode == ModeKeys.PREDICT:
                return EstimatorSpec(mode, predictions=predictions,
                                     export_outputs=self._export_outputs(predictions))
            if labels is None:
                raise ValueError(f"labels must not be None in mode {mode!r}: input_fn must "
                                 "return (features, labels).")
            ctx = self._context(features, logits, labels, regularization_losses, predictions)
            loss = self._regularized(self._reduce(ctx.unreduced, ctx.weights),
                                     regularization_losses)
            if mode == ModeKeys.EVAL:
                rows = self._rows(bool(regularization_losses))
                return EstimatorSpec(mode, predictions=predictions, loss=loss,
                                     eval_metric_ops=metric_table.as_v1_ops(rows, ctx))
            self._training_summaries(ctx, loss)
            train_op = train_op_for(loss, optimizer, trainable_variables, train_op_fn,
                                    update_ops)
            return EstimatorSpec(mode, predictions=predictions, loss=loss, train_op=train_op)

    def _training_summaries(self, ctx, loss):
        """The training summaries tf.estimator's heads wrote, at the top name scope: `loss`
        (`loss/<name>` for a named head; the Estimator adds no second `loss`),
        `regularization_loss` where there is one, and, with a summed loss (tf.compat.v1.
        estimator's classes), the unregularized loss per unit of weight as `average_loss`."""
        with v1.name_scope(None):
            v1.summary.scalar(self._summary_key("loss"), loss)
            if self._loss_reduction == V1_SUM:
                average = tf.math.divide_no_nan(tf.reduce_sum(ctx.unreduced * ctx.weights),
                                                tf.reduce_sum(ctx.weights))
                v1.summary.scalar(self._summary_key("average_loss"), average)
            if ctx.regularization is not None:
                v1.summary.scalar(self._summary_key("regularization_loss"), ctx.regularization)


def train_op_for(loss, optimizer, trainable_variables, train_op_fn, update_ops):
    """train_op_fn(loss), or the optimizer minimizing loss and advancing global_step; after
    the UPDATE_OPS (batch norm) and `update_ops`."""
    update_ops = list(update_ops or []) + v1.get_collection(v1.GraphKeys.UPDATE_OPS)
    with tf.control_dependencies(update_ops):
        if train_op_fn is not None and optimizer is not None:
            raise ValueError("train_op_fn and optimizer cannot both be set.")
        if train_op_fn is not None:
            return train_op_fn(loss)
        if optimizer is None:
            raise ValueError("train_op_fn and optimizer cannot both be None.")
        return get_optimizer(optimizer, None).minimize(
            loss, var_list=trainable_variables, global_step=v1.train.get_global_step())
