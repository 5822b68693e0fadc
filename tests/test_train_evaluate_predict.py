"""Estimator.train / evaluate / predict on a real TF1-style model_fn, files read back."""
import logging
import os
import re

import numpy as np
import pytest
import tensorflow as tf
from tensorboard.backend.event_processing import event_accumulator

import estimator_compat as ec
from helpers import linear_data, linear_input_fn, linear_model_fn, read_events

v1 = tf.compat.v1


def make(tmp_path, **config):
    config.setdefault("save_summary_steps", 10)
    config.setdefault("log_step_count_steps", 10)
    return ec.Estimator(linear_model_fn, config=ec.RunConfig(model_dir=str(tmp_path), **config),
                        params={"lr": 0.1})


def test_train_learns_and_steps_add_to_global_step(tmp_path):
    est = make(tmp_path)
    est.train(linear_input_fn(), steps=30)
    assert est.get_variable_value("global_step") == 30
    est.train(linear_input_fn(), steps=20)
    assert est.get_variable_value("global_step") == 50
    est.train(linear_input_fn(), max_steps=40)  # already past: a no-op
    assert est.get_variable_value("global_step") == 50
    w = est.get_variable_value("linear/w")
    np.testing.assert_allclose(w[:, 0], [1.0, -2.0, 0.5], atol=0.1)


def test_max_steps_is_absolute_and_final_checkpoint_written(tmp_path):
    est = make(tmp_path, save_checkpoints_steps=1000)
    est.train(linear_input_fn(), max_steps=7)
    assert est.latest_checkpoint().endswith("model.ckpt-7")
    assert sorted(dict(tf.train.list_variables(str(tmp_path)))) == [
        "global_step", "linear/b", "linear/w"]


def test_steps_and_max_steps_errors(tmp_path):
    est = make(tmp_path)
    with pytest.raises(ValueError, match="both steps and max_steps"):
        est.train(linear_input_fn(), steps=1, max_steps=2)
    with pytest.raises(ValueError, match="steps > 0"):
        est.train(linear_input_fn(), steps=0)
    with pytest.raises(ValueError, match="max_steps > 0"):
        est.train(linear_input_fn(), max_steps=-1)


def test_training_ends_when_input_is_exhausted(tmp_path):
    est = make(tmp_path)
    est.train(linear_input_fn(batch=64, repeat=False), steps=1000)  # 256 rows: 4 batches
    assert est.get_variable_value("global_step") == 4
    assert est.latest_checkpoint().endswith("model.ckpt-4")


def test_evaluate_until_exhausted_and_with_steps(tmp_path):
    est = make(tmp_path)
    est.train(linear_input_fn(), steps=200)
    res = est.evaluate(linear_input_fn(batch=64, repeat=False))
    assert set(res) == {"loss", "mae", "global_step"}
    assert res["global_step"] == 200
    x, y = linear_data()
    w, b = est.get_variable_value("linear/w"), est.get_variable_value("linear/b")
    pred = x @ w + b
    per_batch = [np.mean((pred[i:i + 64] - y[i:i + 64]) ** 2) for i in range(0, 256, 64)]
    assert res["loss"] == pytest.approx(np.mean(per_batch), rel=1e-4)
    assert res["mae"] == pytest.approx(np.mean(np.abs(pred - y)), rel=1e-4)
    res2 = est.evaluate(linear_input_fn(batch=64, repeat=False), steps=2, name="two")
    assert res2["loss"] == pytest.approx(np.mean(per_batch[:2]), rel=1e-4)
    assert os.path.isdir(os.path.join(str(tmp_path), "eval_two"))
    again = est.evaluate(linear_input_fn(batch=64, repeat=False))  # metrics reset per call
    assert again["mae"] == pytest.approx(res["mae"], rel=1e-6)


def test_predict_single_examples_keys_and_batches(tmp_path):
    est = make(tmp_path)
    est.train(linear_input_fn(), steps=5)

    def predict_input_fn():
        x, _ = linear_data(10)
        return tf.data.Dataset.from_tensor_slices({"x": x}).batch(4)
    preds = list(est.predict(predict_input_fn))
    assert len(preds) == 10 and set(preds[0]) == {"y", "double"}
    np.testing.assert_allclose(preds[3]["double"], 2 * preds[3]["y"], rtol=1e-6)
    only = list(est.predict(predict_input_fn, predict_keys=["y"]))
    assert set(only[0]) == {"y"}
    batches = list(est.predict(predict_input_fn, yield_single_examples=False))
    assert [b["y"].shape[0] for b in batches] == [4, 4, 2]
    with pytest.raises(ValueError, match="at least one output"):
        list(est.predict(predict_input_fn, predict_keys=["nope"]))


def test_evaluate_and_predict_without_checkpoint_warn_and_run(tmp_path, caplog):
    est = make(tmp_path)
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        res = est.evaluate(linear_input_fn(repeat=False))
    lines = [r.getMessage() for r in caplog.records]
    untrained = f"Could not find trained model in model_dir: {tmp_path}, running " \
                "initialization to evaluate."
    assert lines.index(untrained) < lines.index("Calling model_fn.")  # first, at INFO, as 2.15
    assert caplog.records[lines.index(untrained)].levelno == logging.INFO
    assert res["global_step"] == 0
    preds = list(est.predict(linear_input_fn(repeat=False)))
    assert all(float(p["y"][0]) == 0.0 for p in preds)  # zero-initialised weights
    with pytest.raises(ValueError, match="Could not find trained model"):
        est.get_variable_names()


def test_summaries_and_eval_events(tmp_path):
    est = make(tmp_path)
    est.train(linear_input_fn(), steps=25)
    events = read_events(str(tmp_path))
    assert [s for s, _ in events["loss"]] == [1, 11, 21]
    assert [s for s, _ in events["my_loss"]] == [1, 11, 21]
    assert [s for s, _ in events["global_step/sec"]] == [11, 21]
    est.evaluate(linear_input_fn(repeat=False))
    ev = read_events(os.path.join(str(tmp_path), "eval"))
    assert set(ev) >= {"loss", "mae"} and ev["loss"][0][0] == 25
    # the evaluated checkpoint, read back by TensorBoard's reader: a string tensor with no
    # plugin metadata, which no dashboard shows, as TF 1.15 and tf.estimator 2.15 wrote it
    accumulator = event_accumulator.EventAccumulator(
        os.path.join(str(tmp_path), "eval"), size_guidance={"tensors": 0}).Reload()
    [text] = accumulator.Tensors("checkpoint_path")
    assert text.step == 25 and tf.make_ndarray(text.tensor_proto).item().decode() == \
        os.path.join(str(tmp_path), "model.ckpt-25")
    assert "checkpoint_path" not in accumulator.summary_metadata


def test_log_lines(tmp_path, caplog):
    est = make(tmp_path, log_step_count_steps=5, save_checkpoints_steps=10)
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        est.train(linear_input_fn(), steps=10)
        est.evaluate(linear_input_fn(repeat=False))
    text = caplog.text
    assert "loss = " in text and ", step = 0" in text and ", step = 5 (" in text
    assert "global_step/sec: " in text
    assert "Saving checkpoints for 10 into" in text
    assert "Loss for final step:" in text
    assert "Saving dict for global step 10: global_step = 10, loss = " in text


def test_log_lines_print_losses_as_tf_printed_them(tmp_path, caplog):
    """The fetched loss's numpy scalar, as TF 2.15 and 1.15 printed it on this program
    (float32's shortest repr; `%g` or a Python float's repr were not theirs):
    `loss = 3.5813897, step = 0`, `loss = 2.3620729e-05, step = 100`,
    `Loss for final step: 6.630879e-06.`, `... global_step = 150, loss = 6.232434e-06`."""
    x = np.random.RandomState(0).rand(64, 3).astype(np.float32)

    def input_fn():
        return tf.data.Dataset.from_tensor_slices(({"x": x}, x.sum(1))).repeat().batch(8)

    def model_fn(features, labels, mode):
        w = tf.compat.v1.get_variable("w", [3, 1], initializer=tf.compat.v1.zeros_initializer())
        loss = tf.reduce_mean(tf.square(tf.squeeze(tf.matmul(features["x"], w), 1) - labels))
        train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(
            loss, tf.compat.v1.train.get_global_step())
        return ec.EstimatorSpec(mode, loss=loss, train_op=train_op)

    est = ec.Estimator(model_fn, model_dir=str(tmp_path))
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        est.train(input_fn, steps=150)
        est.evaluate(input_fn, steps=3)
    lines = caplog.text
    assert "loss = 3.5813897, step = 0\n" in lines
    assert re.search(r"loss = 2\.362\d+e-05, step = 100 \(", lines)
    final = re.search(r"Loss for final step: (\S+)\.\n", lines).group(1)
    assert re.fullmatch(r"6\.63\d{0,5}e-06", final), final
    saved = re.search(r"Saving dict for global step 150: global_step = 150, loss = (\S+)\n",
                      lines).group(1)
    assert re.fullmatch(r"6\.23\d{0,5}e-06", saved), saved


def test_each_train_call_writes_summaries_from_its_first_step(tmp_path):
    """TF 1.15 (and 2.15) wrote the train summaries at each train call's first step, then
    every save_summary_steps after it (the SummarySaverHook's timer was new in each call):
    two calls of 2 steps and one of 7, save_summary_steps=5: `loss` at steps 1, 3, 5 and 10."""
    est = make(tmp_path, save_summary_steps=5)
    for steps in (2, 2, 7):
        est.train(linear_input_fn(), steps=steps)
    assert [step for step, _ in read_events(str(tmp_path))["loss"]] == [1, 3, 5, 10]


def test_model_fn_traced_once_per_mode(tmp_path):
    calls = {"train": 0, "eval": 0, "infer": 0}

    def counting_model_fn(features, labels, mode, params):
        calls[mode] += 1
        return linear_model_fn(features, labels, mode, params)
    config = ec.RunConfig(checkpoint_save_graph_def=False)  # no .meta: see the test below
    est = ec.Estimator(counting_model_fn, model_dir=str(tmp_path), params={}, config=config)
    est.train(linear_input_fn(), steps=50)
    assert calls["train"] == 1
    est.train(linear_input_fn(), steps=50)
    assert calls["train"] == 1  # the compiled step is reused by the second train() call
    est.evaluate(linear_input_fn(repeat=False))
    est.evaluate(linear_input_fn(repeat=False))
    list(est.predict(linear_input_fn(repeat=False)))
    assert calls == {"train": 1, "eval": 1, "infer": 1}


def test_meta_graph_files_beside_checkpoints(tmp_path):
    """TF 1.x's model.ckpt-N.meta: the train graph (model_fn called once more, in a TF1 graph,
    once per Estimator), imported by import_meta_graph and restored by its saver; removed with
    its checkpoint when it rotates away."""
    calls = []

    def counting_model_fn(features, labels, mode, params):
        calls.append(mode)
        return linear_model_fn(features, labels, mode, params)
    config = ec.RunConfig(keep_checkpoint_max=2, save_checkpoints_steps=20)
    est = ec.Estimator(counting_model_fn, model_dir=str(tmp_path), params={}, config=config)
    est.train(linear_input_fn(), steps=50)
    est.train(linear_input_fn(), steps=10)
    assert calls == ["train", "train"]
    assert sorted(p.name for p in tmp_path.glob("*.meta")) == ["model.ckpt-50.meta",
                                                               "model.ckpt-60.meta"]
    with tf.Graph().as_default() as graph, v1.Session() as sess:
        saver = v1.train.import_meta_graph(str(tmp_path / "model.ckpt-60.meta"))
        saver.restore(sess, str(tmp_path / "model.ckpt-60"))
        w, = [v for v in v1.global_variables() if v.op.name == "linear/w"]
        np.testing.assert_allclose(sess.run(w), est.get_variable_value("linear/w"))
        assert sess.run(v1.train.get_global_step()) == 60
        mse = sess.run("mse:0", {"IteratorGetNext:0": np.ones([2, 3], np.float32),
                                 "IteratorGetNext:1": np.ones([2, 1], np.float32)})
        assert mse >= 0 and graph.get_operation_by_name("GradientDescent").type in (
            "NoOp", "AssignAddVariableOp", "AssignAdd")  # the train_op (its step increment)


def test_temporary_model_dir(caplog):
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        est = ec.Estimator(linear_model_fn, params={})
    assert os.path.isdir(est.model_dir)
    assert "Using temporary folder as model directory" in caplog.text


def test_progress_bar_option(tmp_path, capsys):
    est = make(tmp_path, progress_bar=True)
    est.train(linear_input_fn(), steps=3)
    assert "3/3" in capsys.readouterr().out


def test_train_op_built_in_every_mode_runs_only_in_train(tmp_path):
    """TF1 model_fns often build their train_op before branching on mode; a TF1 session never
    ran it in evaluate/predict. Here neither: the metrics are those of the checkpoint's weights."""
    def model_fn(features, labels, mode):
        w = v1.get_variable("w", [3, 1], initializer=v1.zeros_initializer())
        pred = tf.matmul(features["x"], w)
        if labels is None:
            labels = tf.zeros_like(pred)
        loss = tf.reduce_mean(tf.square(pred - labels))
        train_op = v1.train.GradientDescentOptimizer(0.1).minimize(
            loss, global_step=v1.train.get_or_create_global_step())
        return ec.EstimatorSpec(mode, loss=loss, train_op=train_op, predictions={"p": pred},
                                eval_metric_ops={"mae": v1.metrics.mean_absolute_error(labels, pred)})
    est = ec.Estimator(model_fn, model_dir=str(tmp_path))
    est.train(linear_input_fn(), steps=5)
    x, y = linear_data()
    w = est.get_variable_value("w")
    first = est.evaluate(linear_input_fn(repeat=False))
    assert first["mae"] == pytest.approx(np.mean(np.abs(x @ w - y)), rel=1e-5)
    assert est.evaluate(linear_input_fn(repeat=False)) == first
    predicted = np.concatenate([p["p"] for p in est.predict(linear_input_fn(repeat=False),
                                                            yield_single_examples=False)])
    # float32 sums in another order: relative error is large only for results near zero
    np.testing.assert_allclose(predicted, x @ w, rtol=1e-5, atol=1e-6)
    assert first["global_step"] == 5 and est.get_variable_value("global_step") == 5


def test_train_ops_built_and_not_returned_do_not_run(tmp_path):
    """A wrapper (Neural Structured Learning) calls a canned model_fn more than once per step and
    keeps one train_op: as in a TF1 session, the others' gradient applies and global_step
    increments do not run. A side write the step does not fetch (a moving average) still runs."""
    def model_fn(features, labels, mode, params):
        w = v1.get_variable("w", [3, 1], initializer=v1.zeros_initializer())
        seen = v1.get_variable("seen", [], initializer=v1.zeros_initializer(), trainable=False)
        seen.assign_add(1.0)  # not fetched: Keras 3 layers write their moving averages so
        loss = tf.reduce_mean(tf.square(tf.matmul(features["x"], w) - labels))
        step = v1.train.get_or_create_global_step()
        if params["wrapped"]:
            v1.train.AdagradOptimizer(5.0).minimize(10 * loss, global_step=step)  # discarded
        train_op = v1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
        return ec.EstimatorSpec(mode, loss=loss, train_op=train_op)
    est = ec.Estimator(model_fn, model_dir=str(tmp_path / "a"), params={"wrapped": True})
    est.train(linear_input_fn(), steps=5)
    assert est.get_variable_value("global_step") == 5
    assert est.get_variable_value("seen") == 5
    reference = ec.Estimator(model_fn, model_dir=str(tmp_path / "b"), params={"wrapped": False})
    reference.train(linear_input_fn(), steps=5)
    np.testing.assert_allclose(est.get_variable_value("w"),
                               reference.get_variable_value("w"), rtol=1e-5)


def test_global_step_read_after_minimize_is_the_steps_own(tmp_path):
    """A TF1 session read global_step before the increment when nothing ordered the read
    after the train_op (TPUEstimator host_calls write summaries at steps 0..N-1 so); a read
    the program put after the train_op sees the new value."""
    seen = []

    class Fetch(ec.SessionRunHook):
        def begin(self):
            graph = v1.get_default_graph()
            self.tensors = [graph.get_tensor_by_name(n) for n in ("plain:0", "after:0")]

        def before_run(self, run_context):
            return ec.SessionRunArgs(self.tensors)

        def after_run(self, run_context, run_values):
            seen.append(tuple(int(np.squeeze(v)) for v in run_values.results))

    def model_fn(features, labels, mode):
        w = v1.get_variable("w", [3, 1], initializer=v1.zeros_initializer())
        loss = tf.reduce_mean(tf.square(tf.matmul(features["x"], w) - labels))
        step = v1.train.get_or_create_global_step()
        train_op = v1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
        tf.reshape(step, [1], name="plain")
        with tf.control_dependencies([train_op]):
            tf.identity(step.read_value(), name="after")
        return ec.EstimatorSpec(mode, loss=loss, train_op=train_op)
    est = ec.Estimator(model_fn, model_dir=str(tmp_path))
    est.train(linear_input_fn(), steps=3, hooks=[Fetch()])
    assert seen == [(0, 1), (1, 2), (2, 3)]


def test_model_fn_compares_and_hashes_variables_as_a_tf1_graph(tmp_path):
    """TF 1.15 and tf.estimator 2.15 built model_fns in a TF1 graph, where `==` on tensors and
    variables is identity and they hash: `v not in frozen` filters, `assert v in var_list`
    (TF-GAN), dicts keyed by tensors. TensorFlow 2's element-wise `==` made these fail."""
    def model_fn(features, labels, mode):
        w = v1.get_variable("w", [3, 1], initializer=v1.zeros_initializer())
        b = v1.get_variable("b", [1], initializer=v1.ones_initializer())
        pred = tf.matmul(features["x"], w) + b
        loss = tf.reduce_mean(tf.square(pred - labels))
        assert w in v1.trainable_variables() and {w: 1, pred: 2}[pred] == 2
        train_vars = [v for v in v1.trainable_variables() if v not in [b]]
        train_op = v1.train.GradientDescentOptimizer(0.1).minimize(
            loss, var_list=train_vars, global_step=v1.train.get_or_create_global_step())
        return ec.EstimatorSpec(mode, loss=loss, train_op=train_op)
    est = ec.Estimator(model_fn, model_dir=str(tmp_path))
    est.train(linear_input_fn(), steps=3)
    assert est.get_variable_value("b") == [1.0] and est.get_variable_value("w").any()
    assert tf.constant(1.0) == 1.0  # eager code after it keeps TensorFlow 2's rule


def test_model_fn_property_is_bound_to_params(tmp_path):
    """`estimator.model_fn(features, labels, mode, config)`, as tf.estimator gave it to tools
    that build their own graph (tensorflow_hub's LatestModuleExporter)."""
    est = ec.Estimator(linear_model_fn, model_dir=str(tmp_path), params={"lr": 0.5})
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 3])
        spec = est.model_fn(features={"x": x}, labels=None, mode=ec.ModeKeys.PREDICT,
                            config=est.config)
        assert isinstance(spec, ec.EstimatorSpec) and spec.predictions["y"].shape[1] == 1
    assert est._session_config is None


def test_meta_graph_with_keras_layers_and_without_a_tf1_graph(tmp_path, caplog):
    """Keras 3 layers in a model_fn build in the TF1 graph too; a model_fn that works only
    inside tf.function gets no .meta, one INFO line, and trains as usual."""
    import keras

    def model_fn(features, labels, mode):
        pred = keras.layers.Dense(1)(features["x"])
        loss = tf.reduce_mean(tf.square(pred - labels))
        return ec.EstimatorSpec(mode, loss=loss, train_op=v1.train.AdamOptimizer(0.1).minimize(
            loss, global_step=v1.train.get_global_step()))
    est = ec.Estimator(model_fn, model_dir=str(tmp_path / "keras"))
    est.train(linear_input_fn(), steps=3)
    assert (tmp_path / "keras" / "model.ckpt-3.meta").exists()

    def function_only(features, labels, mode):
        if not v1.get_default_graph().building_function:
            raise RuntimeError("this model_fn runs inside tf.function only")
        return model_fn(features, labels, mode)
    est = ec.Estimator(function_only, model_dir=str(tmp_path / "function_only"))
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        est.train(linear_input_fn(), steps=3)
        est.train(linear_input_fn(), steps=3)
    assert est.get_variable_value("global_step") == 6
    assert not list((tmp_path / "function_only").glob("*.meta"))
    assert caplog.text.count("no model.ckpt-*.meta files: the model_fn could not be built in "
                             "a TF 1.x graph (RuntimeError: this model_fn runs") == 1
