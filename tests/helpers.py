"""Small real models, input_fns and event-file readers shared by the tests."""
import glob
import os
import socket
import subprocess
import sys
import tempfile

import numpy as np
import tensorflow as tf
from tensorboard.backend.event_processing import event_file_loader

import estimator_compat as ec

v1 = tf.compat.v1
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAMS = os.path.join(ROOT, "tests", "programs")
CLI = os.path.join(os.path.dirname(sys.executable), "estimator-compat")
FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "..",
                        "shared", "fixtures", "tf215")


def linear_data(n=256, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.normal(size=(n, 3)).astype(np.float32)
    y = x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3
    y = (y + 0.1 * rng.normal(size=y.shape)).astype(np.float32)
    return x, y


def linear_input_fn(batch=32, repeat=True, n=256):
    def input_fn():
        x, y = linear_data(n)
        ds = tf.data.Dataset.from_tensor_slices(({"x": x}, y))
        return (ds.repeat() if repeat else ds).batch(batch)
    return input_fn


def linear_model_fn(features, labels, mode, params):
    """TF1 style regression: get_variable, GradientDescent, compat.v1 metrics and summaries."""
    w = v1.get_variable("linear/w", [3, 1], initializer=v1.zeros_initializer())
    b = v1.get_variable("linear/b", [1], initializer=v1.zeros_initializer())
    pred = tf.matmul(features["x"], w) + b
    pred = tf.identity(pred, name="prediction")
    if mode == ec.ModeKeys.PREDICT:
        return ec.EstimatorSpec(mode, predictions={"y": pred, "double": 2 * pred})
    loss = tf.reduce_mean(tf.square(pred - labels), name="mse")
    v1.summary.scalar("my_loss", loss)
    v1.summary.histogram("w", w)
    if mode == ec.ModeKeys.TRAIN:
        opt = v1.train.GradientDescentOptimizer(params.get("lr", 0.1))
        return ec.EstimatorSpec(mode, loss=loss, train_op=opt.minimize(
            loss, global_step=v1.train.get_or_create_global_step()))
    return ec.EstimatorSpec(mode, loss=loss, eval_metric_ops={
        "mae": v1.metrics.mean_absolute_error(labels, pred)})


def read_events(logdir):
    """{tag: [(step, value)]} of every scalar in the event files directly in `logdir`."""
    out = {}
    for path in sorted(glob.glob(os.path.join(logdir, "events.out.tfevents.*"))):
        for event in event_file_loader.EventFileLoader(path).Load():
            for value in event.summary.value:
                if value.HasField("simple_value"):
                    number = value.simple_value
                elif value.HasField("tensor") and value.tensor.dtype != tf.string.as_datatype_enum:
                    number = tf.make_ndarray(value.tensor)
                    if number.ndim:
                        continue
                    number = float(number)
                else:
                    continue
                out.setdefault(value.tag, []).append((event.step, number))
    return out


class Program:
    """A program started as its user would start it (`estimator-compat run` unless `runner`
    says how); `wait()` returns (stdout, stderr) and fails with its output. Output goes to
    files, so that several programs may run at once without filling a pipe."""

    def __init__(self, script, *args, cwd=None, runner=None, env=None):
        self.command = (runner or [CLI, "run"]) + [script, *map(str, args)]
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", **(env or {}))
        self._out, self._err = tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")
        self._proc = subprocess.Popen(self.command, stdout=self._out, stderr=self._err,
                                      text=True, cwd=cwd, env=env)
        self._result = None

    def running(self):
        return self._proc.poll() is None

    def kill(self):
        """SIGKILL, as a machine or a cluster manager would stop it."""
        self._proc.kill()
        self._proc.wait()

    def finish(self, timeout=600):
        """(exit code, stdout, stderr), once it has ended."""
        if self._result is None:
            self._proc.wait(timeout=timeout)
            outputs = []
            for f in (self._out, self._err):
                f.seek(0)
                outputs.append(f.read())
                f.close()
            self._result = (self._proc.returncode, *outputs)
        return self._result

    def wait(self):
        code, out, err = self.finish()
        assert code == 0, f"{self.command} exited {code}:\n{out}\n{err[-6000:]}"
        return out, err


def run_program(script, *args, cwd=None, runner=None):
    """Runs a program to its end; returns (stdout, stderr); fails with its output."""
    return Program(script, *args, cwd=cwd, runner=runner).wait()


def free_ports(n):
    """`n` localhost ports free a moment ago (for a cluster of processes)."""
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("localhost", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def signature_summary(meta_graph):
    """{signature key: {method, inputs: {name: [dtype enum, dims]}, outputs: {name: dtype}}}
    of a loaded MetaGraphDef, as the timeseries tests record TF 1.15's exports."""
    return {key: {"method": sig.method_name,
                  "inputs": {k: [v.dtype, [d.size for d in v.tensor_shape.dim]]
                             for k, v in sig.inputs.items()},
                  "outputs": {k: v.dtype for k, v in sig.outputs.items()}}
            for key, sig in meta_graph.signature_def.items()}
