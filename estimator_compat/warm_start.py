"""WarmStartSettings: initialise some variables from another model's checkpoint."""
import collections
import logging
import os
import re

import tensorflow as tf

from estimator_compat import checkpoints, vocab_remap

logger = logging.getLogger("tensorflow")

VocabInfo = tf.compat.v1.train.VocabInfo


class WarmStartSettings(collections.namedtuple(
        "WarmStartSettings", ["ckpt_to_initialize_from", "vars_to_warm_start",
                              "var_name_to_vocab_info", "var_name_to_prev_var_name"])):
    """Which variables to warm-start from which checkpoint (tf.estimator's semantics).

    `vars_to_warm_start`: a regex string (trainable variables only, as in tf.estimator), a list of
    names/regexes (any variable), or None (none).
    """

    def __new__(cls, ckpt_to_initialize_from, vars_to_warm_start=".*",
                var_name_to_vocab_info=None, var_name_to_prev_var_name=None):
        if not ckpt_to_initialize_from:
            raise ValueError("`ckpt_to_initialize_from` MUST be set in WarmStartSettings")
        return super().__new__(cls, os.fspath(ckpt_to_initialize_from), vars_to_warm_start,
                               var_name_to_vocab_info or {}, var_name_to_prev_var_name or {})


def normalise(warm_start_from):
    if warm_start_from is None or isinstance(warm_start_from, WarmStartSettings):
        return warm_start_from
    if isinstance(warm_start_from, (str, os.PathLike)):
        return WarmStartSettings(ckpt_to_initialize_from=warm_start_from)
    raise ValueError("warm_start_from must be a string (a checkpoint or a model_dir) or a "
                     f"WarmStartSettings, given: {warm_start_from!r}")


def apply(settings, store, trainable_names):
    """Assigns the chosen store variables their values from the settings' checkpoint, rows or
    columns remapped by vocabulary where `var_name_to_vocab_info` says (tf.estimator's order of
    work, log lines and errors for names it did not use)."""
    logger.info("Warm-starting with WarmStartSettings: %r", settings)  # tf.estimator's lines
    logger.info("Warm-starting from: %s", settings.ckpt_to_initialize_from)
    if settings.vars_to_warm_start is None or isinstance(settings.vars_to_warm_start, str):
        logger.info("Warm-starting variables only in TRAINABLE_VARIABLES.")
    path = checkpoints.resolve(settings.ckpt_to_initialize_from)
    reader = tf.train.load_checkpoint(path)
    # vars_to_warm_start=None: the trainable variables are looked at, only those with a
    # vocabulary are warm-started
    grouped = _select(".*" if settings.vars_to_warm_start is None
                      else settings.vars_to_warm_start, store.saveable(), trainable_names)
    prev_names, vocabs = settings.var_name_to_prev_var_name, settings.var_name_to_vocab_info
    shapes = reader.get_variable_to_shape_map()
    plan, missing = [], []  # checked whole before any variable changes
    for name in grouped:
        prev = prev_names.get(name, name)
        vocab = vocabs.get(name)
        if vocab is None and settings.vars_to_warm_start is None:
            continue
        if prev not in shapes:
            missing.append(prev)
            continue
        var = store.get(name)
        if vocab is None and list(shapes[prev]) != var.shape.as_list():
            raise ValueError(f"Shape of variable {name}:0 ({var.shape}) doesn't match with "
                             f"shape of tensor {prev} ({list(shapes[prev])}) from checkpoint "
                             "reader.")
        plan.append((name, var, prev, vocab))
    if missing:
        raise ValueError(f"Warm-start from {path}: these variables are not in the checkpoint: "
                         f"{missing}. Narrow vars_to_warm_start or map names with "
                         "var_name_to_prev_var_name.")
    logger.info("Warm-started %d variables.", len(plan))
    viable = dict.fromkeys(grouped).keys()
    for field, given in (("var_name_to_prev_var_name", prev_names),
                         ("var_name_to_vocab_info", vocabs)):
        unused = set(given) - set(grouped)
        if unused:
            raise ValueError(f"You provided the following variables in {field} that were not "
                             f"used: {unused}.  Perhaps you misspelled them?  Here is the list "
                             f"of viable variable names: {viable}")
    values = [reader.get_tensor(prev) if vocab is None  # all read (a bad vocabulary file
              else vocab_remap.remapped(var, name, vocab, path, prev)  # fails here) first
              for name, var, prev, vocab in plan]
    for (_, var, _, _), value in zip(plan, values):
        var.assign(value)


def _select(vars_to_warm_start, saveable, trainable_names):
    if isinstance(vars_to_warm_start, str):
        pattern = re.compile(vars_to_warm_start)
        return [n for n in saveable if n in trainable_names and pattern.match(n)]
    if isinstance(vars_to_warm_start, (list, tuple)):
        out = []
        for item in vars_to_warm_start:
            if isinstance(item, tf.Variable):
                item = item.name.split(":")[0]
            pattern = re.compile(item)
            out.extend(n for n in saveable if pattern.match(n) and n not in out)
        return out
    raise ValueError(f"vars_to_warm_start must be a str, a list or None, given: "
                     f"{vars_to_warm_start!r}")


def apply_init_from_checkpoint(store, ckpt_dir_or_file, assignment_map):
    """What `tf.compat.v1.train.init_from_checkpoint(ckpt, assignment_map)` asked for inside a
    model_fn (BERT calls it there or in scaffold_fn): assigns the store's variables their values
    from the checkpoint. Keys are checkpoint names or scopes ('old/' or '/'); values are variable
    names, scopes ('new/') or variables."""
    path = checkpoints.resolve(ckpt_dir_or_file)
    reader = tf.train.load_checkpoint(path)
    in_ckpt = dict(tf.train.list_variables(path))
    saveable = store.saveable()
    by_id = {id(v): n for n, v in saveable.items()}
    pairs = []
    for ckpt_name, target in assignment_map.items():
        if isinstance(target, (list, tuple)):
            raise ValueError("init_from_checkpoint: partitioned variables are not supported by "
                             f"estimator_compat ({ckpt_name!r}).")
        if not isinstance(target, str):
            name = by_id.get(id(target)) or by_id.get(id(getattr(target, "value", None)))
            if name is None:
                raise ValueError(f"init_from_checkpoint: {target!r} is not a variable of the "
                                 "model_fn.")
            pairs.append((ckpt_name, name))
        elif ckpt_name.endswith("/") or ckpt_name == "/":
            old = "" if ckpt_name == "/" else ckpt_name
            new = target if target.endswith("/") or not target else target + "/"
            for name in saveable:
                if name.startswith(new) and old + name[len(new):] in in_ckpt:
                    pairs.append((old + name[len(new):], name))
        else:
            if target not in saveable:
                raise ValueError(f"init_from_checkpoint: {target!r} (for {ckpt_name!r}) is not a "
                                 f"variable of the model_fn.")
            pairs.append((ckpt_name, target))
    for ckpt_name, name in pairs:
        if ckpt_name not in in_ckpt:
            raise ValueError(f"init_from_checkpoint: tensor {ckpt_name!r} is not in checkpoint "
                             f"{path}.")
        value = reader.get_tensor(ckpt_name)
        var = saveable[name]
        if list(value.shape) != var.shape.as_list():
            raise ValueError(f"init_from_checkpoint: {name} has shape {var.shape.as_list()}, "
                             f"{ckpt_name} in {path} has shape {list(value.shape)}.")
        var.assign(value)
    logger.info("Initialized %d variables from checkpoint %s.", len(pairs), path)
