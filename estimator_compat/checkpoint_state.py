"""model_dir's `checkpoint` state file: which checkpoint is newest, which are kept.

Read strictly (TensorFlow's reader ignores a damaged state file or a missing newest checkpoint
and training silently starts again at step 0, after which retention deletes what was left):
a state file that cannot be parsed, or that names a newest checkpoint whose files are gone, is
an error naming the file, the checkpoints still on disk and the fix. Several processes may
share a model_dir (a restarted trainer while the old one runs, a trainer and an evaluator):
the file is re-read right before each update and rewritten atomically, and retention deletes
only checkpoints inside model_dir that the new state file no longer lists.
"""
import logging
import os
import re
import time

import tensorflow as tf
from google.protobuf import text_format
from tensorflow.python.checkpoint import checkpoint_management

logger = logging.getLogger("tensorflow")
STATE_FILE = "checkpoint"
_PARSED = {}  # state file path: (its text, the state parsed from it), the last read


class CheckpointStateError(ValueError):
    """The state file is damaged, or names checkpoints that are not on disk."""


def read(model_dir):
    """The parsed CheckpointState, its paths joined to model_dir, or None without a state
    file."""
    path = os.path.join(model_dir, STATE_FILE)
    try:
        text = tf.io.gfile.GFile(path).read()
    except tf.errors.NotFoundError:
        return None
    text_before, parsed = _PARSED.get(path, (None, None))
    if text == text_before:  # unchanged since the last read: its parse (0.3 ms) reused
        return _copy(parsed)
    state = checkpoint_management.CheckpointState()
    try:
        text_format.Merge(text, state)
        if not state.model_checkpoint_path:
            raise ValueError("no model_checkpoint_path")
    except (text_format.ParseError, ValueError) as e:
        raise CheckpointStateError(
            f"The checkpoint state file {path} is damaged ({e}). Checkpoints on disk: "
            f"{on_disk(model_dir) or 'none'}. Nothing was changed. Rewrite it to name the newest "
            f"good one (a line `model_checkpoint_path: \"model.ckpt-<step>\"`), or remove it to "
            f"start from step 0 (the checkpoints stay on disk).") from None
    state.model_checkpoint_path = _in_dir(model_dir, state.model_checkpoint_path)
    for i, p in enumerate(state.all_model_checkpoint_paths):
        state.all_model_checkpoint_paths[i] = _in_dir(model_dir, p)
    _PARSED[path] = (text, _copy(state))
    return state


def _copy(state):
    copy = checkpoint_management.CheckpointState()
    copy.CopyFrom(state)
    return copy


def latest(model_dir, attempts=3):
    """The newest checkpoint named by the state file, verified on disk; None when there is
    no state file. Another process may have saved (and rotated) meanwhile: re-read a few
    times before calling a missing newest checkpoint an error."""
    if not model_dir or not tf.io.gfile.isdir(model_dir):
        return None
    for attempt in range(attempts):
        state = read(model_dir)
        if state is None:
            return None
        newest = state.model_checkpoint_path
        if exists(newest):
            return newest
        time.sleep(0.2 * (attempt + 1))
    older = [p for p in state.all_model_checkpoint_paths if p != newest and exists(p)]
    raise CheckpointStateError(
        f"The state file {os.path.join(model_dir, STATE_FILE)} names {newest} as the newest "
        f"checkpoint, but {newest}.index is not on disk. Older checkpoints still there: "
        f"{older or on_disk(model_dir) or 'none'}. Nothing was changed (no restart from step "
        f"0, nothing deleted). Restore the missing files, point `model_checkpoint_path` in the "
        f"state file at an older checkpoint, or use a new model_dir.")


def exists(prefix):
    return tf.io.gfile.exists(prefix + ".index")


def on_disk(model_dir):
    """Checkpoint prefixes in model_dir (by their .index files), oldest step first."""
    prefixes = [p[:-len(".index")] for p in tf.io.gfile.glob(os.path.join(model_dir, "*.index"))]
    return sorted(prefixes, key=lambda p: (step_of(p), p))


def record(model_dir, path, keep_max, keep_every_n_hours=None):
    """Makes `path` the newest checkpoint in the state file (rewritten atomically) and removes
    the ones that drop out of the kept list: only files inside model_dir, never one the new
    state file lists, and one per `keep_every_n_hours` is preserved, as tf.train.Saver did."""
    model_dir = os.path.abspath(model_dir)
    path = os.path.abspath(path)
    now = time.time()
    try:
        state = read(model_dir)
    except CheckpointStateError as e:  # saving a new good checkpoint repairs the state file
        logger.warning("%s Writing a new state file naming %s.", e, path)
        state = None
    paths = list(state.all_model_checkpoint_paths) if state else []
    stamps = list(state.all_model_checkpoint_timestamps) if state else []
    if len(stamps) != len(paths):
        stamps = [now] * len(paths)
    last_preserved = state.last_preserved_timestamp if state and \
        state.last_preserved_timestamp else now
    kept = [(p, t) for p, t in zip(paths, stamps) if p != path and exists(p)] + [(path, now)]
    dropped = kept[:-keep_max] if keep_max else []
    if len(dropped) > 1:  # more than the usual one: keep_checkpoint_max was lowered
        logger.info("keep_checkpoint_max is %d: %d older checkpoints leave the list, oldest "
                    "first (%s).", keep_max, len(dropped),
                    ", ".join(os.path.basename(p) for p, _ in dropped))
    kept = kept[len(dropped):]
    doomed = []
    for old, stamp in dropped:
        if keep_every_n_hours and stamp - last_preserved >= keep_every_n_hours * 3600:
            last_preserved = stamp  # kept on disk, out of the list, as the Saver did
        elif os.path.dirname(old) == model_dir:  # never a file outside model_dir
            doomed.append(old)
    checkpoint_management.update_checkpoint_state_internal(
        model_dir, path, [p for p, _ in kept], latest_filename=None, save_relative_paths=True,
        all_model_checkpoint_timestamps=[t for _, t in kept],
        last_preserved_timestamp=last_preserved)
    listed = {p for p, _ in kept}
    for old in doomed:
        if old not in listed:
            remove(old)


def remove(prefix):
    """A checkpoint's own files; never another writer's temporary files (`*.tempstate*`)."""
    names = [prefix + ".index", prefix + ".meta"] + tf.io.gfile.glob(
        prefix + ".data-?????-of-?????")
    for name in names:
        try:
            tf.io.gfile.remove(name)
        except tf.errors.NotFoundError:
            pass


def _in_dir(model_dir, path):
    """A relative path in the state file, joined to model_dir as given (TF's
    get_checkpoint_state: a relative model_dir gives `m/model.ckpt-150`)."""
    return path if os.path.isabs(path) else os.path.join(model_dir, path)


def step_of(prefix):
    """The step in a checkpoint's name (`model.ckpt-<step>`); -1 when it has none."""
    match = re.search(r"-(\d+)$", prefix)
    return int(match.group(1)) if match else -1
