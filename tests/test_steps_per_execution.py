"""steps_per_execution (several train, evaluation or prediction steps per compiled call) and
jit_compile (XLA)."""
import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from helpers import linear_input_fn, linear_model_fn, read_events

v1 = tf.compat.v1


class CountRuns(ec.SessionRunHook):
    def __init__(self):
        self.steps = []

    def begin(self):
        self.read = v1.train.get_global_step()

    def before_run(self, run_context):
        return ec.SessionRunArgs("mse:0")

    def after_run(self, run_context, run_values):
        self.steps.append(int(run_context.session.run(self.read)))


class Calls(ec.SessionRunHook):
    def __init__(self):
        self.before = self.after = 0

    def before_run(self, run_context):
        self.before += 1

    def after_run(self, run_context, run_values):
        self.after += 1


def test_several_steps_per_call(tmp_path):
    calls = []

    def counting(features, labels, mode, params):
        calls.append(mode)
        return linear_model_fn(features, labels, mode, params)
    cfg = ec.RunConfig(model_dir=str(tmp_path), steps_per_execution=5, save_summary_steps=10,
                       save_checkpoints_steps=10)
    est = ec.Estimator(counting, config=cfg, params={"lr": 0.1})
    hook = CountRuns()
    est.train(linear_input_fn(), hooks=[hook], steps=23)
    assert est.get_variable_value("global_step") == 23
    assert hook.steps == [5, 10, 15, 20, 23]  # one run per call; the last call is shorter
    # traced once, once more to add the hook's fetch, and once in a TF1 graph for the .meta
    assert calls == ["train", "train", "train"]
    events = read_events(str(tmp_path))
    assert [s for s, _ in events["loss"]] == [1, 11, 21]  # summaries on the right steps
    ckpts = [p.rsplit("-", 1)[1] for p in tf.train.get_checkpoint_state(str(tmp_path))
             .all_model_checkpoint_paths]
    assert ckpts == ["0", "10", "20", "23"]
    np.testing.assert_allclose(est.get_variable_value("linear/w")[:, 0], [1, -2, 0.5], atol=0.15)


def test_same_result_as_one_step_per_call(tmp_path):
    def run(spe, d):
        est = ec.Estimator(linear_model_fn, config=ec.RunConfig(
            model_dir=str(d), steps_per_execution=spe, tf_random_seed=1), params={"lr": 0.1})
        est.train(linear_input_fn(), steps=12)
        return est.get_variable_value("linear/w")
    np.testing.assert_allclose(run(1, tmp_path / "a"), run(4, tmp_path / "b"), rtol=1e-5)


def test_input_exhaustion_inside_a_call_ends_training(tmp_path):
    cfg = ec.RunConfig(model_dir=str(tmp_path), steps_per_execution=3)
    est = ec.Estimator(linear_model_fn, config=cfg, params={})
    est.train(linear_input_fn(batch=64, repeat=False), steps=100)  # 4 batches
    assert est.get_variable_value("global_step") == 4


def test_tpu_iterations_per_loop_maps_to_steps_per_execution(tmp_path):
    from estimator_compat.tpu import RunConfig, TPUConfig, TPUEstimator

    def model_fn(features, labels, mode, params):
        return linear_model_fn(features, labels, mode, params)
    est = TPUEstimator(model_fn, config=RunConfig(model_dir=str(tmp_path),
                                                  tpu_config=TPUConfig(iterations_per_loop=4)),
                       use_tpu=False, train_batch_size=32)
    assert est.config.steps_per_execution == 4
    hook = CountRuns()
    est.train(lambda params: linear_input_fn(batch=params["batch_size"])(), hooks=[hook],
              steps=8)
    assert hook.steps == [4, 8]


def test_jit_compile(tmp_path):
    est = ec.Estimator(linear_model_fn, config=ec.RunConfig(model_dir=str(tmp_path / "a"),
                                                           jit_compile=True), params={})
    est.train(linear_input_fn(), steps=5)
    assert est.get_variable_value("global_step") == 5

    def strings_model_fn(features, labels, mode):
        spec = linear_model_fn(features, labels, mode, {})
        tf.strings.as_string(spec.loss)  # no XLA kernel for string ops
        return spec
    bad = ec.Estimator(strings_model_fn, config=ec.RunConfig(model_dir=str(tmp_path / "b"),
                                                            jit_compile=True))
    with pytest.raises(ValueError, match="XLA could not compile the train step"):
        bad.train(linear_input_fn(), steps=1)
    with pytest.raises(ValueError, match="steps_per_execution"):
        ec.RunConfig(steps_per_execution=0)


def _trained(tmp_path, spe):
    est = ec.Estimator(linear_model_fn, config=ec.RunConfig(
        model_dir=str(tmp_path), steps_per_execution=spe), params={"lr": 0.1})
    est.train(linear_input_fn(), steps=20)
    return est


def test_evaluate_several_batches_per_call(tmp_path, caplog):
    one = _trained(tmp_path, 1)
    several = ec.Estimator(linear_model_fn, config=one.config.replace(steps_per_execution=4),
                           params={"lr": 0.1})
    data = linear_input_fn(batch=37, repeat=False)  # 7 batches, the last one of 34
    for steps in (None, 5, 2):  # to the end of the input (a partial last call), or exactly
        want = one.evaluate(data, steps=steps, name="one")
        got = several.evaluate(data, steps=steps, name="several")
        assert got == pytest.approx(want, rel=1e-6), steps
    hook = CountRuns()
    with caplog.at_level("INFO", logger="tensorflow"):
        several.evaluate(data, hooks=[hook], steps=6)
    assert len(hook.steps) == 2  # one run per call: 4 + 2 batches, as the log says
    assert "hooks and callbacks run once per compiled call (up to 4 steps)" in caplog.text


def test_predict_several_batches_per_call(tmp_path):
    one = _trained(tmp_path, 1)
    several = ec.Estimator(linear_model_fn, config=one.config.replace(steps_per_execution=3),
                           params={"lr": 0.1})
    data = linear_input_fn(batch=30, repeat=False, n=100)  # 4 batches, the last one of 10
    want = list(one.predict(data))
    got = list(several.predict(data))
    assert len(got) == len(want) == 100
    for w, g in zip(want, got):
        assert g.keys() == w.keys()
        np.testing.assert_allclose(g["y"], w["y"], rtol=1e-6)
    batches = list(several.predict(data, yield_single_examples=False))
    assert [len(b["y"]) for b in batches] == [30, 30, 30, 10]  # batches, as with one per call
    np.testing.assert_allclose(np.concatenate([b["double"] for b in batches]),
                               [w["double"] for w in want], rtol=1e-6)


def test_a_call_finding_the_input_ended_raises_nothing(tmp_path, monkeypatch):
    """The call of several steps that finds no input left returns no steps instead of failing
    (an OutOfRangeError out of a compiled function costs 1.3 ms); every loop still ends there,
    its hooks run as before."""
    est = _trained(tmp_path, 3)
    data = linear_input_fn(batch=30, repeat=False, n=180)  # 6 batches: two full calls
    raised = []
    init = tf.errors.OutOfRangeError.__init__
    monkeypatch.setattr(tf.errors.OutOfRangeError, "__init__",
                        lambda self, *a, **k: (raised.append(1), init(self, *a, **k))[1])
    hook = Calls()
    assert len(list(est.predict(data, hooks=[hook]))) == 180
    assert (hook.before, hook.after) == (3, 2)  # the third call found the input ended
    metrics = est.evaluate(data)
    assert metrics["global_step"] == 20 and np.isfinite(metrics["loss"])
    est.train(data)  # to the end of the input: 6 more steps
    assert est.get_variable_value("global_step") == 26
    assert raised == []


def test_predictions_dicts_keep_any_key_and_numpy_values(tmp_path):
    """Examples are dicts with the model_fn's keys in its order (any string: not only names),
    each value the row of its numpy batch."""
    keys = ["z", "class/ids", 'quote"d', "lambda", "a b"]

    def model_fn(features, labels, mode, params):
        x = features["x"]
        v1.get_variable("w", [1])
        preds = {k: x * float(i) for i, k in enumerate(keys)}
        preds["ids"] = tf.cast(x[:, 0], tf.int64)
        return ec.EstimatorSpec(mode, predictions=preds)
    est = ec.Estimator(model_fn, model_dir=str(tmp_path))
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    got = list(est.predict(lambda: tf.data.Dataset.from_tensor_slices({"x": x}).batch(3)))
    assert len(got) == 4
    for row, example in zip(x, got):
        assert list(example) == keys + ["ids"]
        for i, k in enumerate(keys):
            assert isinstance(example[k], np.ndarray)
            np.testing.assert_array_equal(example[k], row * i)
        assert isinstance(example["ids"], np.int64) and example["ids"] == int(row[0])


def test_an_input_of_known_length_is_not_asked_for_more(tmp_path, monkeypatch):
    """Where tf.data knows how many batches the input holds and no hook watches, evaluate and
    predict stop after them instead of making one more call to find the end (as Keras' loops
    do). With hooks the call is made: a tf.estimator session's hooks saw it (tf.estimator 2.15,
    5 batches: before_run 6 times, after_run 5)."""
    from estimator_compat.engine.steps import ModeStep
    calls, known, run = [], [], ModeStep.run
    monkeypatch.setattr(ModeStep, "run", lambda self, *a, **k: (
        calls.append(self.mode), known.append(a[3] if len(a) > 3 else False),
        run(self, *a, **k))[2])
    est = _trained(tmp_path, 3)
    data = linear_input_fn(batch=30, repeat=False, n=180)  # 6 batches: two full calls
    calls.clear()
    known.clear()
    predictions = [p["y"] for p in est.predict(data)]
    assert len(predictions) == 180 and known == [True, True]  # the unrolled predict calls
    evaluated = est.evaluate(data)
    assert evaluated["global_step"] == 20 and known[2:] == [True, True]  # unrolled too
    assert calls == ["infer", "infer", "eval", "eval"]
    calls.clear()
    known.clear()
    unknown = lambda: data().filter(lambda features, y: tf.constant(True))  # noqa: E731
    np.testing.assert_allclose([p["y"] for p in est.predict(unknown)], predictions, rtol=1e-6)
    assert calls == ["infer"] * 3 and not any(known)  # the loop; the third finds the end
    looped = est.evaluate(unknown)
    for key in ("loss", "mae"):
        np.testing.assert_allclose(looped[key], evaluated[key], rtol=1e-6)

    one = ec.Estimator(linear_model_fn, config=est.config.replace(steps_per_execution=1),
                       params={"lr": 0.1})
    five = linear_input_fn(batch=30, repeat=False, n=150)
    for call in (lambda h: list(one.predict(five, hooks=h)), lambda h: one.evaluate(five, hooks=h)):
        hook = Calls()
        call([hook])
        assert (hook.before, hook.after) == (6, 5)
    hook = Calls()
    one.evaluate(five, hooks=[hook], steps=3)
    assert (hook.before, hook.after) == (3, 3)


def test_a_call_takes_only_the_elements_its_steps_run(tmp_path):
    """A call of several steps takes each next element beside the step before it (so the
    input's work overlaps the step's), but never one that no step will run: a generator is
    asked for exactly the batches the steps ran, in train, evaluate and predict."""
    est = _trained(tmp_path, 3)
    asked = []

    def input_fn(labels=True):
        def rows():
            for i in range(1000):
                asked.append(i)
                features = {"x": np.full([3], i % 7, np.float32)}
                yield (features, np.float32([i % 5])) if labels else features
        spec = {"x": tf.TensorSpec([3], tf.float32)}
        spec = (spec, tf.TensorSpec([1], tf.float32)) if labels else spec
        options = tf.data.Options()
        options.experimental_optimization.inject_prefetch = False  # (it would read ahead)
        return tf.data.Dataset.from_generator(rows, output_signature=spec).batch(2) \
            .with_options(options)
    est.train(input_fn, steps=7)  # calls of 3, 3 and 1 steps
    assert len(asked) == 14 and est.get_variable_value("global_step") == 27
    asked.clear()
    est.evaluate(input_fn, steps=5)  # 3 and 2
    assert len(asked) == 10
    asked.clear()
    predictions = est.predict(lambda: input_fn(labels=False))
    assert len([next(predictions) for _ in range(12)]) == 12  # two calls of 3 batches
    assert len(asked) == 12
