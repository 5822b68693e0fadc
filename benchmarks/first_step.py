"""Time to first step from process start: estimator_compat against tf.estimator 2.15.

Each run is a fresh process of the same program (an MLP model_fn on cached numpy data,
`Estimator.train(steps=1)`); it reports when `import tensorflow` returned, when the Estimator
existed and when the first step had run, in seconds from the launch of the process. Runs of the
two runtimes are interleaved; medians are printed.

    python benchmarks/first_step.py --tf215-python /work/tf215/bin/python --repeats 5
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time

PROGRAM = r'''
import sys, time, json
T0 = float(sys.argv[2])
marks = {}
import numpy as np
import tensorflow as tf
if sys.argv[1] == "ours":
    import estimator_compat
    estimator_compat.install()
marks["import_s"] = time.time() - T0
v1 = tf.compat.v1


def model_fn(features, labels, mode):
    x = features["x"]
    w1 = v1.get_variable("w1", [784, 128])
    w2 = v1.get_variable("w2", [128, 10])
    logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                         logits=logits))
    train_op = v1.train.GradientDescentOptimizer(0.1).minimize(
        loss, global_step=v1.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def input_fn():
    rng = np.random.RandomState(0)
    x = rng.rand(6400, 784).astype(np.float32)
    y = rng.randint(0, 10, size=6400).astype(np.int32)
    return tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(128)


class FirstStep(v1.train.SessionRunHook):
    def after_run(self, run_context, run_values):
        marks.setdefault("first_step_s", time.time() - T0)


config = tf.estimator.RunConfig(model_dir=sys.argv[3], log_step_count_steps=1000)
estimator = tf.estimator.Estimator(model_fn, config=config)
marks["estimator_s"] = time.time() - T0
estimator.train(input_fn, steps=1, hooks=[FirstStep()])
print("MARKS " + json.dumps(marks))
'''


def run_once(python, runtime):
    with tempfile.TemporaryDirectory() as model_dir:
        start = time.time()
        proc = subprocess.run([python, "-c", PROGRAM, runtime, repr(start), model_dir],
                              capture_output=True, text=True,
                              env={"TF_CPP_MIN_LOG_LEVEL": "2", "PATH": "/usr/bin:/bin"})
    line = [l for l in proc.stdout.splitlines() if l.startswith("MARKS ")]
    if not line:
        raise RuntimeError(f"{runtime} failed:\n{proc.stderr[-3000:]}")
    return json.loads(line[0][len("MARKS "):])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tf215-python", help="python of a venv with tensorflow-cpu 2.15.1 "
                        "and tensorflow-estimator 2.15.0 (omit to time ours only)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    runtimes = [("ours", sys.executable)]
    if args.tf215_python:
        runtimes.append(("tf215", args.tf215_python))
    results = {name: [] for name, _ in runtimes}
    for _ in range(args.repeats):
        for name, python in runtimes:
            results[name].append(run_once(python, name))
    print(f"{'runtime':8} {'import':>8} {'estimator':>10} {'first step':>11}   (s from process "
          f"start, medians of {args.repeats}; each run's first step)")
    for name, runs in results.items():
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        each = " ".join(f"{r['first_step_s']:.2f}" for r in runs)
        print(f"{name:8} {med['import_s']:8.2f} {med['estimator_s']:10.2f} "
              f"{med['first_step_s']:11.2f}   [{each}]")


if __name__ == "__main__":
    main()
