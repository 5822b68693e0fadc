"""SessionRunHooks and Keras callbacks around the compiled steps; saving listeners."""
import keras
import numpy as np
import tensorflow as tf

import estimator_compat as ec
from helpers import linear_input_fn, linear_model_fn


class RecordingHook(ec.SessionRunHook):
    """Fetches a tensor by graph name, a nest with a tensor object, and stops after 5 runs."""

    def __init__(self):
        self.calls, self.values = [], []

    def begin(self):
        self.calls.append("begin")
        graph = tf.compat.v1.get_default_graph()
        self.mse = graph.get_tensor_by_name("mse:0")
        self.step = tf.compat.v1.train.get_global_step()

    def after_create_session(self, session, coord):
        self.calls.append(("created", int(session.run(self.step))))

    def before_run(self, run_context):
        return ec.SessionRunArgs({"pred": "prediction:0", "nest": [self.mse, (self.step,)]})

    def after_run(self, run_context, run_values):
        r = run_values.results
        self.values.append((r["pred"].shape, float(r["nest"][0]), int(r["nest"][1][0])))
        if len(self.values) == 5:
            run_context.request_stop()

    def end(self, session):
        self.calls.append("end")


def test_session_run_hook_protocol(tmp_path):
    hook = RecordingHook()
    est = ec.Estimator(linear_model_fn, model_dir=str(tmp_path), params={})
    est.train(linear_input_fn(batch=16), hooks=[hook], steps=100)
    assert hook.calls == ["begin", ("created", 0), "end"]
    assert len(hook.values) == 5 and hook.values[0][0] == (16, 1)
    assert [v[2] for v in hook.values] == [1, 2, 3, 4, 5]  # global_step variable after each run
    assert est.get_variable_value("global_step") == 5  # request_stop ended training


def test_eval_hook_and_keras_callback(tmp_path):
    class Cb(keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.seen = []

        def on_train_batch_end(self, batch, logs=None):
            self.seen.append(logs["global_step"])
            if logs["global_step"] == 3:
                self.model.stop_training = True

        def on_test_end(self, logs=None):
            self.seen.append(("eval", sorted(logs)))
    cb = Cb()
    est = ec.Estimator(linear_model_fn, model_dir=str(tmp_path), params={})
    est.train(linear_input_fn(), hooks=[cb], steps=100)
    assert cb.seen == [1, 2, 3]
    est.evaluate(linear_input_fn(repeat=False), hooks=[cb])
    assert cb.seen[-1] == ("eval", ["global_step", "loss", "mae"])


def test_saving_listeners(tmp_path):
    events = []

    class Listener(ec.CheckpointSaverListener):
        def begin(self):
            events.append("begin")

        def before_save(self, session, global_step_value):
            events.append(("before", global_step_value))

        def after_save(self, session, global_step_value):
            events.append(("after", global_step_value))
            return global_step_value >= 4  # stop training

        def end(self, session, global_step_value):
            events.append(("end", global_step_value))
    cfg = ec.RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=2)
    est = ec.Estimator(linear_model_fn, config=cfg, params={})
    est.train(linear_input_fn(), steps=10, saving_listeners=[Listener()])
    assert events == ["begin", ("before", 0), ("after", 0), ("before", 2), ("after", 2),
                      ("before", 4), ("after", 4), ("end", 4)]
    assert np.int64(est.get_variable_value("global_step")) == 4


def test_a_hook_runs_another_train_op_on_a_fresh_batch(tmp_path):
    """TF-GAN's RunTrainOpsHook: `session.run(train_op)` in before_run, where the train op
    needs the input. A TF1 session read a fresh batch for it and applied its updates; so here
    (steps_per_execution 1). Each step then reads two batches; the hook's train op, which the
    step itself does not run, still moves its variable."""
    v1 = tf.compat.v1
    seen = []

    class RunOther(ec.SessionRunHook):
        def begin(self):
            self.op = v1.get_collection("other_train_op")[0]

        def before_run(self, run_context):
            run_context.session.run(self.op)

    def model_fn(features, labels, mode):
        w = v1.get_variable("w", [3, 1], initializer=v1.zeros_initializer())
        u = v1.get_variable("u", [3, 1], initializer=v1.zeros_initializer())
        x = features["x"]
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - labels))
        other = v1.train.GradientDescentOptimizer(0.1).minimize(
            tf.reduce_mean(tf.square(tf.matmul(x, u) - labels)), var_list=[u])
        v1.add_to_collection("other_train_op", other)
        train_op = v1.train.GradientDescentOptimizer(0.1).minimize(
            loss, var_list=[w], global_step=v1.train.get_or_create_global_step())
        return ec.EstimatorSpec(mode, loss=loss, train_op=train_op)

    def input_fn():
        x = np.arange(30, dtype=np.float32).reshape(10, 3) / 30
        seen.clear()
        return tf.data.Dataset.from_tensor_slices(({"x": x}, x[:, :1])).batch(1)
    est = ec.Estimator(model_fn, model_dir=str(tmp_path))
    est.train(input_fn, steps=3, hooks=[RunOther()])
    assert est.get_variable_value("global_step") == 3
    assert np.abs(est.get_variable_value("u")).sum() > 0  # the hook's op trained u
    est.train(input_fn, hooks=[RunOther()])  # 10 batches: 5 steps, 5 hook runs
    assert est.get_variable_value("global_step") == 3 + 5


def test_hooks_find_the_global_step_in_their_callbacks(tmp_path):
    """TF 1.15 ran a hook's callbacks with the training graph as the default graph, so
    `get_global_step()` in before_run found the step (TF 1.15 on this hook: 0, 1, 2 then 3 at
    end); here it returned None, and `get_or_create_global_step()` made a stray one at 0."""
    seen = []

    class StepHook(ec.SessionRunHook):
        def before_run(self, run_context):
            session = run_context.session
            seen.append((session.run(tf.compat.v1.train.get_global_step()),
                         session.run(tf.compat.v1.train.get_or_create_global_step())))

        def end(self, session):
            seen.append(session.run(tf.compat.v1.train.get_global_step()))

    est = ec.Estimator(linear_model_fn, model_dir=str(tmp_path), params={"lr": 0.01})
    est.train(linear_input_fn(), steps=3, hooks=[StepHook()])
    assert seen == [(0, 0), (1, 1), (2, 2), 3]
    assert not tf.compat.v1.get_default_graph().get_collection(
        tf.compat.v1.GraphKeys.GLOBAL_STEP)  # left as it was
