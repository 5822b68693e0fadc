"""The INFO lines of a train / train again / evaluate / predict / export sequence, as TF 1.15.5
printed them for a TF 1.x program (tests/programs/log_lines, run by `estimator-compat run`)
and tf.estimator 2.15 for a TF 2.x one (in-process). Recorded from both on the same programs,
numbers and times masked. One difference, kept: the second train call has no
`Calling model_fn.` pair (the model_fn is traced once per mode here; TF built a graph per call).
"""
import logging
import os
import re

import numpy as np
import tensorflow as tf
from helpers import PROGRAMS, run_program

import estimator_compat as ec

_SEQUENCE_LINES = re.compile(
    r"Using default config|Calling model_fn|Done calling model_fn|Create CheckpointSaverHook|"
    r"Graph was finalized|Restoring parameters|local_init_op|checkpoint listeners|Saving checkpoints|"
    r"loss = |Loss for final step|Starting evaluation|Evaluation \[|Inference Time|"
    r"Finished evaluation|Saving dict|'checkpoint_path' summary|Signatures INCLUDED|Assets added")

_SESSION = ["Graph was finalized.", "Restoring parameters from model/model.ckpt-N",
            "Running local_init_op.", "Done running local_init_op."]
_CALL = ["Calling model_fn.", "Done calling model_fn."]
_SIGNATURES = [f"Signatures INCLUDED in export for {m}: None" for m in ("Classify", "Regress")] + [
    "Signatures INCLUDED in export for Predict: ['serving_default']"] + [
    f"Signatures INCLUDED in export for {m}: None" for m in ("Train", "Eval")]


def _tf115(save):
    """TF 1.15.5's lines for the program (its saves unframed, `step = 1 / 21`)."""
    return {
        "train": _CALL + ["Create CheckpointSaverHook."] + _SESSION[:1] + _SESSION[2:] + save(N0) + [
            "loss = N, step = N"] + save(N0) + ["Loss for final step: N."],
        "second train": ["Create CheckpointSaverHook."] + _SESSION + save(N0) + [
            "loss = N, step = N"] + save(N0) + ["Loss for final step: N."],
        "evaluate": _CALL + ["Starting evaluation at T"] + _SESSION + [
            "Evaluation [N/N]"] * 2 + ["Finished evaluation at T",
                                       "Saving dict for global step N: global_step = N, loss = N",
                                       "Saving 'checkpoint_path' summary for global step N: "
                                       "model/model.ckpt-N"],
        "predict": _CALL + _SESSION,
        "export": _CALL + _SIGNATURES + ["Restoring parameters from model/model.ckpt-N",
                                         "Assets added to graph."]}


N0 = "Saving checkpoints for N into model/model.ckpt."


def _masked(line):
    line = re.sub(r"\d+(\.\d+)?(e-\d+)?", "N", line)
    line = re.sub(r" at N-N-NT?N:N:NZ?$| at N-N-N-N:N:N$", " at T", line)
    return re.sub(r" \(N sec\)$", "", line)


def _by_phase(lines):
    phases, current = {}, None
    for line in lines:
        if line.startswith("=== "):
            current = phases.setdefault(line[4:], [])
        elif current is not None and _SEQUENCE_LINES.search(line):
            current.append(_masked(line))
    return phases


X = np.random.RandomState(0).rand(64, 3).astype(np.float32)


def _input_fn():
    return tf.data.Dataset.from_tensor_slices(({"x": X}, X.sum(1))).repeat().batch(8)


def _model_fn(features, labels, mode):
    """The TF 2.x twin of tests/programs/log_lines (an `mae` metric besides)."""
    w = tf.compat.v1.get_variable("w", [3, 1], initializer=tf.compat.v1.zeros_initializer())
    pred = tf.squeeze(tf.matmul(features["x"], w), 1)
    if mode == ec.ModeKeys.PREDICT:
        return ec.EstimatorSpec(mode, predictions={"p": pred}, export_outputs={
            "serving_default": ec.export.PredictOutput({"p": pred})})
    loss = tf.reduce_mean(tf.square(pred - labels))
    return ec.EstimatorSpec(
        mode, loss=loss, train_op=tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(
            loss, tf.compat.v1.train.get_global_step()),
        eval_metric_ops={"mae": tf.compat.v1.metrics.mean_absolute_error(labels, pred)})


def _serving_input_fn():
    inputs = {"x": tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")}
    return ec.export.ServingInputReceiver(inputs, inputs)


def test_a_tf1_program_prints_tf115s_lines(tmp_path):
    _, err = run_program(os.path.join(PROGRAMS, "log_lines", "train.py"), cwd=tmp_path)
    ours = [line[len("INFO:tensorflow:"):] if line.startswith("INFO:") else line
            for line in err.splitlines() if line.startswith(("INFO:tensorflow:", "=== "))]
    assert _by_phase(ours) == _tf115(lambda line: [line])
    assert (tmp_path / "model" / "checkpoint").exists()


def test_a_tf2_program_prints_tf215s_lines(tmp_path, caplog, monkeypatch):
    """tf.estimator 2.15 framed each save with the listeners' lines and timed the
    evaluation (`Inference Time : Ns`); it printed `step = 0 / 20`."""
    monkeypatch.chdir(tmp_path)
    lines = []
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        est = ec.Estimator(_model_fn, model_dir="model", config=ec.RunConfig(
            save_checkpoints_steps=50, log_step_count_steps=1000))
        for phase, run in (("train", lambda: est.train(_input_fn, steps=20)),
                           ("second train", lambda: est.train(_input_fn, steps=20)),
                           ("evaluate", lambda: est.evaluate(_input_fn, steps=2)),
                           ("predict", lambda: next(est.predict(lambda: _input_fn().take(2)))),
                           ("export", lambda: est.export_saved_model("export",
                                                                     _serving_input_fn))):
            caplog.clear()
            run()
            lines += ["=== " + phase] + [r.getMessage() for r in caplog.records]
    framed = lambda line: [  # noqa: E731
        "Calling checkpoint listeners before saving checkpoint N...", line,
        "Calling checkpoint listeners after saving checkpoint N..."]
    expected = _tf115(framed)
    evaluated = expected["evaluate"]
    evaluated.insert(evaluated.index("Finished evaluation at T"), "Inference Time : Ns")
    saved = evaluated.index("Saving dict for global step N: global_step = N, loss = N")
    evaluated[saved] += ", mae = N"  # this model_fn's metric
    assert _by_phase(lines) == expected


_TRAIN_AND_EVALUATE_215 = """\
Not using Distribute Coordinator.
Running training and evaluation locally (non-distributed).
Start train and evaluate loop. The evaluate will happen after every checkpoint. Checkpoint \
frequency is determined based on RunConfig arguments: save_checkpoints_steps N or \
save_checkpoints_secs None.
Calling model_fn.
Done calling model_fn.
Create CheckpointSaverHook.
Graph was finalized.
Running local_init_op.
Done running local_init_op.
Calling checkpoint listeners before saving checkpoint N...
Saving checkpoints for N into model/model.ckpt.
Calling checkpoint listeners after saving checkpoint N...
loss = N, step = N
Calling checkpoint listeners before saving checkpoint N...
Saving checkpoints for N into model/model.ckpt.
Calling checkpoint listeners after saving checkpoint N...
Calling model_fn.
Done calling model_fn.
Starting evaluation at T
Graph was finalized.
Restoring parameters from model/model.ckpt-N
Running local_init_op.
Done running local_init_op.
Evaluation [N/N]
Evaluation [N/N]
Inference Time : Ns
Finished evaluation at T
Saving dict for global step N: global_step = N, loss = N, mae = N
Saving 'checkpoint_path' summary for global step N: model/model.ckpt-N
Loading best metric from event files.
Performing best model export.
Calling model_fn.
Done calling model_fn.
Signatures INCLUDED in export for Classify: None
Signatures INCLUDED in export for Regress: None
Signatures INCLUDED in export for Predict: ['serving_default']
Signatures INCLUDED in export for Train: None
Signatures INCLUDED in export for Eval: None
Restoring parameters from model/model.ckpt-N
Assets added to graph.
No assets to write.
SavedModel written to: model/export/best/temp-N/saved_model.pb
Loss for final step: N."""


def test_train_and_evaluate_prints_tf215s_lines(tmp_path, caplog, monkeypatch):
    """train_and_evaluate with a BestExporter, every INFO line as tf.estimator 2.15 printed
    it: the evaluation runs from the save's listener, after the `after saving` line."""
    monkeypatch.chdir(tmp_path)
    est = ec.Estimator(_model_fn, model_dir="model", config=ec.RunConfig(
        save_checkpoints_steps=30, log_step_count_steps=1000))
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        caplog.clear()
        ec.train_and_evaluate(est, ec.TrainSpec(_input_fn, max_steps=30), ec.EvalSpec(
            _input_fn, steps=2, throttle_secs=0,
            exporters=[ec.BestExporter("best", _serving_input_fn, exports_to_keep=2)]))
    ours = [_masked(r.getMessage()) for r in caplog.records if r.levelno == logging.INFO]
    assert ours == _TRAIN_AND_EVALUATE_215.splitlines()


def test_warm_start_prints_tf215s_lines(tmp_path, caplog, monkeypatch):
    """A warm-started first train call, as 2.15 (and 1.15) printed it: the settings, the source,
    the trainable-only note for a regex, the count, all before the session's lines."""
    monkeypatch.chdir(tmp_path)
    ec.Estimator(_model_fn, model_dir="before").train(_input_fn, steps=2)
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        caplog.clear()
        ec.Estimator(_model_fn, model_dir="model", warm_start_from="before").train(
            _input_fn, steps=1)
    ours = [_masked(r.getMessage()) for r in caplog.records if r.levelno == logging.INFO
            and not r.getMessage().startswith("Using config:")]
    assert ours[:11] == [
        "Using default config.", "Calling model_fn.", "Done calling model_fn.",
        "Warm-starting with WarmStartSettings: WarmStartSettings(ckpt_to_initialize_from="
        "'before', vars_to_warm_start='.*', var_name_to_vocab_info={}, "
        "var_name_to_prev_var_name={})",
        "Warm-starting from: before", "Warm-starting variables only in TRAINABLE_VARIABLES.",
        "Warm-started N variables.", "Create CheckpointSaverHook.", "Graph was finalized.",
        "Running local_init_op.", "Done running local_init_op."]
