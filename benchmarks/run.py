"""Benchmarks: estimator_compat vs Keras fit vs a raw tf.function loop (and, given a TF 2.15
python with tensorflow-estimator, the real tf.estimator), same models and data.

    python benchmarks/run.py [--steps 300] [--batch 128] [--spe 10] [--repeats 3]
                             [--models mlp,cnn,bert,wide_deep] [--tf215-python PATH]
                             [--program-config]

wide_deep is canned_speed.py's DNNLinearCombinedClassifier (batch 256) against the same model
in Keras.

Each configuration runs in its own process (peak RSS is its own), `--repeats` times, the
configurations interleaved. Prints the medians of examples/sec (train, eval, predict), time to
first step and peak RSS, ratios against Keras at the same steps_per_execution (also with the
same input contract: a dataset per call, predictions as batches; and with one dataset built
outside the input_fn, `lambda: dataset`, as Keras is given it once, our predictions still
per-example dicts), and every run's train figure (so two speed modes show). No pass/fail:
figures to read.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


CANNED = {"estimator_compat": "estimator", "tf_estimator": "estimator", "keras": "keras"}
PROGRAM = "program RunConfig"  # bench_one.py --program-config: seed, periods, session_config


def measure(python, impl, model, args, spe=1, program_config=False):
    steps, batch = (args.steps // 3, 32) if model == "bert" else (args.steps, args.batch)
    cmd = [python, os.path.join(HERE, "bench_one.py"), impl, model, "--steps", str(steps),
           "--batch", str(batch), "--spe", str(spe)] + (
               ["--program-config"] if program_config else [])
    if model == "wide_deep":  # the canned DNNLinearCombinedClassifier (canned_speed.py)
        cmd = [python, os.path.join(HERE, "canned_speed.py"), CANNED[impl], "--steps",
               str(args.steps), "--spe", str(spe)]
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
    parser.add_argument("--models", default="mlp,cnn,bert,wide_deep")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--program-config", action="store_true",
                        help="also time each Estimator with the RunConfig settings public "
                             "programs pass (a seed, summary / checkpoint periods, ...)")
    parser.add_argument("--tf215-python", default=None,
                        help="python of a venv with tensorflow 2.15 + tensorflow-estimator 2.15")
    args = parser.parse_args()
    import tensorflow as tf
    import keras
    print(f"TensorFlow {tf.__version__}, Keras {keras.__version__}, {os.cpu_count()} CPUs, "
          f"batch {args.batch}, {args.steps} timed train steps\n")
    print("Medians of the runs (each in a fresh process, configurations interleaved); ratios "
          "against Keras at the same steps_per_execution; train ex/s of every run last.\n")
    print("'same input' compares evaluate and predict with what the Estimator API imposes "
          "on both sides: Keras' dataset built anew for each call (as an input_fn builds it), "
          "our predictions as batches (yield_single_examples=False), as Keras returns "
          "arrays. 'outside e/p': our input_fn returns one dataset built outside it, as Keras "
          "is given one (our predictions per-example dicts).\n")
    header = (f"{'model':9} {'run':58} {'train':>7} {'eval':>7} {'predict':>7} "
              f"{'x Keras train/eval/predict':>27} {'same input e/p':>14} {'outside e/p':>11} "
              f"{'1st s':>6} "
              f"{'RSS MB':>6}  train runs")
    print(header)
    print("-" * len(header))
    for model in args.models.split(","):
        runs = [("Keras fit", "keras", 1), (f"Keras fit, steps_per_execution={args.spe}", "keras", args.spe),
                ("raw tf.function loop", "raw", 1), ("estimator_compat", "estimator_compat", 1),
                (f"estimator_compat, steps_per_execution={args.spe}", "estimator_compat", args.spe)]
        if model == "wide_deep":  # Keras preprocessing layers: no raw loop of the same model
            runs = [run for run in runs if run[1] != "raw"]
        if args.tf215_python and model != "bert":  # examples/bert needs tf.contrib (ours)
            runs.append(("tf.estimator 2.15 (TF 2.15)", "tf_estimator", 1))
        if args.program_config and model != "wide_deep":
            runs += [(f"{label}, {PROGRAM}", impl, spe) for label, impl, spe in runs
                     if impl in ("estimator_compat", "tf_estimator")]
        measured = {label: [] for label, _, _ in runs}
        for _ in range(args.repeats):
            for label, impl, spe in runs:
                python = args.tf215_python if impl == "tf_estimator" else sys.executable
                measured[label].append(measure(python, impl, model, args, spe,
                                               program_config=label.endswith(PROGRAM)))
        medians = {label: {k: statistics.median(r[k] for r in rs) for k in rs[0]
                           if isinstance(rs[0][k], (int, float))}
                   for label, rs in measured.items()}
        keras_at = {1: medians["Keras fit"],
                    args.spe: medians[f"Keras fit, steps_per_execution={args.spe}"]}
        for label, impl, spe in runs:
            r, base = medians[label], keras_at[spe]
            fmt = lambda key: f"{r[key]:.0f}" if key in r else "-"  # noqa: E731
            ratio = lambda key: f"{r[key] / base[key]:.2f}" if key in r else "-"  # noqa: E731
            ratios = "/".join(ratio(k) for k in ("train_eps", "eval_eps", "predict_eps"))
            same = "-"
            if impl != "keras" and "predict_batches_eps" in r and "eval_fresh_eps" in base:
                same = (f"{r['eval_eps'] / base['eval_fresh_eps']:.2f}/"
                        f"{r['predict_batches_eps'] / base['predict_fresh_eps']:.2f}")
            outside = "-"
            if "predict_outside_eps" in r:
                outside = (f"{r['eval_outside_eps'] / base['eval_eps']:.2f}/"
                           f"{r['predict_outside_eps'] / base['predict_eps']:.2f}")
            each = " ".join(f"{x['train_eps']:.0f}" for x in measured[label])
            print(f"{model:9} {label:58} {fmt('train_eps'):>7} {fmt('eval_eps'):>7} "
                  f"{fmt('predict_eps'):>7} {ratios:>27} {same:>14} {outside:>11} "
                  f"{r['first_step_s']:6.2f} {r['peak_rss_mb']:6.0f}  {each}", flush=True)
    mem = predict_memory(args)
    print(f"\npredict peak RSS (MLP): {mem[20000]:.0f} MB for 20k examples, "
          f"{mem[200000]:.0f} MB for 200k examples")


if __name__ == "__main__":
    main()
