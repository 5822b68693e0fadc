"""One measurement in its own process (so peak RSS is its own): prints a JSON line.

    python benchmarks/bench_one.py IMPL MODEL [--steps N] [--batch B] [--spe K] [--program-config]
IMPL: estimator_compat | tf_estimator (the real one, run under TF 2.15) | keras | raw
--program-config: the Estimator gets the RunConfig settings public programs pass
(PROGRAM_CONFIG: a seed, summary / checkpoint / logging periods, a session_config) instead of
the defaults.
"""
import argparse
import json
import os
import resource
import sys
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]

import tensorflow as tf  # noqa: E402

import models  # noqa: E402

import bert_models  # noqa: E402


def timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def median_time(fn, calls=5):
    """The median of several calls: one evaluate / predict over 50 batches is a tenth of a
    second, where one scheduling hiccup of the machine would decide the figure."""
    return sorted(timed(fn) for _ in range(calls))[calls // 2]


def rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# what estimator programs commonly pass (tensorflow/models samples, Cloud ML trainers, BERT)
PROGRAM_CONFIG = dict(tf_random_seed=0, save_summary_steps=100, save_checkpoints_steps=1000,
                      log_step_count_steps=100, keep_checkpoint_max=3)


def program_session_config():
    return tf.compat.v1.ConfigProto(allow_soft_placement=True, log_device_placement=False,
                                    intra_op_parallelism_threads=0)


def estimator(args, impl):
    settings = {}
    if args.program_config:
        settings = dict(PROGRAM_CONFIG, session_config=program_session_config())
    if impl == "estimator_compat":
        import estimator_compat
        estimator_compat.install()
        config = tf.estimator.RunConfig(model_dir=tempfile.mkdtemp(),
                                        steps_per_execution=args.spe, **settings)
    else:
        config = tf.estimator.RunConfig(model_dir=tempfile.mkdtemp(), **settings)
    tf.get_logger().setLevel("ERROR")
    bert = args.model == "bert"
    est = tf.estimator.Estimator(bert_models.model_fn if bert else models.model_fn,
                                 config=config, params={"model": args.model})
    data = (lambda *a, **k: bert_models.input_fn(*a[1:], **k)) if bert else models.input_fn
    train_fn = data(args.model, args.batch)
    out = {"first_step_s": timed(lambda: est.train(train_fn, steps=1))}
    est.train(train_fn, steps=20)
    out["train_eps"] = args.steps * args.batch / timed(lambda: est.train(train_fn, steps=args.steps))
    eval_fn = data(args.model, args.batch, n=args.batch * 50, repeat=False)
    est.evaluate(eval_fn)
    out["eval_eps"] = 50 * args.batch / median_time(lambda: est.evaluate(eval_fn))
    pred_fn = data(args.model, args.batch, n=args.batch * 50, repeat=False, with_labels=False)
    sum(1 for _ in est.predict(pred_fn))  # warm, as evaluate and Keras' predict are
    out["predict_eps"] = 50 * args.batch / median_time(
        lambda: sum(1 for _ in est.predict(pred_fn)))
    out["predict_batches_eps"] = 50 * args.batch / median_time(  # arrays, as Keras returns
        lambda: sum(1 for _ in est.predict(pred_fn, yield_single_examples=False)))
    if impl == "estimator_compat":  # tf.estimator builds a graph per call: no outside dataset
        out.update(outside_input(est, eval_fn(), pred_fn(), 50 * args.batch))
    return out


def outside_input(est, eval_ds, pred_ds, examples):
    """One dataset built outside the input_fn (`lambda: dataset`), as Keras is given it once
    (the issue-43 setting); predictions still per-example dicts."""
    est.evaluate(lambda: eval_ds)
    sum(1 for _ in est.predict(lambda: pred_ds))
    return {"eval_outside_eps": examples / median_time(lambda: est.evaluate(lambda: eval_ds)),
            "predict_outside_eps": examples / median_time(
                lambda: sum(1 for _ in est.predict(lambda: pred_ds)))}


def keras_data(args, **kwargs):
    if args.model == "bert":
        return bert_models.keras_dataset(args.batch, **kwargs)
    return models.input_fn(args.model, args.batch, **kwargs)()


def keras_fit(args):
    import keras
    model = bert_models.keras_model() if args.model == "bert" else models.keras_model(args.model)
    model.compile(keras.optimizers.Adam(1e-3),
                  keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"], steps_per_execution=args.spe,
                  jit_compile=False)  # as estimator_compat's default (XLA is opt-in there)
    ds = keras_data(args)
    out = {"first_step_s": timed(lambda: model.fit(ds, steps_per_epoch=1, verbose=0))}
    model.fit(ds, steps_per_epoch=20, verbose=0)
    out["train_eps"] = args.steps * args.batch / timed(
        lambda: model.fit(ds, steps_per_epoch=args.steps, verbose=0))
    eval_ds = keras_data(args, n=args.batch * 50, repeat=False)
    model.evaluate(eval_ds, verbose=0)
    out["eval_eps"] = 50 * args.batch / median_time(lambda: model.evaluate(eval_ds, verbose=0))
    pred_ds = keras_data(args, n=args.batch * 50, repeat=False, with_labels=False)
    model.predict(pred_ds, verbose=0)
    out["predict_eps"] = 50 * args.batch / median_time(lambda: model.predict(pred_ds, verbose=0))
    # the dataset built anew for each call, as an Estimator's input_fn builds it
    out["eval_fresh_eps"] = 50 * args.batch / median_time(lambda: model.evaluate(
        keras_data(args, n=args.batch * 50, repeat=False), verbose=0))
    out["predict_fresh_eps"] = 50 * args.batch / median_time(lambda: model.predict(
        keras_data(args, n=args.batch * 50, repeat=False, with_labels=False), verbose=0))
    return out


def raw_loop(args):
    import keras
    model = bert_models.keras_model() if args.model == "bert" else models.keras_model(args.model)
    opt = keras.optimizers.Adam(1e-3)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                model.trainable_variables))
        return loss
    it = iter(keras_data(args))

    def run(n):
        for _ in range(n):
            loss = step(*next(it))
        float(loss)
    out = {"first_step_s": timed(lambda: run(1))}
    run(20)
    out["train_eps"] = args.steps * args.batch / timed(lambda: run(args.steps))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("impl")
    parser.add_argument("model")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--spe", type=int, default=1)
    parser.add_argument("--program-config", action="store_true")
    args = parser.parse_args()
    if args.impl in ("estimator_compat", "tf_estimator"):
        out = estimator(args, args.impl)
    elif args.impl == "keras":
        out = keras_fit(args)
    else:
        out = raw_loop(args)
    out["peak_rss_mb"] = rss_mb()
    print("RESULT " + json.dumps(out))


if __name__ == "__main__":
    main()
