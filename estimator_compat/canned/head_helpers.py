"""The helpers of `tensorflow_estimator.python.estimator.head.base_head` that libraries' own
heads (subclasses of tf.estimator.Head: TF-Ranking's, recommenders') call: label / logits /
weight checks, the loss_fn call, the classification export output, metric updates with
broadcast weights, the training summaries and train op of a head's EstimatorSpec."""
import keras
import tensorflow as tf

from estimator_compat.canned.heads.base import check_loss_fn
from estimator_compat.canned.keys import MetricKeys
from estimator_compat.canned.optimizers import get_optimizer
from estimator_compat.export.outputs import ClassificationOutput
from estimator_compat.fn_args import fn_args

v1 = tf.compat.v1
_V2_REDUCTIONS = ("auto", "sum", "sum_over_batch_size")


def validate_loss_fn_args(loss_fn):
    """loss_fn takes `labels` and `logits`, and `features` at most besides."""
    check_loss_fn(loss_fn)


def validate_loss_reduction(loss_reduction):
    if loss_reduction not in _V2_REDUCTIONS:
        raise ValueError(f"Invalid loss_reduction: {loss_reduction}. See `tf.losses.Reduction` "
                         f"for valid options (one of {_V2_REDUCTIONS}).")


def validate_n_classes(n_classes):
    """n_classes (an int or a scalar tensor) must be > 2; returns it (a tensor checked when
    its value is only known at run time)."""
    if isinstance(n_classes, int):
        if n_classes <= 2:
            raise ValueError(f"n_classes must be > 2: {n_classes}.")
        return n_classes
    n_classes = tf.convert_to_tensor(n_classes)
    static = tf.get_static_value(n_classes)
    if static is not None:
        if static <= 2:
            raise ValueError(f"n_classes must be > 2: {static}.")
        return n_classes
    check = tf.debugging.assert_greater(n_classes, tf.constant(2, n_classes.dtype),
                                        message="n_classes must be greater than 2")
    with tf.control_dependencies([check]):
        return tf.identity(n_classes)


def validate_trainable_variables(trainable_variables=None):
    if trainable_variables is None:
        raise ValueError("trainable_variables cannot be None. Given None.")
    if not isinstance(trainable_variables, (list, tuple)):
        raise ValueError("trainable_variables should be a list or a tuple. Given "
                         f"{trainable_variables}")


def validate_update_ops(update_ops=None):
    if update_ops is not None and not isinstance(update_ops, (list, tuple)):
        raise ValueError(f"update_ops should be a list or a tuple. Given {update_ops}")


def validate_v2_optimizer(optimizer):
    if not isinstance(optimizer, keras.optimizers.Optimizer):
        raise ValueError("The given optimizer is not a tf.keras.optimizers.Optimizer instance. "
                         f"Given: {optimizer}")


def check_prediction_keys(pred_keys, valid_keys):
    for key in pred_keys:
        if key not in valid_keys:
            raise ValueError(f"Prediction key must be in PredictionKeys, given: {key}. Valid "
                             f"prediction keys include {valid_keys}.")


def _shape_check(tensor, expected, message):
    """`tensor` after a run-time check that its shape equals `expected` (a 1-D int tensor)."""
    check = tf.debugging.assert_equal(tf.shape(tensor), expected, message=message)
    with tf.control_dependencies([check]):
        return tf.identity(tensor)


def check_logits_final_dim(logits, expected_logits_dimension):
    """Float logits of shape [D0, ..., DN, expected_logits_dimension], N >= 1."""
    logits = tf.cast(tf.convert_to_tensor(logits), tf.float32)
    rank, last = logits.shape.rank, logits.shape[-1] if logits.shape.rank else None
    if rank is not None and rank < 2:
        raise ValueError(f"logits must have rank at least 2, got shape {logits.shape}.")
    if last is not None and last != expected_logits_dimension:
        raise ValueError("logits shape must be [D0, D1, ... DN, logits_dimension], got "
                         f"{logits.shape}, logits_dimension {expected_logits_dimension}.")
    check = tf.debugging.assert_equal(
        tf.shape(logits)[-1], expected_logits_dimension,
        message="logits shape must be [D0, D1, ... DN, logits_dimension]")
    with tf.control_dependencies([check]):
        return tf.identity(logits)


def check_dense_labels_match_logits_and_reshape(labels, logits, expected_labels_dimension):
    """Dense labels [D0, ..., DN, expected_labels_dimension] matching the logits' leading
    dimensions; [D0] labels are expanded to [D0, 1]."""
    if labels is None:
        raise ValueError("You must provide a labels Tensor. Given: None. Suggested Fix: check "
                         "that your input_fn returns (features, labels).")
    if isinstance(labels, (tf.SparseTensor, v1.SparseTensorValue)):
        raise ValueError("SparseTensor labels are not supported. Labels must be a Tensor of "
                         f"shape [D0, D1, ..., DN, {expected_labels_dimension}], e.g. "
                         f"[batch_size, {expected_labels_dimension}]. Suggested Fix: convert "
                         "them with tf.sparse.to_dense.")
    labels = tf.convert_to_tensor(labels)
    logits = tf.convert_to_tensor(logits)
    if labels.shape.rank == 1 and expected_labels_dimension == 1:
        labels = tf.expand_dims(labels, -1)
    if labels.shape.rank is not None and logits.shape.rank is not None:
        static_labels = labels.shape.as_list()
        if labels.shape.rank != logits.shape.rank or (
                static_labels[-1] is not None and static_labels[-1] != expected_labels_dimension):
            raise ValueError(f"Mismatched label shape. Expected labels dimension="
                             f"{expected_labels_dimension}. Received labels shape "
                             f"{labels.shape}, logits shape {logits.shape}.")
    expected = tf.concat([tf.shape(logits)[:-1], [expected_labels_dimension]], axis=0)
    return _shape_check(labels, expected, "labels shape must be [D0, D1, ... DN, "
                                          f"{expected_labels_dimension}]")


def check_label_range(labels, n_classes, message=None):
    """`labels` after a run-time check that they lie in [0, n_classes)."""
    upper = tf.debugging.assert_less(
        labels, tf.cast(n_classes, labels.dtype),
        message=message or "Labels must be <= n_classes - 1")
    lower = tf.debugging.assert_non_negative(labels, message=message or "Labels must be >= 0")
    with tf.control_dependencies([upper, lower]):
        return tf.identity(labels)


def get_weights_and_check_match_logits(features, weight_column, logits,
                                       allow_per_logit_weights=False):
    """1.0 without weight_column, else the weight feature as float, shaped [D0, ..., DN, 1]
    (or [D0, ..., DN, logits_dimension] with allow_per_logit_weights)."""
    if weight_column is None:
        return 1.0
    key = weight_column if isinstance(weight_column, str) else weight_column.key
    if key not in features:
        raise ValueError(f"weight_column {key!r} is not in features: {sorted(features)}")
    weights = tf.cast(tf.convert_to_tensor(features[key]), tf.float32)
    logits = tf.convert_to_tensor(logits)
    if weights.shape.rank is not None and logits.shape.rank is not None and \
            weights.shape.rank == logits.shape.rank - 1:
        weights = tf.expand_dims(weights, -1)
    leading = tf.shape(logits)[:-1]
    if allow_per_logit_weights:
        last = tf.shape(weights)[-1]
        ok = tf.logical_or(tf.equal(last, 1), tf.equal(last, tf.shape(logits)[-1]))
        check = tf.debugging.Assert(ok, ["weights shape must be [D0, D1, ... DN], "
                                         "[D0, D1, ... DN, 1] or [D0, D1, ... DN, "
                                         "logits_dimension]", tf.shape(weights)])
        with tf.control_dependencies([check]):
            return _shape_check(weights, tf.concat([leading, [last]], 0),
                                "weights shape must match the logits' leading dimensions")
    return _shape_check(weights, tf.concat([leading, [1]], 0),
                        "weights shape must be [D0, D1, ... DN] or [D0, D1, ... DN, 1]")


def call_loss_fn(loss_fn, labels, logits, features, expected_loss_dim=1):
    """loss_fn(labels=, logits=[, features=]) as float, checked to be
    [D0, ..., DN, expected_loss_dim]."""
    kwargs = {"labels": labels, "logits": logits}
    if "features" in fn_args(loss_fn):
        kwargs["features"] = features
    loss = tf.cast(tf.convert_to_tensor(loss_fn(**kwargs)), tf.float32)
    expected = tf.concat([tf.shape(logits)[:-1], [expected_loss_dim]], axis=0)
    return _shape_check(loss, expected, "loss_fn must return Tensor of shape "
                                        f"[D0, D1, ... DN, {expected_loss_dim}]")


def all_class_ids(logits, n_classes):
    """[batch, n_classes] int32: every row 0 .. n_classes - 1."""
    return tf.tile(tf.range(n_classes, dtype=tf.int32)[None, :], [tf.shape(logits)[0], 1])


def all_classes(logits, n_classes, label_vocabulary=None):
    """[batch, n_classes] strings: the vocabulary, or the class ids as strings."""
    names = tf.constant(label_vocabulary) if label_vocabulary else \
        tf.strings.as_string(tf.range(n_classes))
    return tf.tile(names[None, :], [tf.shape(logits)[0], 1])


def classification_output(scores, n_classes, label_vocabulary=None):
    """A ClassificationOutput of `scores` with every class name per row."""
    return ClassificationOutput(scores=scores,
                                classes=all_classes(scores, n_classes, label_vocabulary))


def update_metric_with_broadcast_weights(eval_metric, values, weights):
    """eval_metric.update_state(values) with `weights` broadcast to the values' shape."""
    values = tf.cast(values, tf.float32)
    if weights is not None:
        weights = tf.broadcast_to(tf.cast(weights, tf.float32), tf.shape(values))
    return eval_metric.update_state(values, sample_weight=weights)


def create_eval_metrics_tuple(fn, kwargs):
    """(metric fn over the tensor kwargs only, those tensor kwargs): the other kwargs are
    bound into the fn (TPUEstimatorSpec.eval_metrics' form)."""
    tensors = {k: v for k, v in kwargs.items() if tf.is_tensor(v)}
    fixed = {k: v for k, v in kwargs.items() if not tf.is_tensor(v)}

    def metric_fn(**given):
        return fn(**dict(fixed, **given))
    return metric_fn, tensors


def create_estimator_spec_summary(regularized_training_loss, regularization_losses=None,
                                  summary_key_fn=None):
    """The training summaries at the top name scope: `loss` and `regularization_loss`."""
    key = summary_key_fn or (lambda k: k)
    with v1.name_scope(None):
        v1.summary.scalar(key(MetricKeys.LOSS), regularized_training_loss)
        if regularization_losses is not None:
            v1.summary.scalar(key(MetricKeys.LOSS_REGULARIZATION),
                              tf.add_n(list(regularization_losses)))


def create_estimator_spec_train_op(head_name, optimizer=None, trainable_variables=None,
                                   train_op_fn=None, update_ops=None,
                                   regularized_training_loss=None,
                                   loss_reduction="sum_over_batch_size"):
    """The train op: the Keras `optimizer` minimizing the loss over trainable_variables (and
    advancing the global step, as estimator_compat's heads do), or train_op_fn(loss); grouped
    with update_ops."""
    validate_update_ops(update_ops)
    with tf.name_scope(head_name or "head"):
        if optimizer is not None:
            if train_op_fn is not None:
                raise ValueError("train_op_fn and optimizer cannot both be set.")
            validate_v2_optimizer(optimizer)
            validate_trainable_variables(trainable_variables)
            train_op = get_optimizer(optimizer, None).minimize(
                regularized_training_loss, var_list=list(trainable_variables),
                global_step=v1.train.get_global_step())
        elif train_op_fn is not None:
            train_op = train_op_fn(regularized_training_loss)
        else:
            raise ValueError("train_op_fn and optimizer cannot both be None.")
        if update_ops is not None:
            train_op = tf.group(train_op, *update_ops)
        return train_op
