"""MultiClassHead (softmax over n > 2 classes) and BinaryClassHead (one sigmoid logit)."""
import tensorflow as tf

from estimator_compat.canned.heads.base import SERVING_KEY, SUM_OVER_BATCH_SIZE, Head
from estimator_compat.export.outputs import ClassificationOutput, PredictOutput


class ClassHead(Head):
    """Labels as class ids or, with label_vocabulary, as strings; the classes' predictions."""

    def __init__(self, n_classes, weight_column=None, label_vocabulary=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, loss_fn=None, name=None):
        super().__init__(weight_column, loss_reduction, loss_fn, name)
        if label_vocabulary is not None:
            if not isinstance(label_vocabulary, (list, tuple)) or \
                    len(label_vocabulary) != n_classes:
                raise ValueError(f"label_vocabulary must be a list of {n_classes} strings, "
                                 f"given: {label_vocabulary!r}")
        self._n_classes, self._vocabulary = n_classes, label_vocabulary

    def _label_ids(self, labels):
        labels = tf.reshape(labels, [-1])
        if self._vocabulary is None:
            if labels.dtype == tf.string:
                raise ValueError("Labels are strings: give label_vocabulary (the list of "
                                 "class names) or class ids as integers.")
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
        return tf.constant(self._vocabulary or [str(i) for i in range(self._n_classes)])

    def _tiled(self, values, like):
        return tf.tile(values[None, :], [tf.shape(like)[0], 1])

    def _export_outputs(self, predictions):
        classification = ClassificationOutput(
            scores=predictions["probabilities"],
            classes=self._tiled(self._class_names(), predictions["probabilities"]))
        return {SERVING_KEY: classification, "classification": classification,
                "predict": PredictOutput(predictions)}

    def _class_predictions(self, logits, probabilities, class_ids):
        return {"logits": logits, "probabilities": probabilities,
                "class_ids": tf.expand_dims(class_ids, -1),
                "classes": tf.expand_dims(tf.gather(self._class_names(), class_ids), -1),
                "all_class_ids": self._tiled(tf.range(self._n_classes, dtype=tf.int32), logits),
                "all_classes": self._tiled(self._class_names(), logits)}


class MultiClassHead(ClassHead):
    """Softmax cross entropy over n_classes > 2 classes."""

    def __init__(self, n_classes, weight_column=None, label_vocabulary=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, loss_fn=None, name=None):
        if n_classes is None or n_classes <= 2:
            raise ValueError(f"n_classes must be > 2: {n_classes}.")
        super().__init__(n_classes, weight_column, label_vocabulary, loss_reduction, loss_fn,
                         name)

    logits_dimension = property(lambda self: self._n_classes)

    def _predictions(self, logits):
        return self._class_predictions(logits, tf.nn.softmax(logits), tf.argmax(logits, -1))

    def _per_example_loss(self, ids, logits, features):
        if self._loss_fn:
            return tf.reshape(self._call_loss_fn(ids[:, None], logits, features), [-1])
        return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=ids, logits=logits)

    def _metric_rows(self):
        class_ids = lambda c: tf.reshape(c.predictions["class_ids"], [-1])  # noqa: E731
        return [("accuracy", "accuracy", None, lambda c: (c.labels, class_ids(c), c.weights)),
                ("average_loss", "mean", None, lambda c: (None, c.unreduced, c.weights))]


class BinaryClassHead(ClassHead):
    """Sigmoid cross entropy for two classes (logits of dimension 1)."""

    def __init__(self, weight_column=None, thresholds=None, label_vocabulary=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, loss_fn=None, name=None):
        super().__init__(2, weight_column, label_vocabulary, loss_reduction, loss_fn, name)
        self._thresholds = tuple(thresholds or ())
        if any(not 0.0 < t < 1.0 for t in self._thresholds):
            raise ValueError(f"thresholds not in (0, 1): {self._thresholds}.")

    logits_dimension = property(lambda self: 1)
    _pr_auc_kind = "auc_pr"  # "auc_pr_trapezoidal": compat.v1 heads' (boosted trees')

    def _predictions(self, logits):
        logits = tf.reshape(logits, [-1, 1])
        logistic = tf.sigmoid(logits)
        class_ids = tf.cast(tf.reshape(logits, [-1]) > 0, tf.int64)
        out = self._class_predictions(logits, tf.concat([1.0 - logistic, logistic], axis=1),
                                      class_ids)
        return {"logits": out.pop("logits"), "logistic": logistic, **out}  # TF's key order

    def _per_example_loss(self, ids, logits, features):
        labels = tf.cast(ids, tf.float32)
        if self._loss_fn:
            return tf.reshape(self._call_loss_fn(labels[:, None], logits, features), [-1])
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=labels,
                                                       logits=tf.reshape(logits, [-1]))

    def _metric_rows(self):
        logistic = lambda c: tf.reshape(c.predictions["logistic"], [-1])  # noqa: E731
        class_ids = lambda c: tf.reshape(c.predictions["class_ids"], [-1])  # noqa: E731
        label = lambda c: tf.cast(c.labels, tf.float32)  # noqa: E731
        by_probability = lambda c: (c.labels, logistic(c), c.weights)  # noqa: E731
        rows = [("accuracy", "accuracy", None, lambda c: (c.labels, class_ids(c), c.weights)),
                ("accuracy_baseline", "accuracy_baseline", None,
                 lambda c: (None, label(c), c.weights)),
                ("auc", "auc", None, by_probability),
                ("auc_precision_recall", self._pr_auc_kind, None, by_probability),
                ("average_loss", "mean", None, lambda c: (None, c.unreduced, c.weights)),
                ("label/mean", "mean", None, lambda c: (None, label(c), c.weights)),
                ("precision", "precision", 0.5, by_probability),
                ("prediction/mean", "mean", None, lambda c: (None, logistic(c), c.weights)),
                ("recall", "recall", 0.5, by_probability)]
        for t in self._thresholds:
            rows += [(f"accuracy/positive_threshold_{t:g}", "accuracy_at", t, by_probability),
                     (f"precision/positive_threshold_{t:g}", "precision", t, by_probability),
                     (f"recall/positive_threshold_{t:g}", "recall", t, by_probability)]
        return rows
