"""Speed modes in training: per-chunk examples/sec and the cores a process used, so a run that
slows down part way (or a runtime that waits instead of working) shows.

    python benchmarks/train_modes.py [--models cnn,cnn_tutorial] [--runs 4] [--spe 1]
                                     [--tf215-python PATH] [--threads]

Each run is a fresh process training `--chunks` chunks of `--chunk` steps, one train call
each (tf.estimator 2.15 builds its graph and session at every call), after a warm-up,
with estimator_compat, a raw tf.function loop (`next(iterator)` in the step), Keras fit and,
given a TF 2.15 python with tensorflow-estimator, the real tf.estimator; runs interleaved.
Prints every chunk's ex/s, the process' cores (CPU seconds / wall seconds) and the machine's
idle share; `--threads` adds each chunk's CPU ticks per thread (a slow chunk with the same
ticks as a fast one waited, it did not work more). No pass/fail: figures to read.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BATCH = 128


def _idle_ticks():
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:9]]
    return ticks[3] + ticks[4], sum(ticks)


def _thread_ticks():
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/self/task/{tid}/comm") as f:
                out[(tid, f.read().strip())] = int(fields[11]) + int(fields[12])
        except OSError:  # the thread ended
            pass
    return out


def _trainer(impl, model, spe):
    """A function training n steps, warmed up."""
    sys.path[:0] = [HERE, os.path.dirname(HERE)]
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    import models
    data = models.input_fn(model, BATCH)
    if impl in ("estimator_compat", "tf_estimator"):
        extra = {}
        if impl == "estimator_compat":
            import estimator_compat
            estimator_compat.install()
            extra = {"steps_per_execution": spe}
        tf.get_logger().setLevel("ERROR")
        est = tf.estimator.Estimator(models.model_fn, params={"model": model},
                                     config=tf.estimator.RunConfig(
                                         model_dir=tempfile.mkdtemp(), **extra))
        run = lambda n: est.train(data, steps=n)  # noqa: E731
    else:
        import keras
        net = models.keras_model(model)
        loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        if impl == "keras":
            net.compile(keras.optimizers.Adam(1e-3), loss_fn, steps_per_execution=spe,
                        jit_compile=False)
            dataset = data()
            run = lambda n: net.fit(dataset, steps_per_epoch=n, verbose=0)  # noqa: E731
        else:
            optimizer, iterator = keras.optimizers.Adam(1e-3), iter(data())

            @tf.function
            def step():
                x, y = next(iterator)
                with tf.GradientTape() as tape:
                    loss = loss_fn(y, net(x, training=True))
                variables = net.trainable_variables
                optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
                return loss

            def run(n):
                for _ in range(n):
                    loss = step()
                float(loss)
    run(20)
    return run


def one_run(args):
    run = _trainer(args.impl, args.model, args.spe)
    chunks, threads = [], []
    idle0, total0 = _idle_ticks()
    cpu0, wall0 = _cpu(), time.perf_counter()
    for _ in range(args.chunks):
        before, start = _thread_ticks(), time.perf_counter()
        run(args.chunk)
        chunks.append(round(args.chunk * BATCH / (time.perf_counter() - start)))
        after = _thread_ticks()
        threads.append({f"{name}:{tid}": after[(tid, name)] - before.get((tid, name), 0)
                        for tid, name in after if after[(tid, name)] - before.get((tid, name), 0) > 1})
    idle1, total1 = _idle_ticks()
    wall = time.perf_counter() - wall0
    print("RESULT " + json.dumps({
        "chunks": chunks, "cores": round((_cpu() - cpu0) / wall, 2),
        "machine_idle": round((idle1 - idle0) / max(1, total1 - total0), 2), "threads": threads}))


def _cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="cnn,cnn_tutorial")
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--spe", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=40)
    parser.add_argument("--chunks", type=int, default=4)
    parser.add_argument("--tf215-python", default=None)
    parser.add_argument("--threads", action="store_true")
    parser.add_argument("--one", nargs=2, metavar=("IMPL", "MODEL"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        args.impl, args.model = args.one
        return one_run(args)
    impls = ["estimator_compat", "raw", "keras"] + (["tf_estimator"] if args.tf215_python else [])
    for model in args.models.split(","):
        for _ in range(args.runs):
            for impl in impls:
                python = args.tf215_python if impl == "tf_estimator" else sys.executable
                proc = subprocess.run(
                    [python, __file__, "--one", impl, model, "--spe", str(args.spe),
                     "--chunk", str(args.chunk), "--chunks", str(args.chunks)],
                    capture_output=True, text=True, timeout=1800)
                line = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
                if not line:
                    raise RuntimeError(f"{impl} {model} failed:\n{proc.stderr[-3000:]}")
                r = json.loads(line[0][len("RESULT "):])
                print(f"{model:13} {impl:17} chunks ex/s {r['chunks']}  cores {r['cores']:.2f}"
                      f"  machine idle {r['machine_idle']:.0%}", flush=True)
                if args.threads:
                    for chunk, ticks in zip(r["chunks"], r["threads"]):
                        print(f"{'':31} {chunk:>7}: {ticks}")


if __name__ == "__main__":
    main()
