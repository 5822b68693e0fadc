"""Name-based TF1 checkpoints in model_dir: `model.ckpt-<step>.*` and the `checkpoint` file.

Written with `tf.compat.v1.train.Saver` over the store's variables keyed by TF1 name, so
`tf.train.list_variables`, `init_from_checkpoint` and tf.estimator 2.15 read them, and we read
theirs. The Saver writes the data to a temporary file and renames it; then the `checkpoint`
state file is rewritten atomically (checkpoint_state.py, which also does the retention): a
crash mid-save leaves the previous checkpoint usable. A restore that finds its checkpoint
rotated away by another process on the same model_dir retries on the newest one.

Each evaluate / predict / train call restores (the Estimator contract); where the variables
already hold that checkpoint — this object saved or restored it, its files are unchanged (the
index's bytes, each data shard's size and modification time) and nothing has trained since —
the read is skipped: in a train_and_evaluate loop, or on repeated
evaluate calls, it was a tenth of a small model's call.
"""
import glob
import hashlib
import logging
import os

import tensorflow as tf

from estimator_compat import checkpoint_state, object_checkpoints, partitioned

logger = logging.getLogger("tensorflow")

CHECKPOINT_BASENAME = "model.ckpt"


class _QuietSaverWarnings(logging.Filter):
    """The eager Saver's deprecation notices: expected here, where names are kept unique."""

    def filter(self, record):
        msg = record.getMessage()
        return not ("Saver is deprecated" in msg or "get_checkpoint_mtimes" in msg
                    or "remove_checkpoint" in msg)


logger.addFilter(_QuietSaverWarnings())


class CheckpointMismatchError(ValueError):
    """The checkpoint's variables do not match the model_fn's."""


def latest_checkpoint(model_dir):
    """The newest checkpoint, verified on disk (an error when the state file names one that
    is gone: see checkpoint_state.latest)."""
    return checkpoint_state.latest(model_dir)


def checkpoint_step(path):
    """The global step stored in a checkpoint (object-based ones, or one another process has
    just rotated away: the `-<step>` of its name; 0 when it has none)."""
    try:
        reader = _reader(path)
    except tf.errors.NotFoundError:
        reader = None
    if reader is not None and reader.has_tensor("global_step"):
        return int(reader.get_tensor("global_step"))
    return max(checkpoint_state.step_of(path), 0)


def _reader(path):
    """tf.train.load_checkpoint, with an error that names the damaged checkpoint."""
    try:
        return tf.train.load_checkpoint(path)
    except tf.errors.NotFoundError:
        raise
    except tf.errors.OpError as e:
        raise damaged(path, e) from None


def damaged(path, error):
    """The DataLossError for a checkpoint whose files cannot be read."""
    model_dir = os.path.dirname(path)
    others = [p for p in checkpoint_state.on_disk(model_dir) if p != path]
    return tf.errors.DataLossError(
        None, None,
        f"Could not read the checkpoint {path} ({type(error).__name__}: "
        f"{error.message.splitlines()[0] if error.message else error}): its files "
        f"({path}.index, {path}.data-*) are damaged or incomplete. Other checkpoints there: "
        f"{others or 'none'}. Point `model_checkpoint_path` in {model_dir}/checkpoint at one "
        f"of them, restore the files from a copy, or use a new model_dir.")


def resolve(path):
    """A checkpoint prefix from a prefix or a directory holding a `checkpoint` file."""
    if path is None:
        return None
    path = os.fspath(path)
    if isinstance(path, bytes):  # (tensorflow_hub passes bytes)
        path = path.decode()
    if tf.io.gfile.isdir(path):
        found = checkpoint_state.latest(path)
        if found is None:
            raise ValueError(f"No checkpoint found in directory {path!r}.")
        return found
    if not tf.io.gfile.exists(path + ".index"):
        raise ValueError(f"Could not find a checkpoint at {path!r} (no {path}.index).")
    return path


class CheckpointIO:
    """Saves and restores one Estimator's variables; keeps keep_checkpoint_max newest."""

    def __init__(self, model_dir, store, keep_checkpoint_max=5, keep_checkpoint_every_n_hours=10000,
                 basename=CHECKPOINT_BASENAME, fill_missing=None):
        """`fill_missing(names, reader, variables)` -> {name: value} may supply variables the
        checkpoint lacks under their own names (e.g. optimizer slots saved by another
        optimizer implementation). One with `for_store(store)` is bound to this estimator's
        variables first; the bound hook's `save_entries(entries)`, where it has one, gives the
        names a save writes (the V2 canned estimators' Keras slot names: keras_slot_names)."""
        bind = getattr(fill_missing, "for_store", None)
        self._fill_missing = bind(store) if bind is not None else fill_missing
        self._save_entries = getattr(self._fill_missing, "save_entries", None)
        self._model_dir = model_dir
        self._basename = basename
        self._store = store
        self._max = keep_checkpoint_max
        self._hours = keep_checkpoint_every_n_hours
        self._saver = None
        self._saver_names = None
        self._held = None  # what the variables hold: see _holding
        self.meta_graphs = None  # meta_graph.MetaGraphs: a .meta beside each checkpoint

    def forget(self):
        """The variables were changed (a train step, a callback's set_weights, a hook): the
        next restore reads the checkpoint again."""
        self._held = None

    def _holding(self, path):
        """(path, a digest of its files, the variables); None when they cannot be read. The
        index holds every tensor's CRC32C, so its digest changes with a new save; each data
        shard's size and modification time change when it is damaged in place (bytes
        overwritten, truncated), so the restore then runs and TensorFlow's checksums report
        the damage."""
        try:
            with tf.io.gfile.GFile(path + ".index", "rb") as f:
                digest = hashlib.sha1(f.read())
            for shard in _data_shards(path):
                digest.update(f"{shard}:{_size_and_time(shard)}".encode())
        except (tf.errors.OpError, OSError):
            return None
        variables = frozenset(id(v) for v in self._store.saveable().values())
        return path, digest.digest(), variables

    def _saver_for(self, variables):
        names = tuple(sorted(variables))
        if self._saver is None or names != self._saver_names:
            # No retention or state file of its own: checkpoint_state does both, re-reading
            # the state file each time (another process may share the model_dir).
            self._saver = tf.compat.v1.train.Saver(
                var_list=variables, sharded=False, max_to_keep=None, save_relative_paths=True)
            self._saver_names = names
        return self._saver

    def renamed_in_checkpoint(self):
        """{store name: checkpoint name, or None where the checkpoint holds no such entry} of
        the variables a save writes under another name (the V2 canned estimators' Keras slot
        names); empty where every name is the variable's own."""
        if self._save_entries is None:
            return {}
        entries = partitioned.checkpoint_entries(_components(self._store.saveable()))
        keys = {id(var): key for key, var in self._save_entries(dict(entries)).items()}
        return {name: keys.get(id(var)) for name, var in entries.items()
                if keys.get(id(var)) != name}

    def save(self, step, first=False):
        """Writes model.ckpt-<step>; returns its path. `first`: the save as training starts
        (its .meta may follow with the next save, see meta_graph.MetaGraphs)."""
        tf.io.gfile.makedirs(self._model_dir)
        prefix = os.path.join(self._model_dir, self._basename)
        logger.info("Saving checkpoints for %d into %s.", step, prefix)
        objects = self._store.object_checkpoints
        if objects:  # the train trace's (it holds the optimizer), else any mode's
            checkpoint = objects.get("train") or next(iter(objects.values()))
            path = checkpoint.write(f"{prefix}-{step}")
        else:
            entries = partitioned.checkpoint_entries(_components(self._store.saveable()))
            if self._save_entries is not None:
                entries = self._save_entries(entries)
            saver = self._saver_for({**entries, **self._store.tables()})
            path = saver.save(None, prefix, global_step=step, write_meta_graph=False,
                              write_state=False)
            if self.meta_graphs is not None:
                self.meta_graphs.write_for(path, defer=first)
        checkpoint_state.record(self._model_dir, path, self._max, self._hours)
        self._held = self._holding(path)
        return path

    def restore_newest(self, path):
        """Restores `path`, the newest checkpoint a moment ago; when another process on the
        model_dir has rotated it away meanwhile, the newest one then. Returns the path used."""
        for attempt in range(5):
            try:
                self.restore(path)
                return path
            except (tf.errors.NotFoundError, ValueError) as e:
                # gone before the read (TF's Saver: ValueError "not a valid checkpoint") or
                # during it (NotFoundError); any other ValueError is the checkpoint's own
                if isinstance(e, ValueError) and checkpoint_state.exists(path):
                    raise
                newer = checkpoint_state.latest(self._model_dir)
                if attempt == 4 or newer is None or (newer == path and
                                                     checkpoint_state.exists(path)):
                    raise
                logger.info("Checkpoint %s was removed while being read (another process "
                            "on this model_dir); restoring %s.", path, newer)
                path = newer

    def holds(self, path):
        """Whether the variables hold `path`'s values (a restore of it would change nothing)."""
        return path is not None and self._holds(self._holding(path))

    def _holds(self, holding):
        return self._held is not None and self._held == holding

    def restore(self, path):
        """Restores every saveable variable from `path`; a clear error on any mismatch. Skipped
        where the variables hold it already (see the module's docstring)."""
        holding = self._holding(path)
        if self._holds(holding):
            logger.info("Restoring parameters from %s", path)  # as TF's Saver said at each call
            return
        self._held = None
        self._read(path)
        self._held = holding

    def _read(self, path):
        reader = _reader(path)
        if object_checkpoints.is_object_based(reader):
            if not self._store.object_checkpoints:
                raise CheckpointMismatchError(
                    f"The checkpoint {path} is object-based (written for a model_fn whose "
                    "EstimatorSpec had scaffold=tf.compat.v1.train.Scaffold(saver="
                    "tf.train.Checkpoint(...))), but this model_fn returned no such scaffold. "
                    "Return the same Scaffold(saver=tf.train.Checkpoint(...)) in every mode.")
            logger.info("Restoring parameters from %s", path)
            object_checkpoints.restore(self._store.object_checkpoints.values(), path)
            return
        variables = self._store.saveable()
        components = _components(variables)
        entries = partitioned.checkpoint_entries(components)
        in_ckpt = reader.get_variable_to_shape_map()
        filled = {}
        missing = sorted(n for n in entries if n not in in_ckpt)
        if missing and self._fill_missing is not None:
            filled = self._fill_missing(missing, reader, entries)
        tables = self._store.tables()
        check_compatible(path, {n: v for n, v in entries.items() if n not in filled}, in_ckpt,
                         tables)
        try:
            if filled:
                read = {n: v for n, v in entries.items() if n not in filled}
                tf.compat.v1.train.Saver(var_list={**read, **tables},
                                         sharded=False).restore(None, path)
            else:
                self._saver_for({**entries, **tables}).restore(None, path)
        except tf.errors.NotFoundError:
            raise
        except tf.errors.OpError as e:  # a truncated or corrupt data shard
            raise damaged(path, e) from None
        for name, value in filled.items():
            entries[name].assign(value)
        for name, var in variables.items():
            if var is not components[name]:  # a mirrored variable: copy to every replica
                var.assign(components[name].read_value())


def _data_shards(prefix):
    """A checkpoint's data files, sorted: Python's glob for a local path (TensorFlow's took 1.5
    ms of each evaluate / predict call), TensorFlow's for a remote one."""
    if "://" not in prefix:
        return sorted(glob.glob(glob.escape(prefix) + ".data-?????-of-?????"))
    return sorted(tf.io.gfile.glob(prefix + ".data-?????-of-?????"))


def _size_and_time(path):
    """A file's size and modification time: nanoseconds for a local file (TensorFlow's own
    stat has whole seconds, within which a save and a damage can fall), TensorFlow's stat for
    a remote one (gs://...)."""
    if "://" not in path:
        stat = os.stat(path)
        return stat.st_size, stat.st_mtime_ns, stat.st_ino
    stat = tf.io.gfile.stat(path)
    return stat.length, stat.mtime_nsec


def _components(variables):
    """{name: a plain variable}: a distributed variable's first component stands for it (the
    eager Saver writes plain variables only; mirrored components hold the same value)."""
    components = {}
    for name, var in variables.items():
        if isinstance(var, tf.distribute.DistributedValues):
            first = var.values[0]
            if getattr(var, "_save_slice_info", None) is not None:  # a mirrored part
                first._set_save_slice_info(var._save_slice_info)
            var = first
        components[name] = var
    return components


def check_compatible(path, variables, in_ckpt=None, tables=()):
    """Raises CheckpointMismatchError naming missing, unexpected and mis-shaped variables
    (and lookup tables, saved as `<name>-keys` / `<name>-values`). `in_ckpt`: {name: shape}
    of the checkpoint, when the caller has read it already."""
    if in_ckpt is None:
        in_ckpt = dict(tf.train.list_variables(path))
    missing = sorted([n for n in variables if n not in in_ckpt] +
                     [n for n in tables if f"{n}-keys" not in in_ckpt])
    shapes = sorted(f"{n}: checkpoint {in_ckpt[n]} vs model {variables[n].shape}"
                    for n, v in variables.items()
                    if n in in_ckpt and not v.shape.is_compatible_with(in_ckpt[n]))
    if missing or shapes:
        of_tables = {f"{n}-{part}" for n in tables for part in ("keys", "values")}
        unexpected = sorted(n for n in in_ckpt if n not in variables and n not in of_tables)
        parts = [f"The checkpoint {path} does not match the variables of the model_fn."]
        if missing:
            parts.append(f"Missing from the checkpoint: {missing}.")
        if unexpected:
            parts.append(f"In the checkpoint but not in the model: {unexpected}.")
        if shapes:
            parts.append(f"Shape mismatches: {shapes}.")
        parts.append("Use a model_dir written by this model_fn, a new model_dir, or "
                     "warm_start_from=WarmStartSettings(...) to load part of a checkpoint.")
        raise CheckpointMismatchError(" ".join(parts))
