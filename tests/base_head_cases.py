"""`head.base_head`'s helper functions on fixed inputs: values, summary names and which
calls fail. Shared by the recorder and tests/test_estimator_module_tree.py.

Record (from the repo root) with TF 2.15 + tensorflow-estimator 2.15:
    /work/side/tf215/bin/python tests/base_head_cases.py > tests/fixtures/tf215_base_head.json
"""
import json
import sys

import numpy as np


def err(f):
    try:
        f()
        return None
    except Exception as e:  # noqa: BLE001 - the error's type is what is compared
        return type(e).__name__


def _plain(v):
    if v.dtype.kind in "SO":
        return np.vectorize(lambda x: x.decode() if isinstance(x, bytes) else x,
                            otypes=[object])(v).tolist()
    return np.asarray(v, np.float64).tolist()


def run(B, tf):
    """What the helpers of module `B` give; `tf` is tf.compat.v1."""
    out = {}
    with tf.Graph().as_default() as g:
        logits = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
        column = tf.constant([[1.], [2.], [3.]])

        def difference(labels, logits):
            return tf.reduce_sum(labels - logits, -1, keepdims=True)
        t = dict(
            ids=B.all_class_ids(logits, 2), classes=B.all_classes(logits, 2),
            vocab=B.all_classes(logits, 2, ["a", "b"]),
            loss=B.call_loss_fn(difference, tf.ones([3, 2]), logits, {}),
            labels=B.check_dense_labels_match_logits_and_reshape(
                tf.constant([1., 2., 3.]), column, 1),
            weights=B.get_weights_and_check_match_logits(
                {"w": tf.constant([1., 2., 3.])}, "w", logits),
            final=B.check_logits_final_dim(logits, 2),
            rng=B.check_label_range(tf.constant([0, 1]), 2))
        B.create_estimator_spec_summary(tf.constant(1.5), [tf.constant(0.5)],
                                        lambda k: k + "/h")
        fn, kw = B.create_eval_metrics_tuple(
            lambda a, b, c: a + b + c, {"a": tf.constant(1.), "b": 2., "c": tf.constant(3.)})
        t["tuple"] = fn(**kw)
        out["kw"] = sorted(kw)
        out["summaries"] = sorted(op.name for op in g.get_collection(tf.GraphKeys.SUMMARIES))
        out["bad_loss"] = err(lambda: tf.Session().run(B.call_loss_fn(
            lambda labels, logits: logits, tf.ones([3, 2]), logits, {})))
        out["bad_final"] = err(lambda: B.check_logits_final_dim(logits, 3))
        out["bad_labels"] = err(lambda: B.check_dense_labels_match_logits_and_reshape(
            tf.constant([[1., 2.]]), tf.constant([[1.]]), 1))
        out["bad_range"] = err(lambda: tf.Session().run(
            B.check_label_range(tf.constant([0, 2]), 2)))
        with tf.Session() as s:
            out.update({k: _plain(v) for k, v in s.run(t).items()})
    out["reduction"] = [err(lambda r=r: B.validate_loss_reduction(r)) for r in (
        "weighted_sum", "sum", "auto", "none", "sum_over_batch_size")]
    out["n_classes"] = [err(lambda n=n: B.validate_n_classes(n)) for n in (2, 3)]
    out["trainable"] = [err(lambda v=v: B.validate_trainable_variables(v))
                        for v in (None, "x", [])]
    out["update_ops"] = [err(lambda v=v: B.validate_update_ops(v)) for v in (None, "x", [])]
    out["pred_keys"] = [err(lambda v=v: B.check_prediction_keys(v, ["a", "b"]))
                        for v in (["a"], ["c"])]
    out["loss_fn_args"] = [err(lambda f=f: B.validate_loss_fn_args(f)) for f in (
        lambda labels, logits: 0, lambda logits: 0, lambda labels, logits, x: 0)]
    return out


if __name__ == "__main__":
    import tensorflow.compat.v1 as tf1
    tf1.disable_eager_execution()
    from tensorflow_estimator.python.estimator.head import base_head
    json.dump(run(base_head, tf1), sys.stdout, sort_keys=True)
