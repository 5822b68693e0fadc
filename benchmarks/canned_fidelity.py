"""Canned estimators: the same script under estimator_compat and under tf.estimator 2.15.

    python benchmarks/canned_fidelity.py [--steps 200] [--only NAME ...]

Runs with whichever is importable: TensorFlow 2.15 + tensorflow-estimator (a side venv, see
README) or estimator_compat. Each case builds a canned estimator as a user script would, starts
it from the same weights (a TF1 checkpoint of seeded values given as `warm_start_from`, so the
random initialisers of the two implementations do not decide the outcome), trains on iris with
the same seeded shuffle, evaluates, and prints one `RESULT {json}` line of metrics per case.
tests/test_canned_fidelity.py records tf.estimator 2.15's figures from this script.
"""
import argparse
import json
import os
import re
import sys
import tempfile
import zlib

import numpy as np
import tensorflow as tf
from sklearn.datasets import load_iris

if hasattr(tf, "estimator"):
    E = tf.estimator
    EV1 = tf.compat.v1.estimator
    LEGACY = tf.keras.optimizers.legacy  # what 2.15 turns Keras optimizers into
else:
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import estimator_compat
    E = estimator_compat.install()
    EV1 = tf.compat.v1.estimator
    LEGACY = tf.keras.optimizers

X, Y = load_iris(return_X_y=True)
X = X.astype(np.float32)
fc = tf.feature_column
COLS = [fc.numeric_column(k) for k in "abcd"]
A_BUCKETS = fc.bucketized_column(COLS[0], [5.0, 5.5, 6.0, 6.5])
B_BUCKETS = fc.bucketized_column(COLS[1], [2.8, 3.0, 3.3])
CATEGORICAL = [COLS[2], COLS[3], fc.embedding_column(A_BUCKETS, 3),
               fc.indicator_column(fc.crossed_column([A_BUCKETS, B_BUCKETS], 16))]
BINARY, REGRESSION = (Y == 1).astype(np.int64), X[:, 3] * 1.0
MULTI_HOT = np.stack([Y == 0, Y == 2, X[:, 0] > 5.8], axis=1).astype(np.int64)
COUNTS = np.round(X[:, 3] * 2).astype(np.float32)
WEIGHTS = np.where(X[:, 0] > 5.5, 2.0, 1.0).astype(np.float32)
IDS = np.array([f"example-{i}" for i in range(len(X))])
SDCA_COLUMNS = COLS + [A_BUCKETS, fc.crossed_column([A_BUCKETS, B_BUCKETS], 16)]
SIZES = np.where(X[:, 2] > 4.5, "big", np.where(X[:, 2] > 2.0, "mid", "small"))
SIZE = fc.categorical_column_with_vocabulary_list("size", ["small", "mid", "big"])


def sdca(**kwargs):
    return E.experimental.LinearSDCA(example_id_column="id", **kwargs)


CASES = {
    "dnn3": (lambda c: E.DNNClassifier([16, 8], COLS, n_classes=3, config=c), Y),
    "dnn_binary": (lambda c: E.DNNClassifier([8], COLS, config=c), BINARY),
    "dnn_reg": (lambda c: E.DNNRegressor([8], COLS, config=c), REGRESSION),
    "dnn_batch_norm": (lambda c: E.DNNClassifier([8], COLS, n_classes=3, batch_norm=True,
                                                 config=c), Y),
    "dnn_keras_adam": (lambda c: E.DNNClassifier([8], COLS, n_classes=3, config=c,
                                                 optimizer=LEGACY.Adam(0.01)), Y),
    "dnn_columns": (lambda c: E.DNNClassifier([8], CATEGORICAL, n_classes=3, config=c), Y),
    "linear3": (lambda c: E.LinearClassifier(COLS, n_classes=3, config=c), Y),
    "linear_binary": (lambda c: E.LinearClassifier(COLS, config=c), BINARY),
    "linear_reg": (lambda c: E.LinearRegressor(COLS[:3], config=c), REGRESSION),
    "linear_columns": (lambda c: E.LinearClassifier(CATEGORICAL, n_classes=3, config=c), Y),
    "baseline3": (lambda c: E.BaselineClassifier(n_classes=3, config=c), Y),
    "baseline_reg": (lambda c: E.BaselineRegressor(config=c), REGRESSION),
    "combined3": (lambda c: E.DNNLinearCombinedClassifier(
        linear_feature_columns=COLS[:2], dnn_feature_columns=COLS, dnn_hidden_units=[8],
        n_classes=3, config=c), Y),
    "combined_binary": (lambda c: E.DNNLinearCombinedClassifier(
        linear_feature_columns=CATEGORICAL, dnn_feature_columns=COLS, dnn_hidden_units=[8],
        config=c), BINARY),
    # a vocabulary column in both parts: embedded for the DNN, itself and crossed for the linear
    "combined_shared_vocab": (lambda c: E.DNNLinearCombinedClassifier(
        linear_feature_columns=[SIZE, fc.crossed_column([SIZE, A_BUCKETS], 16)],
        dnn_feature_columns=COLS + [fc.embedding_column(SIZE, 2)], dnn_hidden_units=[8],
        n_classes=3, config=c), Y),
    "combined_reg": (lambda c: E.DNNLinearCombinedRegressor(
        linear_feature_columns=COLS[:2], dnn_feature_columns=COLS, dnn_hidden_units=[8],
        config=c), REGRESSION),
    "linear_weighted": (lambda c: E.LinearClassifier(COLS, n_classes=3, weight_column="w",
                                                     config=c), Y),
    "head_binary_thresholds": (lambda c: E.DNNEstimator(
        E.BinaryClassHead(thresholds=[0.3, 0.7]), [8], COLS, optimizer=LEGACY.Adagrad(0.05),
        config=c), BINARY),
    "head_multi_label": (lambda c: E.DNNEstimator(
        E.MultiLabelHead(3, thresholds=[0.4], classes_for_class_based_metrics=[0, 2]), [8],
        COLS, optimizer=LEGACY.Adagrad(0.05), config=c), MULTI_HOT),
    "head_poisson": (lambda c: E.DNNEstimator(E.PoissonRegressionHead(), [8], COLS,
                                              optimizer=LEGACY.Adagrad(0.05), config=c),
                     COUNTS),
    "head_multi": (lambda c: E.DNNEstimator(
        E.MultiHead([E.MultiClassHead(3, name="species"), E.RegressionHead(name="width")]),
        [8], COLS, optimizer=LEGACY.Adagrad(0.05), config=c), {"species": Y, "width": REGRESSION}),
    "v1_dnn3": (lambda c: EV1.DNNClassifier([16, 8], COLS, n_classes=3, config=c), Y),
    "v1_linear_reg": (lambda c: EV1.LinearRegressor(COLS[:3], config=c), REGRESSION),
    "v1_combined3": (lambda c: EV1.DNNLinearCombinedClassifier(
        linear_feature_columns=COLS[:2], dnn_feature_columns=COLS, dnn_hidden_units=[8],
        n_classes=3, config=c), Y),
    # SDCA's state (unshrunk weights, per-example duals) starts at zero
    "sdca_binary": (lambda c: E.LinearClassifier(SDCA_COLUMNS, config=c, optimizer=sdca(
        symmetric_l2_regularization=2.0, symmetric_l1_regularization=0.05)), BINARY),
    "sdca_reg": (lambda c: E.LinearRegressor(COLS[:3] + [A_BUCKETS], weight_column="w",
                                             config=c, optimizer=sdca(
        num_table_shards=2, symmetric_l1_regularization=0.01)), REGRESSION),
    "sdca_adaptive": (lambda c: E.LinearClassifier(SDCA_COLUMNS, config=c, optimizer=sdca(
        adaptive=True, num_loss_partitions=2)), BINARY),
    "v1_sdca_binary": (lambda c: EV1.LinearClassifier(SDCA_COLUMNS, config=c, optimizer=sdca(
        symmetric_l2_regularization=2.0)), BINARY),
    "sdca_one_example": (lambda c: E.LinearClassifier(SDCA_COLUMNS, config=c, optimizer=sdca(
        symmetric_l2_regularization=2.0, symmetric_l1_regularization=0.05)), BINARY),
    "sdca_reg_one_example": (lambda c: E.LinearRegressor(
        COLS[:3] + [A_BUCKETS], weight_column="w", config=c, optimizer=sdca(
            num_table_shards=2, symmetric_l1_regularization=0.01)), REGRESSION),
}
# TensorFlow's SDCA kernel visits a batch's examples in a fresh random order (and in parallel
# threads) on every call, so batched SDCA differs run to run, in tf.estimator as here; with one
# example per batch it is exact.
TRAIN_BATCH = {"sdca_one_example": 1, "sdca_reg_one_example": 1}
# The model's trainable weights (not optimizer slots, batch-norm statistics or global_step).
_MODEL_VARIABLE = re.compile(r"^(dnn|linear|baseline)/")
_NOT_MODEL = re.compile(r"(/(Adagrad|Ftrl|Ftrl_1|Adam|Adam_1|Momentum|RMSProp|RMSProp_1)$)|"
                        r"moving_(mean|variance)|^training/")


def input_fn(labels, repeat=True, batch_size=32):
    """A TF1 one-shot iterator's (features, labels): tf.estimator 2.15's Baseline* fail with a
    Dataset ("GetNext() failed because the iterator has not been initialized")."""
    def fn():
        features = {k: X[:, i] for i, k in enumerate("abcd")}
        features["w"] = WEIGHTS
        features["id"] = IDS
        features["size"] = SIZES
        data = tf.data.Dataset.from_tensor_slices((features, labels))
        data = (data.repeat().shuffle(150, seed=0) if repeat else data).batch(batch_size)
        return tf.compat.v1.data.make_one_shot_iterator(data).get_next()
    return fn


def initial_values(names_and_shapes):
    """Seeded starting weights by variable name: the same numbers in either implementation."""
    values = {}
    for name, shape in names_and_shapes:
        rng = np.random.RandomState(zlib.crc32(name.encode()))
        scale = 0.0 if name.endswith(("bias", "bias_weights", "beta", "_unshrunk")) else 0.5
        values[name] = (np.ones(shape) if name.endswith("gamma") else
                        rng.uniform(-scale, scale, size=shape)).astype(np.float32)
    return values


def write_checkpoint(values, directory):
    variables = {name: tf.Variable(value, name=name.replace("/", "_"))
                 for name, value in values.items()}
    saver = tf.compat.v1.train.Saver(var_list=variables, sharded=False)
    return saver.save(None, os.path.join(directory, "init.ckpt"), write_meta_graph=False)


def run_case(name, steps):
    make, labels = CASES[name]
    root = tempfile.mkdtemp()
    config = lambda d: E.RunConfig(model_dir=os.path.join(root, d), tf_random_seed=0,  # noqa
                                   log_step_count_steps=10000)
    probe = make(config("probe"))
    probe.train(input_fn(labels), steps=1)
    model_vars = [(n, np.shape(probe.get_variable_value(n))) for n in probe.get_variable_names()
                  if _MODEL_VARIABLE.search(n) and not _NOT_MODEL.search(n)]
    init = write_checkpoint(initial_values(model_vars), root)
    est = make(config("model"))
    # not every canned class takes warm_start_from (Baseline*, the combined Estimator): set
    # what the constructor would have set
    settings = E.WarmStartSettings(init, vars_to_warm_start=".*")
    setattr(est, "_warm_start_settings" if hasattr(est, "_warm_start_settings") else
            "_warm_start", settings)
    est.train(input_fn(labels, batch_size=TRAIN_BATCH.get(name, 32)), steps=steps)
    result = est.evaluate(input_fn(labels, repeat=False))
    return {k: round(float(v), 4) for k, v in sorted(result.items())}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
    for name in args.only or CASES:
        print("RESULT", json.dumps({"case": name, **run_case(name, args.steps)}), flush=True)


if __name__ == "__main__":
    main()
