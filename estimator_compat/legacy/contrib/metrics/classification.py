"""contrib's classification helpers: `accuracy` (one batch, no state), `cohen_kappa` (variables
`po`, `pe_row`, `pe_col`), `count`, `confusion_matrix`, the `set_*` ops, the at-top-k average
precision and the `aggregate_*` helpers."""
import tensorflow as tf

from estimator_compat.legacy.contrib.metrics import variables as mv

_v1 = tf.compat.v1


def accuracy(predictions, labels, weights=None, name=None):
    """The (weighted) fraction of predictions equal to labels, in this batch only."""
    with tf.name_scope(name or "accuracy"):
        predictions, labels = tf.convert_to_tensor(predictions), tf.convert_to_tensor(labels)
        if predictions.dtype != labels.dtype:
            raise ValueError(f"predictions ({predictions.dtype.name}) and labels "
                             f"({labels.dtype.name}) must have the same dtype")
        predictions.shape.assert_is_compatible_with(labels.shape)
        correct = tf.cast(tf.equal(predictions, labels), tf.float32)
        if weights is None:
            return tf.reduce_mean(correct)
        weights = tf.cast(weights, tf.float32) * tf.ones_like(correct)
        return tf.reduce_sum(correct * weights) / tf.reduce_sum(weights)


def cohen_kappa(labels, predictions_idx, num_classes, weights=None, metrics_collections=None,
                updates_collections=None, name=None):
    """Cohen's kappa of the class ids over the stream (float64)."""
    if num_classes < 2:
        raise ValueError(f"num_classes must be at least 2, got {num_classes}")
    with _v1.variable_scope(name, "cohen_kappa", (labels, predictions_idx, weights)):
        labels, predictions_idx = mv.squeeze_pair(tf.convert_to_tensor(labels),
                                                  tf.convert_to_tensor(predictions_idx))
        predictions_idx.shape.assert_is_compatible_with(labels.shape)
        for t in (labels, predictions_idx):
            if not t.dtype.is_integer:
                raise ValueError(f"cohen_kappa needs integer class ids, got {t.dtype.name}")
        labels = tf.reshape(tf.cast(labels, tf.int64), [-1])
        preds = tf.reshape(tf.cast(predictions_idx, tf.int64), [-1])
        w = tf.cast(mv.flat_weights(weights, labels), tf.float64)
        po = mv.metric_variable([num_classes], tf.float64, "po")
        pe_row = mv.metric_variable([num_classes], tf.float64, "pe_row")
        pe_col = mv.metric_variable([num_classes], tf.float64, "pe_col")
        agree = tf.where(tf.equal(labels, preds), w, tf.zeros_like(w))
        updates = (_v1.assign_add(po, tf.math.unsorted_segment_sum(agree, labels, num_classes)),
                   _v1.assign_add(pe_row, tf.math.unsorted_segment_sum(w, labels, num_classes)),
                   _v1.assign_add(pe_col, tf.math.unsorted_segment_sum(w, preds, num_classes)))

        def kappa(po_t, pe_row_t, pe_col_t, name):
            total = tf.reduce_sum(pe_row_t)
            observed = tf.math.divide_no_nan(tf.reduce_sum(po_t), total)
            expected = tf.math.divide_no_nan(tf.reduce_sum(pe_row_t * pe_col_t), total * total)
            return tf.math.divide_no_nan(observed - expected, 1.0 - expected, name=name)
        value = kappa(po, pe_row, pe_col, "value")
        update = kappa(*updates, "update_op")
        mv.add_to_collections(metrics_collections, value)
        mv.add_to_collections(updates_collections, update)
        return value, update


def count(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The number (or total weight) of the values seen."""
    with _v1.variable_scope(name, "count", (values, weights)):
        values = tf.convert_to_tensor(values)
        total = mv.metric_variable([], tf.float32, "count")
        batch = (tf.cast(tf.size(values), tf.float32) if weights is None
                 else tf.reduce_sum(mv.flat_weights(weights, values)))
        update = _v1.assign_add(total, batch)
        value = tf.identity(total)
        mv.add_to_collections(metrics_collections, value)
        mv.add_to_collections(updates_collections, update)
        return value, update


def confusion_matrix(labels, predictions, num_classes=None, dtype=tf.int32, name=None,
                     weights=None):
    """tf.math.confusion_matrix with contrib's argument order (dtype before weights)."""
    return _v1.confusion_matrix(labels, predictions, num_classes=num_classes, dtype=dtype,
                                name=name, weights=weights)


def _dense_label_ids(labels):
    if isinstance(labels, (tf.SparseTensor, _v1.SparseTensorValue)):
        return tf.sparse.to_dense(tf.sparse.reorder(tf.SparseTensor.from_value(labels)), -1)
    labels = tf.convert_to_tensor(labels)
    return labels


def streaming_sparse_average_precision_at_top_k(top_k_predictions, labels, weights=None,
                                                metrics_collections=None,
                                                updates_collections=None, name=None):
    """Mean average precision of the given top-k class ids (variables `max`, `total`)."""
    with _v1.variable_scope(name, "average_precision_at_top_k",
                            (top_k_predictions, labels, weights)):
        top = tf.cast(tf.convert_to_tensor(top_k_predictions), tf.int64)
        if top.shape.rank is None or top.shape.rank < 1 or top.shape[-1] is None:
            raise ValueError("top_k_predictions must have a known last dimension (k), got "
                             f"shape {top.shape}")
        k = top.shape[-1]
        ids = tf.cast(_dense_label_ids(labels), tf.int64)
        if ids.shape.rank == top.shape.rank - 1:
            ids = tf.expand_dims(ids, -1)
        flat_top, flat_ids = tf.reshape(top, [-1, k]), tf.reshape(ids, [tf.shape(top)[0], -1])
        relevant = tf.reduce_any(tf.equal(flat_top[:, :, None], flat_ids[:, None, :])
                                 & (flat_ids[:, None, :] >= 0), -1)
        hits = tf.cast(relevant, tf.float64)
        precision_at = tf.cumsum(hits, 1) / tf.range(1.0, k + 1.0, dtype=tf.float64)
        label_sets = tf.sets.size(tf.sets.intersection(flat_ids, flat_ids))
        num_labels = tf.cast(tf.minimum(label_sets, k), tf.float64)
        # a row without labels scores 0 and still counts (TF1's behaviour)
        ap = tf.math.divide_no_nan(tf.reduce_sum(precision_at * hits, 1), num_labels)
        rows = tf.reshape(tf.reduce_sum(tf.zeros_like(top[..., :1], tf.float64), -1), [-1])
        w = tf.cast(mv.flat_weights(weights, rows), tf.float64)
        max_var = mv.metric_variable([], tf.float64, "max")
        total = mv.metric_variable([], tf.float64, "total")
        update_max = _v1.assign_add(max_var, tf.reduce_sum(w))
        update_total = _v1.assign_add(total, tf.reduce_sum(ap * w))
        value = tf.math.divide_no_nan(total, max_var, name="value")
        update = tf.math.divide_no_nan(update_total, update_max, name="update_op")
        mv.add_to_collections(metrics_collections, value)
        mv.add_to_collections(updates_collections, update)
        return value, update


def aggregate_metrics(*value_update_tuples):
    """[(value, update), ...] → (values, updates)."""
    if not value_update_tuples:
        raise ValueError("Expected at least one value_tensor/update_op pair")
    values, updates = zip(*value_update_tuples)
    return list(values), list(updates)


def aggregate_metric_map(names_to_tuples):
    """{name: (value, update)} → ({name: value}, {name: update})."""
    return ({k: v[0] for k, v in names_to_tuples.items()},
            {k: v[1] for k, v in names_to_tuples.items()})


def set_difference(a, b, aminusb=True, validate_indices=True):
    return tf.sets.difference(a, b, aminusb=aminusb, validate_indices=validate_indices)


def set_intersection(a, b, validate_indices=True):
    return tf.sets.intersection(a, b, validate_indices=validate_indices)


def set_union(a, b, validate_indices=True):
    return tf.sets.union(a, b, validate_indices=validate_indices)


def set_size(a, validate_indices=True):
    return tf.sets.size(a, validate_indices=validate_indices)


FUNCTIONS = dict(
    accuracy=accuracy, cohen_kappa=cohen_kappa, count=count, confusion_matrix=confusion_matrix,
    streaming_sparse_average_precision_at_top_k=streaming_sparse_average_precision_at_top_k,
    aggregate_metrics=aggregate_metrics, aggregate_metric_map=aggregate_metric_map,
    set_difference=set_difference, set_intersection=set_intersection, set_union=set_union,
    set_size=set_size)
