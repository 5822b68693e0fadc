"""contrib.layers' target columns (TF 1.15's deprecated `target_column` module, contrib.learn's
heads before `head.py`): `multi_class_target` (softmax cross entropy; sigmoid for 2 classes),
`regression_target` (squared error), `binary_svm_target` (hinge), `ProblemType` and
`get_default_binary_metrics_for_eval`. Each column turns logits into predictions, losses and
eval metric ops as TF 1.15's did:

- `loss` is the weighted mean (sum of weighted losses / sum of weights), `training_loss` the
  mean of the weighted losses, eval's `loss` the streaming mean of `loss` over batches;
- classification eval adds the weighted `accuracy` of the classes (or runs `metrics`: names,
  or (name, "classes" | "probabilities") pairs, called as `fn(predictions, labels[, weights])`),
  and for 2 classes the binary metrics of the sigmoid probabilities, unweighted.
"""
import tensorflow as tf

v1 = tf.compat.v1


class ProblemType:
    UNSPECIFIED = 0
    CLASSIFICATION = 1
    LINEAR_REGRESSION = 2
    LOGISTIC_REGRESSION = 3


def _mean_squared_loss(logits, target):
    if target.shape.rank == 1:
        target = tf.expand_dims(target, 1)
    logits.shape.assert_is_compatible_with(target.shape)
    return tf.math.squared_difference(logits, tf.cast(target, tf.float32))


def _log_loss_with_two_classes(logits, target):
    if target.shape.rank == 1:
        target = tf.expand_dims(target, 1)
    return tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.cast(target, tf.float32),
                                                   logits=logits)


def _softmax_cross_entropy_loss(logits, target):
    if target.shape.rank == 2:
        target = tf.squeeze(target, [1])
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=logits)


def _hinge_loss(logits, target):
    if target.shape.rank == 1:
        target = tf.expand_dims(target, 1)
    return v1.losses.hinge_loss(labels=target, logits=logits, loss_collection=None,
                                reduction=v1.losses.Reduction.NONE)


class _TargetColumn:
    """A loss function applied to logits, with the label's key and an optional weight column."""

    def __init__(self, loss_fn, num_label_columns, label_name, weight_column_name,
                 problem_type):
        self._loss_fn = loss_fn
        self._num_label_columns = num_label_columns
        self._label_name = label_name
        self._weight_column_name = weight_column_name
        self._problem_type = problem_type

    label_name = property(lambda self: self._label_name)
    weight_column_name = property(lambda self: self._weight_column_name)
    num_label_columns = property(lambda self: self._num_label_columns)
    problem_type = property(lambda self: self._problem_type)

    def get_weight_tensor(self, features):
        """The weight column's values as a flat float32 tensor (None without one)."""
        if not self._weight_column_name:
            return None
        if self._weight_column_name not in features:
            raise ValueError(f"weight column {self._weight_column_name!r} is not in the "
                             f"features (keys: {sorted(features)}); add it to the input")
        return tf.reshape(tf.cast(features[self._weight_column_name], tf.float32), [-1])

    def _weighted(self, loss, weights):
        return tf.reshape(loss, [-1]) * tf.reshape(weights, [-1])

    def training_loss(self, logits, target, features, name="training_loss"):
        """The mean of the (weighted) per-example losses: what training minimizes."""
        weights = self.get_weight_tensor(features)
        loss = self._loss_fn(logits, target)
        if weights is None:
            return tf.reduce_mean(loss, name=name)
        return tf.reduce_mean(self._weighted(loss, weights), name=name)

    def loss(self, logits, target, features):
        """The weighted mean loss: sum of weighted losses / sum of weights."""
        weights = self.get_weight_tensor(features)
        loss = self._loss_fn(logits, target)
        if weights is None:
            return tf.reduce_mean(loss, name="loss")
        return tf.math.divide(tf.reduce_sum(self._weighted(loss, weights)),
                              tf.reduce_sum(weights), name="loss")

    def get_eval_ops(self, features, logits, labels, metrics=None):
        """{"loss": the streaming mean of `loss`} (regression evaluates nothing else)."""
        return {"loss": v1.metrics.mean(self.loss(logits, labels, features))}


class _RegressionTargetColumn(_TargetColumn):
    def __init__(self, loss_fn, label_name, weight_column_name, label_dimension):
        super().__init__(loss_fn, label_dimension, label_name, weight_column_name,
                         ProblemType.LINEAR_REGRESSION)

    def logits_to_predictions(self, logits, proba=False):
        if self.num_label_columns == 1:
            return tf.squeeze(logits, [1])
        return logits


def _run_metrics(predictions, labels, metrics, weights):
    labels = tf.cast(labels, predictions.dtype)
    if weights is None:
        return {name: fn(predictions, labels) for name, fn in metrics.items()}
    return {name: fn(predictions, labels, weights=weights) for name, fn in metrics.items()}


def _streaming_accuracy(predictions, labels, weights=None):
    return v1.metrics.accuracy(labels, predictions, weights=weights)


class _MultiClassTargetColumn(_TargetColumn):
    def __init__(self, loss_fn, n_classes, label_name, weight_column_name):
        if n_classes < 2:
            raise ValueError("n_classes must be > 1 for classification.")
        super().__init__(loss_fn, 1 if n_classes == 2 else n_classes, label_name,
                         weight_column_name, ProblemType.CLASSIFICATION)

    def logits_to_predictions(self, logits, proba=False):
        if self.num_label_columns == 1:
            logits = tf.concat([tf.zeros_like(logits), logits], 1)
        if proba:
            return tf.nn.softmax(logits)
        return tf.argmax(logits, 1)

    def _default_eval_metrics(self):
        if self.num_label_columns == 1:
            return get_default_binary_metrics_for_eval(thresholds=[0.5])
        return {}

    def get_eval_ops(self, features, logits, labels, metrics=None):
        result = super().get_eval_ops(features, logits, labels)
        if metrics is None:
            metrics = {("accuracy", "classes"): _streaming_accuracy}
        probabilities = tf.sigmoid(logits)
        labels_float = tf.cast(labels, tf.float32)
        for name, metric in self._default_eval_metrics().items():
            result[name] = metric(probabilities, labels_float)
        by_kind = {"classes": {}, "probabilities": {}}
        for name, metric in metrics.items():
            if isinstance(name, tuple):
                if len(name) != 2 or name[1] not in by_kind:
                    raise ValueError(f"metric key {name!r}: a tuple key is (name, 'classes') "
                                     "or (name, 'probabilities')")
                by_kind[name[1]][name[0]] = metric
            elif isinstance(name, str):
                by_kind["classes"][name] = metric
            else:
                raise ValueError(f"metric key {name!r}: give a name or a (name, kind) pair")
        weights = self.get_weight_tensor(features)
        if by_kind["classes"]:
            result.update(_run_metrics(self.logits_to_predictions(logits, proba=False), labels,
                                       by_kind["classes"], weights))
        if by_kind["probabilities"]:
            result.update(_run_metrics(self.logits_to_predictions(logits, proba=True), labels,
                                       by_kind["probabilities"], weights))
        return result


class _BinarySvmTargetColumn(_MultiClassTargetColumn):
    def __init__(self, label_name, weight_column_name):
        super().__init__(_hinge_loss, 2, label_name, weight_column_name)

    def logits_to_predictions(self, logits, proba=False):
        if proba:
            raise ValueError("logits to probabilities is not supported for "
                             "_BinarySvmTargetColumn")
        return tf.argmax(tf.concat([tf.zeros_like(logits), logits], 1), 1)


def multi_class_target(n_classes, label_name=None, weight_column_name=None):
    """A classification target: softmax cross entropy of `n_classes` logits (one sigmoid logit
    for 2 classes)."""
    if n_classes < 2:
        raise ValueError("n_classes must be > 1 for classification.")
    loss_fn = _log_loss_with_two_classes if n_classes == 2 else _softmax_cross_entropy_loss
    return _MultiClassTargetColumn(loss_fn, n_classes, label_name, weight_column_name)


def regression_target(label_name=None, weight_column_name=None, label_dimension=1):
    """A regression target: squared error of `label_dimension` logits."""
    return _RegressionTargetColumn(_mean_squared_loss, label_name, weight_column_name,
                                   label_dimension)


def binary_svm_target(label_name=None, weight_column_name=None):
    """A binary classification target with a hinge loss (labels 0 / 1)."""
    return _BinarySvmTargetColumn(label_name, weight_column_name)


def _mean_of(which):
    def metric(predictions, labels, weights=None):
        return v1.metrics.mean(labels if which == "labels" else predictions, weights=weights)
    return metric


def _accuracy_at(threshold):
    def metric(predictions, labels, weights=None):
        classes = tf.cast(tf.greater_equal(predictions, threshold), tf.float32)
        return v1.metrics.accuracy(labels, classes, weights=weights)
    return metric


def _at_threshold(metric_fn, threshold):
    def metric(predictions, labels, weights=None):
        value, update = metric_fn(tf.cast(labels, tf.bool), predictions, [threshold],
                                  weights=weights)
        return tf.squeeze(value), tf.squeeze(update)
    return metric


def _auc(predictions, labels, weights=None):
    return v1.metrics.auc(tf.cast(labels, tf.bool), predictions, weights=weights)


def get_default_binary_metrics_for_eval(thresholds):
    """{name: fn(predictions, labels, weights=None) -> (value, update op)}: the label and
    prediction means, AUC, and accuracy / precision / recall at each threshold."""
    metrics = {"labels/actual_target_mean": _mean_of("labels"),
               "labels/prediction_mean": _mean_of("predictions"),
               "accuracy/baseline_target_mean": _mean_of("labels"),
               "auc": _auc}
    for threshold in thresholds:
        metrics[f"accuracy/threshold_{threshold:f}_mean"] = _accuracy_at(threshold)
        metrics[f"precision/positive_threshold_{threshold:f}_mean"] = _at_threshold(
            v1.metrics.precision_at_thresholds, threshold)
        metrics[f"recall/positive_threshold_{threshold:f}_mean"] = _at_threshold(
            v1.metrics.recall_at_thresholds, threshold)
    return metrics
