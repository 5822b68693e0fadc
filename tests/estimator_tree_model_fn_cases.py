"""Cases for tensorflow_estimator's private canned model_fns (`canned.dnn._dnn_model_fn`,
`canned.linear._linear_model_fn`, `canned.dnn_linear_combined._dnn_linear_combined_model_fn`)
called from a user's own model_fn with a v1 head, as public code did. Run by
tests/test_estimator_tree_more.py here and, to record tests/fixtures/tf215_private_model_fns.json,
in TF 2.15 (`/work/side/tf215/bin/python tests/estimator_tree_model_fn_cases.py > ...`):
after 2 training steps, every checkpoint variable's shape (values where they are
deterministic: the linear model starts at zero) and the evaluation's metrics."""
import json
import shutil
import sys
import tempfile

import numpy as np
import tensorflow as tf

v1 = tf.compat.v1
X = {"a": np.array([[0.5, -1.0], [1.0, 2.0], [0.0, 1.0], [-2.0, 0.5]], np.float32),
     "c": np.array([[0], [1], [2], [1]], np.int64)}
Y = np.array([[1], [0], [1], [0]], np.int64)


def _input_fn():
    return tf.data.Dataset.from_tensors((X, Y)).repeat()


def _columns():
    return (v1.feature_column.numeric_column("a", shape=(2,)),
            v1.feature_column.categorical_column_with_identity("c", 3))


def _model_fns():
    from tensorflow_estimator.python.estimator.canned import dnn, dnn_linear_combined, linear
    from tensorflow_estimator.python.estimator.canned import head as head_lib

    def head():
        return head_lib._binary_logistic_head_with_sigmoid_cross_entropy_loss()

    def dnn_fn(features, labels, mode, config):
        numeric, _ = _columns()
        return dnn._dnn_model_fn(features, labels, mode, head(), [3], [numeric],
                                 config=config)

    def linear_fn(features, labels, mode, config):
        return linear._linear_model_fn(features, labels, mode, head(), list(_columns()),
                                       optimizer=None, partitioner=None, config=config)

    def linear_adagrad_fn(features, labels, mode, config):
        return linear._linear_model_fn(features, labels, mode, head(), list(_columns()),
                                       optimizer="Adagrad", partitioner=None, config=config)

    def combined_fn(features, labels, mode, config):
        numeric, categorical = _columns()
        return dnn_linear_combined._dnn_linear_combined_model_fn(
            features, labels, mode, head(), linear_feature_columns=[categorical],
            dnn_feature_columns=[numeric], dnn_hidden_units=[2], config=config)
    return dict(dnn=dnn_fn, linear=linear_fn, linear_adagrad=linear_adagrad_fn,
                combined=combined_fn)


def run_all(names=None):
    out = {}
    for name, model_fn in _model_fns().items():
        if names is not None and name not in names:
            continue
        model_dir = tempfile.mkdtemp()
        try:
            config = v1.estimator.RunConfig(tf_random_seed=1, save_summary_steps=1000)
            estimator = v1.estimator.Estimator(model_fn, model_dir=model_dir, config=config)
            estimator.train(_input_fn, steps=2)
            metrics = estimator.evaluate(_input_fn, steps=1)
            reader = tf.train.load_checkpoint(model_dir)
            shapes = reader.get_variable_to_shape_map()
            out[name] = {
                "variables": {k: list(v) for k, v in sorted(shapes.items())},
                "linear_values": {k: np.asarray(reader.get_tensor(k)).tolist()
                                  for k in sorted(shapes) if k.startswith("linear/")},
                "metrics": {k: float(v) for k, v in sorted(metrics.items())}}
        finally:
            shutil.rmtree(model_dir, ignore_errors=True)
    return out


if __name__ == "__main__":
    json.dump(run_all(), sys.stdout, indent=1, sort_keys=True)
