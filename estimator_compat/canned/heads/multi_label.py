"""MultiLabelHead: an independent sigmoid per class; labels are multi-hot [batch, n_classes]."""
import tensorflow as tf

from estimator_compat.canned.heads.base import SUM_OVER_BATCH_SIZE
from estimator_compat.canned.heads.classification import ClassHead


class MultiLabelHead(ClassHead):
    def __init__(self, n_classes, weight_column=None, thresholds=None, label_vocabulary=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, loss_fn=None,
                 classes_for_class_based_metrics=None, name=None):
        if n_classes is None or n_classes < 2:
            raise ValueError(f"n_classes must be > 1 for multi-label classification. Given: "
                             f"{n_classes}")
        super().__init__(n_classes, weight_column, label_vocabulary, loss_reduction, loss_fn,
                         name)
        self._thresholds = tuple(thresholds or ())
        if any(not 0.0 < t < 1.0 for t in self._thresholds):
            raise ValueError(f"thresholds must be in (0, 1) range. Given: {self._thresholds}")
        self._class_metrics = tuple(self._class_index(c)
                                    for c in classes_for_class_based_metrics or ())

    logits_dimension = property(lambda self: self._n_classes)

    def _class_index(self, cls):
        if isinstance(cls, str):
            if not self._vocabulary or cls not in self._vocabulary:
                raise ValueError(f"{cls!r} in classes_for_class_based_metrics is not in "
                                 f"label_vocabulary: {self._vocabulary}")
            return self._vocabulary.index(cls)
        if not 0 <= cls < self._n_classes:
            raise ValueError(f"All classes_for_class_based_metrics must be in range [0, "
                             f"{self._n_classes - 1}]. Given: {cls}")
        return cls

    def _predictions(self, logits):
        return {"logits": logits, "probabilities": tf.sigmoid(logits),
                "classes": self._tiled(self._class_names(), logits)}

    def _label_ids(self, labels):
        labels = tf.convert_to_tensor(labels)
        if labels.dtype == tf.string:
            raise ValueError("MultiLabelHead takes multi-hot labels [batch, n_classes]; "
                             "string labels are not supported by estimator_compat.")
        return tf.cast(tf.reshape(labels, [-1, self._n_classes]), tf.float32)

    def _per_example_loss(self, labels, logits, features):
        if self._loss_fn:
            return tf.reshape(self._call_loss_fn(labels, logits, features), [-1])
        return tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels,
                                                                      logits=logits), axis=-1)

    def _metric_rows(self):
        by_class = lambda c: tf.broadcast_to(c.weights[:, None],  # noqa: E731
                                             tf.shape(c.labels))
        all_classes = lambda c: (c.labels, c.predictions["probabilities"],  # noqa: E731
                                 by_class(c))
        rows = [("average_loss", "mean", None, lambda c: (None, c.unreduced, c.weights)),
                ("auc", "auc", None, all_classes),
                ("auc_precision_recall", "auc_pr", None, all_classes)]
        for t in self._thresholds:
            rows += [(f"accuracy/positive_threshold_{t:g}", "accuracy_at", t, all_classes),
                     (f"precision/positive_threshold_{t:g}", "precision", t, all_classes),
                     (f"recall/positive_threshold_{t:g}", "recall", t, all_classes)]
        for i in self._class_metrics:
            name = self._vocabulary[i] if self._vocabulary else f"class{i}"
            one = lambda c, i=i: (c.labels[:, i], c.predictions["probabilities"][:, i],  # noqa
                                  c.weights)
            rows += [(f"probability_mean/{name}", "mean", None,
                      lambda c, one=one: (None, one(c)[1], c.weights)),
                     (f"auc/{name}", "auc", None, one),
                     (f"auc_precision_recall/{name}", "auc_pr", None, one)]
        return rows
