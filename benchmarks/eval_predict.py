"""Evaluate and predict against Keras 3, by input style and steps_per_execution.

    python benchmarks/eval_predict.py [--models mlp_small,cnn_tutorial] [--spe 1,10]
                                      [--repeats 3] [--batches 50]

Each (runtime, model, spe) is a fresh process, the configurations interleaved `--repeats`
times; each process times, for every input style, the median of 5 evaluate and 5 predict
calls over `--batches` batches of 128:
- `outside`: the input_fn returns a dataset built once outside it, cached and read once
  (`lambda: base.prefetch(2)`); Keras evaluates / predicts `base.prefetch(2)`;
- `numpy`: the input_fn slices numpy arrays into a new dataset at every call (as most
  input_fns do); Keras is given the arrays (`model.evaluate(x, y, batch_size=128)`);
- `tfrecord`: the input_fn reads and parses a TFRecord file at every call; Keras is given
  the same pipeline, built once;
- `tfrecord_per_call`: ours as `tfrecord`; Keras is given that pipeline built anew at each
  call (`model.evaluate(make_dataset())`), the same work an input_fn contract asks for.
The model_fn is the raw `tf.compat.v1.get_variable` kind (no tf.layers); predict yields
per-example dicts ({"classes", "probabilities"}, consumed as legacy callers do), Keras'
predict returns arrays. Prints ms per call and ratios (Keras time / ours: > 1.0 is faster),
and ours at spe=K against ours at spe=1. No pass/fail: figures to read.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from models import SHAPES, keras_model

HERE = os.path.dirname(os.path.abspath(__file__))
BATCH = 128
STYLES = ("outside", "numpy", "tfrecord", "tfrecord_per_call")
OURS = {"tfrecord_per_call": "tfrecord"}  # styles whose input_fn is another's


def _median_ms(fn, calls=5):
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return sorted(times)[calls // 2] * 1000


def _arrays(model, n):
    import numpy as np
    rng = np.random.RandomState(0)
    x = rng.uniform(size=(n,) + SHAPES[model]).astype(np.float32)
    return x, rng.randint(0, 10, size=(n,)).astype(np.int32)


def _tfrecord(model, x, y):
    import tensorflow as tf
    path = os.path.join(tempfile.mkdtemp(), "data.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        for xi, yi in zip(x, y):
            writer.write(tf.train.Example(features=tf.train.Features(feature={
                "x": tf.train.Feature(float_list=tf.train.FloatList(value=xi.ravel())),
                "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[yi]))}))
                .SerializeToString())
    spec = {"x": tf.io.FixedLenFeature(SHAPES[model], tf.float32),
            "y": tf.io.FixedLenFeature([], tf.int64)}

    def dataset(with_labels=True):
        def parse(records):
            parsed = tf.io.parse_example(records, spec)
            label = tf.cast(parsed["y"], tf.int32)
            return (parsed["x"], label) if with_labels else parsed["x"]
        return (tf.data.TFRecordDataset(path).batch(BATCH)
                .map(parse, num_parallel_calls=tf.data.AUTOTUNE))
    return dataset


def _logits(model, x):
    import tensorflow as tf
    v1 = tf.compat.v1
    if model == "mlp_small":
        w1, b1 = v1.get_variable("w1", [784, 128]), v1.get_variable("b1", [128])
        w2, b2 = v1.get_variable("w2", [128, 10]), v1.get_variable("b2", [10])
        return tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2
    for i, (k, c_in, c_out) in enumerate([(3, 1, 32), (3, 32, 64)]):
        w = v1.get_variable(f"conv{i}", [k, k, c_in, c_out])
        b = v1.get_variable(f"conv{i}_b", [c_out], initializer=v1.zeros_initializer())
        x = tf.nn.relu(tf.nn.conv2d(x, w, 1, "VALID") + b)
    x = tf.reshape(tf.nn.max_pool2d(x, 2, 2, "VALID"), [-1, 12 * 12 * 64])
    w3, b3 = v1.get_variable("fc", [12 * 12 * 64, 128]), v1.get_variable("fc_b", [128])
    w4, b4 = v1.get_variable("out", [128, 10]), v1.get_variable("out_b", [10])
    return tf.matmul(tf.nn.relu(tf.matmul(x, w3) + b3), w4) + b4


def _model_fn(features, labels, mode, params):
    import tensorflow as tf
    v1 = tf.compat.v1
    logits = _logits(params["model"], features)
    classes = tf.argmax(logits, 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={
            "classes": classes, "probabilities": tf.nn.softmax(logits)})
    loss = v1.losses.sparse_softmax_cross_entropy(labels, logits)
    if mode == tf.estimator.ModeKeys.TRAIN:
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=v1.train.AdamOptimizer(
            1e-3).minimize(loss, v1.train.get_global_step()))
    return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={
        "accuracy": v1.metrics.accuracy(labels, classes)})


def one(impl, model, spe, batches):
    """{style: {"eval": ms, "predict": ms}} for one runtime in this process."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    x, y = _arrays(model, BATCH * batches)
    records = _tfrecord(model, x, y)
    base = tf.data.Dataset.from_tensor_slices((x, y)).batch(BATCH).cache()
    base_x = tf.data.Dataset.from_tensor_slices(x).batch(BATCH).cache()
    for dataset in (base, base_x):  # the caches filled
        for _ in dataset:
            pass
    out = {}
    if impl == "keras":
        import keras
        net = keras_model(model)
        net.compile(keras.optimizers.Adam(1e-3),
                    keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                    metrics=["accuracy"], steps_per_execution=spe, jit_compile=False)
        net.fit(base.repeat(), steps_per_epoch=5, verbose=0)
        rec, rec_x = records(), records(with_labels=False)
        calls = {"outside": (lambda: net.evaluate(base.prefetch(2), verbose=0),
                             lambda: net.predict(base_x.prefetch(2), verbose=0)),
                 "numpy": (lambda: net.evaluate(x, y, batch_size=BATCH, verbose=0),
                           lambda: net.predict(x, batch_size=BATCH, verbose=0)),
                 "tfrecord": (lambda: net.evaluate(rec, verbose=0),
                              lambda: net.predict(rec_x, verbose=0)),
                 "tfrecord_per_call": (lambda: net.evaluate(records(), verbose=0),
                                       lambda: net.predict(records(False), verbose=0))}
    else:
        import estimator_compat
        estimator_compat.install()
        tf.get_logger().setLevel("ERROR")
        est = tf.estimator.Estimator(_model_fn, params={"model": model}, config=(
            tf.estimator.RunConfig(model_dir=tempfile.mkdtemp(), steps_per_execution=spe)))
        est.train(lambda: base.repeat(), steps=5)

        def numpy_fn(with_labels=True):
            return lambda: tf.data.Dataset.from_tensor_slices(
                (x, y) if with_labels else x).batch(BATCH)
        examples = lambda fn: sum(1 for _ in est.predict(fn))  # noqa: E731
        calls = {"outside": (lambda: est.evaluate(lambda: base.prefetch(2)),
                             lambda: examples(lambda: base_x.prefetch(2))),
                 "numpy": (lambda: est.evaluate(numpy_fn()),
                           lambda: examples(numpy_fn(False))),
                 "tfrecord": (lambda: est.evaluate(records),
                              lambda: examples(lambda: records(with_labels=False)))}
    for style, (evaluate, predict) in calls.items():
        evaluate(), predict()  # warm
        out[style] = {"eval": _median_ms(evaluate), "predict": _median_ms(predict)}
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="mlp_small,cnn_tutorial")
    parser.add_argument("--spe", default="1,10")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batches", type=int, default=50)
    parser.add_argument("--one", nargs=3, help=argparse.SUPPRESS)  # impl model spe
    args = parser.parse_args()
    if args.one:
        impl, model, spe = args.one
        print("RESULT " + json.dumps(one(impl, model, int(spe), args.batches)), flush=True)
        return
    spes = [int(s) for s in args.spe.split(",")]
    runs = [(impl, model, spe) for model in args.models.split(",") for spe in spes
            for impl in ("keras", "estimator_compat")]
    measured = {run: [] for run in runs}
    for _ in range(args.repeats):
        for run in runs:
            cmd = [sys.executable, __file__, "--batches", str(args.batches), "--one",
                   *map(str, run)]
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
            lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
            if not lines:
                raise RuntimeError(f"{run} failed:\n{proc.stderr[-3000:]}")
            measured[run].append(json.loads(lines[0][len("RESULT "):]))
    med = {run: {s: {k: statistics.median(r[OURS.get(s, s) if run[0] != "keras" else s][k]
                                          for r in rs) for k in ("eval", "predict")}
                 for s in STYLES} for run, rs in measured.items()}
    print(f"ms per call ({args.batches} batches of {BATCH}), medians of {args.repeats} "
          "processes x 5 calls; x Keras = Keras ms / ours ms\n")
    print("| model | spe | input | Keras eval / predict ms | ours eval / predict ms | "
          "× Keras eval / predict | ours × spe=1 eval / predict |")
    print("|---|---|---|---|---|---|---|")
    for model in args.models.split(","):
        for spe in spes:
            for style in STYLES:
                k, o = med[("keras", model, spe)][style], med[("estimator_compat", model, spe)][style]
                o1 = med[("estimator_compat", model, spes[0])][style]
                if style in OURS:  # the same timings as another style's: no spe ratio again
                    o1 = None
                print(f"| {model} | {spe} | {style} | {k['eval']:.1f} / {k['predict']:.1f} | "
                      f"{o['eval']:.1f} / {o['predict']:.1f} | "
                      f"**{k['eval'] / o['eval']:.2f} / {k['predict'] / o['predict']:.2f}** | "
                      + (f"{o1['eval'] / o['eval']:.2f} / {o1['predict'] / o['predict']:.2f} |"
                         if o1 else "(as tfrecord) |"),
                      flush=True)


if __name__ == "__main__":
    main()
