"""Canned estimator speed: a wide & deep DNNLinearCombinedClassifier on tabular data.

    python benchmarks/canned_speed.py estimator      # estimator_compat (TF 2.21)
    python benchmarks/canned_speed.py keras          # the same model as Keras fit (TF 2.21)
    venv215/bin/python benchmarks/canned_speed.py estimator   # tf.estimator 2.15 (TF 2.15)

20 numeric features, two categorical ones (vocabulary of 50, embedded in 8 and crossed for the
linear part), hidden units [128, 64], Adam for the DNN, Ftrl for the linear part, batch 256.
Keras fits with no metrics (as Estimator.train) and evaluates what the canned binary head does
(accuracy, ROC and PR AUC with 200 thresholds, precision, recall). Prints one `RESULT {json}`
line: examples/sec for train, eval and predict (the estimator's predict also as batches, Keras'
evaluate and predict also with the dataset built anew per call, as an input_fn builds it), time
to the first step, peak RSS. No pass/fail: figures to read (README's Performance section has them).
"""
import argparse
import functools
import json
import os
import resource
import sys
import tempfile
import time

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

N, NUMERIC, VOCAB, BATCH = 16384, 20, [f"v{i}" for i in range(50)], 256


@functools.lru_cache(maxsize=None)
def data(n=N, seed=0):
    """The same arrays every call (as benchmarks/models.py): an input_fn called per evaluate /
    predict, as the Estimator API does, then costs what building its dataset costs, not a
    fresh random draw (3 ms of a 60 ms evaluate call)."""
    rng = np.random.RandomState(seed)
    x = rng.normal(size=(n, NUMERIC)).astype(np.float32)
    a, b = rng.choice(VOCAB, n), rng.choice(VOCAB, n)
    y = ((x[:, 0] + (a == "v1") - (b == "v2")) > 0).astype(np.int64)
    features = {f"x{i}": x[:, i] for i in range(NUMERIC)}
    features.update(a=a, b=b)
    return features, y


def input_fn(repeat=True, labels=True, n=N):
    def fn():
        features, y = data(n)
        ds = tf.data.Dataset.from_tensor_slices((features, y) if labels else features)
        return (ds.repeat() if repeat else ds).batch(BATCH, drop_remainder=True)
    return fn


def timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def median_time(fn, calls=5):
    """The median of several calls (one call over 40 batches is a fraction of a second)."""
    return sorted(timed(fn) for _ in range(calls))[calls // 2]


def estimator(steps, spe=1):
    ours = not hasattr(tf, "estimator")
    if not ours:
        E, adam = tf.estimator, tf.keras.optimizers.legacy.Adam
    else:
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        import estimator_compat
        E, adam = estimator_compat.install(), tf.keras.optimizers.Adam
    tf.get_logger().setLevel("ERROR")
    fc = tf.feature_column
    a = fc.categorical_column_with_vocabulary_list("a", VOCAB)
    b = fc.categorical_column_with_vocabulary_list("b", VOCAB)
    numeric = [fc.numeric_column(f"x{i}") for i in range(NUMERIC)]
    est = E.DNNLinearCombinedClassifier(
        model_dir=tempfile.mkdtemp(),
        linear_feature_columns=[a, b, fc.crossed_column([a, b], 1000)],
        dnn_feature_columns=numeric + [fc.embedding_column(a, 8), fc.embedding_column(b, 8)],
        dnn_hidden_units=[128, 64], dnn_optimizer=lambda: adam(1e-3),  # 2.15: one per call
        config=E.RunConfig(log_step_count_steps=100000, save_checkpoints_steps=None,
                           save_checkpoints_secs=None,
                           **({"steps_per_execution": spe} if spe > 1 else {})))
    out = {"first_step_s": timed(lambda: est.train(input_fn(), steps=1))}
    est.train(input_fn(), steps=20)
    out["train_eps"] = steps * BATCH / timed(lambda: est.train(input_fn(), steps=steps))
    eval_fn = input_fn(repeat=False, n=BATCH * 40)
    est.evaluate(eval_fn)
    out["eval_eps"] = 40 * BATCH / median_time(lambda: est.evaluate(eval_fn))
    pred_fn = input_fn(repeat=False, labels=False, n=BATCH * 40)
    sum(1 for _ in est.predict(pred_fn))  # warm, as evaluate and Keras' predict are
    out["predict_eps"] = 40 * BATCH / median_time(lambda: sum(1 for _ in est.predict(pred_fn)))
    out["predict_batches_eps"] = 40 * BATCH / median_time(  # arrays, as Keras returns
        lambda: sum(1 for _ in est.predict(pred_fn, yield_single_examples=False)))
    if ours:  # tf.estimator builds a graph per call: no dataset from outside it
        from bench_one import outside_input
        out.update(outside_input(est, eval_fn(), pred_fn(), 40 * BATCH))
    return out


def keras_fit(steps, spe=1):
    import keras
    inputs = {f"x{i}": keras.Input((), name=f"x{i}") for i in range(NUMERIC)}
    inputs.update(a=keras.Input((), dtype="string", name="a"),
                  b=keras.Input((), dtype="string", name="b"))
    ids = {k: keras.layers.StringLookup(vocabulary=VOCAB, num_oov_indices=0)(inputs[k])
           for k in "ab"}
    numeric = keras.layers.Concatenate()([keras.layers.Reshape((1,))(inputs[f"x{i}"])
                                          for i in range(NUMERIC)])
    deep = keras.layers.Concatenate()(
        [numeric] + [keras.layers.Embedding(len(VOCAB), 8)(ids[k]) for k in "ab"])
    for units in (128, 64):
        deep = keras.layers.Dense(units, activation="relu")(deep)
    crossed = keras.layers.HashedCrossing(1000)((ids["a"], ids["b"]))
    wide = keras.layers.Add()([keras.layers.Embedding(n, 1)(ids_) for n, ids_ in
                               ((len(VOCAB), ids["a"]), (len(VOCAB), ids["b"]),
                                (1000, crossed))])
    logits = keras.layers.Add()([keras.layers.Dense(1)(deep), wide])
    model = keras.Model(inputs, logits)
    def compile(metrics=()):
        model.compile(keras.optimizers.Adam(1e-3),
                      keras.losses.BinaryCrossentropy(from_logits=True), metrics=list(metrics),
                      steps_per_execution=spe, jit_compile=False)
    compile()  # fit: no metrics (Estimator.train computes none)
    ds = input_fn()()
    out = {"first_step_s": timed(lambda: model.fit(ds, steps_per_epoch=1, verbose=0))}
    model.fit(ds, steps_per_epoch=20, verbose=0)
    out["train_eps"] = steps * BATCH / timed(
        lambda: model.fit(ds, steps_per_epoch=steps, verbose=0))
    eval_ds = input_fn(repeat=False, n=BATCH * 40)()
    compile([keras.metrics.BinaryAccuracy(threshold=0.0),  # what the canned head evaluates
             keras.metrics.AUC(from_logits=True), keras.metrics.AUC(curve="PR", from_logits=True),
             keras.metrics.Precision(thresholds=0.0), keras.metrics.Recall(thresholds=0.0)])
    model.evaluate(eval_ds, verbose=0)
    out["eval_eps"] = 40 * BATCH / median_time(lambda: model.evaluate(eval_ds, verbose=0))
    pred_ds = input_fn(repeat=False, labels=False, n=BATCH * 40)()
    model.predict(pred_ds, verbose=0)
    out["predict_eps"] = 40 * BATCH / median_time(lambda: model.predict(pred_ds, verbose=0))
    # the dataset built anew for each call, as an Estimator's input_fn builds it
    out["eval_fresh_eps"] = 40 * BATCH / median_time(
        lambda: model.evaluate(input_fn(repeat=False, n=BATCH * 40)(), verbose=0))
    out["predict_fresh_eps"] = 40 * BATCH / median_time(lambda: model.predict(
        input_fn(repeat=False, labels=False, n=BATCH * 40)(), verbose=0))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("impl", choices=["estimator", "keras"])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--spe", type=int, default=1, help="estimator_compat's "
                        "RunConfig(steps_per_execution=), Keras' compile(steps_per_execution=)")
    args = parser.parse_args()
    out = (estimator(args.steps, args.spe) if args.impl == "estimator"
           else keras_fit(args.steps, args.spe))
    out["tf"] = tf.__version__
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("RESULT " + json.dumps({k: round(v, 2) if isinstance(v, float) else v
                                  for k, v in out.items()}))


if __name__ == "__main__":
    main()
