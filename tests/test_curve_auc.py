"""The canned heads' bucketed ROC / PR AUC give what tf.compat.v1.metrics.auc (200 thresholds,
careful interpolation: tf.estimator's heads) gives on the same batches, run side by side."""
import numpy as np
import pytest
import tensorflow as tf

from estimator_compat.canned.heads import curve_auc

v1 = tf.compat.v1


def both(batches):
    """(ours, compat.v1's) {"ROC", "PR", "PR_TRAPEZOIDAL"} values after the batches, and the update ops'
    outputs on the last batch."""
    graph = tf.Graph()
    with graph.as_default():
        labels = v1.placeholder(tf.int64, [None, None])
        predictions = v1.placeholder(tf.float32, [None, None])
        weights = v1.placeholder(tf.float32, [None, None])
        ours = curve_auc.auc_pair(labels, predictions, weights)
        theirs = {curve: v1.metrics.auc(labels, predictions, weights, curve=curve,
                                        summation_method="careful_interpolation")
                  for curve in ("ROC", "PR")}
        # TF 2.8's BoostedTrees heads: compat.v1's PR AUC with trapezoidal summation.
        theirs["PR_TRAPEZOIDAL"] = v1.metrics.auc(labels, predictions, weights, curve="PR",
                                                  summation_method="trapezoidal")
        with v1.Session() as sess:
            sess.run(v1.local_variables_initializer())
            for y, p, w in batches:
                updates = sess.run({k: (ours[k][1], theirs[k][1]) for k in ours},
                                   {labels: y, predictions: p, weights: w})
            values = sess.run({k: (ours[k][0], theirs[k][0]) for k in ours})
    return values, updates


def batches(seed, n, width, weighted, on_thresholds=False):
    rng = np.random.RandomState(seed)
    out = []
    for _ in range(n):
        p = rng.uniform(size=(32, width)).astype(np.float32)
        if on_thresholds:  # on thresholds and just above them, 0 and 1: > versus >= shows
            on = np.array(curve_auc.thresholds()[1:-1], np.float32)
            grid = np.concatenate([on, np.nextafter(on, np.float32(1)), [0.0, 1.0]])
            p = rng.choice(grid.astype(np.float32), size=p.shape)
        y = (rng.uniform(size=p.shape) < p).astype(np.int64)
        w = (rng.uniform(0.1, 3.0, size=(32, 1)) if weighted else np.ones((32, 1)))
        out.append((y, p, np.broadcast_to(w, p.shape).astype(np.float32)))
    return out


@pytest.mark.parametrize("case", [
    dict(seed=0, n=5, width=1, weighted=False),
    dict(seed=1, n=3, width=4, weighted=False),   # multi-label: every output counted
    dict(seed=2, n=4, width=1, weighted=True),
    dict(seed=3, n=4, width=1, weighted=False, on_thresholds=True),
])
def test_values_and_updates_match_compat_v1(case):
    values, updates = both(batches(**case))
    for curve in ("ROC", "PR"):
        ours, theirs = values[curve]
        assert ours == pytest.approx(theirs, abs=1e-6), (curve, case)
        ours, theirs = updates[curve]
        assert ours == pytest.approx(theirs, abs=1e-6), (curve, case)


def test_one_class_only_and_empty_counts_match():
    """All labels negative (recall undefined) and all positive: compat.v1's guards decide."""
    p = np.linspace(0, 1, 32, dtype=np.float32)[:, None]
    for y in (np.zeros_like(p, np.int64), np.ones_like(p, np.int64)):
        values, _ = both([(y, p, np.ones_like(p))])
        for curve in ("ROC", "PR"):
            ours, theirs = values[curve]
            assert ours == pytest.approx(theirs, abs=1e-6), curve
