"""The v1 heads (`tensorflow_estimator.python.estimator.canned.head`) on fixed logits,
labels and weights: create_loss, the PREDICT / EVAL / TRAIN specs, metric values, export
outputs and training summaries; also the module's private metric and check helpers
(`helpers`). Shared by the recorder and tests/test_estimator_module_tree.py.

Record (from the repo root) with TF 2.15 + tensorflow-estimator 2.15:
    /work/side/tf215/bin/python tests/v1_heads_cases.py > tests/fixtures/tf215_v1_heads.json
"""
import json
import sys

import numpy as np

W = [[1.0], [2.0], [0.5], [1.5]]
BINARY = dict(logits=[[0.5], [-1.0], [2.0], [-0.2]], labels=[[1], [0], [0], [1]])
MULTI = dict(logits=[[1., 0., -1.], [0., 2., 1.], [0.3, 0.2, 0.1], [-1., 0., 3.]],
             labels=[[0], [2], [1], [2]])


def cases(H, tf):
    return {
        "binary": dict(make=lambda: H._binary_logistic_head_with_sigmoid_cross_entropy_loss(
            weight_column="w", thresholds=[0.3]), **BINARY),
        "binary_vocab": dict(make=lambda: H._binary_logistic_head_with_sigmoid_cross_entropy_loss(
            label_vocabulary=["no", "yes"], name="b"), logits=BINARY["logits"],
            labels=[[b"yes"], [b"no"], [b"no"], [b"yes"]]),
        "multi": dict(make=lambda: H._multi_class_head_with_softmax_cross_entropy_loss(
            3, weight_column="w"), **MULTI),
        "multi_mean": dict(make=lambda: H._multi_class_head_with_softmax_cross_entropy_loss(
            3, loss_reduction=tf.losses.Reduction.SUM_OVER_BATCH_SIZE), **MULTI),
        "regression": dict(make=lambda: H._regression_head(weight_column="w", label_dimension=2),
                           logits=[[1., 2.], [0.5, -1.], [3., 0.], [0., 0.]],
                           labels=[[1.5, 2.], [0., 0.], [2., 1.], [1., -1.]]),
        "regression_link": dict(make=lambda: H._regression_head(inverse_link_fn=tf.exp, name="r"),
                                logits=[[0.1], [0.5], [-0.3], [1.0]],
                                labels=[[1.], [2.], [0.5], [3.]]),
        "or_multi2": dict(make=lambda: H._binary_logistic_or_multi_class_head(
            2, None, None, tf.losses.Reduction.SUM), **BINARY),
    }


def _plain(v):
    if isinstance(v, np.ndarray):
        if v.dtype.kind in "SO":
            return np.vectorize(lambda x: x.decode() if isinstance(x, bytes) else x,
                                otypes=[object])(v).tolist()
        return np.round(v.astype(np.float64), 6).tolist()
    if isinstance(v, (np.floating, float, np.integer, int)):
        return round(float(v), 6)
    return v


def run_case(case, tf, ModeKeys):
    """What one case gives; `tf` is tf.compat.v1."""
    g = tf.Graph()
    with g.as_default():
        head = case["make"]()
        feats = {"w": tf.constant(W)}
        logits, labels = tf.constant(case["logits"]), tf.constant(case["labels"])
        r = {"name": head.name, "logits_dimension": head.logits_dimension}
        loss_spec = head.create_loss(features=feats, mode=ModeKeys.EVAL, logits=logits,
                                     labels=labels)
        pspec = head.create_estimator_spec(features=feats, mode=ModeKeys.PREDICT, logits=logits)
        espec = head.create_estimator_spec(features=feats, mode=ModeKeys.EVAL, logits=logits,
                                           labels=labels)
        tf.train.create_global_step()
        tspec = head.create_estimator_spec(
            features=feats, mode=ModeKeys.TRAIN, logits=logits, labels=labels,
            train_op_fn=lambda loss: tf.no_op(), regularization_losses=[tf.constant(0.5)])
        with tf.Session() as s:
            s.run([tf.local_variables_initializer(), tf.global_variables_initializer(),
                   tf.tables_initializer()])
            r["create_loss"] = {k: _plain(s.run(v) if tf.is_tensor(v) else v)
                                for k, v in loss_spec._asdict().items()}
            r["predictions"] = {k: _plain(v) for k, v in s.run(pspec.predictions).items()}
            r["export_outputs"] = {k: type(v).__name__ for k, v in pspec.export_outputs.items()}
            s.run({k: v[1] for k, v in espec.eval_metric_ops.items()})
            r["eval_loss"] = _plain(s.run(espec.loss))
            r["metrics"] = {k: _plain(s.run(v[0])) for k, v in espec.eval_metric_ops.items()}
            r["train_loss"] = _plain(s.run(tspec.loss))
        r["train_summaries"] = sorted(op.name for op in g.get_collection(
            tf.GraphKeys.SUMMARIES))
    return r


def run_helpers(H, tf):
    """The private metric and check helpers of the v1 head module `H`."""
    with tf.Graph().as_default():
        labels = tf.constant([[1], [0], [0], [1]])
        probabilities = tf.constant([[0.6], [0.3], [0.8], [0.45]])
        weights = tf.constant(W)
        labels_mean = H._indicator_labels_mean(labels, weights)
        metrics = dict(
            predictions_mean=H._predictions_mean(probabilities, weights),
            labels_mean=labels_mean, accuracy_baseline=H._accuracy_baseline(labels_mean),
            accuracy=H._accuracy_at_threshold(labels, probabilities, weights, 0.5),
            precision=H._precision_at_threshold(labels, probabilities, weights, 0.4),
            recall=H._recall_at_threshold(labels, probabilities, weights, 0.4),
            auc=H._auc(labels, probabilities, weights),
            auc_pr=H._auc(labels, probabilities, weights, curve="PR"))
        checked = dict(
            range=H._assert_range(tf.constant([0, 2]), 3),
            labels=H._check_dense_labels_match_logits_and_reshape(
                tf.constant([1., 2.]), tf.constant([[1.], [2.]]), 1),
            weights=H._get_weights_and_check_match_logits(
                {"w": tf.constant([1., 2.])}, "w", tf.constant([[1., 2.], [3., 4.]])),
            ids=H._all_class_ids(tf.zeros([2, 3]), 3),
            loss=H._call_loss_fn(lambda labels, logits: logits * 2., tf.ones([2, 1]),
                                 tf.ones([2, 1]), {}))
        with tf.Session() as s:
            s.run(tf.local_variables_initializer())
            s.run({k: v[1] for k, v in metrics.items()})
            out = {k: _plain(s.run(v[0])) for k, v in metrics.items()}
            out.update({k: _plain(v) for k, v in s.run(checked).items()})
            try:
                s.run(H._assert_range(tf.constant([3]), 3))
                out["out_of_range"] = None
            except tf.errors.InvalidArgumentError:
                out["out_of_range"] = "InvalidArgumentError"
    return out


def run_all(H, tf, ModeKeys):
    return {name: run_case(case, tf, ModeKeys) for name, case in cases(H, tf).items()}


if __name__ == "__main__":
    import tensorflow.compat.v1 as tf1
    tf1.disable_eager_execution()
    from tensorflow_estimator.python.estimator.canned import head
    from tensorflow_estimator.python.estimator.mode_keys import ModeKeys as Keys
    json.dump(dict(run_all(head, tf1, Keys), helpers=run_helpers(head, tf1)), sys.stdout,
              indent=1, sort_keys=True)
