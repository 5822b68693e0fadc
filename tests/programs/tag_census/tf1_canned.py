"""A TF 1.x program that trains every canned estimator a few steps, for the TensorBoard tag
census (tools/tag_census.py, tests/test_tag_census.py).

Run as TF 1.15 ran it (`estimator-compat run` here, the TF 1.15 side venv's python for the
recording): each case trains into `<root>/<case>` with summaries every 5 steps and
`global_step/sec` every 5, then evaluates 2 batches. Every model starts from the same seeded
weights (a TF1 checkpoint of numpy values given as `warm_start_from`), so the values written
are the original's, not just the tags. Python 3.7 syntax: it runs in TF 1.15's venv too.

    python tf1_canned.py --root DIR [--only CASE ...]
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
Y3 = (np.argmax(X[:, :3], axis=1)).astype(np.int64)
Y2 = (X[:, 0] + X[:, 1] > 0).astype(np.int64)
YR = (X[:, 0] - 2 * X[:, 2] + 0.5).astype(np.float32)
KEYS = "abcd"
fc = tf.feature_column
COLS = [fc.numeric_column(k) for k in KEYS]
BUCKETS = fc.bucketized_column(COLS[0], [-1.0, 0.0, 1.0])


def input_fn(labels, repeat=True):
    def fn():
        features = {k: X[:, i] for i, k in enumerate(KEYS)}
        data = tf.data.Dataset.from_tensor_slices((features, labels))
        data = (data.repeat() if repeat else data).batch(BATCH)
        return tf.compat.v1.data.make_one_shot_iterator(data).get_next()
    return fn


def dense_shapes(prefix, inputs, hidden, units):
    shapes, width = [], inputs
    for i, size in enumerate(hidden):
        shapes += [("%s/hiddenlayer_%d/kernel" % (prefix, i), [width, size]),
                   ("%s/hiddenlayer_%d/bias" % (prefix, i), [size])]
        width = size
    return shapes + [(prefix + "/logits/kernel", [width, units]),
                     (prefix + "/logits/bias", [units])]


def linear_shapes(columns, units):
    shapes = [("linear/linear_model/bias_weights", [units])]
    for name, width in columns:
        shapes.append(("linear/linear_model/%s/weights" % name, [width, units]))
    return shapes


def write_init(root, shapes):
    """A checkpoint of seeded values by variable name (biases zero)."""
    if not os.path.isdir(root):
        os.makedirs(root)
    graph = tf.Graph()
    with graph.as_default():
        variables = {}
        for name, shape in shapes:
            rng = np.random.RandomState(zlib.crc32(name.encode()))
            scale = 0.0 if name.endswith(("bias", "bias_weights")) else 0.5
            value = rng.uniform(-scale, scale, size=shape).astype(np.float32)
            variables[name] = tf.Variable(value, name=name.replace("/", "_"))
        saver = tf.train.Saver(var_list=variables, sharded=False)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            return saver.save(sess, os.path.join(root, "init.ckpt"), write_meta_graph=False)


def config(model_dir):
    return tf.estimator.RunConfig(model_dir=model_dir, tf_random_seed=0,
                                  save_summary_steps=EVERY, log_step_count_steps=EVERY)


BT_COLS = [fc.bucketized_column(c, [-1.0, 0.0, 1.0]) for c in COLS]
DNN = [("a", 1), ("b", 1), ("c", 1), ("d", 1)]
LINEAR = [("a", 1), ("b", 1), ("a_bucketized", 4)]
LINEAR_COLS = COLS[:2] + [BUCKETS]


def case_model_fn(features, labels, mode, params):
    """A model_fn with every summary kind: scalar, histogram, image, text."""
    net = tf.stack([features[k] for k in KEYS], axis=1)
    w = tf.get_variable("w", [4, 1], initializer=tf.constant_initializer(0.1))
    pred = tf.squeeze(tf.matmul(net, w), 1)
    loss = tf.reduce_mean(tf.square(pred - labels))
    tf.summary.scalar("my_loss", loss)
    tf.summary.histogram("w", w)
    tf.summary.image("input", tf.reshape(net, [-1, 2, 2, 1]), max_outputs=2)
    tf.summary.text("note", tf.constant("hello"))
    opt = tf.train.GradientDescentOptimizer(0.05)
    train_op = opt.minimize(loss, global_step=tf.train.get_global_step())
    hooks = [tf.train.SummarySaverHook(save_steps=3, output_dir=params["hook_dir"],
                                       summary_op=tf.summary.merge_all()),
             tf.train.StepCounterHook(every_n_steps=4, output_dir=params["hook_dir"])]
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      training_hooks=hooks,
                                      eval_metric_ops={"mae": tf.metrics.mean_absolute_error(
                                          labels, pred)})


def keras_estimator(model_dir):
    rng = np.random.RandomState(1)
    init = [tf.constant_initializer(rng.uniform(-0.5, 0.5, size=s).astype(np.float32))
            for s in ([4, 8], [8], [8, 3], [3])]
    model = tf.keras.models.Sequential([
        tf.keras.layers.Dense(8, activation="relu", input_shape=(4,), name="hidden",
                              kernel_initializer=init[0], bias_initializer=init[1]),
        tf.keras.layers.Dense(3, activation="softmax", name="probs",
                              kernel_initializer=init[2], bias_initializer=init[3])])
    model.compile(optimizer=tf.train.AdagradOptimizer(0.1),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return tf.keras.estimator.model_to_estimator(keras_model=model, config=config(model_dir))


def keras_input_fn(repeat=True):
    def fn():
        data = tf.data.Dataset.from_tensor_slices(({"hidden_input": X}, Y3))
        data = (data.repeat() if repeat else data).batch(BATCH)
        return tf.compat.v1.data.make_one_shot_iterator(data).get_next()
    return fn


E = tf.estimator
CASES = {  # name: (make(model_dir, warm_start), labels, variables to start from)
    "dnn_classifier": (lambda d, w: E.DNNClassifier(
        [8, 4], COLS, n_classes=3, config=config(d), warm_start_from=w), Y3,
        dense_shapes("dnn", 4, [8, 4], 3)),
    "dnn_binary": (lambda d, w: E.DNNClassifier([8], COLS, config=config(d), warm_start_from=w),
                   Y2, dense_shapes("dnn", 4, [8], 1)),
    "dnn_regressor": (lambda d, w: E.DNNRegressor([8], COLS, config=config(d),
                                                  warm_start_from=w), YR,
                      dense_shapes("dnn", 4, [8], 1)),
    "linear_classifier": (lambda d, w: E.LinearClassifier(LINEAR_COLS, config=config(d),
                                                          warm_start_from=w), Y2,
                          linear_shapes(LINEAR, 1)),
    "linear_classifier3": (lambda d, w: E.LinearClassifier(
        LINEAR_COLS, n_classes=3, config=config(d), warm_start_from=w), Y3,
        linear_shapes(LINEAR, 3)),
    "linear_regressor": (lambda d, w: E.LinearRegressor(LINEAR_COLS, config=config(d),
                                                        warm_start_from=w), YR,
                         linear_shapes(LINEAR, 1)),
    "combined_classifier": (lambda d, w: E.DNNLinearCombinedClassifier(
        linear_feature_columns=LINEAR_COLS, dnn_feature_columns=COLS, dnn_hidden_units=[8],
        n_classes=3, config=config(d), warm_start_from=w), Y3,
        dense_shapes("dnn", 4, [8], 3) + linear_shapes(LINEAR, 3)),
    "combined_regressor": (lambda d, w: E.DNNLinearCombinedRegressor(
        linear_feature_columns=LINEAR_COLS, dnn_feature_columns=COLS, dnn_hidden_units=[8],
        config=config(d), warm_start_from=w), YR,
        dense_shapes("dnn", 4, [8], 1) + linear_shapes(LINEAR, 1)),
    "baseline_classifier": (lambda d, w: E.BaselineClassifier(n_classes=3, config=config(d)),
                            Y3, None),
    "baseline_regressor": (lambda d, w: E.BaselineRegressor(config=config(d)), YR, None),
    "boosted_trees_classifier": (lambda d, w: E.BoostedTreesClassifier(
        BT_COLS, n_batches_per_layer=1, n_trees=2, max_depth=2, config=config(d)), Y2, None),
    "boosted_trees_regressor": (lambda d, w: E.BoostedTreesRegressor(
        BT_COLS, n_batches_per_layer=1, n_trees=2, max_depth=2, config=config(d)), YR, None),
    "model_fn_hooks": (lambda d, w: E.Estimator(case_model_fn, config=config(d), params={
        "hook_dir": os.path.join(d, "hooks")}), YR, None),
}


def run_case(root, name):
    make, labels, shapes = CASES[name]
    model_dir = os.path.join(root, name)
    init = write_init(os.path.join(root, "init", name), shapes) if shapes else None
    estimator = make(model_dir, init)
    estimator.train(input_fn(labels), steps=STEPS)
    estimator.evaluate(input_fn(labels, repeat=False), steps=2)


def run_keras(root):
    estimator = keras_estimator(os.path.join(root, "keras"))
    estimator.train(keras_input_fn(), steps=STEPS)
    estimator.evaluate(keras_input_fn(repeat=False), steps=2)


def run_train_and_evaluate(root):
    model_dir = os.path.join(root, "train_and_evaluate")
    estimator = E.LinearRegressor(LINEAR_COLS, config=config(model_dir))
    E.train_and_evaluate(estimator, E.TrainSpec(input_fn(YR), max_steps=STEPS),
                         E.EvalSpec(input_fn(YR, repeat=False), steps=2, throttle_secs=0))


EXTRA = {"keras": run_keras, "train_and_evaluate": run_train_and_evaluate}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    tf.logging.set_verbosity(tf.logging.ERROR)
    for name in args.only or list(CASES) + list(EXTRA):
        started = time.time()
        if name in EXTRA:
            EXTRA[name](args.root)
        else:
            run_case(args.root, name)
        print("done %s %.1fs" % (name, time.time() - started), flush=True)


if __name__ == "__main__":
    main()
