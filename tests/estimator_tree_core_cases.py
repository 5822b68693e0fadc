"""Cases for tensorflow_estimator 2.15's core privates (issue 45): `model_fn`'s spec
validators, `run_config`'s cluster helpers, `estimator`'s and `training`'s privates (with
`_TrainingExecutor.run_local` on a tiny model), `extenders`, `exporter`, `export.export`,
`head.*` and `early_stopping` privates, `keras_lib`'s helpers. Each `case_<name>(m)` takes
`m(path)`, which imports `tensorflow_estimator.python.estimator.<path>`, and returns what the
calls gave (JSON-able; an exception as {"raises": type, "message": text}). Run in TF 2.15 by
tests/fixtures/make_tf215_core_privates.py (-> tests/fixtures/tf215_core_privates.json) and
here, after install(), by tests/test_estimator_tree_core_privates.py."""
import json
import os
import re
import shutil
import tempfile
import types

import numpy as np
import tensorflow as tf

v1 = tf.compat.v1


def _outcome(fn, *args, **kwargs):
    """fn's result as given by `describe`, or the exception it raised."""
    try:
        return {"returns": describe(fn(*args, **kwargs))}
    except Exception as e:
        return {"raises": type(e).__name__, "message": re.sub(r" at 0x[0-9a-f]+", "", str(e))}


def describe(value):
    """A JSON-able description: tensors by kind, dtype and shape, collections recursively."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, (np.integer, np.floating)):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, tf.SparseTensor):
        return {"sparse": str(value.dtype.name), "shape": value.get_shape().as_list()}
    if isinstance(value, tf.Operation):
        return {"op": value.type}
    if isinstance(value, tf.Variable):
        return {"variable": value.name}
    if isinstance(value, tf.Tensor):
        shape = value.get_shape()
        return {"tensor": value.dtype.name,
                "shape": shape.as_list() if shape.rank is not None else None}
    if isinstance(value, dict):
        return {str(k): describe(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [describe(v) for v in value]
    return type(value).__name__


def _graph_case(fn):
    def run(m):
        with tf.Graph().as_default():
            return fn(m)
    run.__name__ = fn.__name__
    return run


# -- model_fn ---------------------------------------------------------------------------------
@_graph_case
def case_model_fn_tensor_checks(m):
    mf = m("model_fn")
    t = tf.constant([1.0, 2.0], name="t")
    op = tf.no_op(name="n")
    var = v1.get_variable("v", [], initializer=v1.zeros_initializer())
    return {"tensor": [_outcome(mf._check_is_tensor, x, "loss") for x in (t, var, 1, op)],
            "tensor_or_op": [_outcome(mf._check_is_tensor_or_operation, x, "train_op")
                             for x in (t, op, var, "x")]}


@_graph_case
def case_model_fn_train_op(m):
    mf, keys = m("model_fn"), m("mode_keys").ModeKeys
    var = v1.get_variable("w", [], initializer=v1.zeros_initializer())
    with tf.Graph().as_default():
        other = tf.constant(1.0, name="other")
    out = {"missing_train": _outcome(mf._validate_estimator_spec_train_op, None, keys.TRAIN),
           "missing_eval": _outcome(mf._validate_estimator_spec_train_op, None, keys.EVAL),
           "op": _outcome(mf._validate_estimator_spec_train_op, tf.no_op(name="x"), keys.TRAIN),
           "variable": _outcome(mf._validate_estimator_spec_train_op, var, keys.TRAIN),
           "number": _outcome(mf._validate_estimator_spec_train_op, 3, keys.TRAIN),
           "other_graph": _outcome(mf._validate_estimator_spec_train_op, other, keys.TRAIN)}
    out["variable_op_name"] = mf._validate_estimator_spec_train_op(var, keys.TRAIN).name
    return out


@_graph_case
def case_model_fn_loss(m):
    mf, keys = m("model_fn"), m("mode_keys").ModeKeys
    with tf.Graph().as_default():
        other = tf.constant(1.0, name="other")
    return {k: _outcome(mf._validate_estimator_spec_loss, loss, mode) for k, (loss, mode) in {
        "missing_train": (None, keys.TRAIN), "missing_eval": (None, keys.EVAL),
        "missing_predict": (None, keys.PREDICT),
        "scalar": (tf.constant(1.0, name="l0"), keys.TRAIN),
        "one": (tf.constant([1.0], name="l1"), keys.EVAL),
        "unknown": (v1.placeholder(tf.float32, [None], name="lp"), keys.EVAL),
        "two": (tf.constant([1.0, 2.0], name="l2"), keys.TRAIN),
        "number": (1.0, keys.TRAIN), "other_graph": (other, keys.TRAIN)}.items()}


@_graph_case
def case_model_fn_predictions(m):
    mf, keys = m("model_fn"), m("mode_keys").ModeKeys
    p = tf.constant([[1.0]], name="p")
    with tf.Graph().as_default():
        other = tf.constant(1.0, name="other")
    return {k: _outcome(mf._validate_estimator_spec_predictions, value, mode)
            for k, (value, mode) in {
                "missing_predict": (None, keys.PREDICT), "missing_eval": (None, keys.EVAL),
                "tensor": (p, keys.PREDICT), "dict": ({"a": p, "b": p}, keys.PREDICT),
                "dict_bad": ({"a": p, "b": 2}, keys.PREDICT), "bad": ([p], keys.PREDICT),
                "other_graph": (other, keys.PREDICT),
                "dict_other_graph": ({"o": other}, keys.EVAL)}.items()}


@_graph_case
def case_model_fn_export_outputs(m):
    mf, keys = m("model_fn"), m("mode_keys").ModeKeys
    out_lib = m("export.export_output")
    p = tf.constant([[1.0]], name="p")

    def kinds(outputs):
        return {k: type(v).__name__ for k, v in outputs.items()}
    predict = out_lib.PredictOutput({"p": p})
    regress = out_lib.RegressionOutput(tf.constant([1.0], name="r"))
    cases = {"default": (None, {"p": p}, keys.PREDICT),
             "one": ({"a": predict}, p, keys.PREDICT),
             "two": ({"a": predict, "b": regress}, p, keys.PREDICT),
             "serving": ({"serving_default": regress, "a": predict}, p, keys.PREDICT),
             "not_dict": ([predict], p, keys.PREDICT),
             "bad_value": ({"a": 1}, p, keys.PREDICT)}
    out = {}
    for name, args in cases.items():
        try:
            out[name] = kinds(mf._validate_estimator_spec_export_outputs(*args))
        except Exception as e:
            out[name] = {"raises": type(e).__name__}
    out["train"] = _outcome(mf._validate_estimator_spec_export_outputs, 5, p, keys.TRAIN)
    return out


class _Hook(v1.train.SessionRunHook):
    pass


@_graph_case
def case_model_fn_hooks_and_scaffold(m):
    mf = m("model_fn")
    return {"none": _outcome(mf._validate_estimator_spec_hooks, None),
            "two": _outcome(mf._validate_estimator_spec_hooks, [_Hook(), _Hook()]),
            "bad": _outcome(mf._validate_estimator_spec_hooks, [_Hook(), 1]),
            "scaffold_none": _outcome(mf._validate_scaffold, None),
            "scaffold": _outcome(mf._validate_scaffold, v1.train.Scaffold()),
            "scaffold_bad": _outcome(mf._validate_scaffold, 3)}


@_graph_case
def case_model_fn_eval_metric_ops(m):
    mf = m("model_fn")
    value = tf.constant(1.0, name="value")
    update = tf.no_op(name="update")
    with tf.Graph().as_default():
        other = tf.constant(1.0, name="other")
    given = {"a": (value, update)}
    return {"none": _outcome(mf._validate_eval_metric_ops, None),
            "same_dict": mf._validate_eval_metric_ops(given) is given,
            "tuple": _outcome(mf._validate_eval_metric_ops, {"a": (value, update)}),
            "not_dict": _outcome(mf._validate_eval_metric_ops, [(value, update)]),
            "not_tuple": _outcome(mf._validate_eval_metric_ops, {"a": [value, update]}),
            "triple": _outcome(mf._validate_eval_metric_ops, {"a": (value, update, value)}),
            "other_graph": _outcome(mf._validate_eval_metric_ops, {"a": (other, update)})}


@_graph_case
def case_model_fn_update_variable_collection(m):
    mf = m("model_fn")
    var = v1.get_variable("c", [], initializer=v1.zeros_initializer(),
                          collections=[v1.GraphKeys.GLOBAL_VARIABLES])
    other = v1.get_variable("d", [], initializer=v1.zeros_initializer(),
                            collections=[v1.GraphKeys.GLOBAL_VARIABLES])
    mf._update_variable_collection(v1.GraphKeys.LOCAL_VARIABLES, {var})
    mf._update_variable_collection(v1.GraphKeys.LOCAL_VARIABLES, {var, other})
    return [v.name for v in v1.get_collection(v1.GraphKeys.LOCAL_VARIABLES)]


@_graph_case
def case_model_fn_tpu_spec(m):
    mf, keys = m("model_fn"), m("mode_keys").ModeKeys
    loss = tf.constant(1.0, name="loss")
    p = tf.constant([[1.0]], name="p")

    def fields(spec):
        return {f: describe(getattr(spec, f)) for f in spec._fields}
    train = mf._TPUEstimatorSpec(keys.TRAIN, loss=tf.constant([1.0]), train_op=tf.no_op(),
                                 training_hooks=[_Hook()], host_call=(len, []))
    predict = mf._TPUEstimatorSpec(keys.PREDICT, predictions={"p": p})
    evaluation = mf._TPUEstimatorSpec(
        keys.EVAL, loss=loss, eval_metrics=(lambda x: {"m": (x, tf.no_op())}, {"x": loss}))
    return {"train": fields(train), "predict": fields(predict), "eval": fields(evaluation),
            "as_spec": {k: fields(s.as_estimator_spec()) for k, s in (
                ("train", train), ("predict", predict), ("eval", evaluation))},
            "errors": [_outcome(mf._TPUEstimatorSpec, *a) for a in (
                (keys.TRAIN,), (keys.PREDICT,), (keys.EVAL,), (keys.EVAL, None, 3.0),
                (keys.TRAIN, None, loss, tf.no_op(), None, None, None, None, [1]))]}


# -- run_config -------------------------------------------------------------------------------
_CLUSTER = {"chief": ["c:0"], "worker": ["w:0", "w:1"], "ps": ["p:0"], "evaluator": ["e:0"]}


def case_run_config_cluster(m):
    rc = m("run_config")
    spec = tf.train.ClusterSpec(_CLUSTER)
    one = tf.train.ClusterSpec({"chief": ["c:0"]})
    empty = tf.train.ClusterSpec({})
    return {
        "master_config": _outcome(rc._get_session_master, spec, "worker", 1,
                                  {"session_master": "m:1"}),
        "master_one": _outcome(rc._get_session_master, one, "chief", 0, {}),
        "master_worker": _outcome(rc._get_session_master, spec, "worker", 1, {}),
        "master_empty": _outcome(rc._get_session_master, empty, "worker", 0, {}),
        "eval_master": [_outcome(rc._get_eval_session_master, t, c) for t, c in (
            ("evaluator", {"eval_session_master": "e:9"}), ("evaluator", {}),
            ("worker", {"eval_session_master": "e:9"}))],
        "count_ps": [_outcome(rc._count_ps, s) for s in (spec, one, empty)],
        "count_worker": [_outcome(rc._count_worker, s, "chief") for s in (spec, one, empty)],
        "service": [_outcome(rc._validate_service, s) for s in (None, {"a": 1}, "x")],
        "global_id": [_outcome(rc._get_global_id_in_cluster, spec, t, i, "chief")
                      for t, i in (("chief", 0), ("evaluator", 0), ("worker", 1), ("ps", 0),
                                   ("master", 0))],
    }


def case_run_config_task_validation(m):
    rc = m("run_config")
    spec = tf.train.ClusterSpec(_CLUSTER)
    two_chiefs = tf.train.ClusterSpec({"chief": ["a:0", "b:0"]})
    envs = [{"type": "worker", "index": 1}, {"type": "worker", "index": "0"},
            {"type": "evaluator", "index": 3}, {"index": 0}, {"type": "worker"},
            {"type": "worker", "index": -1}, {"type": "master", "index": 0},
            {"type": "worker", "index": 2}]
    out = [_outcome(rc._validate_task_type_and_task_id, spec, env, "chief") for env in envs]
    out.append(_outcome(rc._validate_task_type_and_task_id, spec, envs[0], "master"))
    out.append(_outcome(rc._validate_task_type_and_task_id, two_chiefs, envs[0], "chief"))
    return out


_PROPERTIES = ("model_dir", "save_summary_steps", "save_checkpoints_steps",
               "save_checkpoints_secs", "session_config", "keep_checkpoint_max",
               "keep_checkpoint_every_n_hours", "log_step_count_steps", "tf_random_seed",
               "experimental_max_worker_delay_secs", "session_creation_timeout_secs",
               "device_fn", "protocol")


def case_run_config_properties(m):
    rc = m("run_config")

    def config(**values):
        return types.SimpleNamespace(**dict(dict.fromkeys(_PROPERTIES), **values))
    bad = dict(model_dir="", save_summary_steps=-1, save_checkpoints_steps=-1,
               save_checkpoints_secs=-1, session_config=3, keep_checkpoint_max=-1,
               keep_checkpoint_every_n_hours=0, log_step_count_steps=0, tf_random_seed=1.5,
               experimental_max_worker_delay_secs=1.5, session_creation_timeout_secs=0,
               device_fn=lambda x: x, protocol="http")
    good = dict(model_dir="d", save_summary_steps=0, save_checkpoints_steps=0,
                save_checkpoints_secs=0, session_config=v1.ConfigProto(),
                keep_checkpoint_max=0, keep_checkpoint_every_n_hours=1, log_step_count_steps=1,
                tf_random_seed=3, experimental_max_worker_delay_secs=2,
                session_creation_timeout_secs=1, device_fn=lambda op: None, protocol="grpc")
    out = {k: _outcome(rc._validate_properties, config(**{k: v})) for k, v in bad.items()}
    out["all_good"] = _outcome(rc._validate_properties, config(**good))
    out["all_none"] = _outcome(rc._validate_properties, config())
    out["real"] = _outcome(rc._validate_properties, rc.RunConfig())
    return out


def case_run_config_replaced_keys(m):
    rc = m("run_config")
    both = types.SimpleNamespace(save_checkpoints_steps=5, save_checkpoints_secs=6)
    out = {"both_set": _outcome(rc._validate_save_ckpt_with_replaced_keys, both,
                                ["save_checkpoints_steps", "save_checkpoints_secs"]),
           "one_set": _outcome(rc._validate_save_ckpt_with_replaced_keys,
                               types.SimpleNamespace(save_checkpoints_steps=None,
                                                     save_checkpoints_secs=6),
                               ["save_checkpoints_steps", "save_checkpoints_secs"])}
    config = rc.RunConfig(save_checkpoints_steps=5)
    rc._validate_save_ckpt_with_replaced_keys(config, ["save_checkpoints_steps"])
    out["steps"] = [config.save_checkpoints_steps, config.save_checkpoints_secs]
    config = rc.RunConfig(save_checkpoints_secs=7)
    rc._validate_save_ckpt_with_replaced_keys(config, ["save_checkpoints_secs"])
    out["secs"] = [config.save_checkpoints_steps, config.save_checkpoints_secs]
    return out


def case_run_config_model_dir(m):
    rc = m("run_config")
    return [_outcome(rc._get_model_dir, c, d) for c, d in (
        ({}, ""), ({"model_dir": ""}, None), ({"model_dir": "a"}, "b"), ({"model_dir": "a"}, None),
        ({"model_dir": "a"}, "a"), ({}, "c"), ({}, None))]


# -- estimator --------------------------------------------------------------------------------
class _Listener(v1.train.CheckpointSaverListener):
    pass


def case_estimator_small_helpers(m):
    est = m("estimator")
    empty = tempfile.mkdtemp()
    try:
        missing = _outcome(est._check_checkpoint_available, empty)
        if "message" in missing:
            missing["message"] = missing["message"].replace(empty, "<dir>")
    finally:
        shutil.rmtree(empty)
    return {"listeners": [_outcome(est._check_listeners_type, x)
                          for x in (None, [_Listener()], (_Listener(), 1))],
            "no_checkpoint": missing,
            "dict_to_str": est._dict_to_str({"b": 2, "a": 1.5, "c": b"x", "d": "s"}),
            "reduce_op": str(est._get_loss_reduce_op_for_reporting())}


def case_estimator_loss_metric(m):
    est = m("estimator")
    with tf.Graph().as_default():
        loss = v1.placeholder(tf.float32, [], name="loss")
        clash = _outcome(est._verify_and_create_loss_metric, {"loss": (loss, loss)}, loss)
        given = {"a": 1}
        out = est._verify_and_create_loss_metric(given, loss)
        value, update = out["loss"]
        with v1.Session() as session:
            session.run(v1.local_variables_initializer())
            for x in (1.0, 2.0, 6.0):
                session.run(update, {loss: x})
            mean = session.run(value)
        local = sorted(v.name for v in v1.local_variables())
        metric = sorted(v.name for v in v1.get_collection(v1.GraphKeys.METRIC_VARIABLES))
    return {"clash": clash, "same": out is given, "keys": sorted(out), "mean": float(mean),
            "local": local, "metric_variables": metric}


def case_estimator_scaffold_helpers(m):
    est = m("estimator")
    with tf.Graph().as_default():
        v1.get_variable("s", [], initializer=v1.zeros_initializer())
        given = tf.constant(["x"], name="given")
        mine = _outcome(est.create_per_replica_ready_for_local_init_op,
                        v1.train.Scaffold(ready_for_local_init_op=given))
        mine["message"] = mine.get("message", "")[:50]  # 2.15 tested a tensor's truth
        default = est.create_per_replica_ready_for_local_init_op(v1.train.Scaffold())
        again = est.create_per_replica_ready_for_local_init_op(v1.train.Scaffold())
        collected = v1.get_collection(v1.GraphKeys.READY_FOR_LOCAL_INIT_OP)
        strategy = tf.distribute.get_strategy()
        init = tf.no_op(name="init")
        scaffold = v1.train.Scaffold(init_op=init, local_init_op=tf.no_op(name="local"),
                                     init_fn=lambda scaffold, session: None)
        combined = est._combine_distributed_scaffold(scaffold, strategy)
        fields = {f: describe(getattr(combined, f)) for f in (
            "init_op", "ready_op", "ready_for_local_init_op", "local_init_op", "summary_op",
            "saver", "init_feed_dict")}
        with v1.Session() as session:
            session.run(v1.global_variables_initializer())
            ready = session.run(default)
    return {"given": mine, "default": describe(default), "same_again": again is default,
            "collected": len(collected), "ready_after_init": describe(ready),
            "combined": fields, "init_fn_kept": combined._user_init_fn is not None}


def case_estimator_members_not_overridden(m):
    est = m("estimator")

    class Fine(est.Estimator):
        def model_fn(self):
            return None

        def latest_checkpoint(self):
            return None

    class Overrides(est.Estimator):
        def train(self, input_fn):
            return None

    class TPUEstimator(est.Estimator):
        def train(self, input_fn):
            return None
    out = {}
    for cls in (Fine, Overrides, TPUEstimator):
        out[cls.__name__] = _outcome(est._assert_members_are_not_overridden, est.Estimator,
                                     object.__new__(cls))
        if "message" in out[cls.__name__]:
            out[cls.__name__]["message"] = re.sub(r"<class '[^']*'>", "<class>",
                                                  out[cls.__name__]["message"])
    return out


def case_estimator_checkpoint_path_summary(m):
    est = m("estimator")
    logdir = tempfile.mkdtemp()
    try:
        with tf.Graph().as_default():  # (2.15 wrote with a TF1 FileWriter)
            est._write_checkpoint_path_to_summary(logdir, "/tmp/model.ckpt-7", 7)
        found = []
        for path in sorted(tf.io.gfile.glob(os.path.join(logdir, "*"))):
            for event in v1.train.summary_iterator(path):
                for value in event.summary.value:
                    found.append([event.step, value.tag,
                                  tf.make_ndarray(value.tensor).item().decode()])
    finally:
        shutil.rmtree(logdir)
    return found


# -- training ---------------------------------------------------------------------------------
def _exporter_class(m):
    base = m("exporter").Exporter

    class Named(base):
        def __init__(self, name):
            self._name = name

        @property
        def name(self):
            return self._name

        def export(self, *args, **kwargs):
            return None
    return Named


def case_training_validators(m):
    tr = m("training")
    named = _exporter_class(m)
    one = named("a")
    return {"input_fn": [_outcome(tr._validate_input_fn, f) for f in (lambda: 1, 3)],
            "hooks": [_outcome(tr._validate_hooks, h) for h in (None, [_Hook()], [1])],
            "listeners": [_outcome(tr._validate_saving_listeners, x)
                          for x in (None, [_Listener()], [_Hook()])],
            "exporters": [_outcome(tr._validate_exporters, e) for e in (
                None, [], one, [one, named("b")], [one, named("a")], [named("")],
                [named(None)], [named(3)], [1], 5)]}


def case_training_eval_result(m):
    tr = m("training")
    status = tr._EvalStatus
    return [_outcome(lambda *a, **k: tuple(tr._EvalResult(*a, **k)), *args) for args in (
        (status.MISSING_CHECKPOINT,), (status.NO_NEW_CHECKPOINT, {"a": 1}),
        (status.NO_NEW_CHECKPOINT, None, "ckpt"), (status.EVALUATED,),
        (status.EVALUATED, [("global_step", 1)], "c"), (status.EVALUATED, {"loss": 1.0}, "c"),
        (status.EVALUATED, {"global_step": 3}), (status.EVALUATED, {"global_step": 3}, "c"))]


class _Calls:
    def __init__(self, before=True, after=True):
        self.calls, self._before, self._after = [], before, after

    def before_eval(self):
        self.calls.append("before")
        return self._before

    def after_eval(self, eval_result):
        self.calls.append(["after", eval_result.metrics["global_step"]])
        return self._after


def case_training_checkpoint_listener(m):
    tr = m("training")
    base = tr._ContinuousEvalListener()
    out = {"base": [base.before_eval(), base.after_eval(None)]}

    class Evaluator:
        def __init__(self):
            self.step = 0

        def evaluate_and_export(self):
            self.step += 1
            return tr._EvalResult(tr._EvalStatus.EVALUATED, {"global_step": self.step},
                                  "ckpt"), ["export"]
    for name, continuous in (("continue", _Calls()), ("stop_before", _Calls(before=False)),
                             ("stop_after", _Calls(after=False))):
        listener = tr._NewCheckpointListenerForEvaluate(Evaluator(), 0, continuous)
        listener.begin()
        returns = [listener.after_save(None, step) for step in (1, 2, 3)]
        listener.end(None, 3)
        listener.end(None, 4)
        out[name] = {"returns": returns, "calls": continuous.calls,
                     "result": describe(tuple(listener.eval_result or ())),
                     "exports": listener.export_results}
    hook = tr._StopAtSecsHook(0)
    hook.begin()
    context = v1.train.SessionRunContext(original_args=None, session=None)
    hook.after_run(context, None)
    later = tr._StopAtSecsHook(3600)
    later.begin()
    context_later = v1.train.SessionRunContext(original_args=None, session=None)
    later.after_run(context_later, None)
    out["stop_at_secs"] = [context.stop_requested, context_later.stop_requested]
    return out


def _tiny_model_fn(features, labels, mode):
    w = v1.get_variable("w", [1, 1], initializer=v1.constant_initializer(0.5))
    predictions = tf.matmul(features["x"], w)
    loss = v1.losses.mean_squared_error(labels, predictions)
    train_op = v1.train.GradientDescentOptimizer(0.1).minimize(
        loss, global_step=v1.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, predictions=predictions, loss=loss,
                                      train_op=train_op)


def _tiny_input_fn():
    x = np.array([[1.0], [2.0], [3.0], [4.0]], np.float32)
    return tf.data.Dataset.from_tensors(({"x": x}, 2.0 * x)).repeat()


def case_training_executor(m):
    tr = m("training")
    model_dir = tempfile.mkdtemp()
    try:
        config = tf.estimator.RunConfig(model_dir=model_dir, save_checkpoints_steps=2,
                                        tf_random_seed=1)
        estimator = tf.estimator.Estimator(_tiny_model_fn, config=config)
        train = tf.estimator.TrainSpec(_tiny_input_fn, max_steps=4)
        evaluation = tf.estimator.EvalSpec(_tiny_input_fn, steps=1, throttle_secs=0)
        errors = [_outcome(tr._TrainingExecutor, *a) for a in (
            (1, train, evaluation), (estimator, 2, evaluation), (estimator, train, 3),
            (estimator, train, evaluation, [1]), (estimator, train, evaluation, None, 4))]
        listener = _Calls()

        class Listener(tr._ContinuousEvalListener):
            before_eval, after_eval = listener.before_eval, listener.after_eval
        executor = tr._TrainingExecutor(estimator, train, evaluation, [_Hook()], Listener())
        metrics, exports = executor.run()
    finally:
        shutil.rmtree(model_dir)
    return {"errors": [{k: re.sub(r"<class '[^']*'>", "<class>", v) for k, v in e.items()}
                       for e in errors],
            "estimator": executor.estimator is estimator,
            "metrics": {k: round(float(v), 4) for k, v in metrics.items()},
            "exports": exports, "calls": listener.calls}


# -- tools.checkpoint_converter ---------------------------------------------------------------
_TF1_CHECKPOINT = {
    "global_step": np.int64(4), "beta1_power": np.float32(0.6561),
    "beta2_power": np.float32(0.996),
    "dnn/hiddenlayer_0/kernel": np.array([[1.0], [2.0]], np.float32),
    "dnn/hiddenlayer_0/kernel/t_0/Adam": np.array([[0.1], [0.2]], np.float32),
    "dnn/hiddenlayer_0/kernel/t_0/Adam_1": np.array([[0.3], [0.4]], np.float32),
    "linear/linear_model/x/weights/part_0": np.array([[5.0]], np.float32),
    "linear/linear_model/x/weights/part_0/Ftrl": np.array([[6.0]], np.float32),
    "linear/linear_model/x/weights/part_0/Ftrl_1": np.array([[7.0]], np.float32),
    "dnn/logits/bias/Adagrad": np.array([8.0], np.float32),
    "dnn/logits/bias/RMSProp_1": np.array([9.0], np.float32)}


def case_checkpoint_converter_steps(m):
    cc = m("tools.checkpoint_converter")
    folder = tempfile.mkdtemp()
    try:
        with tf.Graph().as_default():
            variables = {k: v1.Variable(v, name=k) for k, v in _TF1_CHECKPOINT.items()}
            tf.constant(0.5, name="Adam/learning_rate")
            v1.train.write_graph(v1.get_default_graph(), folder, "graph.pbtxt")
            with v1.Session() as session:
                session.run(v1.global_variables_initializer())
                path = v1.train.Saver(variables).save(session, os.path.join(folder, "ckpt"))
        reader = tf.train.load_checkpoint(path)
        names = sorted(reader.get_variable_to_shape_map())
        graph = os.path.join(folder, "graph.pbtxt")
        out = {}
        for label, steps in (
                ("adam_dnn", [("Adam", "dnn")]), ("ftrl_linear", [("Ftrl", "linear")]),
                ("adagrad_combined", [("Adagrad", "combined")]),
                ("rmsprop_combined", [("RMSProp", "combined")]),
                ("sgd_dnn", [("SGD", "dnn")]), ("hyper", None)):
            with tf.Graph().as_default():
                var_map, names_map = {}, {}
                if steps is None:
                    for opt in ("Adam", "Ftrl", "RMSProp", "Adagrad", "SGD"):
                        cc._convert_hyper_params_in_graph(graph, opt, var_map, names_map)
                else:
                    for opt, kind in steps:
                        cc._convert_variables_in_ckpt(opt, reader, names, var_map, names_map,
                                                      kind)
                cc._add_opt_variable("Adam", "dnn/hiddenlayer_0/kernel/t_0/Adam", 9, "m",
                                     reader, var_map, names_map)
                cc._add_new_variable(1.5, "extra", "old", var_map, names_map)
                with v1.Session() as session:
                    session.run(v1.global_variables_initializer())
                    out[label] = {k: [names_map[k], var.name, var.dtype.base_dtype.name,
                                      np.round(session.run(var), 5).tolist()]
                                  for k, var in sorted(var_map.items())}
        bad = os.path.join(folder, "bad.pbtxt")
        with open(bad, "w") as f:
            f.write("node {")
        with tf.Graph().as_default():
            out["bad_graph"] = _outcome(cc._convert_hyper_params_in_graph, bad, "Adam", {}, {})
        out["bad_graph"]["message"] = out["bad_graph"].get("message", "")[:30]
    finally:
        shutil.rmtree(folder)
    return out


def case_training_executor_dispatch(m):
    tr = m("training")
    out = {}
    saved = os.environ.get("TF_CONFIG")
    model_dir = tempfile.mkdtemp()
    try:
        for task in ("local", "foo"):
            os.environ["TF_CONFIG"] = json.dumps({
                "cluster": {"chief": ["h:0"], task: ["h:1"]},
                "task": {"type": task, "index": 0}})
            estimator = tf.estimator.Estimator(
                _tiny_model_fn, config=tf.estimator.RunConfig(model_dir=model_dir))
            executor = tr._TrainingExecutor(
                estimator, tf.estimator.TrainSpec(_tiny_input_fn, max_steps=1),
                tf.estimator.EvalSpec(_tiny_input_fn, steps=1))
            out[task] = _outcome(executor.run)
    finally:
        if saved is None:
            os.environ.pop("TF_CONFIG", None)
        else:
            os.environ["TF_CONFIG"] = saved
        shutil.rmtree(model_dir)
    return out


# -- extenders, exporter, export.export ----------------------------------------------------------
def case_fn_arg_checks(m):
    ext, exp = m("extenders"), m("exporter")

    def metric_fn(labels, predictions):
        return {"labels": labels, "predictions": predictions}

    def bad_metric_fn(labels, mode):
        return None

    def compare(best_eval_result, current_eval_result):
        return True

    def compare_missing(best_eval_result):
        return True

    def compare_other(current_eval_result):
        return True

    def compare_extra(best_eval_result, current_eval_result, x):
        return True
    return {"metric_ok": _outcome(ext._verify_metric_fn_args, metric_fn),
            "metric_bad": _outcome(ext._verify_metric_fn_args, bad_metric_fn),
            "call": _outcome(ext._call_metric_fn, metric_fn, "f", "l", "p", "c"),
            "call_all": _outcome(ext._call_metric_fn, lambda features, config: [features, config],
                                 "f", "l", "p", "c"),
            "compare": [_outcome(exp._verify_compare_fn_args, f)
                        for f in (compare, compare_missing, compare_other, compare_extra)]}


@_graph_case
def case_export_receiver_checks(m):
    ex = m("export.export")
    t = tf.constant([[1.0, 2.0]], name="feat")
    sparse = tf.SparseTensor([[0, 0]], [1.0], [2, 2])
    ragged = tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 1, 3])
    holder = types.SimpleNamespace(tensor=t)
    checks = [_outcome(ex._check_tensor, x, n) for x, n in (
        (t, "a"), (sparse, "a"), (ragged, "a"), (3, "a"), (3, None), ("s", ""))]
    checks.append(_outcome(ex._check_tensor, 3, "lab", error_label="label"))
    checks.append(_outcome(ex._check_tensor, holder, "h"))
    keys = [_outcome(ex._check_tensor_key, *a) for a in (
        ("a",), (1,), (1, "label", True), (1.5, "feature", True), (b"a",))]
    ph = ex._placeholder_from_tensor(t, 8)
    out = ex._placeholders_from_receiver_tensors_dict(
        {"x": t, "y": tf.constant([1, 2, 3], tf.int64, name="ints")})
    return {"check_tensor": checks, "check_key": keys,
            "placeholder": [ph.op.name, ph.op.type, ph.dtype.name, ph.shape.as_list()],
            "placeholders": {k: [v.op.name, v.dtype.name, v.shape.as_list()]
                             for k, v in sorted(out.items())}}


def case_export_function_helpers(m):
    fn = m("export.function")

    def full(features, labels, mode, params, config):
        return [features, labels, mode, params, config]

    def features_only(features, mode):
        return [features, mode]

    def no_features(labels):
        return labels
    out = {}
    wrapped, takes = fn._wrap_and_verify_model_fn(full, "train", "cfg", {"p": 1})
    out["full"] = [takes, wrapped("f", "l"), wrapped("f")]
    wrapped, takes = fn._wrap_and_verify_model_fn(full, "eval", None, {"p": 1},
                                                  input_signature=[1])
    out["one_signature"] = [takes, wrapped("f")]
    wrapped, takes = fn._wrap_and_verify_model_fn(features_only, "infer")
    out["features_only"] = [takes, wrapped("f")]
    bad = _outcome(fn._wrap_and_verify_model_fn, no_features)
    out["no_features"] = [bad["raises"], "must include features argument" in bad["message"]]
    bad = _outcome(fn._wrap_and_verify_model_fn, features_only, params={"a": 1})
    out["params"] = [bad["raises"], "does not include params argument" in bad["message"]]
    out["filter"] = [fn._filter_estimator_spec_outputs(types.SimpleNamespace(
        mode=mode, predictions="p", train_op="t")) for mode in ("train", "eval", "infer")]
    out["names"] = [fn._input_receiver_fn_name(None), fn._input_receiver_fn_name("alt")]
    with tf.Graph().as_default():
        t = tf.constant([1.0])
        out["canonical"] = [describe(fn._canonicalize_receiver_tensors(t)),
                            fn._canonicalize_receiver_tensors({"a": t})["a"] is t,
                            _outcome(fn._canonicalize_receiver_tensors,
                                     {"s": tf.SparseTensor([[0]], [1.0], [2])})]
    return out


def _wrapped_model_fn(features, labels, mode):
    w = v1.get_variable("w", [1, 1], initializer=v1.constant_initializer(0.5))
    predictions = tf.matmul(features, w)
    loss = tf.reduce_mean(tf.square(predictions - labels))
    train_op = v1.train.GradientDescentOptimizer(0.1).minimize(
        loss, global_step=v1.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, predictions=predictions, loss=loss,
                                      train_op=train_op)


def case_export_function_wrapped_graph(m):
    fn = m("export.function")
    graph = fn._EstimatorWrappedGraph()
    out = {"step": int(graph.global_step), "spec_first": _outcome(lambda: graph.estimator_spec),
           "model_fn_first": graph.model_fn is None}
    model_fn, _ = fn._wrap_and_verify_model_fn(_wrapped_model_fn, "train")
    spec = [tf.TensorSpec([None, 1], tf.float32), tf.TensorSpec([None, 1], tf.float32)]
    concrete = graph.wrap_model_fn(model_fn, "train", signature=spec)
    out["again"] = _outcome(graph.wrap_model_fn, model_fn, "train", signature=spec)
    x, y = tf.constant([[1.0], [2.0]]), tf.constant([[2.0], [4.0]])
    first = concrete(x, y)
    second = concrete(x, y)
    out["outputs"] = [{k: describe(v.numpy() if v is not None else None)
                       for k, v in sorted(r.items())} for r in (first, second)]
    out["spec"] = [graph.estimator_spec.mode, type(graph.estimator_spec).__name__,
                   graph.model_fn is concrete]
    out["variables"] = sorted([k, v.name, np.round(v.numpy(), 4).tolist()]
                              for k, v in graph.variables.items())
    out["step_after"] = int(graph.global_step)
    out["functions"] = sorted(graph.functions)

    def receiver_fn():
        x = v1.placeholder(tf.float32, [None, 1], name="x")
        return tf.estimator.export.ServingInputReceiver(
            {"doubled": x * 2.0}, {"x": x}, receiver_tensors_alternatives={"alt": x})
    made = graph.wrap_input_receiver_fn(receiver_fn)
    out["receivers"] = [[name, describe(function(tf.constant([[3.0]])))]
                        for function, name in made]
    out["receivers_by_name"] = describe(made[0][0](x=tf.constant([[1.0]]))["doubled"].numpy())
    return out


# -- head -------------------------------------------------------------------------------------
def case_head_multi_head(m):
    mh, out_lib = m("head.multi_head"), m("export.export_output")
    with tf.Graph().as_default():
        p = out_lib.PredictOutput({"p": tf.constant([1.0])})
        q = out_lib.PredictOutput({"q": tf.constant([2.0])})
        op = mh._no_op_train_fn(tf.constant(1.0))
        return {"no_op": [op.type, op.name],
                "one": mh._default_export_output({"a": p}, "h") is p,
                "serving": mh._default_export_output({"a": p, "serving_default": q}, "h") is q,
                "none": _outcome(mh._default_export_output, {"a": p, "b": q}, "head1")}


def case_head_flatten_tensor(m):
    sh = m("head.sequential_head")
    mask = np.array([[True, True, False], [True, False, False]])
    dense = np.arange(6, dtype=np.float32).reshape(2, 3)
    dense3 = np.arange(12, dtype=np.float32).reshape(2, 3, 2)
    sparse = tf.compat.v1.SparseTensorValue([[1, 0], [0, 0], [0, 1]], [30.0, 10.0, 20.0], [2, 3])
    out = {}
    with tf.Graph().as_default():
        results = {
            "dense": sh._flatten_tensor(tf.constant(dense), tf.constant(mask), 3),
            "dense3": sh._flatten_tensor(tf.constant(dense3), tf.constant(mask), 3),
            "sparse": sh._flatten_tensor(tf.SparseTensor(*sparse), tf.constant(mask), 3)}
        bad_length = sh._flatten_tensor(tf.constant(dense), tf.constant(mask), 4)
        out["shapes"] = {k: v.shape.as_list() for k, v in results.items()}
        with v1.Session() as session:
            out["values"] = {k: session.run(v).tolist() for k, v in results.items()}
            out["bad_length"] = _outcome(session.run, bad_length)
            if "message" in out["bad_length"]:
                out["bad_length"]["message"] = (
                    "Tensor shape is incompatible with provided mask."
                    in out["bad_length"]["message"])
        out["one_dim"] = _outcome(sh._flatten_tensor, tf.constant([1.0]), tf.constant([True]), 1)
        out["not_tensor"] = _outcome(sh._flatten_tensor, np.zeros([2, 3]), mask, 3)
    out["eager"] = _outcome(lambda: sh._flatten_tensor(tf.constant(dense), tf.constant(mask),
                                                       3).numpy())
    out["eager_bad"] = _outcome(sh._flatten_tensor, tf.constant(dense), tf.constant(mask), 4)
    return out


def case_head_sequential_base(m):
    sh, base, heads = m("head.sequential_head"), m("head.base_head"), m("head.regression_head")
    wrapper = sh.SequentialHeadWrapper(heads.RegressionHead())
    return {"is_head": issubclass(sh._SequentialHead, base.Head),
            "wrapper": isinstance(wrapper, sh._SequentialHead),
            "abstract": "input_sequence_mask_key" in sh._SequentialHead.__abstractmethods__,
            "key": wrapper.input_sequence_mask_key}


def case_head_test_helpers(m):
    hu = m("head.head_utils")
    case = tf.test.TestCase()
    summary = v1.Summary(value=[v1.Summary.Value(tag="a", simple_value=1.0),
                                v1.Summary.Value(tag="b", simple_value=2.5)])
    spec = types.SimpleNamespace(training_chief_hooks=(), training_hooks=())
    hooked = types.SimpleNamespace(training_chief_hooks=(), training_hooks=(_Hook(),))
    out = {"summaries_ok": _outcome(hu._assert_simple_summaries, case, {"a": 1.0, "b": 2.5},
                                    summary.SerializeToString()),
           "summaries_bad": _outcome(hu._assert_simple_summaries, case, {"a": 1.0, "b": 2.0},
                                     summary.SerializeToString())["raises"],
           "no_hooks": _outcome(hu._assert_no_hooks, case, spec),
           "hooks": _outcome(hu._assert_no_hooks, case, hooked).get("raises")}
    with tf.Graph().as_default():
        var = v1.get_variable("iv", [], initializer=v1.constant_initializer(3.0))
        scaffold = v1.train.Scaffold()
        with v1.Session() as session, session.as_default():
            out["initialize"] = _outcome(hu._initialize_variables, case, scaffold)
            out["value"] = float(session.run(var))
        bad = v1.train.Scaffold(init_fn=lambda scaffold, session: None)
        with v1.Session() as session, session.as_default():
            out["initialize_init_fn"] = _outcome(hu._initialize_variables, case, bad)["raises"]
    return out


# -- early_stopping ---------------------------------------------------------------------------
def case_early_stopping_privates(m):
    es = m("early_stopping")
    logdir = tempfile.mkdtemp()
    try:
        with tf.Graph().as_default():
            writer = v1.summary.FileWriter(logdir)
            for step, loss in ((1, 3.0), (5, 2.0)):
                writer.add_summary(v1.Summary(value=[
                    v1.Summary.Value(tag="loss", simple_value=loss)]), step)
            writer.close()
        events = [[e.step, [[v.tag, v.simple_value] for v in e.summary.value]]
                  for e in es._summaries(logdir) if e.HasField("summary")]
        missing = list(es._summaries(os.path.join(logdir, "missing")))
    finally:
        shutil.rmtree(logdir)
    with tf.Graph().as_default():
        hook = es._CheckForStoppingHook()
        hook.begin()
        fetch = hook.before_run(None).fetches
        stop = v1.train.SessionRunContext(original_args=None, session=None)
        hook.after_run(stop, v1.train.SessionRunValues(True, None, None))
        go = v1.train.SessionRunContext(original_args=None, session=None)
        hook.after_run(go, v1.train.SessionRunValues(False, None, None))
        stop_var = describe(fetch)
        collections = [len(v1.global_variables()), len(v1.trainable_variables())]
    return {"events": events, "missing": missing, "fetch": stop_var,
            "collections": collections, "stops": [stop.stop_requested, go.stop_requested]}


# -- keras_lib --------------------------------------------------------------------------------
def case_keras_lib_helpers(m):
    kl = m("keras_lib")
    error = kl.FormattedKeyError("a\n\tb")
    out = {"formatted": [str(error), isinstance(error, KeyError), error.message]}
    with tf.Graph().as_default():
        out["cast"] = [describe(kl._cast_tensor_to_floatx(tf.constant([1], tf.int32))),
                       describe(kl._cast_tensor_to_floatx(tf.constant([1.0])))]
        t = tf.constant([1.0])
        out["convert"] = [kl._convert_tensor(t) is t,
                          describe(kl._convert_tensor(np.array([[1, 2]], np.int64))),
                          describe(kl._convert_tensor(v1.SparseTensorValue([[0]], [1.0], [2])))]
    out["initialized"] = [kl._any_weight_initialized(None),
                          kl._any_weight_initialized(tf.keras.Sequential(
                              [tf.keras.Input((2,)), tf.keras.layers.Dense(1)]))]
    out["sample_weights"] = [describe(kl._extract_sample_weight_tensors(f)) for f in (
        {"features": 1, "sample_weights": 2}, {"features": 1}, {"features": 1, "x": 2}, 3)]
    out["standardize"] = [_outcome(kl.standardize_sample_weights, *a) for a in (
        (None, ["a", "b"]), ([], ["a"]), ([1], ["a"]), ({"a": 1}, ["a"]), ({"b": 1}, ["a"]),
        (5, ["a"]), ([1, 2], ["a", "b"]), ([1], ["a", "b"]), ({"a": 1}, ["a", "b"]),
        ({"c": 1}, ["a", "b"]), (5, ["a", "b"]))]
    try:
        import google.cloud.storage  # noqa: F401
    except ImportError:
        out["google_storage"] = _outcome(kl._get_file_from_google_storage, "gs://b/m.h5", "/x")
    return out


def case_keras_lib_assert_valid_model(m):
    kl = m("keras_lib")
    keras = tf.keras

    class Configless(keras.Model):
        def __init__(self, units):
            super().__init__()
            self.dense = keras.layers.Dense(units)

        def call(self, x):
            return self.dense(x)

        def get_config(self):
            raise NotImplementedError

    class Configured(Configless):
        def get_config(self):
            return {"units": 2}

        @classmethod
        def from_config(cls, config):
            return cls(**config)
    inputs = keras.Input((2,))
    functional = keras.Model(inputs, keras.layers.Dense(1)(inputs))
    return [_outcome(kl._assert_valid_model, model) for model in (
        keras.Sequential([keras.layers.Dense(1)]), functional, Configless(2), Configured(2))]


def case_keras_lib_io_conversion(m):
    kl = m("keras_lib")
    keras = tf.keras
    a, b = keras.Input((2,), name="a"), keras.Input((3,), name="b")
    joined = keras.layers.Concatenate()([a, b])
    listed = keras.Model([b, a], [keras.layers.Dense(1, name="out")(joined),
                                  keras.layers.Dense(2, name="aux")(joined)])
    keyed = keras.Model({"a": a, "b": b}, keras.layers.Dense(1, name="o")(joined))
    sequential = keras.Sequential([keras.Input((2,), name="s_in"),
                                   keras.layers.Dense(1, name="s_out")])

    class Sub(keras.Model):
        def call(self, x):
            return x
    xa, xb = np.ones([4, 2], np.float32), np.ones([4, 3], np.int64)
    y1, y2 = np.ones([4, 1], np.float32), np.ones([4, 2], np.float32)
    calls = {
        "dicts": (listed, {"a": xa, "b": xb, "c": xa}, {"out": y1, "aux": y2}),
        "weights": (listed, {"features": {"a": xa, "b": xb}, "sample_weights": [y1]},
                    [y1, y2]),
        "missing_input": (listed, {"a": xa}, None),
        "missing_output": (listed, {"a": xa, "b": xb}, {"out": y1}),
        "keyed": (keyed, {"b": xb, "a": xa, "z": xa}, y1),
        "sequential": (sequential, {"s_in": xa}, {"s_out": y1}),
        "tensor": (sequential, xa, y1),
        "subclassed": (Sub(), {"q": xa, "p": xb}, {"l2": y1, "l1": y2}),
        "subclassed_lists": (Sub(), [xa, xb], None)}
    with tf.Graph().as_default():
        out = {k: _outcome(kl._convert_estimator_io_to_keras, *v) for k, v in calls.items()}
    for result in out.values():  # sets print in hash order: sort their items
        if "message" in result:
            result["message"] = re.sub(r"\{([^{}]*)\}", lambda s: "{%s}" % ", ".join(
                sorted(s.group(1).split(", "))), result["message"])
    return out


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items())
         if name.startswith("case_")}


def run_all(importer, names=None):
    """{case: result} for the named cases (all by default)."""
    out = {}
    for name, fn in CASES.items():
        if names is None or name in names:
            out[name] = json.loads(json.dumps(_outcome(fn, importer)))
    return out
