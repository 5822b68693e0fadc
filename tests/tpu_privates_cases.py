"""Cases for the `tpu.*` privates of tensorflow_estimator 2.15 that run without a TPU
(legacy/estimator_tree/tpu_*.py). Each `case_<name>(get)` takes `get(path)` (the module
`tensorflow_estimator.python.estimator.<path>`) and returns JSON-able results, errors as
["error", type, message]. Run by tests/test_estimator_tree_tpu_privates.py here and, to record
tests/fixtures/tf215_tpu_privates.json, under tensorflow-estimator 2.15 by
tests/fixtures/make_tf215_tpu_privates.py."""
import json
import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow.python.training.session_run_hook import SessionRunValues

v1 = tf.compat.v1
_NO_MESSAGE = ("InvalidArgumentError",)  # TensorFlow's kernel messages name nodes and devices


def _try(fn, *args, **kwargs):
    try:
        return ["ok", _plain(fn(*args, **kwargs))]
    except Exception as e:  # noqa: BLE001 - recorded
        name = type(e).__name__
        return ["error", name, None if name in _NO_MESSAGE else str(e)]


def _plain(value):
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return type(value).__name__


def _exc_info(error):
    try:
        raise error
    except Exception:  # noqa: BLE001
        return sys.exc_info()


def case_tpu_job_name(get):
    fn = get("tpu.tpu_config")._get_tpu_job_name_from_tf_config
    saved, out = os.environ.pop("TF_CONFIG", None), []
    try:
        for config in (None, "{}", '{"service": {}}',
                       '{"service": {"tpu_worker_job_name": "tpu_w"}}',
                       '{"cluster": {"worker": ["a:1"]}}', "not json"):
            if config is None:
                os.environ.pop("TF_CONFIG", None)
            else:
                os.environ["TF_CONFIG"] = config
            out.append(_try(fn))
    finally:
        os.environ.pop("TF_CONFIG", None)
        if saved is not None:
            os.environ["TF_CONFIG"] = saved
    return out


def _errors():
    return {"value": ValueError("v"), "key": KeyError("k"),
            "aborted": tf.errors.AbortedError(None, None, "ab"),
            "cancelled": tf.errors.CancelledError(None, None, "c"),
            "internal": tf.errors.InternalError(None, None, "in"),
            "oor": tf.errors.OutOfRangeError(None, None, "end")}


def case_error_rendezvous(get):
    cls = get("tpu.error_handling").ErrorRendezvous
    out = {}
    for name, seq in {"value_aborted": [("a", "value"), ("b", "aborted")],
                      "aborted_cancelled": [("a", "aborted"), ("b", "cancelled")],
                      "cancelled_value": [("a", "cancelled"), ("b", "value")],
                      "aborted_internal": [("a", "aborted"), ("b", "internal")],
                      "key_value": [("b", "key"), ("a", "value")],
                      "same_source": [("a", "value"), ("a", "key")],
                      "oor": [("z", "oor")]}.items():
        r = cls(3)
        for source, error in seq:
            r.record_error(source, _exc_info(_errors()[error]))
        out[name] = [sorted(r._errors), _try(r.raise_errors)]
    r = cls(2)
    r.record_done("a")
    out["done"] = [r._errors, r._num_sources, _try(r.raise_errors)]
    r.record_error("a", _exc_info(ValueError("after done")))
    r.record_done("a")
    out["error_then_done"] = [sorted(r._errors), _try(r.raise_errors, 1)]
    r = cls(2)
    with r.catch_errors("x"):
        raise KeyError("in block")
    with r.catch_errors("y"):
        pass
    out["catch"] = [sorted(r._errors), _try(r.raise_errors, 1)]
    out["wait_needs_int"] = _try(cls(2).raise_errors, 0.5)

    class Session:
        def close(self):
            pass

    r = cls(2)
    out["no_session_timer"] = r._session_cancel_timer
    r.record_error("a", _exc_info(ValueError("x")), session=Session())
    timer = r._session_cancel_timer
    r.record_error("b", _exc_info(ValueError("y")), session=Session())
    out["session_timer"] = [type(timer).__name__, timer.daemon, r._session_cancel_timer is timer]
    return out


def case_iteration_count_estimator(get):
    module = get("tpu.iteration_count_estimator")
    cls, out = module.IterationCountEstimator, {}
    out["fields"] = list(module.RuntimeCounter._fields)
    out["bad_capacity"] = [_try(cls, 0), _try(cls, -1)]
    e = cls()
    out["fresh"] = [e._capacity, e._min_iterations, e._last_iterations, e._sample_count,
                    _try(e.get, 10), _try(e.get, 0), _try(e.get, -1)]
    for name, (capacity, samples, totals) in {
            "mean": (20, [(1.0, 10), (2.0, 20), (1.5, 10), (1.1, 10)], [10, 100]),
            "fifo": (2, [(1.0, 10), (3.0, 10), (5.0, 10)], [12]),
            "invalid": (3, [(0, 10), (1, 0), (-1, 5), (1, -5), (2, 10)], [10]),
            "minimum": (3, [(0.001, 10), (1000, 10)], [1, 0.05]),
            "stable": (3, [(1, 10), (1, 10), (1, 10), (1, 10), (1.05, 10), (1.2, 10), (2, 10)],
                       [10]),
            "reuse": (3, [(10.0, 100)] * 4, [10, 11, 11.5, 9.5, 9, 8]),
            "unstable_no_reuse": (3, [(10.0, 100)] * 2, [10, 10.5, 9.5])}.items():
        e, steps = cls(capacity), []
        for runtime, count in samples:
            e.update(runtime, count)
            e._last_iterations = 77 if name.startswith(("reuse", "unstable")) else \
                e._last_iterations
            steps.append([len(e._buffer_wheel), e._sample_count, e._is_step_time_stable(),
                          [[e.get(t), e._last_iterations] for t in totals]])
        out[name] = [steps, [list(s) for s in e._buffer_wheel], e._mean_runtime_secs(),
                     e._mean_step_time_secs(), e._std_step_time_secs()]
    for x in (1.0, 1.3, 1.6, 1.61, 1.7):
        e = cls(2)
        for runtime in (1, 1, x):
            e.update(runtime, 10)
        out[f"threshold_{x}"] = [e._is_step_time_stable(), e._std_step_time_secs()]
    e = cls()
    out["diff"] = [_try(e._diff_less_than_percentage, a, t, p) for a, t, p in (
        (1, 1.1, 5), (1, 1.04, 5), (1.1, 1, 10), (1, 1.1, 10), (1, 1.1, 9.09), (2, 1, 100),
        (-1, 1, 200), (0, 1, 5), (1, 0, 5))]
    e._reset(5)
    out["reset"] = [e._capacity, e._last_iterations, len(e._buffer_wheel)]
    return out


def case_tpu_estimator_helpers(get):
    te, out = get("tpu.tpu_estimator"), {}
    out["signal"] = [te._SIGNAL.NEXT_BATCH, te._SIGNAL.STOP]
    out["is_iterable"] = [te._is_iterable(o) for o in (
        [1], (1,), "ab", b"x", {1: 2}, {1}, 1, None, np.zeros(2), iter([1]), 1.5)]
    out["key_names"] = [te._extract_key_names(o) for o in (
        tf.constant(1.0), {"b": 1, "a": 2}, None, [1], {})]
    params = {"a": 1}
    out["add_dict"] = [_try(te._add_item_to_params, params, "b", 2),
                       _try(te._add_item_to_params, params, "a", 9), params]

    class HParams:
        def __init__(self):
            self.known, self.log = {"x": 1}, []

        def __contains__(self, key):
            return key in self.known

        def set_hparam(self, key, value):
            self.log.append(["set", key, value])

        def add_hparam(self, key, value):
            self.log.append(["add", key, value])

        def __setitem__(self, key, value):
            self.log.append(["item", key, value])

    h = HParams()
    te._add_item_to_params(h, "x", 2)
    te._add_item_to_params(h, "y", 3)
    out["add_hparams"] = h.log
    out["add_bad"] = [_try(te._add_item_to_params, [1], "a", 9),
                      _try(te._add_item_to_params, object(), "a", 9)]
    saver = te._NotSaver("not saving")
    out["not_saver"] = [_try(saver.save, None, "path"), _try(saver.save)]
    c = te._CapturedObject()
    out["captured"] = [_try(c.get), _try(c.capture, 5), _try(c.get), _try(c.capture, 6)]
    c = te._CapturedObject()
    out["scaffold_uncaptured"] = _try(te._get_scaffold, c)
    calls = []

    class Scaffold:
        def finalize(self):
            calls.append("finalize")
            return "finalized"

    results = []
    for fn in (None, lambda: None, lambda: 3, Scaffold):
        c = te._CapturedObject()
        c.capture(fn)
        results.append(_try(te._get_scaffold, c))
    scaffold_fn = te._CapturedObject()
    scaffold_fn.capture(Scaffold)
    scaffold = te._get_scaffold(scaffold_fn)
    out["scaffold"] = [results, calls[:], scaffold.finalize(), calls,
                       scaffold.finalize.__name__]
    with tf.Graph().as_default() as g:
        gs = te._create_global_step(g)
        out["global_step"] = [gs.name, gs.dtype.name, gs.shape.as_list(), gs.trainable,
                              type(gs).__name__, gs.op.type,
                              sorted(g.get_all_collection_keys()),
                              [v.name for v in v1.global_variables()],
                              [v.name for v in v1.trainable_variables()],
                              _try(te._create_global_step, g), _try(te._create_global_step, None)]
    with tf.Graph().as_default():
        other = tf.Graph()
        gs = te._create_global_step(other)
        out["global_step_other_graph"] = [gs.graph is other, len(v1.global_variables())]
    return out


def case_export_outputs(get):
    te, eo, out = get("tpu.tpu_estimator"), get("export.export_output"), {}
    with tf.Graph().as_default():
        scores = tf.constant([[0.2, 0.8]], name="scores")
        classes = tf.constant([["x", "y"]], name="classes")
        value = tf.constant([[1.0], [2.0]], name="value")
        ids = tf.constant([2], name="ids")
        for name, output in (("classification", eo.ClassificationOutput(scores, classes)),
                             ("scores_only", eo.ClassificationOutput(scores=scores)),
                             ("classes_only", eo.ClassificationOutput(classes=classes)),
                             ("regression", eo.RegressionOutput(value)),
                             ("predict", eo.PredictOutput({"q": scores, "p": ids}))):
            tensors = te._export_output_to_tensors(output)
            new = [None if t is None else tf.identity(t, name=f"new_{i}")
                   for i, t in enumerate(tensors)]
            clone = te._clone_export_output_with_tensors(output, new)
            out[name] = [[None if t is None else t.name for t in tensors], type(clone).__name__,
                         [None if t is None else t.name
                          for t in te._export_output_to_tensors(clone)]]
        out["errors"] = [
            _try(te._export_output_to_tensors, 3),
            _try(te._clone_export_output_with_tensors, 3, []),
            _try(te._clone_export_output_with_tensors, eo.RegressionOutput(value),
                 [value, value]),
            _try(te._clone_export_output_with_tensors, eo.ClassificationOutput(scores=scores),
                 [scores]),
            _try(lambda: list(te._clone_export_output_with_tensors(
                eo.PredictOutput({"q": scores, "p": ids}), [scores]).outputs))]
    return out


def case_transfer_size(get):
    verify, out = get("tpu.tpu_estimator")._verify_cross_hosts_transfer_size, {}
    gib = 1024 ** 3
    with tf.Graph().as_default():
        def p(shape, dtype=tf.int8):
            return v1.placeholder(dtype, shape)

        for name, tensors in {
                "small": {"a": tf.zeros([4, 4])}, "empty": {},
                "scalar": {"s": tf.constant(3)},
                "under_1gib": {"a": p([gib - 1])}, "1gib": {"a": p([gib])},
                "float_big": {"a": p([1024, 1024, 600], tf.float32)},
                "two_halves": {"a": p([gib // 2]), "b": p([gib // 2])},
                "small_then_big": {"s": p([2], tf.float32), "b": p([gib])},
                "strings": {"s": p([2 * gib], tf.string)},
                "unknown_dim": {"a": p([None, 3], tf.float32)},
                "unknown_dim_last": {"a": p([3, None], tf.float32)},
                "unknown_rank": {"a": p(None, tf.float32)},
                "not_tensor": {"a": 3}}.items():
            out[name] = _try(verify, tensors, "Msg.")
    return out


def case_embedding_names(get):
    emb = get("tpu._tpu_estimator_embedding")
    return {
        "var_from_table": [_try(emb._get_embedding_var_name_from_table_name, t)
                           for t in ("t", "tbl_x", "", "tbl_a/b")],
        "table_from_var": [_try(emb._get_table_name_from_embedding_var_name, v)
                           for v in ("x", "tbl_x_embedding", "")],
        "variable_name": [_try(emb._get_embedding_variable_name, s, v) for s, v in (
            ("scope", "var"), ("", ""), ("a/b", "c"), (None, "c"), ("", "c"))]}


def case_tpu_embedding_columns(get):
    emb, fc = get("tpu._tpu_estimator_embedding"), v1.feature_column
    ids, ids2 = (fc.categorical_column_with_identity("c", 10),
                 fc.categorical_column_with_identity("d", 10))
    tpu_column = v1.tpu.experimental.embedding_column(ids, 4)
    shared = v1.tpu.experimental.shared_embedding_columns([ids, ids2], 4)
    columns = [tpu_column, fc.numeric_column("n"), fc.embedding_column(ids, 4)] + list(shared)
    found = emb.get_tpu_embedding_columns(columns)
    return [[columns.index(c) for c in found], [type(c).__name__ for c in found],
            _try(emb.get_tpu_embedding_columns, []), _try(emb.get_tpu_embedding_columns, None)]


def case_slot_variable_names(get):
    emb, params = get("tpu._tpu_estimator_embedding"), v1.tpu.experimental
    out = []
    for p in (params.AdagradParameters(0.1), params.AdamParameters(0.1),
              params.FtrlParameters(0.1), params.StochasticGradientDescentParameters(0.1)):
        names = emb._get_slot_variable_names("scope", "var", p)
        out.append(None if names is None else [type(names).__name__, names._asdict()])
    out += [emb._get_slot_variable_names("", "var", params.AdamParameters(0.1)),
            _try(emb._get_slot_variable_names, "scope", "var", None),
            _try(emb._get_slot_variable_names, "scope", "var", 3)]
    return out


def case_replica_context(get):
    from tensorflow.python.ops import summary_ops_v2
    cls, state, out = get("tpu.tpu_context")._TPUEstimatorReplicaContext, None, []
    state = summary_ops_v2._summary_state
    before = state.is_recording_distribution_strategy
    for replica_id in (0, 1, tf.constant(1), tf.constant(0)):
        context = cls(replica_id)
        entry = [context._summary_recording_distribution_strategy,
                 type(context.strategy).__name__, context.num_replicas_in_sync,
                 int(context.replica_id_in_sync_group),
                 isinstance(context, tf.distribute.ReplicaContext)]
        with context as entered:
            check = state.is_recording_distribution_strategy
            entry += [entered, callable(check), bool(check()),
                      context._summary_recording_distribution_strategy is before,
                      tf.distribute.get_replica_context() is context,
                      bool(summary_ops_v2.should_record_summaries())]
        entry.append(state.is_recording_distribution_strategy is before)
        out.append(entry)
    return out


def _sparse_plain(t):
    if isinstance(t, tf.sparse.SparseTensor):
        return ["sparse", t.dtype.name, t.indices.numpy().tolist(), t.values.numpy().tolist(),
                t.dense_shape.numpy().tolist(), t.indices.dtype.name, t.dense_shape.dtype.name]
    return ["dense", t.dtype.name, t.numpy().tolist()]


def case_embedding_features(get):
    emb, out = get("tpu._tpu_estimator_embedding"), {}
    sp = tf.sparse.SparseTensor([[0, 1], [2, 0]], [1.0, 2.0], [3, 2])
    sp4 = tf.sparse.SparseTensor([[0, 1], [3, 0]], [1.0, 2.0], [4, 2])
    ids = tf.sparse.SparseTensor([[0, 1]], tf.constant([3], tf.int64), [3, 2])
    strings = tf.sparse.SparseTensor([[0, 1]], ["a"], [3, 2])

    def maybe(t):
        r = _try(emb._maybe_dense_to_sparse, t)
        return r if r[0] != "ok" else _sparse_plain(emb._maybe_dense_to_sparse(t))

    out["dense_to_sparse"] = [maybe(t) for t in (
        tf.constant([[1, 0], [0, 3]]), tf.constant([5, 0, 7]), tf.constant([[[1]]]),
        tf.constant([[1.0, 0.0]]), tf.constant(["a", "", "b"]))]
    out["sparse_kept"] = emb._maybe_dense_to_sparse(sp) is sp

    def split(t, n):
        r = _try(emb._split_tensor, t, n)
        return r if r[0] != "ok" else [
            _sparse_plain(x) if isinstance(x, tf.sparse.SparseTensor) else x.numpy().tolist()
            for x in emb._split_tensor(t, n)]

    out["split"] = [split(tf.constant([[1, 2], [3, 4], [5, 6], [7, 8]]), 2),
                    split(tf.constant([1, 2, 3]), 2), split(tf.constant([1, 2, 3, 4]), 1),
                    split(sp, 3), split(sp4, 2)]
    features = {"a": sp, "w": tf.constant([1.0]), "sw": sp}
    out["weights"] = [_try(emb._get_weights_from_features, None, features),
                      _try(emb._get_weights_from_features, "missing", features),
                      _try(emb._get_weights_from_features, "w", features), sorted(features),
                      emb._get_weights_from_features("sw", features) is sp, sorted(features)]
    features = {"f": sp, "s": strings, "i": ids, "d": tf.constant([[1, 0]])}
    out["sparse_feature"] = [_try(emb._get_sparse_feature_from_feature, "f", features),
                             _try(emb._get_sparse_feature_from_feature, "s", features),
                             sorted(features),
                             emb._get_sparse_feature_from_feature("i", features) is ids,
                             _sparse_plain(emb._get_sparse_feature_from_feature("d", features)),
                             _try(emb._get_sparse_feature_from_feature, "missing", features),
                             sorted(features)]
    return out


def _describe(features):
    return {k: [v.shape.as_list() if v.shape.rank is not None else None, v.dtype.name,
                type(v).__name__ == "SparseTensor"] if hasattr(v, "dtype") else _plain(v)
            for k, v in features.items()}


def case_tensor_packer(get):
    cls, out = get("tpu.tpu_estimator").TensorPacker, {}
    out["construct"] = [_try(lambda a=a: vars(cls(*a)))
                        for a in ((1, 5), (0, 1), (2, 0), ("a", "b"))]
    with tf.Graph().as_default():
        def floats(n, prefix="f", width=1):
            return {f"{prefix}{i}": tf.fill([4, width], float(i)) for i in range(n)}

        for n in (4, 5, 6):
            f = floats(n)
            cls(1, 5).maybe_concatenate_features(f)
            out[f"count_{n}"] = _describe(f)
        for name, extra in {
                "sparse": {"sp": tf.sparse.SparseTensor([[0, 0]], [1.0], [4, 2])},
                "unknown_dim": {"unk": v1.placeholder(tf.float32, [4, None])},
                "unknown_batch": {"ub": v1.placeholder(tf.float32, [None, 1])},
                "other_dtype": {"i": tf.zeros([4, 1], tf.int32)}, "rank1": {"v": tf.zeros([4])},
                "rank3": {"r3": tf.zeros([4, 1, 1])}, "wide": {"b2": tf.zeros([4, 2])},
                "unknown_rank": {"nr": v1.placeholder(tf.float32)}, "python": {"py": 3},
                "nested": {"a_nested": {"x": tf.zeros([4, 1])}},
                "scalar": {"s0": v1.placeholder(tf.float32, [])}}.items():
            f = floats(5)
            f.update(extra)
            packer = cls(1, 5)
            result = _try(packer.maybe_concatenate_features, f)
            out[name] = [result, _describe(f), {str(k): v for k, v in getattr(
                packer, "_small_feature_names", {}).items()}]
        f = floats(3)
        f.update(floats(2, "g", 2))
        f.update({f"i{i}": tf.fill([4, 1], i) for i in range(3)})
        f.update({"h0": tf.zeros([4, 1], tf.float16), "h1": tf.zeros([4, 1], tf.float16)})
        packer = cls(2, 3)
        packer.maybe_concatenate_features(f)
        packed = _describe(f)
        split = dict(f)
        packer.maybe_split_features(split)
        with v1.Session() as sess:
            values = {k: v.tolist() for k, v in sess.run(split).items()}
        out["mixed"] = [packed, list(split), _describe(split), values,
                        packer._get_small_feature_key(tf.float32),
                        {str(k): v for k, v in packer._small_feature_sizes.items()}]
        f = {"z": tf.zeros([4, 1]), "a": tf.ones([4, 1]), "m": tf.zeros([4, 1])}
        packer = cls(1, 2)
        packer.maybe_concatenate_features(f)
        split = dict(f)
        packer.maybe_split_features(split)
        out["sorted"] = [list(f), list(split)]
        out["split_missing"] = [_try(packer.maybe_split_features, {"x": tf.zeros([4, 1])}),
                                _try(cls(1, 2).maybe_split_features, {"x": 1})]
        out["empty"] = [_try(cls(1, 1).maybe_concatenate_features, {}),
                        _try(cls(1, 1).maybe_concatenate_features, None),
                        _try(cls(0, 0).maybe_concatenate_features, {"a": tf.zeros([4, 0])})]
    return out


def case_loops(get):
    te, out = get("tpu.tpu_estimator"), {}
    with tf.Graph().as_default() as g:
        out["no_global_step"] = _try(te._create_or_get_iterations_per_loop)
        v1.train.create_global_step()
        var = te._create_or_get_iterations_per_loop()
        out["iterations_var"] = [var.name, var.dtype.name, var.shape.as_list(), var.trainable,
                                 type(var).__name__, sorted(g.get_all_collection_keys()),
                                 [v.name for v in v1.local_variables()],
                                 [v.name for v in v1.global_variables()],
                                 te._create_or_get_iterations_per_loop() is var,
                                 [c.decode() for c in var.op.colocation_groups()]]
        g.add_to_collection("tpu_estimator_iterations_per_loop", var)
        out["several"] = _try(te._create_or_get_iterations_per_loop)
    with tf.Graph().as_default():
        v1.train.create_global_step()
        counter = v1.get_variable("c", initializer=0, use_resource=True)
        var = te._create_or_get_iterations_per_loop()
        loop = te._wrap_computation_in_while_loop("/device:CPU:0",
                                                  lambda: [v1.assign_add(counter, 1).op])
        plain = te._wrap_computation_in_while_loop(None, list)
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
            sess.run(var.assign(4))
            out["while"] = [loop.dtype.name, loop.shape.as_list(), loop.device, plain.device,
                            _plain(sess.run(loop)), _plain(sess.run(counter)),
                            _plain(sess.run(plain))]
    with tf.Graph().as_default():
        first = te._increase_eval_step_op(3)
        second = te._increase_eval_step_op(tf.constant(2, tf.int32))
        step = v1.get_collection(v1.GraphKeys.EVAL_STEP)
        with v1.Session() as sess:
            sess.run(v1.local_variables_initializer())
            out["eval_step"] = [[v.name for v in step], step[0].dtype.name,
                                _plain(sess.run(first)), _plain(sess.run(first)),
                                _plain(sess.run(second)), _plain(sess.run(step[0]))]
    return out


def case_inputs(get):
    cls, out = get("tpu.tpu_estimator")._Inputs, {}
    with tf.Graph().as_default():
        features, labels = {"x": tf.constant([[1.0]])}, tf.constant([1])
        for name, value in (("dict", features), ("pair", (features, labels)),
                            ("list", [features, labels]), ("one", (features,)),
                            ("three", (features, labels, 3))):
            r = _try(cls.from_input_fn, value)
            if r[0] == "ok":
                inputs = cls.from_input_fn(value)
                r = [inputs.is_dataset,
                     [None if t is None else _plain(tf.nest.map_structure(
                         lambda x: x.dtype.name, t)) for t in inputs.features_and_labels()],
                     inputs.signals(), inputs.dataset,
                     _try(inputs.dataset_initializer)[:2]]
            out[name] = r
        out["both"] = _try(cls, features=features, dataset=tf.data.Dataset.range(3))
        out["signals"] = cls(features, labels, signals={"s": 1}).signals()
        for name, dataset in (
                ("dataset_pair", tf.data.Dataset.from_tensor_slices(
                    ({"x": np.arange(5.0).reshape(5, 1)}, np.arange(5))).batch(2)),
                ("dataset_features", tf.data.Dataset.from_tensor_slices(
                    {"x": np.arange(5.0).reshape(5, 1)}).batch(2))):
            inputs = cls.from_input_fn(dataset)
            before = _try(inputs.features_and_labels)
            init = inputs.dataset_initializer()
            got = inputs.features_and_labels()
            with v1.Session() as sess:
                sess.run(init)
                values = sess.run([t for t in got if t is not None])
            out[name] = [inputs.is_dataset, inputs.dataset is dataset, type(init).__name__,
                         before, [t is None for t in got],
                         _plain(tf.nest.map_structure(lambda v: v.tolist(), values))]
    return out


def case_op_queue_contexts(get):
    te, out = get("tpu.tpu_estimator"), {}
    for cls in (te._OpQueueContext, te._OpSignalOnceQueueContext):
        log = []

        def target(context, a, b, log=log):
            import threading
            thread = threading.current_thread()
            log.append(["start", a, b, thread.name, thread.daemon])
            for count in context.read_iteration_counts():
                log.append(["count", count])
            log.append("done")

        context = cls(cls.__name__, target, ("A", "B"))
        for count in (3, 5, 7):
            context.send_next_batch_signal(count)
        context.stop()
        context.join()
        out[cls.__name__] = [log, sorted(vars(context)), context._thread.is_alive(),
                             _try(context.join)]
    log = []
    context = te._OpQueueContext("join", lambda c: log.extend(c.read_iteration_counts()), ())
    context.send_next_batch_signal(2)
    context.join()
    out["join_stops"] = [log, context._thread.is_alive()]
    return out


def case_padding_signals(get):
    te, out = get("tpu.tpu_estimator"), {}
    cls, stop = te._PaddingSignals, te._StopSignals
    with tf.Graph().as_default():
        x, y = v1.placeholder(tf.float32, [None, 2]), v1.placeholder(tf.int32, [None])
        labels = v1.placeholder(tf.int64, [None, 1])
        mask, features, padded_labels = cls.pad_features_and_labels({"x": x, "y": y}, labels, 4)
        mask2, features2, none = cls.pad_features_and_labels({"a": {"b": x}}, None, 4)
        shapes = [[t.dtype.name, t.shape.as_list()] for t in (
            mask, features["x"], features["y"], padded_labels, mask2, features2["a"]["b"])]
        runs = []
        with v1.Session() as sess:
            for n in (3, 4, 5):
                feed = {x: np.ones((n, 2)), y: np.arange(n), labels: np.arange(n).reshape(n, 1)}
                r = _try(lambda feed=feed: tf.nest.map_structure(
                    lambda v: v.tolist(), sess.run([mask, features, padded_labels], feed)))
                runs.append(r[:2] if r[0] == "error" else r)
            try:
                sess.run(mask, {x: np.ones((5, 2)), y: np.arange(5)})
            except tf.errors.InvalidArgumentError as e:
                runs.append("The real batch size should not be greater than batch_size. 4 5"
                            in " ".join(str(e).replace("]", "").replace("[", "").split()))
        out["pad"] = [shapes, none, runs]
        out["pad_errors"] = [
            _try(cls.pad_features_and_labels, {}, None, 4)[:3],
            _try(cls.pad_features_and_labels, {"a": tf.sparse.SparseTensor(
                [[0, 0]], [1.0], [3, 2])}, None, 4),
            _try(cls.pad_features_and_labels, {"a": tf.zeros([3, 2])}, tf.zeros([5]), 4)[:2],
            _try(cls.pad_features_and_labels, {"a": tf.zeros([])}, None, 4)[:2]]
        out["find"] = [cls._find_any_tensor({"a": 3, "b": tf.zeros([1], name="b")}).name,
                       cls._find_any_tensor([tf.zeros([2], name="first")]).name,
                       _try(cls._find_any_tensor, {})]
        pm = cls._padding_mask(3, 1, 4)
        out["mask_bad"] = _try(cls._padding_mask, tf.constant(5), tf.constant(-1), 4)[:2]
        sliced = []
        for stopping, mask_values in ((False, [0, 0, 1]), (True, [0, 0, 1]), (False, [0, 0, 0]),
                                      (True, [1, 1, 1])):
            signals = stop(stop=stopping, batch_size=3,
                           padding_mask=tf.constant(mask_values)).as_dict()
            sliced.append([mask_values, cls.slice_tensor_or_dict(
                {"a": tf.constant([[1], [2], [3]]), "b": tf.constant([4, 5, 6])}, signals)])
        signals = stop(stop=False, batch_size=3, padding_mask=tf.constant([0, 0, 1])).as_dict()
        wrong = cls.slice_tensor_or_dict(tf.constant([[1], [2], [3], [4]]), signals)
        stopping = stop(stop=True, batch_size=3, padding_mask=tf.constant([0, 0, 1])).as_dict()
        wrong_stopping = cls.slice_tensor_or_dict(tf.constant([[1], [2], [3], [4]]), stopping)
        with v1.Session() as sess:
            out["mask"] = [pm.shape.as_list(), sess.run(pm).tolist()]
            out["slice"] = [[m, {k: [v.shape.as_list(), sess.run(v).tolist()]
                                 for k, v in s.items()}] for m, s in sliced]
            out["slice_wrong_batch"] = [sess.run(wrong).tolist(),
                                        sess.run(wrong_stopping).tolist()]
        out["slice_errors"] = [
            _try(cls.slice_tensor_or_dict, v1.placeholder(tf.int32, [None]), signals),
            _try(cls.slice_tensor_or_dict, tf.constant([1, 2, 3]),
                 {"stopping": tf.zeros([3, 1], tf.bool)}),
            _try(cls.slice_tensor_or_dict, tf.constant([1, 2, 3]),
                 {"padding_mask": tf.constant([0, 0, 1])}),
            _try(cls.slice_tensor_or_dict, {"n": None}, signals)[:2],
            _try(cls.slice_tensor_or_dict, tf.constant(7), signals)[:2]]
    return out


def case_inputs_with_stopping_signals(get):
    cls, out = get("tpu.tpu_estimator")._InputsWithStoppingSignals, {}

    def run(n, pad, rows=3, labels=True, batch_size=2):
        with tf.Graph().as_default():
            x = np.arange(float(rows)).reshape(rows, 1)
            dataset = tf.data.Dataset.from_tensor_slices(
                ({"x": x}, np.arange(rows)) if labels else {"x": x}).batch(batch_size)
            inputs = cls(dataset=dataset, batch_size=batch_size, add_padding=pad,
                         num_invocations_per_step=n)
            init = inputs.dataset_initializer()
            features, got_labels = inputs.features_and_labels()
            signals = inputs.signals()
            spec = tf.nest.map_structure(lambda t: [t.dtype.name, t.shape.as_list()],
                                         inputs.dataset.element_spec)
            fetch = [features["x"], got_labels if got_labels is not None else tf.constant(0),
                     signals]
            batches = []
            with v1.Session() as sess:
                sess.run(init)
                for _ in range(12):
                    try:
                        f, lab, sig = sess.run(fetch)
                    except tf.errors.OutOfRangeError:
                        batches.append("end")
                        break
                    batches.append([f.ravel().tolist(), lab.tolist() if labels else None,
                                    sig["stopping"].ravel().tolist(),
                                    sig.get("padding_mask", np.array([])).tolist()])
            return [inputs.is_dataset, spec, batches]

    for name, args in {"one": (1, False), "one_padded": (1, True), "three_padded": (3, True),
                       "two_padded": (2, True), "two_padded_4_rows": (2, True, 4),
                       "one_row": (1, True, 1), "no_labels": (2, True, 3, False)}.items():
        out[name] = run(*args)
    out["several_without_padding"] = _try(run, 2, False)[:2]
    with tf.Graph().as_default():
        dataset = tf.data.Dataset.from_tensor_slices(
            ({"x": np.arange(3.0).reshape(3, 1)}, np.arange(3))).batch(2)
        inputs = cls(dataset=dataset, batch_size=2)
        order = [_try(inputs.signals), _try(inputs.features_and_labels)[:2]]
        inputs.dataset_initializer()
        inputs.features_and_labels()
        order += [_try(inputs.features_and_labels), _try(inputs.signals)[0], _try(inputs.signals)]
        fn = cls.insert_stopping_signal(stop=True, batch_size=2)
        padded = cls.insert_stopping_signal(stop=False, batch_size=2, add_padding=True)
        mapped = [fn({"x": tf.zeros([2, 1])}, tf.zeros([2])), fn({"x": tf.zeros([2, 1])}),
                  padded({"x": tf.zeros([1, 1])}, tf.zeros([1])), padded(tf.zeros([1, 1]))]
        out["protocol"] = [order, [tf.nest.map_structure(
            lambda t: [t.dtype.name, t.shape.as_list()], m) for m in mapped],
            _try(fn, {"x": tf.zeros([2, 1])}, tf.zeros([2]), 3)]
    return out


def case_loop_hooks(get):
    te, util, out = get("tpu.tpu_estimator"), get("tpu.util"), {}
    counter = util.IterationsPerLoopCounter
    out["bad"] = [_try(te._TPUStopAtStepHook, counter(5, "count")),
                  _try(te._TPUStopAtStepHook, counter(5, "count"), 3, 4)]

    def run(make_hook, steps_before=0):
        log = []
        with tf.Graph().as_default():
            global_step = v1.train.create_global_step()
            iterations = te._create_or_get_iterations_per_loop()
            train = v1.assign_add(global_step, tf.cast(iterations.read_value(), tf.int64))
            setter = global_step.assign(steps_before)
            hook = make_hook()
            with v1.train.MonitoredSession(hooks=[hook]) as sess:
                log.append(int(sess.run_step_fn(lambda step_context: step_context.session.run(
                    iterations))))
                if steps_before:
                    sess.run_step_fn(lambda step_context: step_context.session.run(setter))
                for _ in range(10):
                    if sess.should_stop():
                        break
                    log.append(int(sess.run(train)))
            state = {k: _plain(v) for k, v in vars(hook).items() if k not in (
                "_start_time", "_global_step_tensor", "_iterations_per_loop_var",
                "_iteration_count_estimator", "_iterations_per_loop_counter")}
        return [log, state]

    hook = te._TPUStopAtStepHook
    out["num_steps"] = run(lambda: hook(counter(4, "count"), num_steps=10))
    out["final_step"] = run(lambda: hook(counter(4, "count"), final_step=10), steps_before=3)
    out["past_num_steps"] = run(lambda: hook(counter(4, "count"), num_steps=3), steps_before=5)
    out["seconds"] = run(lambda: hook(counter(30, "seconds"), num_steps=10))
    seconds = hook(counter(30, "seconds"), num_steps=1000)
    count = hook(counter(4, "count"), num_steps=10)
    with tf.Graph().as_default():
        out["no_global_step"] = _try(count.begin)
    fresh = seconds._next_iterations(0, 10)
    seconds._iteration_count_estimator.update(1.0, 10)
    out["next_iterations"] = [fresh, seconds._next_iterations(0, 10),
                              seconds._next_iterations(0, 100000), seconds._next_iteration_count,
                              [count._next_iterations(g, 10) for g in (0, 8, 12)],
                              type(seconds._iteration_count_estimator).__name__,
                              count._iteration_count_estimator]
    for name, make in (("eval", lambda sig: te._SetEvalIterationsHook(7)),
                       ("predict", lambda sig: te._StoppingPredictHook(sig))):
        with tf.Graph().as_default():
            v1.train.create_global_step()
            iterations = te._create_or_get_iterations_per_loop()
            c = v1.get_variable("c", initializer=0, use_resource=True)
            increment = v1.assign_add(c, 1)
            with tf.control_dependencies([increment]):  # read after the run's increment
                h = make(tf.greater_equal(c.read_value(), 3))
            log = []
            with v1.train.MonitoredSession(hooks=[h]) as sess:
                log.append(int(sess.run_step_fn(lambda step_context: step_context.session.run(
                    iterations))))  # noqa: B023 - called at once
                for _ in range(6):
                    if sess.should_stop():
                        break
                    log.append(int(sess.run(increment)))
            out[name] = [log, sorted(vars(h))]
            if name == "predict":
                values = SessionRunValues(results=True, options=None, run_metadata=None)
                out["predict_stop"] = _try(h.after_run, None, values)
    return out


def case_host_call_hook(get):
    import glob
    import shutil
    import tempfile

    from tensorflow.python.ops import summary_ops_v2
    te, out = get("tpu.tpu_estimator"), {}
    logdir = tempfile.mkdtemp()
    try:
        with tf.Graph().as_default():
            global_step = v1.train.create_global_step()
            writer = tf.summary.create_file_writer(logdir)
            with writer.as_default(), summary_ops_v2.always_record_summaries():
                scalar = tf.summary.scalar("loss", 3.0, step=global_step)
            hook = te._OutfeedHostCallHook([scalar])
            hook.begin()
            out["begin"] = [[op.type for op in hook._init_ops],
                            [op.type for op in hook._finalize_ops], sorted(vars(hook))]
            # The hook fetches the summary in the same run as the increment; without an
            # order the step it reads races the increment (CI once saw steps 0, 1, 3).
            with tf.control_dependencies([scalar]):
                increment = v1.assign_add(global_step, 1)
            with v1.train.MonitoredSession(hooks=[hook]) as sess:
                out["runs"] = [int(sess.run(increment)) for _ in range(3)]
        events = []
        for path in glob.glob(logdir + "/events*"):
            for event in v1.train.summary_iterator(path):
                events += [[event.step, v.tag, v.metadata.plugin_data.plugin_name,
                            float(tf.make_ndarray(v.tensor))] for v in event.summary.value]
        out["events"] = sorted(events)
    finally:
        shutil.rmtree(logdir, ignore_errors=True)
    with tf.Graph().as_default():
        hook = te._OutfeedHostCallHook({"a": tf.constant(1)})
        hook.begin()
        out["no_writer"] = [hook._init_ops, hook._finalize_ops,
                            type(hook.before_run(None).fetches).__name__]
    return out


def case_stop_signals(get):
    te, out = get("tpu.tpu_estimator"), {}
    cls = te._StopSignals
    out["constants"] = [cls.STOPPING_SIGNAL, cls.NON_STOPPING_SIGNAL]
    out["should_stop_python"] = [_try(cls.should_stop, x) for x in (True, False, 1, 0, 2, None)]
    with tf.Graph().as_default():
        going = cls(stop=False, batch_size=3).as_dict()
        stopping = cls(stop=True, batch_size=2, padding_mask=tf.constant([0, 1])).as_dict()
        scalar = cls.as_scalar_stopping_signal(stopping)
        should = cls.should_stop(scalar)
        out["missing"] = _try(cls.as_scalar_stopping_signal, {})
        counter = v1.get_variable("c", initializer=0, use_resource=True)

        def op_fn():
            add = v1.assign_add(counter, 1)
            with tf.control_dependencies([add]):
                stop = tf.reshape(tf.greater_equal(counter.read_value(), 3), [1, 1])
            return {"ops": [add.op], "signals": {"stopping": stop}}

        loop = te._wrap_computation_in_while_loop_with_stopping_signals("/device:CPU:0", op_fn)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values = sess.run([going, stopping, scalar, should, loop])
            out["graph"] = [sorted(going), sorted(stopping),
                            [going["stopping"].dtype.name, going["stopping"].shape.as_list()],
                            [scalar.dtype.name, scalar.shape.as_list()],
                            [should.dtype.name, should.shape.as_list()],
                            [loop.dtype.name, loop.device],
                            _plain(tf.nest.map_structure(
                                lambda v: v.tolist() if hasattr(v, "tolist") else v, values)),
                            _plain(sess.run(counter))]
    return out


def cases():
    return {name[len("case_"):]: fn for name, fn in sorted(globals().items())
            if name.startswith("case_")}


def tf215_get(path):
    import importlib
    return importlib.import_module("tensorflow_estimator.python.estimator." + path)


def run_all(get=tf215_get):
    return {name: json.loads(json.dumps(_plain(fn(get)))) for name, fn in cases().items()}
