"""Evaluate and predict against Keras 3, by input style and steps_per_execution.

    python benchmarks/eval_predict.py [--models mlp_small,cnn_tutorial] [--spe 1,10]
                                      [--repeats 3] [--batches 50] [--calls 5]
                                      [--fresh] [--seed N] [--styles tfrecord,...]

Each model is measured in `--repeats` fresh processes, the models interleaved. A process
builds Keras 3 and ours at each steps_per_execution and times, for every input style,
`--calls` evaluate and predict calls of each over `--batches` batches of 128, the runtimes
taking turns (this machine's speed drifts, and a process or a phase of it can run in a slow
mode: runtimes in turn see the same); every ratio is a process's own, their median printed:
- `outside`: the input_fn returns a dataset built once outside it, cached and read once
  (`lambda: base.prefetch(2)`); Keras evaluates / predicts `base.prefetch(2)`;
- `numpy`: the input_fn slices numpy arrays into a new dataset at every call (as most
  input_fns do); Keras is given the arrays (`model.evaluate(x, y, batch_size=128)`);
- `tfrecord`: the input_fn reads and parses a TFRecord file at every call; Keras is given
  the same pipeline, built once;
- `tfrecord_per_call`: ours as `tfrecord`; Keras is given that pipeline built anew at each
  call (`model.evaluate(make_dataset())`), the same work an input_fn contract asks for.
`--fresh` times each runtime at each steps_per_execution in fresh processes of its own instead
(as users run programs: one Estimator or one Keras model per process), the processes of a
repeat interleaved and their order turning from repeat to repeat; a ratio is then Keras' median
ms over ours. `--seed N` gives ours `RunConfig(tf_random_seed=N)`.
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


def _keras_calls(model, spe, x, y, base, base_x, records):
    import keras
    net = keras_model(model)
    net.compile(keras.optimizers.Adam(1e-3),
                keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                metrics=["accuracy"], steps_per_execution=spe, jit_compile=False)
    net.fit(base.repeat(), steps_per_epoch=5, verbose=0)
    rec, rec_x = records(), records(with_labels=False)
    return {"outside": (lambda: net.evaluate(base.prefetch(2), verbose=0),
                        lambda: net.predict(base_x.prefetch(2), verbose=0)),
            "numpy": (lambda: net.evaluate(x, y, batch_size=BATCH, verbose=0),
                      lambda: net.predict(x, batch_size=BATCH, verbose=0)),
            "tfrecord": (lambda: net.evaluate(rec, verbose=0),
                         lambda: net.predict(rec_x, verbose=0)),
            "tfrecord_per_call": (lambda: net.evaluate(records(), verbose=0),
                                  lambda: net.predict(records(False), verbose=0))}


def _our_calls(model, spe, x, y, base, base_x, records, seed=None):
    import tensorflow as tf
    import estimator_compat
    estimator_compat.install()
    tf.get_logger().setLevel("ERROR")
    est = tf.estimator.Estimator(_model_fn, params={"model": model}, config=(
        tf.estimator.RunConfig(model_dir=tempfile.mkdtemp(), steps_per_execution=spe,
                               tf_random_seed=seed)))
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
    return dict(calls, **{style: calls[mine] for style, mine in OURS.items()})


def one(model, spes, batches, calls=5, runtimes=("keras", "ours"), seed=None,
        styles=STYLES):
    """{style: {"keras@K" / "ours@K": {"eval": ms, "predict": ms}}}: `runtimes` at each
    steps_per_execution K, all in this process, their calls taken in turn (the order rotating
    from round to round), so a slow spell of the machine or a slow mode of the process falls
    on every runtime alike."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    x, y = _arrays(model, BATCH * batches)
    records = _tfrecord(model, x, y)
    base = tf.data.Dataset.from_tensor_slices((x, y)).batch(BATCH).cache()
    base_x = tf.data.Dataset.from_tensor_slices(x).batch(BATCH).cache()
    for dataset in (base, base_x):  # the caches filled
        for _ in dataset:
            pass
    makers = {"keras": _keras_calls,
              "ours": lambda *args: _our_calls(*args, seed=seed)}
    runtimes = {f"{name}@{spe}": makers[name](model, spe, x, y, base, base_x, records)
                for spe in spes for name in runtimes}
    names = list(runtimes)
    out = {}
    for style in styles:
        fns = {name: dict(zip(("eval", "predict"), made[style]))
               for name, made in runtimes.items()}
        times = {name: {kind: [] for kind in kinds} for name, kinds in fns.items()}
        for fn in (f for kinds in fns.values() for f in kinds.values()):
            fn(), fn()  # warm
        for i in range(calls):
            for name in names[i % len(names):] + names[:i % len(names)]:
                for kind, fn in fns[name].items():
                    start = time.perf_counter()
                    fn()
                    times[name][kind].append((time.perf_counter() - start) * 1000)
        out[style] = {name: {kind: statistics.median(t) for kind, t in kinds.items()}
                      for name, kinds in times.items()}
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="mlp_small,cnn_tutorial")
    parser.add_argument("--spe", default="1,10")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batches", type=int, default=50)
    parser.add_argument("--calls", type=int, default=5)
    parser.add_argument("--fresh", action="store_true",
                        help="each runtime at each spe in fresh processes of its own")
    parser.add_argument("--seed", type=int, default=None, help="ours: tf_random_seed")
    parser.add_argument("--styles", default=",".join(STYLES))
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a model, measured in this process
    parser.add_argument("--runtime", default="keras,ours", help=argparse.SUPPRESS)
    args = parser.parse_args()
    spes = [int(s) for s in args.spe.split(",")]
    styles = args.styles.split(",")
    if args.one:
        print("RESULT " + json.dumps(one(args.one, spes, args.batches, args.calls,
                                         args.runtime.split(","), args.seed, styles)),
              flush=True)
        return
    models = args.models.split(",")
    if args.fresh:
        _fresh(args, models, spes, styles)
        return
    measured = {model: [] for model in models}
    for _ in range(args.repeats):
        for model in models:
            cmd = [sys.executable, __file__, "--batches", str(args.batches), "--calls",
                   str(args.calls), "--spe", args.spe, "--one", model]
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
            lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
            if not lines:
                raise RuntimeError(f"{model} failed:\n{proc.stderr[-3000:]}")
            measured[model].append(json.loads(lines[0][len("RESULT "):]))

    def median(model, style, name, kind):
        return statistics.median(r[style][name][kind] for r in measured[model])

    def ratio(model, style, kind, slow, fast):  # the median of each process's ratio
        return statistics.median(r[style][slow][kind] / r[style][fast][kind]
                                 for r in measured[model])

    def pair(model, style, slow, fast):
        return " / ".join(f"{ratio(model, style, kind, slow, fast):.2f}"
                          for kind in ("eval", "predict"))
    print(f"ms per call ({args.batches} batches of {BATCH}), medians over {args.repeats} "
          f"processes of each one's median of {args.calls} calls; ratios: the median of each "
          "process's own (x Keras: Keras ms / ours ms; ours x spe=1: ours at spe=1 ms / "
          "ours ms; > 1.0: ours faster)\n")
    print("| model | spe | input | Keras eval / predict ms | ours eval / predict ms | "
          "× Keras eval / predict | ours × spe=1 eval / predict |")
    print("|---|---|---|---|---|---|---|")
    for model in models:
        for spe in spes:
            for style in STYLES:
                k, o = (" / ".join(f"{median(model, style, f'{name}@{spe}', kind):.1f}"
                                   for kind in ("eval", "predict")) for name in ("keras", "ours"))
                vs_one = ("(as tfrecord)" if style in OURS else
                          pair(model, style, f"ours@{spes[0]}", f"ours@{spe}"))
                print(f"| {model} | {spe} | {style} | {k} | {o} | "
                      f"**{pair(model, style, f'keras@{spe}', f'ours@{spe}')}** | {vs_one} |",
                      flush=True)


def _measure(args, model, spe, runtime, styles):
    cmd = [sys.executable, __file__, "--batches", str(args.batches), "--calls",
           str(args.calls), "--spe", str(spe), "--one", model, "--runtime", runtime,
           "--styles", ",".join(styles)] + (
               ["--seed", str(args.seed)] if args.seed is not None else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    if not lines:
        raise RuntimeError(f"{model} {runtime}@{spe} failed:\n{proc.stderr[-3000:]}")
    return json.loads(lines[0][len("RESULT "):])


def _fresh(args, models, spes, styles):
    """Each runtime at each spe in `--repeats` fresh processes of its own, interleaved."""
    jobs = [(m, spe, r) for m in models for spe in spes for r in ("keras", "ours")]
    ms = {job: [] for job in jobs}  # each process's {style: {"eval": ms, "predict": ms}}
    for repeat in range(args.repeats):
        turn = repeat % len(jobs)
        for model, spe, runtime in jobs[turn:] + jobs[:turn]:
            result = _measure(args, model, spe, runtime, styles)
            ms[(model, spe, runtime)].append(
                {style: result[style][f"{runtime}@{spe}"] for style in styles})

    def median(model, spe, runtime, style, kind):
        return statistics.median(r[style][kind] for r in ms[(model, spe, runtime)])
    seed = "" if args.seed is None else f", ours with tf_random_seed={args.seed}"
    print(f"ms per call ({args.batches} batches of {BATCH}), each runtime in {args.repeats} "
          f"fresh processes of its own{seed}: the median of the processes' medians of "
          f"{args.calls} calls; × Keras: Keras ms / ours ms (> 1.0: ours faster)\n")
    print("| model | spe | input | Keras eval / predict ms | ours eval / predict ms | "
          "× Keras eval / predict |")
    print("|---|---|---|---|---|---|")
    for model in models:
        for spe in spes:
            for style in styles:
                k, o = ([median(model, spe, r, style, kind) for kind in ("eval", "predict")]
                        for r in ("keras", "ours"))
                print(f"| {model} | {spe} | {style} | {k[0]:.1f} / {k[1]:.1f} | "
                      f"{o[0]:.1f} / {o[1]:.1f} | **{k[0] / o[0]:.2f} / {k[1] / o[1]:.2f}** |",
                      flush=True)


if __name__ == "__main__":
    main()
