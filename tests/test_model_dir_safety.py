"""What a model_dir survives: damaged files, several processes on it, cut-off event files.

Every damage gets an error naming the file and the fix, or the run recovers; no file outside
model_dir is touched and nothing a user may need is deleted. The multi-process tests run real
processes (tests/programs/model_dir/job.py) that checkpoint every 2 steps keeping 2, so
rotations race as often as they can.
"""
import glob
import os
import random
import subprocess
import sys
import time

import pytest
import tensorflow as tf

import estimator_compat as ec
from estimator_compat import checkpoint_state, checkpoints
from estimator_compat.experimental import read_eval_metrics, stop_if_no_decrease_hook
from helpers import PROGRAMS, Program, linear_input_fn, linear_model_fn

JOB = os.path.join(PROGRAMS, "model_dir", "job.py")
PARAMS = {"learning_rate": 0.1}


def _estimator(model_dir, **config):
    config = ec.RunConfig(**{"save_checkpoints_steps": 5, "keep_checkpoint_max": 3, **config})
    return ec.Estimator(linear_model_fn, str(model_dir), config=config, params=PARAMS)


def _steps_on_disk(model_dir):
    return sorted(checkpoint_state.step_of(p) for p in checkpoint_state.on_disk(str(model_dir)))


def test_missing_newest_checkpoint_is_an_error_and_nothing_is_deleted(tmp_path):
    _estimator(tmp_path).train(linear_input_fn(), max_steps=20)
    for name in glob.glob(str(tmp_path / "model.ckpt-20.*")):
        os.remove(name)
    with pytest.raises(ValueError, match=r"names .*model.ckpt-20 as the newest checkpoint.*"
                                         r"Older checkpoints still there: .*model.ckpt-15"):
        _estimator(tmp_path).train(linear_input_fn(), max_steps=30)
    with pytest.raises(ValueError, match="model.ckpt-20"):
        _estimator(tmp_path).evaluate(linear_input_fn(repeat=False))
    assert _steps_on_disk(tmp_path) == [10, 15]


def test_damaged_index_and_data_name_the_checkpoint(tmp_path):
    _estimator(tmp_path).train(linear_input_fn(), max_steps=10)
    index = tmp_path / "model.ckpt-10.index"
    index.write_bytes(b"not a table" * 20)
    with pytest.raises(tf.errors.DataLossError, match=r"Could not read the checkpoint "
                                                      r".*model.ckpt-10 .*model.ckpt-5"):
        _estimator(tmp_path).train(linear_input_fn(), max_steps=20)
    assert index.read_bytes() == b"not a table" * 20  # left as it was, for the user to see
    other = tmp_path / "other"
    _estimator(other).train(linear_input_fn(), max_steps=10)
    data = glob.glob(str(other / "model.ckpt-10.data-*"))[0]
    with open(data, "r+b") as f:
        f.truncate(8)
    with pytest.raises(tf.errors.DataLossError, match=r"model.ckpt-10 .*damaged or incomplete"):
        _estimator(other).evaluate(linear_input_fn(repeat=False))


@pytest.mark.parametrize("damage", ["bytes_flipped", "truncated"])
def test_data_shard_damaged_under_a_running_estimator_is_read_and_named(tmp_path, damage):
    """The same Estimator object, which skips the restore of a checkpoint its variables hold:
    a data shard changed in place since (bytes overwritten, cut short) is read again, and
    TensorFlow's checksums make it an error naming the file and the older checkpoints (tf.
    estimator 2.15: DataLossError); nothing is deleted."""
    est = _estimator(tmp_path)
    est.train(linear_input_fn(), max_steps=10)
    first = est.evaluate(linear_input_fn(repeat=False))
    data = glob.glob(str(tmp_path / "model.ckpt-10.data-*"))[0]
    size = os.path.getsize(data)
    with open(data, "r+b") as f:
        if damage == "truncated":
            f.truncate(size // 2)
        else:
            f.seek(size - 8)
            tail = f.read(8)
            f.seek(size - 8)
            f.write(bytes(255 - b for b in tail))
    with pytest.raises(tf.errors.DataLossError, match=r"Could not read the checkpoint "
                                                      r".*model.ckpt-10 .*model.ckpt-5"):
        est.evaluate(linear_input_fn(repeat=False))
    with pytest.raises(tf.errors.DataLossError, match="model.ckpt-10"):
        est.train(linear_input_fn(), max_steps=20)
    assert _steps_on_disk(tmp_path) == [0, 5, 10] and first["global_step"] == 10


def test_lowered_keep_checkpoint_max_prunes_oldest_first(tmp_path, caplog):
    """A model_dir written keeping 5 checkpoints, continued keeping 2: the oldest go (never
    the newest), with one log line, as tf.estimator's Saver pruned."""
    _estimator(tmp_path, keep_checkpoint_max=5).train(linear_input_fn(), max_steps=25)
    assert _steps_on_disk(tmp_path) == [5, 10, 15, 20, 25]
    with caplog.at_level("INFO", logger="tensorflow"):
        _estimator(tmp_path, keep_checkpoint_max=2).train(linear_input_fn(), max_steps=30)
    assert _steps_on_disk(tmp_path) == [25, 30]
    # the first save (step 25 again) keeps 20 and 25; step 30's save drops 20 as usual
    assert "keep_checkpoint_max is 2: 3 older checkpoints leave the list, oldest first " \
           "(model.ckpt-5, model.ckpt-10, model.ckpt-15)" in caplog.text
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-30")


def test_best_exporter_reads_a_cut_off_event_file_with_a_warning(tmp_path, caplog):
    """It exports from what the file holds up to the cut, and says so."""
    est = _estimator(tmp_path)
    for max_steps in (5, 10):
        est.train(linear_input_fn(), max_steps=max_steps)
        est.evaluate(linear_input_fn(repeat=False))
    events = glob.glob(str(tmp_path / "eval" / "events.*"))[0]
    with open(events, "r+b") as f:
        f.truncate(os.path.getsize(events) - 5)
    read_eval_metrics(str(tmp_path / "eval"))  # an early-stopping reader saw it first
    exporter = ec.BestExporter(serving_input_receiver_fn=_raw_receiver)
    with caplog.at_level("WARNING", logger="tensorflow"):
        path = exporter.export(est, str(tmp_path / "export" / "best"), est.latest_checkpoint(),
                               {"loss": 0.0, "global_step": 10}, False)
    assert path is not None and os.path.isdir(path)
    assert "ends in a cut-off record" in caplog.text and "BestExporter 'best_exporter' read " \
        "what was complete" in caplog.text


def _raw_receiver():
    x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
    return ec.export.ServingInputReceiver({"x": x}, {"x": x})


def test_damaged_state_file_is_an_error_and_a_later_save_repairs_it(tmp_path):
    _estimator(tmp_path).train(linear_input_fn(), max_steps=10)
    (tmp_path / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-1')
    with pytest.raises(ValueError, match=r"state file .*checkpoint is damaged.*Checkpoints on "
                                         r"disk: .*model.ckpt-10"):
        _estimator(tmp_path).train(linear_input_fn(), max_steps=20)
    assert _steps_on_disk(tmp_path) == [0, 5, 10]
    (tmp_path / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-10"\n')
    _estimator(tmp_path).train(linear_input_fn(), max_steps=20)
    assert checkpoint_state.latest(str(tmp_path)).endswith("model.ckpt-20")


def test_retention_never_deletes_a_checkpoint_outside_model_dir(tmp_path):
    outside = tmp_path / "outside"
    _estimator(outside).train(linear_input_fn(), max_steps=5)
    kept = sorted(os.listdir(outside))
    model_dir = tmp_path / "m"
    model_dir.mkdir()
    (model_dir / "checkpoint").write_text(
        f'model_checkpoint_path: "{outside}/model.ckpt-5"\n'
        f'all_model_checkpoint_paths: "{outside}/model.ckpt-5"\n')
    _estimator(model_dir, keep_checkpoint_max=1).train(linear_input_fn(), max_steps=25)
    assert sorted(os.listdir(outside)) == kept
    assert _steps_on_disk(model_dir) == [25]


def test_empty_evaluation_input_is_an_error_and_writes_nothing(tmp_path):
    est = _estimator(tmp_path)
    est.train(linear_input_fn(), max_steps=5)
    with pytest.raises(ValueError, match="input_fn yielded no batches"):
        est.evaluate(lambda: linear_input_fn(repeat=False)().take(0))
    assert not (tmp_path / "eval").exists()


def test_cut_off_event_file_is_read_up_to_the_cut(tmp_path, caplog):
    est = _estimator(tmp_path)
    for max_steps in (5, 10):
        est.train(linear_input_fn(), max_steps=max_steps)
        est.evaluate(linear_input_fn(repeat=False))
    events = glob.glob(str(tmp_path / "eval" / "events.*"))[0]
    with open(events, "r+b") as f:
        f.truncate(os.path.getsize(events) - 5)  # the last record (the text summary) cut
    assert sorted(read_eval_metrics(str(tmp_path / "eval"))) == [5, 10]
    assert "ends in a cut-off record" in caplog.text
    hook = stop_if_no_decrease_hook(est, "loss", max_steps_without_decrease=100)
    assert hook is not None
    out = subprocess.run([os.path.join(os.path.dirname(sys.executable), "estimator-compat"),
                          "tensorboard-summary", str(tmp_path / "eval")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "loss" in out.stdout, out.stderr[-2000:]


def test_unwritable_model_dir_error_names_it(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    with pytest.raises(tf.errors.OpError) as error:
        _estimator(blocker / "m").train(linear_input_fn(), max_steps=2)
    assert "Cannot write event files to" in error.value.message
    assert "{{function_node" not in error.value.message


def test_evaluate_restores_the_newest_when_its_checkpoint_is_rotated_away_before_the_read(
        tmp_path, monkeypatch):
    """Another process's rotation can delete the newest checkpoint between the lookup and the
    read (TF's Saver then says "not a valid checkpoint", a ValueError, where a read cut short
    is a NotFoundError): the newest one then is restored (CI saw the ValueError once in the
    polling-evaluator test below)."""
    est = _estimator(tmp_path)
    est.train(linear_input_fn(), max_steps=10)
    est.evaluate(linear_input_fn(repeat=False), steps=1)  # the eval step is traced
    state = est._state(est.config.eval_distribute)  # the evaluate call's engine state
    gone = str(tmp_path / "model.ckpt-5")
    real_reader = checkpoints._reader

    def reader_then_rotated(path):  # the other process deletes it right after our first look
        reader = real_reader(path)
        for name in glob.glob(path + ".*") if path == gone else ():
            os.remove(name)
        return reader
    monkeypatch.setattr(checkpoints, "_reader", reader_then_rotated)
    assert state.io.restore_newest(gone) == str(tmp_path / "model.ckpt-10")
    for path in glob.glob(str(tmp_path / "model.ckpt-*")):  # nothing left: a clear error
        os.remove(path)
    with pytest.raises(ValueError, match="is not on disk"):
        state.io.restore_newest(gone)


# -- several processes on one model_dir -------------------------------------------------------
def _start(*args):
    return Program(JOB, *args, runner=[sys.executable])


def _finish(program):
    return program.wait()[0]


def test_trainers_started_apart_on_one_model_dir_all_finish(tmp_path):
    """Restarted jobs while the old ones still run, started 0.5, 1 and 2 s after each other
    (3.5 s between the first and the last): all reach max_steps (tf.estimator 2.15's second
    trainer joined too). Every file is written under a name of its own and renamed into
    place: the .meta beside each checkpoint used to share one temporary name, which a second
    trainer removed under the first (NotFoundError: model.ckpt-524.meta.tmp)."""
    trainers = []
    for delay in (0, 0.5, 1, 2):
        time.sleep(delay)
        trainers.append(_start("train", tmp_path, 200))
    for proc in trainers:
        assert "DONE" in _finish(proc)
    latest = checkpoint_state.latest(str(tmp_path))
    assert latest.endswith("model.ckpt-200") and os.path.exists(latest + ".meta")
    assert not glob.glob(str(tmp_path / "*tempstate*")) and not glob.glob(str(tmp_path / "*.tmp*"))


def test_trainer_and_polling_evaluator(tmp_path):
    trainer = _start("train", tmp_path, 200)
    evaluator = _start("evaluate", tmp_path, 200)
    _finish(trainer)
    done, last = _finish(evaluator).split()[1:3]
    assert int(done) >= 1 and int(last) == 200


def test_trainer_killed_at_random_points_resumes(tmp_path):
    """SIGKILL at a random moment (mid-save included, with a checkpoint every 2 steps): the
    model_dir stays readable and the next run resumes from its newest checkpoint."""
    rng = random.Random(1)
    for _ in range(3):
        proc = _start("train", tmp_path, 100000)
        deadline = time.time() + 120
        while not (tmp_path / "checkpoint").exists() and time.time() < deadline:
            time.sleep(0.1)
        time.sleep(rng.uniform(0, 2))  # while it trains and saves every 2 steps
        proc.kill()
        latest = checkpoint_state.latest(str(tmp_path))
        reader = tf.train.load_checkpoint(latest)
        assert int(reader.get_tensor("global_step")) == checkpoint_state.step_of(latest)
    before = checkpoint_state.step_of(checkpoint_state.latest(str(tmp_path)))
    _finish(_start("train", tmp_path, before + 10))
    assert checkpoint_state.latest(str(tmp_path)).endswith(f"model.ckpt-{before + 10}")
