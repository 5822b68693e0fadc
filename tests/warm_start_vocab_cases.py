"""Warm starting with vocabulary remapping (`WarmStartSettings(var_name_to_vocab_info=...)`),
run the same under tensorflow-estimator 2.15 (tests/fixtures/make_tf215_warm_start_vocab.py
records it) and under estimator_compat (tests/test_warm_start_vocab.py compares).

A model_fn's variables: `emb` [rows, 3] (rows by a feature vocabulary), `out` [3, cols]
(columns by a label vocabulary), `other` [2]; its train_op only counts the step, so after one
step the checkpoint holds what warm starting gave. The source model's values are distinct
numbers (`emb` = 0..11, `out` = 100..108, `other` = [50, 51]); the target's initializers give
-1, -2 and 0."""
import logging
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

v1 = tf.compat.v1
OLD_WORDS = ["a", "b", "c", "d"]
NEW_WORDS = ["d", "a", "e", "b", "f"]  # reordered, two new, c gone
OLD_LABELS = ["x", "y", "z"]
NEW_LABELS = ["z", "w", "x", "y"]


def model_fn(features, labels, mode, params):
    source = params.get("source", False)
    emb = v1.get_variable(params.get("emb_name", "emb"), shape=[params["rows"], 3],
                          initializer=v1.constant_initializer(
                              np.arange(params["rows"] * 3.0) if source else -1.0))
    out = v1.get_variable("out", shape=[3, params["cols"]], initializer=v1.constant_initializer(
        100.0 + np.arange(3.0 * params["cols"]) if source else -2.0))
    other = v1.get_variable("other", shape=[2], initializer=v1.constant_initializer(
        [50.0, 51.0] if source else 0.0))
    loss = 0.0 * (tf.reduce_sum(emb) + tf.reduce_sum(out) + tf.reduce_sum(other)
                  + tf.reduce_sum(features))
    return tf.estimator.EstimatorSpec(
        mode, loss=loss, train_op=v1.assign_add(v1.train.get_global_step(), 1))


def input_fn():
    return tf.data.Dataset.from_tensors((tf.ones([2, 1]), tf.ones([2, 1]))).repeat()


def _files(tmp):
    paths = {}
    for name, words in (("old", OLD_WORDS), ("new", NEW_WORDS), ("old_labels", OLD_LABELS),
                        ("new_labels", NEW_LABELS)):
        paths[name] = os.path.join(tmp, name + ".txt")
        with open(paths[name], "w") as f:
            f.write("\n".join(words) + "\n")
    return paths


def _settings(case, src, paths):
    ws, vocab = tf.estimator.WarmStartSettings, tf.estimator.VocabInfo
    rows = vocab(new_vocab=paths["new"], new_vocab_size=5, num_oov_buckets=1,
                 old_vocab=paths["old"])
    if case == "rows":
        return ws(src, vars_to_warm_start=".*", var_name_to_vocab_info={"emb": rows})
    if case == "rows_old_size_backup":
        return ws(src, var_name_to_vocab_info={"emb": vocab(
            new_vocab=paths["new"], new_vocab_size=4, num_oov_buckets=2, old_vocab=paths["old"],
            old_vocab_size=2, backup_initializer=v1.ones_initializer())})
    if case == "columns":
        return ws(src, vars_to_warm_start=["out"], var_name_to_vocab_info={"out": vocab(
            new_vocab=paths["new_labels"], new_vocab_size=4, num_oov_buckets=0,
            old_vocab=paths["old_labels"],
            backup_initializer=v1.random_uniform_initializer(5.0, 5.0),  # 5s, any shape
            axis=1)})
    if case == "vocab_only":  # vars_to_warm_start=None: only the vocabulary-remapped ones
        return ws(src, vars_to_warm_start=None, var_name_to_vocab_info={"emb": rows})
    if case == "renamed":
        return ws(src, vars_to_warm_start=["emb"], var_name_to_vocab_info={"emb": rows},
                  var_name_to_prev_var_name={"emb": "old_emb"})
    if case == "unused_vocab":
        return ws(src, var_name_to_vocab_info={"embedding": rows})
    if case == "unused_prev_name":
        return ws(src, var_name_to_prev_var_name={"emb_typo": "emb"})
    raise KeyError(case)


CASES = {"rows": {}, "rows_old_size_backup": {"rows": 6}, "columns": {"cols": 4},
         "vocab_only": {}, "renamed": {"source_emb_name": "old_emb"},
         "unused_vocab": {"rows": 4}, "unused_prev_name": {"rows": 4}}


class _Lines(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def run_case(case, estimator_cls):
    """{'values': {name: list}} after one warm-started step, or {'error': [type, message]};
    'lines': the INFO lines that name warm starting (paths as <tmp>)."""
    tmp = tempfile.mkdtemp()
    try:
        paths = _files(tmp)
        extra = CASES[case]
        src = os.path.join(tmp, "src")
        estimator_cls(model_fn, model_dir=src, params={
            "source": True, "rows": 4, "cols": 3,
            "emb_name": extra.get("source_emb_name", "emb")}).train(input_fn, steps=1)
        lines = _Lines()
        logger = logging.getLogger("tensorflow")
        logger.addHandler(lines)
        level = logger.level
        logger.setLevel(logging.INFO)
        out = {}
        try:
            est = estimator_cls(model_fn, model_dir=os.path.join(tmp, "dst"),
                                params={"rows": extra.get("rows", 6),
                                        "cols": extra.get("cols", 3)},
                                warm_start_from=_settings(case, src, paths))
            est.train(input_fn, steps=1)
            out["values"] = {name: np.round(est.get_variable_value(name), 5).tolist()
                             for name in ("emb", "out", "other")}
        except Exception as e:  # noqa: BLE001 - the error is what is recorded
            out["error"] = [type(e).__name__, str(e).replace(tmp, "<tmp>")]
        finally:
            logger.removeHandler(lines)
            logger.setLevel(level)
        out["lines"] = [line.replace(tmp, "<tmp>") for line in lines.lines
                        if "arm-start" in line or "arm start" in line]
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_all(estimator_cls):
    return {case: run_case(case, estimator_cls) for case in CASES}
