"""tf.estimator's built-in hooks (TensorFlow's classes and ours) around the compiled steps."""
import glob
import logging
import os

import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from helpers import linear_input_fn, linear_model_fn, read_events

v1 = tf.compat.v1


def make(tmp_path, model_fn=linear_model_fn, **config):
    config.setdefault("log_step_count_steps", 1000)
    return ec.Estimator(model_fn, config=ec.RunConfig(model_dir=str(tmp_path), **config),
                        params={"lr": 0.1})


def test_logging_tensor_hook_by_name(tmp_path, caplog):
    hook = ec.LoggingTensorHook(tensors={"pred": "prediction", "mse": "mse:0"}, every_n_iter=5,
                                at_end=True, formatter=lambda v: f"MSE IS {v['mse']:.4f}")
    est = make(tmp_path)
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        est.train(linear_input_fn(), hooks=[hook], steps=12)
    assert caplog.text.count("MSE IS") == 4  # iterations 0, 5, 10 and at_end


def test_tf_compat_v1_hook_classes_work_unchanged(tmp_path, caplog):
    hook = v1.train.LoggingTensorHook({"loss": "mse"}, every_n_iter=4)
    stop = v1.train.StopAtStepHook(num_steps=7)
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        make(tmp_path).train(linear_input_fn(), hooks=[hook, stop])
    assert "loss = " in caplog.text
    assert ec.Estimator(linear_model_fn, model_dir=str(tmp_path), params={}).get_variable_value(
        "global_step") == 7


def test_logging_tensor_hook_given_variables_and_tensors_in_training_hooks(tmp_path, caplog):
    """`LoggingTensorHook({"step": tf.train.get_global_step(), "loss": loss})` made in model_fn,
    as TF 1.x code wrote it: TensorFlow's hook takes only elements of the graph being built."""
    def model_fn(features, labels, mode, params):
        spec = linear_model_fn(features, labels, mode, params)
        w = [v for v in v1.global_variables() if v.name == "linear/w:0"][0]
        hook = v1.train.LoggingTensorHook({"step": v1.train.get_global_step(), "loss": spec.loss,
                                           "w": w}, every_n_iter=5)
        return spec._replace(training_hooks=[hook]) if mode == "train" else spec
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        make(tmp_path, model_fn).train(linear_input_fn(), steps=11)
    logged = [line for line in caplog.text.splitlines() if "step = " in line and "w = " in line]
    assert [int(line.split("step = ")[1].split(",")[0].split()[0]) for line in logged] == [0, 5, 10]


def test_stop_at_step_last_step_and_counting(tmp_path):
    est = make(tmp_path)
    est.train(linear_input_fn(), hooks=[ec.StopAtStepHook(last_step=5)])
    assert est.get_variable_value("global_step") == 5
    est.train(linear_input_fn(), hooks=[ec.StopAtStepHook(num_steps=3)])
    assert est.get_variable_value("global_step") == 8


def test_hook_creates_ops_in_begin_and_fetches_them(tmp_path):
    class DoubleLoss(ec.SessionRunHook):
        def begin(self):
            mse = v1.get_default_graph().get_tensor_by_name("mse:0")
            self.double = tf.multiply(mse, 2.0, name="double_mse")
            self.pairs = []

        def before_run(self, run_context):
            return ec.SessionRunArgs([self.double, "mse:0"])

        def after_run(self, run_context, run_values):
            self.pairs.append(run_values.results)

    calls = []

    def counting(features, labels, mode, params):
        calls.append(mode)
        return linear_model_fn(features, labels, mode, params)
    hook = DoubleLoss()
    make(tmp_path, counting).train(linear_input_fn(), hooks=[hook], steps=6)
    assert len(hook.pairs) == 6
    assert all(d == pytest.approx(2 * m) for d, m in hook.pairs)
    # the first trace, one retrace adding the fetches, the TF1 train graph of the .meta files
    assert calls == ["train", "train", "train"]


def test_checkpoint_saver_hook_and_listener(tmp_path):
    events = []

    class Listener(ec.CheckpointSaverListener):
        def after_save(self, session, global_step_value):
            events.append(global_step_value)
            return global_step_value >= 6
    other = str(tmp_path / "other")
    hook = v1.train.CheckpointSaverHook(other, save_steps=3, listeners=[Listener()])
    est = make(tmp_path, save_checkpoints_steps=1000)
    est.train(linear_input_fn(), hooks=[hook], steps=20)
    assert events == [0, 3, 6]
    assert tf.train.latest_checkpoint(other).endswith("model.ckpt-6")
    assert est.get_variable_value("global_step") == 6
    names = dict(tf.train.list_variables(other))
    assert set(names) == {"global_step", "linear/w", "linear/b"}


def test_summary_saver_hook_with_merge_all(tmp_path):
    class MergeHook(ec.SessionRunHook):
        """Builds SummarySaverHook from merge_all(), as TF1 scripts did in model_fn."""

    def model_fn(features, labels, mode, params):
        spec = linear_model_fn(features, labels, mode, params)
        if mode == "train":
            out = str(tmp_path / "summaries")
            hook = ec.SummarySaverHook(save_steps=4, output_dir=out,
                                       summary_op=v1.summary.merge_all())
            spec = spec._replace(training_hooks=[hook])
        return spec
    make(tmp_path, model_fn).train(linear_input_fn(), steps=10)
    events = read_events(str(tmp_path / "summaries"))
    assert [s for s, _ in events["my_loss"]] == [1, 5, 9]


def test_step_counter_hook_writes_global_step_per_sec(tmp_path):
    out = str(tmp_path / "counter")
    make(tmp_path).train(linear_input_fn(), hooks=[ec.StepCounterHook(every_n_steps=5, output_dir=out)],
                         steps=16)
    events = read_events(out)
    assert [s for s, _ in events["global_step/sec"]] == [6, 11, 16]


def test_nan_tensor_hook_without_failing_stops(tmp_path):
    def model_fn(features, labels, mode):
        step = v1.train.get_global_step().read_value()  # read before the train op increments it
        spec = linear_model_fn(features, labels, mode, {})
        nan_loss = tf.where(step >= 3, np.float32(np.nan), spec.loss, name="maybe_nan")
        return spec._replace(training_hooks=[ec.NanTensorHook(nan_loss, fail_on_nan_loss=False)])
    est = ec.Estimator(model_fn, model_dir=str(tmp_path))
    est.train(linear_input_fn(), steps=20)
    assert est.get_variable_value("global_step") == 4


def test_final_ops_hook_in_evaluate(tmp_path):
    class Capture(ec.SessionRunHook):
        pass

    def model_fn(features, labels, mode):
        spec = linear_model_fn(features, labels, mode, {})
        if mode == "eval":
            value, _ = spec.eval_metric_ops["mae"]
            spec = spec._replace(evaluation_hooks=[ec.FinalOpsHook({"mae": value})])
            holder.append(spec.evaluation_hooks[0])
        return spec
    holder = []
    est = ec.Estimator(model_fn, model_dir=str(tmp_path))
    est.train(linear_input_fn(), steps=10)
    res = est.evaluate(linear_input_fn(repeat=False))
    assert holder[-1].final_ops_values["mae"] == pytest.approx(res["mae"], rel=1e-6)


def test_feed_fn_hook_without_placeholders_to_feed_gets_a_clear_error(tmp_path):
    """(FeedFnHook feeding an input_fn's placeholders: tests/test_feed_fn_hook.py.)"""
    hook = ec.FeedFnHook(lambda: {"some_placeholder:0": 1.0})
    with pytest.raises(ValueError, match="can feed the placeholders an input_fn returns"):
        make(tmp_path).train(linear_input_fn(), hooks=[hook], steps=2)


def test_global_step_waiter_hook_and_secs_timer(tmp_path):
    est = make(tmp_path)
    est.train(linear_input_fn(), steps=3)
    est.train(linear_input_fn(), hooks=[ec.GlobalStepWaiterHook(wait_until_step=2)], steps=2)
    assert est.get_variable_value("global_step") == 5
    timer = ec.SecondOrStepTimer(every_steps=10)
    assert timer.should_trigger_for_step(0)
    timer.update_last_triggered_step(0)
    assert not timer.should_trigger_for_step(5) and timer.should_trigger_for_step(10)


def test_profiler_hook_writes_a_trace(tmp_path):
    out = str(tmp_path / "profile")
    make(tmp_path).train(linear_input_fn(), hooks=[ec.ProfilerHook(save_steps=5, output_dir=out)],
                         steps=6)
    traces = glob.glob(os.path.join(out, "plugins", "profile", "*", "*.xplane.pb"))
    assert traces and os.path.getsize(traces[0]) > 0


def test_missing_fetch_names_close_matches(tmp_path):
    hook = ec.LoggingTensorHook({"x": "predictoin:0"}, every_n_iter=1)
    with pytest.raises(ValueError, match=r"predictoin.*Close matches: \['prediction'"):
        make(tmp_path).train(linear_input_fn(), hooks=[hook], steps=1)


def test_not_a_hook(tmp_path):
    with pytest.raises(TypeError, match="SessionRunHook instances or Keras callbacks.*object"):
        make(tmp_path).train(linear_input_fn(), hooks=[object()], steps=1)


def test_raising_hook_propagates_skips_end_and_keeps_checkpoint(tmp_path):
    class Boom(ec.SessionRunHook):
        ended = False

        def begin(self):
            self.step = v1.train.get_global_step()

        def after_run(self, run_context, run_values):
            if int(run_context.session.run(self.step)) >= 4:
                raise RuntimeError("boom")

        def end(self, session):
            Boom.ended = True
    est = make(tmp_path, save_checkpoints_steps=2)
    with pytest.raises(RuntimeError, match="boom"):
        est.train(linear_input_fn(), hooks=[Boom()], steps=10)
    assert not Boom.ended  # as MonitoredSession: end() only on a clean finish
    assert est.latest_checkpoint().endswith("model.ckpt-4")
