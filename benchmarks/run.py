"""Benchmarks: estimator_compat vs Keras fit vs a raw tf.function loop (and, given a TF 2.15
python with tensorflow-estimator, the real tf.estimator), same models and data, one run.

    python benchmarks/run.py [--steps 300] [--batch 128] [--spe 10] [--tf215-python PATH]

Each configuration runs in its own process (peak RSS is its own). Prints a table of
examples/sec (train, eval, predict), time to first step and peak RSS, with ratios against
Keras fit with default settings. No pass/fail: figures to read.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def measure(python, impl, model, args, spe=1):
    steps, batch = (args.steps // 3, 32) if model == "bert" else (args.steps, args.batch)
    cmd = [python, os.path.join(HERE, "bench_one.py"), impl, model, "--steps", str(steps),
           "--batch", str(batch), "--spe", str(spe)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise RuntimeError(f"{impl} {model} failed:\n{proc.stderr[-3000:]}")


def predict_memory(args):
    """Peak RSS of predict over 10x more examples: flat when predict streams."""
    code = ("import sys,os,resource,tempfile; sys.path[:0]=[{h!r},{r!r}];"
            "os.environ['TF_CPP_MIN_LOG_LEVEL']='3';import tensorflow as tf,numpy as np;"
            "import estimator_compat as ec; ec.install(); import models;"
            "est=tf.estimator.Estimator(models.model_fn,model_dir=tempfile.mkdtemp(),"
            "params={{'model':'mlp'}}); est.train(models.input_fn('mlp',128),steps=1);"
            "n=int(sys.argv[1]); fn=lambda: tf.data.Dataset.range(n).map(lambda i: "
            "tf.random.uniform([784])).batch(256);"
            "print('RSS', sum(1 for _ in est.predict(fn)), "
            "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss/1024)").format(
                h=HERE, r=os.path.dirname(HERE))
    out = {}
    for n in (20000, 200000):
        proc = subprocess.run([sys.executable, "-c", code, str(n)], capture_output=True,
                              text=True, timeout=1800)
        line = [ln for ln in proc.stdout.splitlines() if ln.startswith("RSS")][0]
        out[n] = float(line.split()[2])
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--spe", type=int, default=10)
    parser.add_argument("--models", default="mlp,cnn,bert")
    parser.add_argument("--tf215-python", default=None,
                        help="python of a venv with tensorflow 2.15 + tensorflow-estimator 2.15")
    args = parser.parse_args()
    import tensorflow as tf
    import keras
    print(f"TensorFlow {tf.__version__}, Keras {keras.__version__}, {os.cpu_count()} CPUs, "
          f"batch {args.batch}, {args.steps} timed train steps\n")
    header = (f"{'model':5} {'run':46} {'train ex/s':>11} {'ratio':>6} {'eval ex/s':>10} "
              f"{'predict ex/s':>12} {'1st step s':>10} {'peak RSS MB':>11}")
    print(header)
    print("-" * len(header))
    for model in args.models.split(","):
        runs = [("Keras fit", "keras", 1), (f"Keras fit, steps_per_execution={args.spe}", "keras", args.spe),
                ("raw tf.function loop", "raw", 1), ("estimator_compat", "estimator_compat", 1),
                (f"estimator_compat, steps_per_execution={args.spe}", "estimator_compat", args.spe)]
        results = [(label, measure(sys.executable, impl, model, args, spe))
                   for label, impl, spe in runs]
        if args.tf215_python and model != "bert":  # examples/bert needs tf.contrib (ours)
            results.append(("tf.estimator 2.15 (TF 2.15)",
                            measure(args.tf215_python, "tf_estimator", model, args)))
        base = results[0][1]["train_eps"]
        for label, r in results:
            fmt = lambda key: f"{r[key]:.0f}" if key in r else "-"  # noqa: E731
            print(f"{model:5} {label:46} {r['train_eps']:11.0f} {r['train_eps'] / base:6.2f} "
                  f"{fmt('eval_eps'):>10} {fmt('predict_eps'):>12} {r['first_step_s']:10.2f} "
                  f"{r['peak_rss_mb']:11.0f}")
    mem = predict_memory(args)
    print(f"\npredict peak RSS (MLP): {mem[20000]:.0f} MB for 20k examples, "
          f"{mem[200000]:.0f} MB for 200k examples")


if __name__ == "__main__":
    main()
