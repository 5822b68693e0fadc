"""contrib.learn's heads: `Head`, `regression_head`, `poisson_regression_head`,
`multi_class_head` (binary logistic for two classes, softmax above), `multi_label_head`.

A head turns logits into contrib.learn's `ModelFnOps` for a mode:
`head.create_model_fn_ops(features, mode, labels, train_op_fn, logits)`, in a variable scope
named for the head (`regression_head` (Poisson's too), `binary_logistic_head`,
`multi_class_head`, `multi_label_head`, or `head_name`). Names as TF 1.15 made them: the loss
`<scope>/<loss name>/loss`, the train op in `<scope>/train_op`, the metrics in
`<scope>/metrics` (`loss`, `accuracy`, and for the binary head `auc`, `auc_precision_recall`,
`labels/*_mean`, `accuracy/baseline_label_mean` and per threshold
`accuracy/threshold_<t>_mean`, `precision/...`, `recall/...`), a `loss` summary,
predictions in `<scope>/predictions` (`scores`; `logits`, `logistic`, `probabilities`,
`classes`: label_keys' strings where given) and `output_alternatives` keyed by `head_name`.
A named head's metric keys and loss tag end in its name (`loss/<name>`, `accuracy/<name>`).
TF 1.15's options: `enable_centered_bias` (learn/centered_bias.py: a `centered_bias_weight`
added to the logits, trained by its own Adagrad step grouped into the train op);
`loss_fn(labels, logits, weights)` (checked by its parameters' names, called without weights
when there is no weight column, its scalar both trained on and reported); `metric_class_ids`
(per class `labels/{prediction,actual_label,probability,logits}_mean/class<id>`, for
multi_label also `auc/class<id>` and `auc_precision_recall/class<id>`; none with label_keys);
`thresholds` of multi_class (n > 2) and multi_label heads are accepted and unused, as there.
`multi_head(heads, loss_weights)` joins named heads: each head's ops in its own scope on its
slice of the logits (or `logits[head_name]`), the loss their (weighted) `add_n`, one
train op for it, the heads' metrics together, and predictions keyed `(head_name, key)`.
`binary_svm_head` is learn/svm.py's.
"""
import abc
import functools
import inspect

import tensorflow as tf
from tensorflow.python.ops import lookup_ops  # TF1's index tables, as legacy/contrib/lookup.py

from estimator_compat.learn.centered_bias import centered_bias, centered_bias_step
from estimator_compat.learn.model_fn_ops import ModeKeys, ModelFnOps, ProblemType

v1 = tf.compat.v1


class Head(abc.ABC):
    """What a contrib.learn head does: `logits_dimension` and `create_model_fn_ops`."""

    @property
    @abc.abstractmethod
    def logits_dimension(self):
        raise NotImplementedError

    @abc.abstractmethod
    def create_model_fn_ops(self, features, mode, labels=None, train_op_fn=None, logits=None,
                            logits_input=None, scope=None):
        raise NotImplementedError


class _Head(Head):
    _default_scope = None
    _loss_name = None
    _problem_type = None
    _per_label_loss = None  # (labels, logits) -> [batch, logits_dimension], where it has one

    def __init__(self, logits_dimension, label_name, weight_column_name, head_name,
                 enable_centered_bias, loss_fn=None):
        self._logits_dimension = logits_dimension
        self._label_name = label_name
        self._weight_column_name = weight_column_name
        self.head_name = head_name
        self._enable_centered_bias = enable_centered_bias
        self._loss_fn = loss_fn

    @property
    def logits_dimension(self):
        return self._logits_dimension

    def _labels(self, labels):
        if isinstance(labels, dict):
            if self._label_name is None:
                if len(labels) != 1:
                    raise ValueError(f"labels has keys {sorted(labels)}: give the head "
                                     "label_name=.")
                labels = next(iter(labels.values()))
            else:
                labels = labels[self._label_name]
        if isinstance(labels, tf.SparseTensor):
            return self._sparse_labels(labels)
        return labels

    def _sparse_labels(self, labels):
        raise ValueError("SparseTensor is not supported. (Labels of this head are dense: only "
                         "multi_label_head takes a SparseTensor of class ids; densify them, "
                         "e.g. tf.sparse.to_dense(labels).)")

    def _weights(self, logits, weight_column):
        """Each example's weight, [batch]; for a head whose loss is per label (regression,
        multi_label) given one weight per label, [batch, logits_dimension]: TF 1.15 weighted
        the elementwise losses one by one."""
        one = tf.ones_like(logits[:, 0])
        if weight_column is None:
            return one
        if self._per_label_loss is not None and weight_column.shape.rank == 2 and \
                weight_column.shape[-1] not in (None, 1):
            return weight_column * tf.ones_like(logits)
        return one * tf.reshape(weight_column, [-1])

    def _weight_column(self, features):
        """The weight feature as TF 1.15 handed it to losses: float, [batch, 1] when given
        as [batch]; None without a weight column."""
        if self._weight_column_name is None:
            return None
        if self._weight_column_name not in features:
            raise ValueError(f"Weights {self._weight_column_name} missing from features.")
        weights = tf.cast(features[self._weight_column_name], tf.float32)
        return tf.reshape(weights, [-1, 1]) if weights.shape.rank == 1 else weights

    def _loss(self, labels, logits, weight_column, weights):
        """(training loss, reported loss, per-example losses): the training loss is the
        weighted mean over the batch, the reported one normalised by the weights' sum. A
        custom loss_fn's scalar is all three (TF 1.15 reported it as it came)."""
        if self._loss_fn is not None:
            labels = self._loss_labels(labels)
            loss = (self._loss_fn(labels, logits) if weight_column is None
                    else self._loss_fn(labels, logits, weight_column))
            return loss, loss, loss
        with tf.name_scope(self._loss_name):
            per_example = (self._per_label_loss(labels, logits) if weights.shape.rank == 2
                           else self._per_example_loss(labels, logits))
            loss = tf.reduce_mean(per_example * weights, name="loss")
            normalized = tf.math.divide(tf.reduce_sum(per_example * weights),
                                        tf.reduce_sum(weights), name="weighted_average_loss")
        return loss, normalized, per_example

    def _loss_labels(self, labels):
        """The labels a custom loss_fn is given."""
        return labels

    def create_model_fn_ops(self, features, mode, labels=None, train_op_fn=None, logits=None,
                            logits_input=None, scope=None):
        with v1.variable_scope(scope, default_name=self.head_name or self._default_scope,
                               values=[logits, logits_input]):
            if (logits is None) == (logits_input is None):
                raise ValueError("Both logits and logits_input supplied." if logits is not None
                                 else "Neither logits nor logits_input supplied.")
            if logits is None:
                with v1.variable_scope("logits"):
                    width = logits_input.shape[-1]
                    weights = v1.get_variable("weights", [width, self._logits_dimension])
                    biases = v1.get_variable("biases", [self._logits_dimension],
                                             initializer=tf.zeros_initializer())
                    for variable in (weights, biases):  # contrib.layers' linear's were
                        v1.add_to_collection(v1.GraphKeys.MODEL_VARIABLES, variable)
                    logits = tf.matmul(logits_input, weights) + biases
            logits = tf.convert_to_tensor(logits)
            bias = None
            if self._enable_centered_bias:
                bias = centered_bias(self._logits_dimension, self.head_name)
                logits = tf.nn.bias_add(logits, bias)
            predictions = self._predictions(logits)
            loss = train_op = metrics = None
            if mode != ModeKeys.INFER:
                if labels is None:
                    raise ValueError(f"labels are needed in mode {mode!r}.")
                labels = self._labels(labels)
                weight_column = self._weight_column(features)
                weights = self._weights(logits, weight_column)
                loss, normalized, per_example = self._loss(labels, logits, weight_column,
                                                           weights)
                if mode == ModeKeys.TRAIN:
                    if train_op_fn is None:
                        raise ValueError("train_op_fn can not be None in TRAIN mode.")
                    bias_step = None
                    if bias is not None:  # made first, as TF 1.15 did (its slot comes first)
                        bias_step = centered_bias_step(
                            bias, tf.shape(logits)[0],
                            lambda bias_logits: self._loss(labels, bias_logits, weight_column,
                                                           weights)[:2], loss)
                    with tf.name_scope("train_op"):
                        train_op = train_op_fn(loss)
                        if bias_step is not None:
                            train_op = tf.group(train_op, bias_step)
                with tf.name_scope("metrics"):  # TF 1.15 built them in TRAIN too
                    metrics = self._metrics(per_example, weights, labels, predictions)
            exported = self._exported(predictions)  # in every mode, as TF 1.15's
        if metrics is not None:  # a named head's metrics end in its name: `loss/<name>`
            metrics = {_summary_key(self.head_name, k): v for k, v in metrics.items()}
        if loss is not None:  # at the graph's top, as TF 1.15 wrote it (its tag kept so)
            with tf.compat.v1.get_default_graph().name_scope(""):
                v1.summary.scalar(_summary_key(self.head_name, "loss"), tf.identity(normalized))
        return ModelFnOps(mode, predictions=predictions, loss=loss, train_op=train_op,
                          eval_metric_ops=metrics,
                          output_alternatives={self.head_name: (self._problem_type, exported)})


def _classification_alternative(predictions, label_keys=None):
    """A classification head's exported tensors: its probabilities and, as Servo wants them,
    string `classes` of the same shape (label_keys, else the class ids), as TF 1.15 made them."""
    probabilities = predictions["probabilities"]
    with tf.name_scope("_classification_output_alternatives"):
        rows = tf.shape(probabilities)[0]
        if label_keys:
            classes = tf.tile(tf.expand_dims(tf.constant(list(label_keys)), 0), [rows, 1],
                              name="classes_tensor")
        else:
            ids = tf.range(tf.shape(probabilities)[1])
            classes = tf.strings.as_string(tf.tile(tf.expand_dims(ids, 0), [rows, 1]),
                                           name="classes_tensor")
    return {"probabilities": probabilities, "classes": classes}


def _summary_key(head_name, key):
    return f"{key}/{head_name}" if head_name else key


def _mean_loss(per_example, weights):
    """The `loss` metric, as TF 1.15's: the mean over the batches of each batch's weighted
    average loss (a custom loss_fn's scalar as it came), not a mean over all examples."""
    if per_example.shape.rank == 0:
        return v1.metrics.mean(per_example)
    weighted = tf.reduce_sum(per_example * weights) / tf.reduce_sum(weights)
    return v1.metrics.mean(weighted)


def _class_means(class_id, weights, labels, classes, probabilities, logits):
    """The per-class means of `metric_class_ids`, in TF 1.15's order: the predicted
    classes', the labels', the probabilities' and the logits'. `labels` and `classes` hold
    1.0 where they are `class_id` (multi_class_head) or the 0/1 column (multi_label_head)."""
    return {
        f"labels/prediction_mean/class{class_id}": v1.metrics.mean(classes, weights),
        f"labels/actual_label_mean/class{class_id}": v1.metrics.mean(labels, weights),
        f"labels/probability_mean/class{class_id}": v1.metrics.mean(
            probabilities[:, class_id], weights),
        f"labels/logits_mean/class{class_id}": v1.metrics.mean(logits[:, class_id], weights),
    }


def _checked_class_ids(metric_class_ids, n_classes):
    class_ids = tuple(metric_class_ids or ())
    for class_id in class_ids:
        if class_id < 0 or class_id >= n_classes:
            raise ValueError(f"Class ID {class_id} not in [0, {n_classes}).")
    return class_ids


class _RegressionHead(_Head):
    _default_scope = "regression_head"
    _loss_name = "mean_squared_loss"
    _problem_type = ProblemType.LINEAR_REGRESSION

    def __init__(self, label_name, weight_column_name, label_dimension, enable_centered_bias,
                 head_name, link_fn):
        super().__init__(label_dimension, label_name, weight_column_name, head_name,
                         enable_centered_bias)
        self._link_fn = link_fn or tf.identity

    def _predictions(self, logits):
        with tf.name_scope("predictions"):
            if self._logits_dimension == 1:
                logits = tf.squeeze(logits, axis=[1], name="scores")
            return {"scores": self._link_fn(logits)}

    def _per_label_loss(self, labels, logits):
        labels = tf.cast(tf.reshape(labels, tf.shape(logits)), logits.dtype)
        return tf.square(logits - labels)

    def _per_example_loss(self, labels, logits):
        return tf.reduce_mean(self._per_label_loss(labels, logits), axis=-1)

    def _metrics(self, per_example, weights, labels, predictions):
        return {"loss": _mean_loss(per_example, weights)}

    def _exported(self, predictions):
        return {"scores": predictions["scores"]}


class _PoissonRegressionHead(_RegressionHead):
    _loss_name = "_poisson_loss"

    def __init__(self, label_name, weight_column_name, label_dimension, enable_centered_bias,
                 head_name):
        super().__init__(label_name, weight_column_name, label_dimension,
                         enable_centered_bias, head_name, tf.exp)

    def _per_label_loss(self, labels, logits):
        labels = tf.cast(tf.reshape(labels, tf.shape(logits)), logits.dtype)
        return tf.nn.log_poisson_loss(labels, logits, compute_full_loss=True)


class _MultiLabelHead(_Head):
    _default_scope = "multi_label_head"
    _loss_name = "sigmoid_cross_entropy_loss"
    _problem_type = ProblemType.CLASSIFICATION

    def __init__(self, n_classes, label_name, weight_column_name, enable_centered_bias,
                 head_name, metric_class_ids, loss_fn):
        super().__init__(n_classes, label_name, weight_column_name, head_name,
                         enable_centered_bias, loss_fn)
        self._metric_class_ids = _checked_class_ids(metric_class_ids, n_classes)

    def _predictions(self, logits):
        with tf.name_scope("predictions"):
            return {"logits": logits,
                    "probabilities": tf.sigmoid(logits, name="probabilities"),
                    "classes": tf.cast(tf.greater(logits, 0), tf.int64, name="classes")}

    def _sparse_labels(self, labels):
        """Each example's class ids (a VarLenFeature's): their indicator, as TF 1.15 took them."""
        return tf.cast(tf.sparse.to_indicator(labels, self._logits_dimension), tf.int64)

    def _per_label_loss(self, labels, logits):
        labels = tf.cast(tf.reshape(labels, tf.shape(logits)), logits.dtype)
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)

    def _per_example_loss(self, labels, logits):
        return tf.reduce_mean(self._per_label_loss(labels, logits), axis=-1)

    def _metrics(self, per_example, weights, labels, predictions):
        probabilities = predictions["probabilities"]
        labels = tf.cast(tf.reshape(labels, tf.shape(probabilities)), tf.int64)
        loss = _mean_loss(per_example, weights)
        if weights.shape.rank == 1:
            weights = tf.reshape(weights, [-1, 1])
        weights = weights * tf.ones_like(probabilities)
        metrics = {
            "loss": loss,
            "accuracy": v1.metrics.accuracy(labels, predictions["classes"], weights),
            "auc": v1.metrics.auc(labels, probabilities, weights),
            "auc_precision_recall": v1.metrics.auc(labels, probabilities, weights,
                                                   curve="PR"),
        }
        classes = tf.cast(predictions["classes"], tf.float32)
        for i in self._metric_class_ids:
            metrics.update(_class_means(i, weights[:, i], tf.cast(labels[:, i], tf.float32),
                                        classes[:, i], probabilities, predictions["logits"]))
            positive = tf.cast(labels[:, i], tf.bool)
            metrics[f"auc/class{i}"] = v1.metrics.auc(positive, probabilities[:, i],
                                                      weights[:, i])
            metrics[f"auc_precision_recall/class{i}"] = v1.metrics.auc(
                positive, probabilities[:, i], weights[:, i], curve="PR")
        return metrics

    def _exported(self, predictions):
        return _classification_alternative(predictions)


class _BinaryLogisticHead(_Head):
    _default_scope = "binary_logistic_head"
    _loss_name = "log_loss_with_two_classes"
    _problem_type = ProblemType.LOGISTIC_REGRESSION

    def __init__(self, label_name, weight_column_name, enable_centered_bias, head_name,
                 thresholds, loss_fn):
        super().__init__(1, label_name, weight_column_name, head_name, enable_centered_bias,
                         loss_fn)
        self._thresholds = list(thresholds) if thresholds else [0.5]

    def _predictions(self, logits):
        with tf.name_scope("predictions"):
            two_class_logits = tf.concat([tf.zeros_like(logits), logits], 1)
            return {"logits": logits, "logistic": tf.sigmoid(logits, name="logistic"),
                    "probabilities": tf.nn.softmax(two_class_logits, name="probabilities"),
                    "classes": tf.argmax(two_class_logits, 1, name="classes")}

    def _per_example_loss(self, labels, logits):
        labels = tf.cast(tf.reshape(labels, tf.shape(logits)), logits.dtype)
        return tf.reshape(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels,
                                                                  logits=logits), [-1])

    def _metrics(self, per_example, weights, labels, predictions):
        logistic = predictions["logistic"]
        labels = tf.cast(tf.reshape(labels, tf.shape(logistic)), tf.float32)
        classes = tf.reshape(predictions["classes"], tf.shape(logistic))
        loss = _mean_loss(per_example, weights)
        weights = tf.reshape(weights, tf.shape(logistic))
        metrics = {
            "loss": loss,
            "accuracy": v1.metrics.accuracy(labels, classes, weights),
            "labels/prediction_mean": v1.metrics.mean(logistic, weights),
            "labels/actual_label_mean": v1.metrics.mean(labels, weights),
            "accuracy/baseline_label_mean": v1.metrics.mean(labels, weights),
            "auc": v1.metrics.auc(labels, logistic, weights),
            "auc_precision_recall": v1.metrics.auc(labels, logistic, weights, curve="PR"),
        }
        for threshold in self._thresholds:
            tag = "%f" % threshold
            positive = tf.cast(tf.greater_equal(logistic, threshold), tf.float32)
            metrics[f"accuracy/threshold_{tag}_mean"] = v1.metrics.accuracy(labels, positive,
                                                                            weights)
            for kind, fn in (("precision", v1.metrics.precision_at_thresholds),
                             ("recall", v1.metrics.recall_at_thresholds)):
                value, update = fn(labels, logistic, [threshold], weights)
                metrics[f"{kind}/positive_threshold_{tag}_mean"] = (tf.squeeze(value, 0),
                                                                    tf.squeeze(update, 0))
        return metrics

    def _exported(self, predictions):
        return _classification_alternative(predictions)


class _MultiClassHead(_Head):
    _default_scope = "multi_class_head"
    _loss_name = "softmax_cross_entropy_loss"
    _problem_type = ProblemType.CLASSIFICATION

    def __init__(self, n_classes, label_name, weight_column_name, enable_centered_bias,
                 head_name, metric_class_ids, loss_fn, label_keys):
        super().__init__(n_classes, label_name, weight_column_name, head_name,
                         enable_centered_bias, loss_fn)
        self._metric_class_ids = _checked_class_ids(metric_class_ids, n_classes)
        if label_keys and len(label_keys) != n_classes:
            raise ValueError("Length of label_keys must equal n_classes.")
        self._label_keys = label_keys

    def _labels(self, labels):
        """The labels as given and their class ids (looked up in `label_keys` when given)."""
        labels = super()._labels(labels)
        if self._label_keys:
            table = lookup_ops.index_table_from_tensor(self._label_keys,
                                                       name="label_id_lookup")
            return {"labels": labels, "label_ids": table.lookup(labels)}
        return {"labels": labels, "label_ids": labels}

    def _loss_labels(self, labels):
        return labels["label_ids"]

    def _predictions(self, logits):
        with tf.name_scope("predictions"):
            classes = tf.argmax(logits, 1, name="classes")
            if self._label_keys:  # the classes' strings
                classes = lookup_ops.index_to_string_table_from_tensor(
                    self._label_keys, name="class_string_lookup").lookup(classes)
            return {"logits": logits,
                    "probabilities": tf.nn.softmax(logits, name="probabilities"),
                    "classes": classes}

    def _per_example_loss(self, labels, logits):
        ids = tf.reshape(tf.cast(labels["label_ids"], tf.int64), [-1])
        return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=ids, logits=logits)

    def _metrics(self, per_example, weights, labels, predictions):
        classes = predictions["classes"]
        loss = _mean_loss(per_example, weights)
        if self._label_keys:  # TF 1.15 added per-class metrics only for class ids
            return {"loss": loss, "accuracy": v1.metrics.accuracy(
                tf.reshape(labels["labels"], [-1]), classes, weights)}
        ids = tf.reshape(tf.cast(labels["label_ids"], tf.int64), [-1])
        metrics = {"loss": loss, "accuracy": v1.metrics.accuracy(ids, classes, weights)}
        for i in self._metric_class_ids:
            metrics.update(_class_means(
                i, weights, tf.cast(tf.equal(ids, i), tf.float32),
                tf.cast(tf.equal(classes, i), tf.float32), predictions["probabilities"],
                predictions["logits"]))
        return metrics

    def _exported(self, predictions):
        return _classification_alternative(predictions, self._label_keys)


def _loss_fn_arguments(loss_fn):
    """The positional parameters' names of a function, a partial's function or a callable
    object's `__call__` (TF 1.15's lookup)."""
    loss_fn = inspect.unwrap(loss_fn)
    if hasattr(loss_fn, "__code__"):
        return inspect.getfullargspec(loss_fn).args
    if isinstance(loss_fn, functools.partial):
        return _loss_fn_arguments(loss_fn.func)
    return _loss_fn_arguments(loss_fn.__call__)


def _check_loss_fn(loss_fn):
    """A custom loss_fn(labels, logits, weights): TF 1.15 asked for the three by name
    (weights may have a default) and called it with weights only given a weight column."""
    if loss_fn:
        arguments = _loss_fn_arguments(loss_fn)
        for name in ("labels", "logits", "weights"):
            if name not in arguments:
                raise ValueError(f"Argument {name} not found in loss_fn.")
    return loss_fn or None


def regression_head(label_name=None, weight_column_name=None, label_dimension=1,
                    enable_centered_bias=False, head_name=None, link_fn=None):
    """A head for (multi-dimensional) regression with the mean squared error."""
    return _RegressionHead(label_name, weight_column_name, label_dimension,
                           enable_centered_bias, head_name, link_fn)


def poisson_regression_head(label_name=None, weight_column_name=None, label_dimension=1,
                            enable_centered_bias=False, head_name=None):
    """A regression head for counts: scores `exp(logits)`, the full Poisson loss."""
    return _PoissonRegressionHead(label_name, weight_column_name, label_dimension,
                                  enable_centered_bias, head_name)


def multi_label_head(n_classes, label_name=None, weight_column_name=None,
                     enable_centered_bias=False, head_name=None, thresholds=None,
                     metric_class_ids=None, loss_fn=None):
    """A head for several independent 0/1 labels (sigmoid cross entropy). `thresholds` is
    accepted and unused, as in TF 1.15."""
    if n_classes < 2:
        raise ValueError("n_classes must be > 1 for classification.")
    return _MultiLabelHead(n_classes, label_name, weight_column_name, enable_centered_bias,
                           head_name, metric_class_ids, _check_loss_fn(loss_fn))


def multi_class_head(n_classes, label_name=None, weight_column_name=None,
                     enable_centered_bias=False, head_name=None, thresholds=None,
                     metric_class_ids=None, loss_fn=None, label_keys=None):
    """A head for classification: binary logistic for 2 classes, softmax above (where
    `thresholds` is accepted and unused, as in TF 1.15)."""
    if n_classes is None or n_classes < 2:
        raise ValueError(f"n_classes must be > 1 for classification: {n_classes}.")
    loss_fn = _check_loss_fn(loss_fn)
    if n_classes == 2:
        if metric_class_ids:
            raise ValueError("metric_class_ids invalid for n_classes==2.")
        if label_keys:
            raise ValueError("label_keys is not supported for n_classes=2.")
        return _BinaryLogisticHead(label_name, weight_column_name, enable_centered_bias,
                                   head_name, thresholds, loss_fn)
    return _MultiClassHead(n_classes, label_name, weight_column_name, enable_centered_bias,
                           head_name, metric_class_ids, loss_fn, label_keys)


class _MultiHead(Head):
    """Several named heads over one model: see `multi_head`."""

    def __init__(self, heads, loss_weights):
        self._heads = list(heads)
        for head in self._heads:
            if not getattr(head, "head_name", None):
                raise ValueError("Members of MultiHead must have names.")
        if loss_weights and len(loss_weights) != len(self._heads):
            raise ValueError("heads and loss_weights must have same size")
        self._loss_weights = loss_weights
        self._logits_dimension = sum(head.logits_dimension for head in self._heads)

    @property
    def logits_dimension(self):
        return self._logits_dimension

    def _merged_loss(self, losses):
        if self._loss_weights:
            losses = [tf.multiply(loss, weight)
                      for loss, weight in zip(losses, self._loss_weights)]
        return tf.math.add_n(losses)

    def _split(self, logits):
        if isinstance(logits, dict):
            return [logits[head.head_name] for head in self._heads]
        parts, begin = [], 0
        for head in self._heads:
            parts.append(tf.slice(logits, [0, begin], [-1, head.logits_dimension]))
            begin += head.logits_dimension
        return parts

    def create_model_fn_ops(self, features, mode, labels=None, train_op_fn=None, logits=None,
                            logits_input=None, scope=None):
        if mode not in (ModeKeys.TRAIN, ModeKeys.EVAL, ModeKeys.INFER):
            raise ValueError(f"mode={mode} unrecognized.")
        no_op = lambda loss: tf.no_op()  # the heads' own train ops
        if logits is None:
            ops = [head.create_model_fn_ops(features, mode, labels, no_op,
                                            logits_input=logits_input, scope=scope)
                   for head in self._heads]
        else:
            ops = [head.create_model_fn_ops(features, mode, labels, no_op, logits=part,
                                            scope=scope)
                   for head, part in zip(self._heads, self._split(logits))]
        names = [head.head_name for head in self._heads]
        if mode == ModeKeys.INFER:
            return ModelFnOps(mode, predictions={
                (name, k): v for name, o in zip(names, ops) for k, v in o.predictions.items()},
                output_alternatives={name: o.output_alternatives[name]
                                     for name, o in zip(names, ops)})
        metrics = {k: v for o in ops for k, v in o.eval_metric_ops.items()}
        loss = self._merged_loss([o.loss for o in ops])
        if mode == ModeKeys.EVAL:
            return ModelFnOps(mode, loss=loss, eval_metric_ops=metrics, predictions={
                (name, k): v for name, o in zip(names, ops) for k, v in o.predictions.items()})
        if train_op_fn is None:
            raise ValueError("train_op_fn can not be None in TRAIN mode.")
        train_op = tf.group(train_op_fn(loss), *[o.train_op for o in ops])
        return ModelFnOps(mode, loss=loss, train_op=train_op, eval_metric_ops=metrics)


def multi_head(heads, loss_weights=None):
    """One head of several named heads (`head_name=`); the loss is their sum, each weighted
    by `loss_weights` when given."""
    return _MultiHead(heads, loss_weights)
