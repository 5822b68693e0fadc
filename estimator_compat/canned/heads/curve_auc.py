"""ROC and PR AUC as `tf.compat.v1.metrics.auc` reports them, from one bucketed confusion matrix.

compat.v1's auc compares every prediction with each of its 200 thresholds (a [200, batch]
`Greater`, casts and sums for each of four counters), and each curve keeps its own counters: on
the canned wide & deep model the two AUCs were a quarter of the eval step's ops. Here each
prediction's bucket (how many thresholds it exceeds: one `searchsorted` over the same float32
thresholds) is found once, per-bucket label weights are summed, and the counters are running
sums of those: the same comparisons, so the same counts (exact for integer weights; other
weights are summed in another order), shared by both curves. The values follow compat.v1's
definitions: trapezoids over (false positive rate, recall) with its 1e-6 guards for ROC, and
its "careful interpolation" (Davis & Goadrich, 2006) for PR (trapezoids too for the heads of
tf.estimator 2.8's boosted trees, whose compat.v1 heads used auc's default).
"""
import tensorflow as tf

v1 = tf.compat.v1
NUM_THRESHOLDS = 200
_GUARD = 1e-6  # compat.v1's epsilon in recall and false positive rate


def thresholds(n=NUM_THRESHOLDS):
    """compat.v1's: n - 2 evenly spaced inside (0, 1), and just below 0 and just above 1."""
    return [-1e-7] + [(i + 1) / (n - 1) for i in range(n - 2)] + [1.0 + 1e-7]


def auc_pair(labels, predictions, weights=None):
    """{"ROC": (value, update_op), "PR": (value, update_op)} sharing one set of counters."""
    with v1.variable_scope(None, default_name="auc"):
        counters = {name: _counter(name) for name in
                    ("true_positives", "false_negatives", "true_negatives", "false_positives")}
        update = _update(counters, labels, predictions, weights)
        tp, fn, tn, fp = (counters[k] for k in ("true_positives", "false_negatives",
                                                "true_negatives", "false_positives"))
        return {"ROC": (_summed(_roc, tp, fn, tn, fp), _roc(*update)),
                "PR": (_summed(_pr, tp, fn, fp), _pr(update[0], update[1], update[3])),
                "PR_TRAPEZOIDAL": (_summed(_pr_trapezoidal, tp, fn, fp),
                                   _pr_trapezoidal(update[0], update[1], update[3]))}


def _summed(compute, *counters):
    """`compute` of the counters summed over replicas (as compat.v1 metrics' values are: in a
    merge_call, where reading a per-replica variable sums it); one replica: the counters."""
    context = tf.distribute.get_replica_context()
    if context is None:  # cross-replica already
        return compute(*counters)
    return context.merge_call(lambda _, *c: compute(*c), args=counters)


def _counter(name):
    return v1.Variable(
        lambda: tf.zeros([NUM_THRESHOLDS], tf.float32), trainable=False, name=name,
        collections=[v1.GraphKeys.LOCAL_VARIABLES, v1.GraphKeys.METRIC_VARIABLES],
        synchronization=tf.VariableSynchronization.ON_READ,
        aggregation=tf.VariableAggregation.SUM)


def _flat(labels, predictions, weights):
    """Predictions, labels (as positives) and weights, one entry per (example, output)."""
    predictions = tf.cast(predictions, tf.float32)
    batch = tf.shape(predictions)[:1]
    per_row = tf.reshape(predictions, tf.concat([batch, [-1]], 0))
    positive = tf.reshape(tf.cast(labels, tf.bool), tf.shape(per_row))
    if weights is None:
        weights = tf.ones_like(per_row)
    else:
        weights = tf.cast(weights, tf.float32)
        weights = tf.broadcast_to(tf.reshape(weights, tf.concat([batch, [-1]], 0)),
                                  tf.shape(per_row))
    return tf.reshape(per_row, [-1]), tf.reshape(positive, [-1]), tf.reshape(weights, [-1])


def _update(counters, labels, predictions, weights):
    """Adds the batch to the counters; returns their new values (tp, fn, tn, fp)."""
    n = NUM_THRESHOLDS
    values, positive, weights = _flat(labels, predictions, weights)
    # how many thresholds each prediction exceeds (p > t, as compat.v1 compares): 0 .. n
    above = tf.searchsorted(tf.constant([thresholds()], tf.float32), values[None],
                            side="left")[0]
    bucket = above + tf.cast(positive, above.dtype) * (n + 1)
    sums = tf.math.unsorted_segment_sum(weights, bucket, 2 * (n + 1))
    negatives, positives = sums[:n + 1], sums[n + 1:]
    # at threshold i: counted positive where above > i, negative where above <= i
    tp = tf.cumsum(positives, reverse=True)[1:]
    fp = tf.cumsum(negatives, reverse=True)[1:]
    fn = tf.cumsum(positives)[:n]
    tn = tf.cumsum(negatives)[:n]
    return tuple(counters[name].assign_add(delta) for name, delta in (
        ("true_positives", tp), ("false_negatives", fn), ("true_negatives", tn),
        ("false_positives", fp)))


def _trapezoids(x, y):
    return tf.reduce_sum((x[:-1] - x[1:]) * (y[:-1] + y[1:]) / 2.0)


def _roc(tp, fn, tn, fp):
    recall = (tp + _GUARD) / (tp + fn + _GUARD)
    false_positive_rate = fp / (fp + tn + _GUARD)
    return _trapezoids(false_positive_rate, recall)


def _pr_trapezoidal(tp, fn, fp):
    """compat.v1's default summation: trapezoids over (recall, precision)."""
    recall = (tp + _GUARD) / (tp + fn + _GUARD)
    precision = (tp + _GUARD) / (tp + fp + _GUARD)
    return _trapezoids(recall, precision)


def _pr(tp, fn, fp):
    """Precision interpolated between thresholds with true and false positives varying
    linearly in the number predicted positive, p (Davis & Goadrich): each interval adds
    slope * (dtp + intercept * log(p_a / p_b)) / positives."""
    p = tp + fp
    dtp = tp[:-1] - tp[1:]
    slope = tf.math.divide_no_nan(dtp, tf.maximum(p[:-1] - p[1:], 0.0))
    intercept = tp[1:] - slope * p[1:]
    both = tf.logical_and(p[:-1] > 0, p[1:] > 0)
    ratio = tf.where(both, tf.math.divide_no_nan(p[:-1], tf.maximum(p[1:], 0.0)),
                     tf.ones_like(p[1:]))
    return tf.reduce_sum(tf.math.divide_no_nan(slope * (dtp + intercept * tf.math.log(ratio)),
                                               tf.maximum(tp[1:] + fn[1:], 0.0)))
