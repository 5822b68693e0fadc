"""A TF 2.x program that trains every canned estimator a few steps, for the TensorBoard tag
census (tools/tag_census.py, tests/test_tag_census.py).

tf.estimator's V2 classes and heads, tf.compat.v1.estimator's classes as a TF 2.x program
called them, a Keras model through model_to_estimator, a model_fn with TF1 and TF2 summaries
and the summary hooks, and train_and_evaluate: each case trains into `<root>/<case>` with
summaries and `global_step/sec` every 5 steps, then evaluates 2 batches. Models start from the
same seeded weights (a checkpoint of numpy values given as `warm_start_from`), so the values
written are comparable with tf.estimator 2.15's, not just the tags.

    python tf2_canned.py --root DIR [--only CASE ...]
"""
import argparse
import os
import time
import zlib

import numpy as np
import tensorflow as tf

STEPS, EVERY, BATCH = 12, 5, 16
N = 96
RNG = np.random.RandomState(0)
X = RNG.normal(size=(N, 4)).astype(np.float32)
Y3 = np.argmax(X[:, :3], axis=1).astype(np.int64)
Y2 = (X[:, 0] + X[:, 1] > 0).astype(np.int64)
YR = (X[:, 0] - 2 * X[:, 2] + 0.5).astype(np.float32)
Y_MULTI = np.stack([Y2, (X[:, 2] > 0), (X[:, 3] > 0.5)], axis=1).astype(np.int64)
COUNTS = np.round(np.abs(YR)).astype(np.float32)
KEYS = "abcd"
fc = tf.feature_column
COLS = [fc.numeric_column(k) for k in KEYS]
BUCKETS = fc.bucketized_column(COLS[0], [-1.0, 0.0, 1.0])
E, EV1 = tf.estimator, tf.compat.v1.estimator


def input_fn(labels, repeat=True):
    def fn():
        features = {k: X[:, i] for i, k in enumerate(KEYS)}
        data = tf.data.Dataset.from_tensor_slices((features, labels))
        data = (data.repeat() if repeat else data).batch(BATCH)
        return tf.compat.v1.data.make_one_shot_iterator(data).get_next()
    return fn


def dense_shapes(inputs, hidden, units):
    shapes, width = [], inputs
    for i, size in enumerate(hidden):
        shapes += [(f"dnn/hiddenlayer_{i}/kernel", [width, size]),
                   (f"dnn/hiddenlayer_{i}/bias", [size])]
        width = size
    return shapes + [("dnn/logits/kernel", [width, units]), ("dnn/logits/bias", [units])]


def linear_shapes(units):
    return [("linear/linear_model/bias_weights", [units]),
            ("linear/linear_model/a/weights", [1, units]),
            ("linear/linear_model/b/weights", [1, units]),
            ("linear/linear_model/a_bucketized/weights", [4, units])]


def write_init(directory, shapes):
    """A TF1 checkpoint of seeded values by variable name (biases zero)."""
    values = {}
    for name, shape in shapes:
        rng = np.random.RandomState(zlib.crc32(name.encode()))
        scale = 0.0 if name.endswith(("bias", "bias_weights")) else 0.5
        values[name] = rng.uniform(-scale, scale, size=shape).astype(np.float32)
    variables = {n: tf.Variable(v, name=n.replace("/", "_")) for n, v in values.items()}
    saver = tf.compat.v1.train.Saver(var_list=variables, sharded=False)
    os.makedirs(directory, exist_ok=True)
    return saver.save(None, os.path.join(directory, "init.ckpt"), write_meta_graph=False)


def config(model_dir):
    return E.RunConfig(model_dir=model_dir, tf_random_seed=0, save_summary_steps=EVERY,
                       log_step_count_steps=EVERY)


LINEAR_COLS = COLS[:2] + [BUCKETS]
ADAGRAD = lambda: tf.keras.optimizers.legacy.Adagrad(0.05)  # noqa: E731 (2.15's Keras 2)
if not hasattr(tf.keras.optimizers, "legacy"):  # Keras 3: served as compat.v1's Adagrad
    ADAGRAD = lambda: tf.keras.optimizers.Adagrad(0.05)  # noqa: E731


def case(make, labels, shapes=None):
    return make, labels, shapes


def combined(cls, labels, units, **kwargs):
    return case(lambda d, w: cls(linear_feature_columns=LINEAR_COLS, dnn_feature_columns=COLS,
                                 dnn_hidden_units=[8], config=config(d), warm_start_from=w,
                                 **kwargs),
                labels, dense_shapes(4, [8], units) + linear_shapes(units))


def case_model_fn(features, labels, mode, params):
    """A model_fn with TF1 summaries of every kind, a TF2 scalar, and the summary hooks."""
    v1 = tf.compat.v1
    net = tf.stack([features[k] for k in KEYS], axis=1)
    w = v1.get_variable("w", [4, 1], initializer=v1.constant_initializer(0.1))
    pred = tf.squeeze(tf.matmul(net, w), 1)
    loss = tf.reduce_mean(tf.square(pred - labels))
    v1.summary.scalar("my_loss", loss)
    v1.summary.histogram("w", w)
    v1.summary.image("input", tf.reshape(net, [-1, 2, 2, 1]), max_outputs=2)
    v1.summary.text("note", tf.constant("hello"))
    train_op = v1.train.GradientDescentOptimizer(0.05).minimize(
        loss, global_step=v1.train.get_global_step())
    hooks = [E.SummarySaverHook(save_steps=3, output_dir=params["hook_dir"],
                                summary_op=v1.summary.merge_all()),
             E.StepCounterHook(every_n_steps=4, output_dir=params["hook_dir"])]
    return E.EstimatorSpec(mode, loss=loss, train_op=train_op, training_hooks=hooks,
                           eval_metric_ops={"mae": v1.metrics.mean_absolute_error(labels, pred)})


def head_model_fn(features, labels, mode):
    """A named head's EstimatorSpec from a model_fn's logits, with a regularization loss."""
    v1 = tf.compat.v1
    net = tf.stack([features[k] for k in KEYS], axis=1)
    w = v1.get_variable("w", [4, 1], initializer=v1.constant_initializer(0.1))
    head = E.RegressionHead(name="y")
    return head.create_estimator_spec(
        features, mode, tf.matmul(net, w), labels=labels,
        train_op_fn=lambda loss: v1.train.GradientDescentOptimizer(0.05).minimize(
            loss, global_step=v1.train.get_global_step()),
        regularization_losses=[0.01 * tf.reduce_sum(tf.square(w))])


CASES = {  # name: (make(model_dir, warm_start), labels, variables to start from)
    "dnn_classifier": case(lambda d, w: E.DNNClassifier(
        [8, 4], COLS, n_classes=3, config=config(d), warm_start_from=w), Y3,
        dense_shapes(4, [8, 4], 3)),
    "dnn_binary": case(lambda d, w: E.DNNClassifier([8], COLS, config=config(d),
                                                    warm_start_from=w), Y2,
                       dense_shapes(4, [8], 1)),
    "dnn_regressor": case(lambda d, w: E.DNNRegressor([8], COLS, config=config(d),
                                                      warm_start_from=w), YR,
                          dense_shapes(4, [8], 1)),
    "dnn_multi_head": case(lambda d, w: E.DNNEstimator(
        E.MultiHead([E.MultiLabelHead(3, name="tags"), E.PoissonRegressionHead(name="counts")]),
        [8], COLS, optimizer=ADAGRAD(), config=config(d), warm_start_from=w),
        {"tags": Y_MULTI, "counts": COUNTS}, dense_shapes(4, [8], 4)),
    "linear_classifier": case(lambda d, w: E.LinearClassifier(
        LINEAR_COLS, config=config(d), warm_start_from=w), Y2, linear_shapes(1)),
    "linear_classifier3": case(lambda d, w: E.LinearClassifier(
        LINEAR_COLS, n_classes=3, config=config(d), warm_start_from=w), Y3, linear_shapes(3)),
    "linear_regressor": case(lambda d, w: E.LinearRegressor(
        LINEAR_COLS, config=config(d), warm_start_from=w), YR, linear_shapes(1)),
    "linear_logistic": case(lambda d, w: E.LinearEstimator(
        E.LogisticRegressionHead(), LINEAR_COLS, config=config(d), warm_start_from=w),
        Y2.astype(np.float32), linear_shapes(1)),
    "combined_classifier": combined(E.DNNLinearCombinedClassifier, Y3, 3, n_classes=3),
    "combined_regressor": combined(E.DNNLinearCombinedRegressor, YR, 1),
    "baseline_classifier": case(lambda d, w: E.BaselineClassifier(n_classes=3,
                                                                  config=config(d)), Y3),
    "baseline_regressor": case(lambda d, w: E.BaselineRegressor(config=config(d)), YR),
    "v1_dnn_classifier": case(lambda d, w: EV1.DNNClassifier(
        [8], COLS, n_classes=3, config=config(d), warm_start_from=w), Y3,
        dense_shapes(4, [8], 3)),
    "v1_linear_regressor": case(lambda d, w: EV1.LinearRegressor(
        LINEAR_COLS, config=config(d), warm_start_from=w), YR, linear_shapes(1)),
    "head_model_fn": case(lambda d, w: E.Estimator(head_model_fn, config=config(d)), YR),
    "model_fn_hooks": case(lambda d, w: E.Estimator(case_model_fn, config=config(d), params={
        "hook_dir": os.path.join(d, "hooks")}), YR),
}


def run_case(root, name):
    make, labels, shapes = CASES[name]
    model_dir = os.path.join(root, name)
    init = write_init(os.path.join(root, "init", name), shapes) if shapes else None
    estimator = make(model_dir, init)
    estimator.train(input_fn(labels), steps=STEPS)
    estimator.evaluate(input_fn(labels, repeat=False), steps=2)


def run_keras(root):
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(8, activation="relu", input_shape=(4,), name="hidden"),
        tf.keras.layers.Dense(3, activation="softmax", name="probs")])
    rng = np.random.RandomState(1)
    model.set_weights([rng.uniform(-0.5, 0.5, size=w.shape).astype(np.float32)
                       for w in model.get_weights()])
    model.compile(optimizer=ADAGRAD(), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    estimator = tf.keras.estimator.model_to_estimator(
        keras_model=model, config=config(os.path.join(root, "keras")))

    def keras_input(repeat=True):
        data = tf.data.Dataset.from_tensor_slices(({"hidden_input": X}, Y3))
        return (data.repeat() if repeat else data).batch(BATCH)
    estimator.train(keras_input, steps=STEPS)
    estimator.evaluate(lambda: keras_input(False), steps=2)


def run_train_and_evaluate(root):
    estimator = E.LinearRegressor(LINEAR_COLS, config=config(
        os.path.join(root, "train_and_evaluate")))
    E.train_and_evaluate(estimator, E.TrainSpec(input_fn(YR), max_steps=STEPS),
                         E.EvalSpec(input_fn(YR, repeat=False), steps=2, throttle_secs=0))


def run_kmeans(root):
    """tf.compat.v1's KMeans (TF 2.15: tf.compat.v1.estimator.experimental), from given
    centres."""
    estimator = EV1.experimental.KMeans(
        num_clusters=3, initial_clusters=X[:3], use_mini_batch=False,
        config=config(os.path.join(root, "kmeans")))

    def points(repeat=True):
        def fn():
            data = tf.data.Dataset.from_tensor_slices(X)
            return (data.repeat() if repeat else data).batch(BATCH)
        return fn
    estimator.train(points(), steps=STEPS)
    estimator.evaluate(points(False), steps=2)


def run_sdca(root):
    """LinearClassifier with the LinearSDCA optimizer (an example-id feature)."""
    estimator = E.LinearClassifier(
        LINEAR_COLS, optimizer=E.experimental.LinearSDCA(example_id_column="id"),
        config=config(os.path.join(root, "linear_sdca")))

    def with_ids(repeat=True):
        def fn():
            features = {k: X[:, i] for i, k in enumerate(KEYS)}
            features["id"] = np.array([str(i).encode() for i in range(N)])
            data = tf.data.Dataset.from_tensor_slices((features, Y2))
            return (data.repeat() if repeat else data).batch(BATCH)
        return fn
    estimator.train(with_ids(), steps=STEPS)
    estimator.evaluate(with_ids(False), steps=2)


def run_rnn(root):
    """tf.estimator.experimental.RNNClassifier over a sequence column (seeded weights)."""
    column = fc.sequence_numeric_column("seq")
    estimator = E.experimental.RNNClassifier(
        sequence_feature_columns=[column], units=[4], cell_type="lstm", n_classes=3,
        config=config(os.path.join(root, "rnn_classifier")))

    def sequences(repeat=True):
        def fn():
            seq = tf.sparse.from_dense(np.repeat(X[:, :, None], 1, axis=2)[:, :, 0])
            data = tf.data.Dataset.from_tensor_slices(({"seq": seq}, Y3))
            return (data.repeat() if repeat else data).batch(BATCH)
        return fn
    estimator.train(sequences(), steps=STEPS)
    estimator.evaluate(sequences(False), steps=2)


EXTRA = {"keras": run_keras, "train_and_evaluate": run_train_and_evaluate,
         "kmeans": run_kmeans, "linear_sdca": run_sdca, "rnn_classifier": run_rnn}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
    for name in args.only or list(CASES) + list(EXTRA):
        started = time.time()
        (EXTRA[name] if name in EXTRA else lambda root: run_case(root, name))(args.root)
        print(f"done {name} {time.time() - started:.1f}s", flush=True)


if __name__ == "__main__":
    main()
