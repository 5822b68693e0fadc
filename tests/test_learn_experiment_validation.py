"""Experiment.train_and_evaluate with min_eval_frequency as TF 1.15 ran it (settled by running
TF 1.15 on the same setups): a ValidationMonitor evaluates each new checkpoint every
min_eval_frequency steps (throttled by check_interval_secs), logs "Validation (step N): ..."
and exports nothing; the final checkpoint is then evaluated and exported once
(DNNLinearCombinedClassifier, save_checkpoints_steps=20, train_steps=60, exports_to_keep=2,
check_interval_secs=0: "Validation (step N)" at 20, 40 and 60, then the final evaluation at
60 again, one export dir). learn_runner.run accepts
an Estimator built on `run_config.replace(save_checkpoints_steps=...)` (RunConfig.uid()
leaves such settings out), as the "Estimator, Experiment APIs" gist's experiment_fn does."""
import logging
import os

import pytest
import tensorflow as tf
from helpers import linear_input_fn, linear_model_fn

import estimator_compat as ec
from estimator_compat.experimental import read_eval_metrics
from estimator_compat.learn import Experiment, HParams, RunConfig, learn_runner
from estimator_compat.learn.export_strategy import make_export_strategy

v1 = tf.compat.v1


def _serving_input_fn():
    x = v1.placeholder(tf.float32, [None, 3])
    return ec.export.ServingInputReceiver({"x": x}, {"x": x})


def test_validation_monitor_evaluates_during_training_and_the_end_exports_once(
        tmp_path, caplog, monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    caplog.set_level(logging.INFO, logger="tensorflow")
    seen = []

    def experiment_fn(run_config, hparams):
        config = run_config.replace(save_checkpoints_steps=hparams.every)  # as the gist
        seen.append(config.uid() == run_config.uid())
        est = ec.Estimator(linear_model_fn, config=config, params={"lr": 0.1})
        return Experiment(est, linear_input_fn(), linear_input_fn(repeat=False),
                          train_steps=30, eval_steps=None, min_eval_frequency=hparams.every,
                          check_interval_secs=0, export_strategies=make_export_strategy(
                              _serving_input_fn, exports_to_keep=2))

    result, exports = learn_runner.run(experiment_fn, run_config=RunConfig(
        model_dir=str(tmp_path)), schedule="train_and_evaluate", hparams=HParams(every=10))
    assert seen == [True]
    assert result["global_step"] == 30 and len(exports) == 1
    assert sorted(read_eval_metrics(os.path.join(str(tmp_path), "eval"))) == [10, 20, 30]
    assert len(os.listdir(tmp_path / "export" / "Servo")) == 1  # the final evaluation's only
    validations = [r.getMessage() for r in caplog.records
                   if r.getMessage().startswith("Validation (step")]
    # TF 1.15 validated the last checkpoint too (check_interval_secs=0), then evaluated it
    # again as the final evaluation
    assert [m.split(")")[0] for m in validations] == ["Validation (step 10",
                                                      "Validation (step 20",
                                                      "Validation (step 30"]
    assert "global_step = 10" in validations[0]


def test_uid_leaves_out_what_tf115_left_out(tmp_path):
    config = RunConfig(model_dir=str(tmp_path))
    for change in ({"tf_random_seed": 3}, {"save_summary_steps": 7},
                   {"save_checkpoints_steps": 9}, {"keep_checkpoint_max": 2},
                   {"keep_checkpoint_every_n_hours": 3}, {"log_step_count_steps": 11}):
        assert config.replace(**change).uid() == config.uid(), change
    assert config.replace(model_dir=str(tmp_path / "b")).uid() != config.uid()
    assert config.replace(tf_random_seed=3).uid(whitelist=[]) != config.uid(whitelist=[])


def test_validation_monitor_on_a_core_estimator_refuses_contrib_arguments(tmp_path):
    from estimator_compat.learn.monitors import ValidationMonitor
    est = ec.Estimator(linear_model_fn, str(tmp_path), params={"lr": 0.1})
    monitor = ValidationMonitor(input_fn=linear_input_fn(repeat=False), metrics={"m": None})
    monitor.set_estimator(est)
    with pytest.raises(ValueError, match=r"ValidationMonitor\(metrics=\.\.\.\) needs a "
                                         "tf.contrib.learn Estimator"):
        monitor._evaluate_estimator()
