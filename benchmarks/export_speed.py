"""Export time and size: estimator_compat against tf.estimator 2.15, each export in its own
fresh process (as a program exports), runtimes interleaved, medians reported.

    python benchmarks/export_speed.py --tf215-python PATH [--features 136] [--repeats 3]

PATH: the python of a venv with tensorflow-cpu 2.15, tensorflow-estimator 2.15 and
tensorflow-ranking 0.5.5 (--no-deps). Cases (export_one.py): TF-Ranking's canned GAM
estimator at `--features` features, and a model_fn of our own with a tower per feature and
the canned multi-class head's three signatures. Prints seconds per export and the size of
the SavedModel's graph files (variables left out); no pass/fail.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def measure(python, impl, case, features):
    proc = subprocess.run([python, os.path.join(HERE, "export_one.py"), impl, case,
                           "--features", str(features)], capture_output=True, text=True,
                          timeout=3600)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise RuntimeError(f"{impl} {case} failed:\n{proc.stderr[-3000:]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tf215-python", required=True)
    parser.add_argument("--features", type=int, default=136)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cases", default="gam,wide")
    args = parser.parse_args()
    runtimes = [("estimator_compat", sys.executable), ("tf_estimator", args.tf215_python)]
    print(f"{'case':6} {'runtime':18} {'export s':>9} {'graph KB':>9}  every run (s)")
    for case in args.cases.split(","):
        runs = {impl: [] for impl, _ in runtimes}
        for _ in range(args.repeats):
            for impl, python in runtimes:
                runs[impl].append(measure(python, impl, case, args.features))
        for impl, results in runs.items():
            seconds = statistics.median(r["export_s"] for r in results)
            size = statistics.median(r["graph_bytes"] for r in results) / 1024
            each = " ".join(f"{r['export_s']:.1f}" for r in results)
            print(f"{case:6} {impl:18} {seconds:9.1f} {size:9.0f}  {each}", flush=True)


if __name__ == "__main__":
    main()
