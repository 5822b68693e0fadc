"""tf.contrib.learn's SVM and binary_svm_head cases (Python 3.7 syntax: they also run in TF
1.15's venv). TF 1.15's SDCA kernel races across threads (its own runs differ from one
another after a few steps), so the SVM case trains 20 steps, near the optimum, and compares
loss and accuracy with a tolerance; names, shapes and keys exactly."""
import shutil
import tempfile

import numpy as np

_RNG = np.random.RandomState(0)
N = 60
X1 = _RNG.randn(N).astype(np.float32)
X2 = _RNG.randn(N).astype(np.float32)
LABELS = ((X1 + 0.5 * X2 + 0.3 * _RNG.randn(N)) > 0).astype(np.int64)
CATEGORIES = np.array(["a", "b", "c"])[_RNG.randint(0, 3, N)]


def case_binary_svm_head(tf):
    learn = tf.contrib.learn

    def run(_):
        with tf.Graph().as_default():
            head = learn.binary_svm_head()
            logits = tf.constant([[0.5], [-2.0], [1.5], [0.2]])
            labels = tf.constant([[1], [0], [0], [1]])
            weights = {"w": tf.constant([1.0, 2.0, 1.0, 0.5])}
            ops = learn.binary_svm_head(weight_column_name="w").create_model_fn_ops(
                weights, learn.ModeKeys.EVAL, labels, logits=logits)
            infer = head.create_model_fn_ops({}, learn.ModeKeys.INFER, logits=logits)
            with tf.Session() as sess:
                sess.run(tf.local_variables_initializer())
                sess.run([v[1] for v in ops.eval_metric_ops.values()])
                return {"loss": sess.run(ops.loss), "loss_name": ops.loss.op.name,
                        "metrics": sess.run({k: v[0] for k, v in ops.eval_metric_ops.items()}),
                        "predictions": sess.run(infer.predictions),
                        "logits_dimension": head.logits_dimension,
                        "losses_collected": len(tf.get_collection(tf.GraphKeys.LOSSES)),
                        "alternatives": [[str(k), v[0], sorted(v[1])]
                                         for k, v in infer.output_alternatives.items()]}
    return run


def _input_fn(tf):
    def input_fn():
        return {"example_id": tf.constant([str(i) for i in range(N)]),
                "x1": tf.constant(X1[:, None]), "x2": tf.constant(X2[:, None]),
                "cat": tf.SparseTensor([[i, 0] for i in range(N)], CATEGORIES, [N, 1])}, \
            tf.constant(LABELS[:, None])
    return input_fn


def case_svm(tf):
    layers = tf.contrib.layers
    model_dir = tempfile.mkdtemp()

    def run(_):
        try:
            columns = [layers.real_valued_column("x1"), layers.real_valued_column("x2"),
                       layers.sparse_column_with_keys("cat", ["a", "b", "c"])]
            svm = tf.contrib.learn.SVM(example_id_column="example_id", feature_columns=columns,
                                       model_dir=model_dir, l1_regularization=0.5,
                                       l2_regularization=2.0)
            svm.fit(input_fn=_input_fn(tf), steps=20)
            results = svm.evaluate(input_fn=_input_fn(tf), steps=1)
            names = sorted(svm.get_variable_names())
            return {"loss": results["loss"], "accuracy": results["accuracy"],
                    "eval_keys": sorted(results), "variables": names,
                    "shapes": [str(list(svm.get_variable_value(n).shape)) for n in names
                               if "HashTable" not in n],
                    "predict_keys": sorted(next(svm.predict(input_fn=_input_fn(tf)))),
                    "classes": len(list(svm.predict_classes(input_fn=_input_fn(tf))))}
        finally:
            shutil.rmtree(model_dir, ignore_errors=True)
    return run


case_svm.tolerance = {"rtol": 0.05, "atol": 0.02}
