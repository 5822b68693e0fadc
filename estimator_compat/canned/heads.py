"""Heads: loss, predictions, metrics and export outputs of canned estimators, as tf.estimator's.

BinaryClassHead, MultiClassHead and RegressionHead build their graph with tf.compat.v1 ops and
metrics inside the model_fn, so they run in estimator_compat's compiled steps.
"""
import tensorflow as tf

from estimator_compat.canned.optimizers import get_optimizer
from estimator_compat.export.outputs import ClassificationOutput, PredictOutput, RegressionOutput
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
_REDUCTIONS = (SUM_OVER_BATCH_SIZE, SUM, "auto", V1_SUM, V1_SUM_OVER_BATCH_SIZE, V1_MEAN,
               V1_SUM_BY_NONZERO_WEIGHTS)
_SERVING = tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY


class _Head:
    def __init__(self, weight_column=None, loss_reduction=SUM_OVER_BATCH_SIZE, loss_fn=None,
                 name=None):
        if loss_reduction not in _REDUCTIONS:
            raise ValueError(f"Invalid loss_reduction: {loss_reduction}. Valid options: "
                             f"{_REDUCTIONS}")
        self._weight_column, self._loss_reduction = weight_column, loss_reduction
        self._loss_fn, self._name = loss_fn, name

    name = property(lambda self: self._name)
    loss_reduction = property(lambda self: self._loss_reduction)

    def _weights(self, features, like):
        if self._weight_column is None:
            return tf.ones_like(like)
        key = self._weight_column if isinstance(self._weight_column, str) else \
            self._weight_column.key
        if key not in features:
            raise ValueError(f"weight_column {key!r} is not in features: {sorted(features)}")
        return tf.reshape(tf.cast(features[key], tf.float32), tf.shape(like))

    def _reduce(self, unreduced, weights):
        weights = tf.broadcast_to(weights, tf.shape(unreduced))
        total = tf.reduce_sum(unreduced * weights)
        if self._loss_reduction in (SUM, V1_SUM):
            return total
        if self._loss_reduction == V1_MEAN:
            return tf.math.divide_no_nan(total, tf.reduce_sum(weights))
        if self._loss_reduction == V1_SUM_BY_NONZERO_WEIGHTS:
            return tf.math.divide_no_nan(total, tf.cast(tf.math.count_nonzero(weights),
                                                        tf.float32))
        return total / tf.cast(tf.size(unreduced), tf.float32)

    def loss(self, labels, logits, features=None, mode=None, regularization_losses=None):
        unreduced, weights = self._unreduced_loss(features or {}, logits, labels)
        loss = self._reduce(unreduced, weights)
        if regularization_losses:
            loss += tf.add_n(list(regularization_losses))
        return loss

    def create_estimator_spec(self, features, mode, logits, labels=None, optimizer=None,
                              trainable_variables=None, train_op_fn=None, update_ops=None,
                              regularization_losses=None):
        """The EstimatorSpec of `mode` for these logits."""
        with tf.name_scope(self._name or "head"):
            predictions = self.predictions(logits)
            if mode == ModeKeys.PREDICT:
                return EstimatorSpec(mode, predictions=predictions,
                                     export_outputs=self._export_outputs(predictions))
            if labels is None:
                raise ValueError(f"labels must not be None in mode {mode!r}: input_fn must "
                                 "return (features, labels).")
            unreduced, weights = self._unreduced_loss(features, logits, labels)
            loss = self._reduce(unreduced, weights)
            if regularization_losses:
                loss += tf.add_n(list(regularization_losses))
            if mode == ModeKeys.EVAL:
                metrics = self._metrics(predictions, self._label_ids(labels), unreduced, weights)
                return EstimatorSpec(mode, predictions=predictions, loss=loss,
                                     eval_metric_ops=metrics)
            train_op = self._train_op(loss, optimizer, trainable_variables, train_op_fn,
                                      update_ops)
            return EstimatorSpec(mode, predictions=predictions, loss=loss, train_op=train_op)

    def _train_op(self, loss, optimizer, trainable_variables, train_op_fn, update_ops):
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


class _ClassHead(_Head):
    def __init__(self, n_classes, weight_column=None, label_vocabulary=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, loss_fn=None, name=None):
        super().__init__(weight_column, loss_reduction, loss_fn, name)
        if label_vocabulary is not None:
            if not isinstance(label_vocabulary, (list, tuple)) or len(label_vocabulary) != n_classes:
                raise ValueError(f"label_vocabulary must be a list of {n_classes} strings, "
                                 f"given: {label_vocabulary!r}")
        self._n_classes, self._vocabulary = n_classes, label_vocabulary

    def _label_ids(self, labels):
        labels = tf.reshape(labels, [-1])
        if self._vocabulary is None:
            ids = tf.cast(labels, tf.int64)
            check = tf.debugging.assert_less(ids, tf.constant(self._n_classes, tf.int64),
                                             message="Labels must be < n_classes")
            check2 = tf.debugging.assert_non_negative(ids, message="Labels must be >= 0")
            with tf.control_dependencies([check, check2]):
                return tf.identity(ids)
        vocab = tf.constant(self._vocabulary)
        matches = tf.equal(labels[:, None], vocab[None, :])
        check = tf.debugging.Assert(tf.reduce_all(tf.reduce_any(matches, axis=1)),
                                    ["Labels must be in label_vocabulary", labels])
        with tf.control_dependencies([check]):
            return tf.argmax(tf.cast(matches, tf.int32), axis=1)

    def _class_names(self):
        names = self._vocabulary or [str(i) for i in range(self._n_classes)]
        return tf.constant(names)

    def _export_outputs(self, predictions):
        batch = tf.shape(predictions["probabilities"])[0]
        classes = tf.tile(self._class_names()[None, :], [batch, 1])
        classification = ClassificationOutput(scores=predictions["probabilities"],
                                              classes=classes)
        return {_SERVING: classification, "classification": classification,
                "predict": PredictOutput(predictions)}

    def _common_predictions(self, logits, probabilities, class_ids):
        batch = tf.shape(logits)[0]
        all_ids = tf.tile(tf.range(self._n_classes, dtype=tf.int32)[None, :], [batch, 1])
        return {"logits": logits, "probabilities": probabilities,
                "class_ids": tf.expand_dims(class_ids, -1),
                "classes": tf.expand_dims(tf.gather(self._class_names(), class_ids), -1),
                "all_class_ids": all_ids,
                "all_classes": tf.tile(self._class_names()[None, :], [batch, 1])}


class MultiClassHead(_ClassHead):
    """Softmax cross entropy over n_classes > 2 classes."""

    def __init__(self, n_classes, weight_column=None, label_vocabulary=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, loss_fn=None, name=None):
        if n_classes is None or n_classes <= 2:
            raise ValueError(f"n_classes must be > 2: {n_classes}.")
        super().__init__(n_classes, weight_column, label_vocabulary, loss_reduction, loss_fn,
                         name)

    logits_dimension = property(lambda self: self._n_classes)

    def predictions(self, logits, keys=None):
        class_ids = tf.argmax(logits, axis=-1)
        return self._common_predictions(logits, tf.nn.softmax(logits), class_ids)

    def _unreduced_loss(self, features, logits, labels):
        ids = self._label_ids(labels)
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=ids, logits=logits)
        return loss, self._weights(features, loss)

    def _metrics(self, predictions, ids, unreduced, weights):
        return {"accuracy": v1.metrics.accuracy(ids, tf.reshape(predictions["class_ids"], [-1]),
                                                weights),
                "average_loss": v1.metrics.mean(unreduced, weights)}


class BinaryClassHead(_ClassHead):
    """Sigmoid cross entropy for two classes (logits of dimension 1)."""

    def __init__(self, weight_column=None, thresholds=None, label_vocabulary=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, loss_fn=None, name=None):
        super().__init__(2, weight_column, label_vocabulary, loss_reduction, loss_fn, name)
        self._thresholds = tuple(thresholds or ())

    logits_dimension = property(lambda self: 1)

    def predictions(self, logits, keys=None):
        logits = tf.reshape(logits, [-1, 1])
        logistic = tf.sigmoid(logits)
        probabilities = tf.concat([1.0 - logistic, logistic], axis=1)
        class_ids = tf.cast(tf.reshape(logits, [-1]) > 0, tf.int64)
        out = self._common_predictions(logits, probabilities, class_ids)
        out["logistic"] = logistic
        return out

    def _unreduced_loss(self, features, logits, labels):
        ids = tf.cast(self._label_ids(labels), tf.float32)
        loss = tf.nn.sigmoid_cross_entropy_with_logits(labels=ids, logits=tf.reshape(logits, [-1]))
        return loss, self._weights(features, loss)

    def _metrics(self, predictions, ids, unreduced, weights):
        logistic = tf.reshape(predictions["logistic"], [-1])
        class_ids = tf.reshape(predictions["class_ids"], [-1])
        label = tf.cast(ids, tf.float32)
        label_mean = v1.metrics.mean(label, weights)
        metrics = {
            "accuracy": v1.metrics.accuracy(ids, class_ids, weights),
            "average_loss": v1.metrics.mean(unreduced, weights),
            "prediction/mean": v1.metrics.mean(logistic, weights),
            "label/mean": label_mean,
            "precision": v1.metrics.precision(ids, class_ids, weights),
            "recall": v1.metrics.recall(ids, class_ids, weights),
            "auc": v1.metrics.auc(ids, logistic, weights, summation_method="careful_interpolation"),
            "auc_precision_recall": v1.metrics.auc(ids, logistic, weights, curve="PR",
                                                   summation_method="careful_interpolation"),
        }
        baseline = tf.maximum(label_mean[0], 1.0 - label_mean[0])
        metrics["accuracy_baseline"] = (baseline, tf.maximum(label_mean[1], 1.0 - label_mean[1]))
        for threshold in self._thresholds:
            predicted = tf.cast(logistic >= threshold, tf.int64)
            metrics[f"accuracy/positive_threshold_{threshold:g}"] = v1.metrics.accuracy(
                ids, predicted, weights)
        return metrics


class RegressionHead(_Head):
    """Mean squared error regression of `label_dimension` outputs."""

    def __init__(self, label_dimension=1, weight_column=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, loss_fn=None, inverse_link_fn=None,
                 name=None):
        if label_dimension < 1:
            raise ValueError(f"Invalid label_dimension {label_dimension}.")
        super().__init__(weight_column, loss_reduction, loss_fn, name)
        self._label_dimension, self._inverse_link_fn = label_dimension, inverse_link_fn

    logits_dimension = property(lambda self: self._label_dimension)

    def predictions(self, logits, keys=None):
        predictions = self._inverse_link_fn(logits) if self._inverse_link_fn else logits
        out = {"predictions": predictions}
        if self._inverse_link_fn:
            out["logits"] = logits
        return out

    def _label_ids(self, labels):
        return tf.reshape(tf.cast(labels, tf.float32), [-1, self._label_dimension])

    def _unreduced_loss(self, features, logits, labels):
        labels = self._label_ids(labels)
        loss = tf.square(self.predictions(logits)["predictions"] - labels) if not self._loss_fn \
            else self._loss_fn(labels, logits)
        return loss, self._weights(features, loss)

    def _metrics(self, predictions, labels, unreduced, weights):
        return {"average_loss": v1.metrics.mean(unreduced, weights),
                "label/mean": v1.metrics.mean(labels, weights),
                "prediction/mean": v1.metrics.mean(predictions["predictions"], weights)}

    def _export_outputs(self, predictions):
        out = {"predict": PredictOutput(predictions)}
        if self._label_dimension == 1:
            out[_SERVING] = out["regression"] = RegressionOutput(predictions["predictions"])
        else:
            out[_SERVING] = out["predict"]
        return out


class PoissonRegressionHead(RegressionHead):
    """Regression of counts: predictions = exp(logits), log-Poisson loss."""

    def __init__(self, label_dimension=1, weight_column=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, compute_full_loss=True, name=None):
        def loss_fn(labels, logits):
            return tf.nn.log_poisson_loss(labels, logits, compute_full_loss=compute_full_loss)
        super().__init__(label_dimension, weight_column, loss_reduction, loss_fn,
                         inverse_link_fn=tf.exp, name=name)


class LogisticRegressionHead(RegressionHead):
    """Regression of values in [0, 1]: predictions = sigmoid(logits), sigmoid cross entropy."""

    def __init__(self, weight_column=None, loss_reduction=SUM_OVER_BATCH_SIZE, name=None):
        def loss_fn(labels, logits):
            check = tf.debugging.assert_less_equal(labels, 1.0,
                                                   message="Labels must be in range [0, 1]")
            with tf.control_dependencies([check, tf.debugging.assert_non_negative(
                    labels, message="Labels must be in range [0, 1]")]):
                return tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
        super().__init__(1, weight_column, loss_reduction, loss_fn, inverse_link_fn=tf.sigmoid,
                         name=name)


class MultiLabelHead(_ClassHead):
    """Independent sigmoid per class; labels are multi-hot [batch, n_classes] (or class ids)."""

    def __init__(self, n_classes, weight_column=None, thresholds=None, label_vocabulary=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, loss_fn=None, classes_for_class_based_metrics=None,
                 name=None):
        if n_classes is None or n_classes < 2:
            raise ValueError(f"n_classes must be > 1 for multi-label classification. Given: "
                             f"{n_classes}")
        super().__init__(n_classes, weight_column, label_vocabulary, loss_reduction, loss_fn,
                         name)
        self._thresholds = tuple(thresholds or (0.5,))

    logits_dimension = property(lambda self: self._n_classes)

    def predictions(self, logits, keys=None):
        probabilities = tf.sigmoid(logits)
        batch = tf.shape(logits)[0]
        return {"logits": logits, "probabilities": probabilities,
                "all_class_ids": tf.tile(tf.range(self._n_classes, dtype=tf.int32)[None, :],
                                         [batch, 1]),
                "all_classes": tf.tile(self._class_names()[None, :], [batch, 1])}

    def _label_ids(self, labels):
        labels = tf.convert_to_tensor(labels)
        if labels.dtype == tf.string:
            raise ValueError("MultiLabelHead takes multi-hot labels [batch, n_classes]; "
                             "string labels are not supported by estimator_compat.")
        return tf.cast(tf.reshape(labels, [-1, self._n_classes]), tf.float32)

    def _unreduced_loss(self, features, logits, labels):
        labels = self._label_ids(labels)
        loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels,
                                                                      logits=logits), axis=-1)
        return loss, self._weights(features, loss)

    def _metrics(self, predictions, labels, unreduced, weights):
        probabilities = predictions["probabilities"]
        metrics = {"average_loss": v1.metrics.mean(unreduced, weights),
                   "auc": v1.metrics.auc(labels, probabilities,
                                         summation_method="careful_interpolation"),
                   "auc_precision_recall": v1.metrics.auc(
                       labels, probabilities, curve="PR",
                       summation_method="careful_interpolation")}
        for threshold in self._thresholds:
            predicted = tf.cast(probabilities >= threshold, tf.float32)
            metrics[f"accuracy/positive_threshold_{threshold:g}"] = v1.metrics.accuracy(
                labels, predicted)
        return metrics


class MultiHead:
    """Several heads on one model: logits split (or a dict by head name), labels by head name,
    the loss their weighted sum; predictions keyed (head name, key), metrics 'key/head name'."""

    def __init__(self, heads, head_weights=None):
        heads = list(heads)
        if not heads:
            raise ValueError("Must specify heads. Given: []")
        if any(h.name is None for h in heads) or len({h.name for h in heads}) != len(heads):
            raise ValueError("All heads of a MultiHead must have distinct names.")
        if head_weights is not None and len(head_weights) != len(heads):
            raise ValueError("heads and head_weights must have the same size.")
        self._heads, self._weights = heads, list(head_weights or [1.0] * len(heads))

    logits_dimension = property(lambda self: sum(h.logits_dimension for h in self._heads))
    name = property(lambda self: "_".join(h.name for h in self._heads))

    def _split(self, logits):
        if isinstance(logits, dict):
            return [logits[h.name] for h in self._heads]
        return tf.split(logits, [h.logits_dimension for h in self._heads], axis=-1)

    def create_estimator_spec(self, features, mode, logits, labels=None, optimizer=None,
                              trainable_variables=None, train_op_fn=None, update_ops=None,
                              regularization_losses=None):
        specs = [h.create_estimator_spec(features, mode, part, labels=None if labels is None
                                         else labels[h.name], train_op_fn=lambda loss: tf.no_op())
                 for h, part in zip(self._heads, self._split(logits))]
        predictions = {(h.name, k): v for h, s in zip(self._heads, specs)
                       for k, v in s.predictions.items()}
        if mode == ModeKeys.PREDICT:
            export = {}
            for i, (h, s) in enumerate(zip(self._heads, specs)):
                for key, out in s.export_outputs.items():
                    if i == 0 and key == _SERVING:
                        export[_SERVING] = out
                    export[h.name if key == _SERVING else f"{h.name}/{key}"] = out
            flat = {f"{n}/{k}": v for (n, k), v in predictions.items()}
            return EstimatorSpec(mode, predictions=flat, export_outputs=export)
        loss = tf.add_n([w * s.loss for w, s in zip(self._weights, specs)])
        if regularization_losses:
            loss += tf.add_n(list(regularization_losses))
        flat = {f"{n}/{k}": v for (n, k), v in predictions.items()}
        if mode == ModeKeys.EVAL:
            metrics = {f"{k}/{h.name}": v for h, s in zip(self._heads, specs)
                       for k, v in s.eval_metric_ops.items()}
            return EstimatorSpec(mode, predictions=flat, loss=loss, eval_metric_ops=metrics)
        train_op = _Head._train_op(self._heads[0], loss, optimizer, trainable_variables,
                                   train_op_fn, update_ops)
        return EstimatorSpec(mode, predictions=flat, loss=loss, train_op=train_op)
