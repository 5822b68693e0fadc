"""Placeholders an input_fn returns, fed at each step by a hook's before_run
(`tf.train.FeedFnHook`, the 2017 seq2seq-with-Estimator tutorials' idiom), as TF 1.15 fed the
step's session.run (engine/session_input.py)."""
import os

import numpy as np
import pytest
import tensorflow as tf
from helpers import PROGRAMS, run_program

import estimator_compat as ec

v1 = tf.compat.v1
X = np.arange(24, dtype=np.float32).reshape(8, 3) / 10
Y = X @ np.array([[1.0], [2.0], [3.0]], np.float32)


def _input_fn():
    x = v1.placeholder(tf.float32, [None, 3], name="x_in")
    y = v1.placeholder(tf.float32, [None, 1], name="y_in")
    tf.identity(x[0], name="x_0")
    return {"x": x}, y


def _model_fn(features, labels, mode):
    w = v1.get_variable("w", [3, 1], initializer=v1.zeros_initializer())
    loss = tf.reduce_mean(tf.square(tf.matmul(features["x"], w) - labels))
    if mode == ec.ModeKeys.EVAL:
        return ec.EstimatorSpec(mode, loss=loss)
    return ec.EstimatorSpec(mode, loss=loss, train_op=v1.train.GradientDescentOptimizer(
        0.05).minimize(loss, v1.train.get_global_step()))


def _batches():
    """Batch i of the feed: rows i % 8 and (i + 1) % 8, so each step's feed differs."""
    i = 0
    while True:
        rows = [i % 8, (i + 1) % 8]
        yield X[rows], Y[rows]
        i += 1


class _Seen(ec.SessionRunHook):
    """Fetches the input_fn's own tensor `x_0` (by name) at every step."""

    def begin(self):
        self.tensor, self.values = v1.get_default_graph().get_tensor_by_name("x_0:0"), []

    def before_run(self, run_context):
        return ec.SessionRunArgs(self.tensor)

    def after_run(self, run_context, run_values):
        self.values.append(run_values.results)


def test_each_step_reads_the_batch_its_hooks_fed_and_hooks_fetch_input_tensors(tmp_path):
    source = _batches()

    def feed_fn():
        x, y = next(source)
        return {"x_in:0": x, "y_in:0": y}
    seen = _Seen()
    est = ec.Estimator(_model_fn, model_dir=str(tmp_path))
    est.train(_input_fn, steps=6, hooks=[ec.FeedFnHook(feed_fn), seen])
    np.testing.assert_array_equal(np.stack(seen.values), X[[0, 1, 2, 3, 4, 5]])
    # the same six steps by hand: plain gradient descent on each fed batch in turn
    w = np.zeros((3, 1), np.float32)
    for i in range(6):
        x, y = X[[i % 8, (i + 1) % 8]], Y[[i % 8, (i + 1) % 8]]
        w -= 0.05 * 2 * x.T @ (x @ w - y) / len(x)
    np.testing.assert_allclose(est.get_variable_value("w"), w, rtol=1e-5)
    evaluated = est.evaluate(_input_fn, steps=3, hooks=[_FeedByTensor()])
    x, y = X[[0, 1, 1, 2, 2, 3]], Y[[0, 1, 1, 2, 2, 3]]
    assert evaluated["global_step"] == 6
    np.testing.assert_allclose(evaluated["loss"], np.mean(np.square(x @ w - y)), rtol=1e-5)


class _FeedByTensor(ec.SessionRunHook):
    """Feeds the placeholders themselves (looked up by name in begin(), as TF1 hooks did)."""

    def begin(self):
        graph = v1.get_default_graph()
        self.x, self.y = (graph.get_tensor_by_name(n) for n in ("x_in:0", "y_in:0"))
        self.source = _batches()

    def before_run(self, run_context):
        x, y = next(self.source)
        return ec.SessionRunArgs(None, feed_dict={self.x: x, self.y: y})


class _FeedFromSessionGraph(ec.SessionRunHook):
    """Looks the placeholders up at each step in `run_context.session.graph` (the feeders of
    public image-captioning and seq2seq programs did), and stops after `steps` feeds."""

    def __init__(self, steps):
        self.left, self.source = steps, _batches()

    def before_run(self, run_context):
        graph = run_context.session.graph
        x, y = next(self.source)
        self.left -= 1
        return ec.SessionRunArgs(None, feed_dict={graph.get_tensor_by_name("x_in:0"): x,
                                                  graph.get_tensor_by_name("y_in:0"): y})

    def after_run(self, run_context, run_values):
        if self.left == 0:
            run_context.request_stop()


def test_hooks_find_the_placeholders_in_the_session_graph(tmp_path):
    """TF 1.15 had the input_fn's placeholders in the one graph `run_context.session.graph`
    is; here they are found there by name at each step, in train and predict."""
    est = ec.Estimator(_model_fn, model_dir=str(tmp_path))
    est.train(_input_fn, hooks=[_FeedFromSessionGraph(5)])
    assert est.get_variable_value("global_step") == 5

    def predict_fn(features, labels, mode):
        w = v1.get_variable("w", [3, 1])
        return ec.EstimatorSpec(mode, predictions=tf.matmul(features["x"], w)[:, 0])
    w = est.get_variable_value("w")
    predicted = list(ec.Estimator(predict_fn, model_dir=str(tmp_path)).predict(
        _input_fn, hooks=[_FeedFromSessionGraph(2)]))
    np.testing.assert_allclose(predicted, (X[[0, 1, 1, 2]] @ w)[:, 0], rtol=1e-5)


def test_misfed_steps_fail_as_tf115_did(tmp_path):
    """TF 1.15.5: an unfed placeholder, InvalidArgumentError "You must feed a value for
    placeholder tensor 'y_in' with dtype float and shape [?,1]"; two hooks feeding one tensor,
    RuntimeError "Same tensor is fed by two hooks. Conflict(s): ['x_in:0', 'y_in:0']"."""
    est = ec.Estimator(_model_fn, model_dir=str(tmp_path))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"You must feed a value for placeholder tensor 'y_in' with dtype "
                             r"float and shape \[\?,1\]"):
        est.train(_input_fn, steps=2)
    feed = lambda: {"x_in:0": X[:2], "y_in:0": Y[:2]}  # noqa: E731
    with pytest.raises(RuntimeError, match=r"Same tensor is fed by two hooks. Conflict\(s\): "
                                           r"\['x_in:0', 'y_in:0'\]"):
        est.train(_input_fn, steps=2, hooks=[ec.FeedFnHook(feed), ec.FeedFnHook(feed)])
    with pytest.raises(ValueError, match="steps_per_execution=2 runs 2 steps per hook call"):
        ec.Estimator(_model_fn, config=ec.RunConfig(model_dir=str(tmp_path / "spe"),
                                                    steps_per_execution=2)).train(
            _input_fn, steps=2, hooks=[ec.FeedFnHook(feed)])
    with pytest.raises(ValueError, match="not tensors of the model_fn"):
        est.train(_input_fn, steps=2, hooks=[ec.FeedFnHook(lambda: {"w:0": np.ones((3, 1))})])


def test_seq2seq_tutorial_style_program_as_tf115(tmp_path):
    """tests/programs/feed_fn_hook/train.py under `estimator-compat run`: TF 1.15.5 logged
    tokens_0 = [1 3 1 4 4 0 0 0 0 0 0 0] / [3 2 4 1 3 1 1 4 1 2 4 0] / [2 4 4 0 0 0 0 0 0 0 0 0]
    at steps 1, 101, 201 (the batches its FeedFnHook fed; `global_step` fetched by name), `loss = …, step = 1 / 101 / 201`
    (its reference global step read after the run incremented it; tf.estimator 2.15: 0 / 100 /
    200) and evaluated accuracy 1.0."""
    out, err = run_program(os.path.join(PROGRAMS, "feed_fn_hook", "train.py"),
                           "--model_dir", tmp_path / "model")
    tokens = [line.split("tokens_0 = ")[1].split("]")[0] + "]"
              for line in err.splitlines() if "INFO:tensorflow:tokens_0 = " in line]
    assert tokens == ["[1 3 1 4 4 0 0 0 0 0 0 0]", "[3 2 4 1 3 1 1 4 1 2 4 0]",
                      "[2 4 4 0 0 0 0 0 0 0 0 0]"]
    assert [int(line.split("global_step = ")[1].split()[0]) for line in err.splitlines()
            if "INFO:tensorflow:tokens_0 = " in line] == [1, 101, 201]  # by name, as TF 1.15
    assert [int(line.split(", step = ")[1].split()[0]) for line in err.splitlines()
            if line.startswith("INFO:tensorflow:loss = ")] == [1, 101, 201]
    assert "RESULT accuracy=1.0000 global_step=300" in out
    files = os.listdir(tmp_path / "model")
    assert {"checkpoint", "model.ckpt-300.index", "eval", "graph.pbtxt"} <= set(files)
