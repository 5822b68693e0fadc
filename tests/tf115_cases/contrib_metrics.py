"""tf.contrib.metrics cases: each metric's (value, update_op) streamed over two batches, its
local variables' names (the collections) and its values, as TF 1.15 computed them."""
import numpy as np

P = np.array([0.1, 0.9, 0.45, 0.7, 0.3, 0.8, 0.55, 0.2], np.float32)
L = np.array([0, 1, 1, 1, 0, 0, 1, 0], np.int64)
W = np.array([1.0, 2.0, 1.0, 0.5, 1.0, 1.0, 2.0, 1.0], np.float32)
P2 = np.array([0.6, 0.4, 0.35, 0.9, 0.05, 0.65, 0.75, 0.25], np.float32)
LOGITS = np.array([[0.1, 0.5, 0.2, 0.9], [0.8, 0.1, 0.3, 0.2], [0.2, 0.3, 0.6, 0.1]], np.float32)
CLASSES = np.array([[3], [2], [2]], np.int64)


def _streamed(tf, metric, batches=None):
    """Run metric=(value, update) over two feeds of the placeholders (or twice) and fetch."""
    value, update = metric
    if isinstance(value, list):  # several metrics: a dict, as the record compares ragged values
        value = {"m%d" % i: v for i, v in enumerate(value)}
        update = {"m%d" % i: u for i, u in enumerate(update)}

    def run(sess):
        first = sess.run(update)
        second = sess.run(update)
        return {"first": first, "second": second, "value": sess.run(value)}
    return run


def _pl(tf):
    p = tf.constant(P)
    l = tf.constant(L)
    return p, l


def case_streaming_accuracy(tf):
    p, l = _pl(tf)
    return _streamed(tf, tf.contrib.metrics.streaming_accuracy(tf.cast(p > 0.5, tf.int64), l,
                                                              weights=tf.constant(W)))


def case_accuracy(tf):
    p, l = _pl(tf)
    return {"acc": tf.contrib.metrics.accuracy(tf.cast(p > 0.5, tf.int64), l),
            "weighted": tf.contrib.metrics.accuracy(tf.cast(p > 0.5, tf.int64), l, W)}


def case_streaming_auc_pr(tf):
    p, l = _pl(tf)
    return _streamed(tf, tf.contrib.metrics.streaming_auc(p, l, curve="PR", num_thresholds=50))


def case_streaming_precision_recall(tf):
    p, l = _pl(tf)
    b = p > 0.5
    pr = tf.contrib.metrics.streaming_precision(b, l)
    rc = tf.contrib.metrics.streaming_recall(b, l)
    return _streamed(tf, ((pr[0], rc[0]), (pr[1], rc[1])))


def case_streaming_counts(tf):
    p, l = _pl(tf)
    b = p > 0.5
    m = [tf.contrib.metrics.streaming_true_positives(b, l),
         tf.contrib.metrics.streaming_false_positives(b, l, weights=W),
         tf.contrib.metrics.streaming_true_negatives(b, l),
         tf.contrib.metrics.streaming_false_negatives(b, l)]
    return _streamed(tf, ([v for v, _ in m], [u for _, u in m]))


def case_streaming_rates(tf):
    p, l = _pl(tf)
    b = p > 0.5
    m = [tf.contrib.metrics.streaming_false_positive_rate(b, l),
         tf.contrib.metrics.streaming_false_negative_rate(b, l, weights=W)]
    return _streamed(tf, ([v for v, _ in m], [u for _, u in m]))


def case_streaming_counts_at_thresholds(tf):
    p, l = _pl(tf)
    t = [0.25, 0.5, 0.75]
    m = [tf.contrib.metrics.streaming_true_positives_at_thresholds(p, l, t),
         tf.contrib.metrics.streaming_false_positives_at_thresholds(p, l, t),
         tf.contrib.metrics.streaming_true_negatives_at_thresholds(p, l, t, weights=W),
         tf.contrib.metrics.streaming_false_negatives_at_thresholds(p, l, t)]
    return _streamed(tf, ([v for v, _ in m], [u for _, u in m]))


def case_streaming_rates_at_thresholds(tf):
    p, l = _pl(tf)
    t = [0.25, 0.5, 0.75]
    m = [tf.contrib.metrics.streaming_false_positive_rate_at_thresholds(p, l, t),
         tf.contrib.metrics.streaming_false_negative_rate_at_thresholds(p, l, t),
         tf.contrib.metrics.streaming_precision_at_thresholds(p, l, t),
         tf.contrib.metrics.streaming_recall_at_thresholds(p, l, t, weights=W)]
    return _streamed(tf, ([v for v, _ in m], [u for _, u in m]))


def case_streaming_errors(tf):
    p = tf.constant(P)
    y = tf.constant(P2)
    m = [tf.contrib.metrics.streaming_mean_absolute_error(p, y),
         tf.contrib.metrics.streaming_mean_squared_error(p, y, weights=W),
         tf.contrib.metrics.streaming_root_mean_squared_error(p, y),
         tf.contrib.metrics.streaming_mean_relative_error(p, y, normalizer=y + 1.0)]
    return _streamed(tf, ([v for v, _ in m], [u for _, u in m]))


def case_streaming_mean_and_tensor(tf):
    m = [tf.contrib.metrics.streaming_mean(tf.constant(P), weights=W),
         tf.contrib.metrics.streaming_mean_tensor(tf.constant(LOGITS)),
         tf.contrib.metrics.streaming_percentage_less(tf.constant(P), 0.5),
         tf.contrib.metrics.count(tf.constant(P), weights=W)]
    return _streamed(tf, ([v for v, _ in m], [u for _, u in m]))


def case_streaming_mean_iou_and_cosine(tf):
    p, l = _pl(tf)
    a = tf.constant(LOGITS)
    b = tf.nn.l2_normalize(a[::-1], 1)
    m = [tf.contrib.metrics.streaming_mean_iou(tf.cast(p > 0.5, tf.int64), l, num_classes=2),
         tf.contrib.metrics.streaming_mean_cosine_distance(tf.nn.l2_normalize(a, 1), b, dim=1)]
    return _streamed(tf, ([v for v, _ in m], [u for _, u in m]))


def case_streaming_covariance_pearson(tf):
    p = tf.constant(P)
    y = tf.constant(P2)
    m = [tf.contrib.metrics.streaming_covariance(p, y),
         tf.contrib.metrics.streaming_pearson_correlation(p, y, weights=W)]
    return _streamed(tf, ([v for v, _ in m], [u for _, u in m]))


def case_streaming_concat(tf):
    value, update = tf.contrib.metrics.streaming_concat(tf.constant(LOGITS[:, :2]), axis=0)
    value1, update1 = tf.contrib.metrics.streaming_concat(tf.constant(P[:3]), max_size=4,
                                                          name="bounded")

    def run(sess):
        sess.run([update, update1])
        sess.run([update, update1])
        return {"value": sess.run(value), "bounded": sess.run(value1)}
    return run


def case_streaming_curve_points(tf):
    p, l = _pl(tf)
    m = [tf.contrib.metrics.streaming_curve_points(l, p, num_thresholds=5),
         tf.contrib.metrics.streaming_curve_points(l, p, num_thresholds=4, curve="PR")]
    return _streamed(tf, ([v for v, _ in m], [u for _, u in m]))


def case_sensitivity_specificity(tf):
    p, l = _pl(tf)
    m = [tf.contrib.metrics.streaming_sensitivity_at_specificity(p, l, 0.7),
         tf.contrib.metrics.streaming_specificity_at_sensitivity(p, l, 0.6, num_thresholds=20),
         tf.contrib.metrics.precision_at_recall(l, p, 0.5),
         tf.contrib.metrics.recall_at_precision(l, p, 0.7, num_thresholds=30)]
    return _streamed(tf, ([v for v, _ in m], [u for _, u in m]))


def case_dynamic_auc(tf):
    p, l = _pl(tf)
    m = [tf.contrib.metrics.streaming_dynamic_auc(l, p),
         tf.contrib.metrics.streaming_dynamic_auc(l, p, curve="PR", weights=W)]
    return _streamed(tf, ([v for v, _ in m], [u for _, u in m]))


def case_auc_with_confidence_intervals(tf):
    p, l = _pl(tf)
    return _streamed(tf, tf.contrib.metrics.auc_with_confidence_intervals(l, p))


def case_auc_using_histogram(tf):
    p, l = _pl(tf)
    return _streamed(tf, tf.contrib.metrics.auc_using_histogram(tf.cast(l, tf.bool), p,
                                                                [0.0, 1.0], nbins=10))


def case_precision_recall_at_equal_thresholds(tf):
    p, l = _pl(tf)
    data, update = tf.contrib.metrics.precision_recall_at_equal_thresholds(
        tf.cast(l, tf.bool), p, num_thresholds=5)

    def run(sess):
        sess.run(update)
        sess.run(update)
        return {"value": dict(zip(data._fields, sess.run(list(data)))),
                "variables": [v.op.name for v in tf.local_variables()]}
    return run


def case_cohen_kappa_f1(tf):
    p, l = _pl(tf)
    m = [tf.contrib.metrics.cohen_kappa(l, tf.cast(p > 0.5, tf.int64), 2),
         tf.contrib.metrics.f1_score(l, p, num_thresholds=20)]
    return _streamed(tf, ([v for v, _ in m], [u for _, u in m]))


def case_recall_at_k(tf):
    a = tf.constant(LOGITS)
    m = [tf.contrib.metrics.streaming_recall_at_k(a, tf.constant([3, 1, 0]), 2)]
    return _streamed(tf, ([v for v, _ in m], [u for _, u in m]))


def case_sparse_at_k(tf):
    a = tf.constant(LOGITS)
    c = tf.constant(CLASSES)
    top = tf.nn.top_k(a, 2).indices
    m = [tf.contrib.metrics.streaming_sparse_precision_at_k(a, c, 2),
         tf.contrib.metrics.streaming_sparse_precision_at_k(a, c, 2, class_id=2),
         tf.contrib.metrics.streaming_sparse_recall_at_k(a, c, 1),
         tf.contrib.metrics.streaming_sparse_average_precision_at_k(a, c, 3),
         tf.contrib.metrics.streaming_sparse_precision_at_top_k(top, c),
         tf.contrib.metrics.streaming_sparse_average_precision_at_top_k(top, c),
         tf.contrib.metrics.sparse_recall_at_top_k(c, top)]
    return _streamed(tf, ([v for v, _ in m], [u for _, u in m]))


def case_confusion_matrix(tf):
    return {"cm": tf.contrib.metrics.confusion_matrix([0, 1, 2, 1], [0, 2, 2, 1]),
            "weighted": tf.contrib.metrics.confusion_matrix([0, 1, 1], [1, 1, 0], num_classes=3,
                                                           weights=[1, 2, 3])}


def case_sets(tf):
    a = tf.constant([[1, 2, 3], [4, 5, 6]])
    b = tf.constant([[2, 3, 7], [6, 6, 6]])
    dense = tf.sparse_tensor_to_dense
    return {"diff": dense(tf.contrib.metrics.set_difference(a, b)),
            "b_minus_a": dense(tf.contrib.metrics.set_difference(a, b, aminusb=False)),
            "inter": dense(tf.contrib.metrics.set_intersection(a, b)),
            "union": dense(tf.contrib.metrics.set_union(a, b)),
            "size": tf.contrib.metrics.set_size(tf.contrib.metrics.set_union(a, b))}


def case_aggregate(tf):
    p, l = _pl(tf)
    values, updates = tf.contrib.metrics.aggregate_metric_map({
        "acc": tf.contrib.metrics.streaming_accuracy(tf.cast(p > 0.5, tf.int64), l),
        "mean": tf.contrib.metrics.streaming_mean(p)})
    v2, u2 = tf.contrib.metrics.aggregate_metrics(tf.contrib.metrics.streaming_mean(l))
    return _streamed(tf, ((values, v2), (updates, u2)))


def case_collections_and_names(tf):
    p, l = _pl(tf)
    tf.contrib.metrics.streaming_accuracy(tf.cast(p > 0.5, tf.int64), l,
                                          metrics_collections=["mine"],
                                          updates_collections=["my_updates"], name="acc")
    tf.contrib.metrics.streaming_pearson_correlation(p, tf.cast(l, tf.float32), name="r",
                                                     metrics_collections=["mine"])
    return {"mine": [t.op.name for t in tf.get_collection("mine")],
            "updates": [t.op.name for t in tf.get_collection("my_updates")]}


def case_misuse_shape(tf):
    return {"x": tf.contrib.metrics.streaming_accuracy(tf.constant([1, 0, 1]),
                                                       tf.constant([1, 0]))[0]}


def case_variants(tf):
    p = tf.constant(P2)
    l = tf.constant(L)
    m = [tf.contrib.metrics.auc_with_confidence_intervals(l, p, weights=W, alpha=0.9),
         tf.contrib.metrics.auc_with_confidence_intervals(l, p, logit_transformation=False),
         tf.contrib.metrics.f1_score(l, p, weights=W),
         tf.contrib.metrics.recall_at_precision(l, p, 0.7, strict_mode=True),
         tf.contrib.metrics.recall_at_precision(l, p, 0.95, strict_mode=True),
         tf.contrib.metrics.streaming_concat(tf.reshape(p, [2, 4]), axis=1),
         tf.contrib.metrics.cohen_kappa(l, tf.cast(p > 0.3, tf.int64), 2, weights=W),
         tf.contrib.metrics.streaming_covariance(p, tf.constant(P), weights=W)]
    values = [v for v, _ in m]
    updates = [u for _, u in m]
    data, pr_update = tf.contrib.metrics.precision_recall_at_equal_thresholds(
        tf.cast(l, tf.bool), p, weights=W, num_thresholds=7)
    values.append(data.precision)
    values.append(data.tn)
    updates += [pr_update, tf.no_op()]

    def run(sess):
        sess.run(updates)
        sess.run(updates)
        return {"m%d" % i: v for i, v in enumerate(sess.run(values))}
    return run
