"""Names of tensorflow_estimator 2.15's module tree that were declined before (issue 45):
the public ones that need no TPU (export.export's receiver helpers, FakeSummaryWriter,
tools.checkpoint_converter, tpu_estimator's ExamplesPerSecondHook / PeriodicLogger /
InstallSignalHandlerHook / BatchConfig / ExportSavedModelApiVersion, tpu.util, util's dataset
initializer hooks) and the private ones public code imports (found by code search: the canned
model_fns and helpers, estimator._verify_model_fn_args & co., training's, early_stopping's),
checked against what TF 2.15.1 + tensorflow-estimator 2.15 gave on the same calls (recorded by
running them there: in each test's docstring, or tests/fixtures/checkpoint_converter/ and
tests/fixtures/tf215_private_model_fns.json)."""
import logging
import unittest

import numpy as np
import pytest
import tensorflow as tf

import estimator_compat

v1 = tf.compat.v1


@pytest.fixture(scope="module", autouse=True)
def installed():
    estimator_compat.install()


def _export():
    from tensorflow_estimator.python.estimator.export import export
    return export


def test_wrap_and_check_input_tensors():
    """2.15: a lone tensor goes under 'feature' / 'label' / 'input' (receiver_tensor and
    receiver_tensors_alternative), another field name is KeyError; None -> "featuress must be
    defined."; int keys -> "features keys must be strings: 1." unless allow_int_keys (then a
    float key: "... strings or ints: 1.5."); a non-tensor value -> "features a must be a
    Tensor, SparseTensor, or RaggedTensor."; a dict comes back itself."""
    wrap = _export().wrap_and_check_input_tensors
    with tf.Graph().as_default():
        p = v1.placeholder(tf.float32, [None, 2], name="p")
        assert wrap(p, "feature") == {"feature": p}
        assert wrap(p, "label") == {"label": p}
        assert wrap(p, "receiver_tensor") == {"input": p}
        assert wrap(p, "receiver_tensors_alternative") == {"input": p}
        with pytest.raises(KeyError):
            wrap(p, "features")
        with pytest.raises(ValueError, match="featuress must be defined"):
            wrap(None, "features")
        with pytest.raises(ValueError, match="features keys must be strings: 1."):
            wrap({1: p}, "features")
        assert wrap({1: p}, "features", allow_int_keys=True) == {1: p}
        with pytest.raises(ValueError, match="strings or ints: 1.5"):
            wrap({1.5: p}, "features", allow_int_keys=True)
        with pytest.raises(ValueError, match="features a must be a Tensor, SparseTensor, or "
                                             "RaggedTensor"):
            wrap({"a": 3}, "features")
        d = {"a": p}
        assert wrap(d, "features") is d


def test_unsupervised_input_receiver():
    """2.15: UnsupervisedInputReceiver(p, {'x': p}) -> features {'feature': p},
    receiver_tensors {'x': p}, receiver_tensors_alternatives None, a ServingInputReceiver;
    features None -> "features must be defined."."""
    export = _export()
    with tf.Graph().as_default():
        p = v1.placeholder(tf.float32, [None, 2], name="p")
        r = export.UnsupervisedInputReceiver(p, {"x": p})
        assert isinstance(r, export.ServingInputReceiver)
        assert r._fields == ("features", "receiver_tensors", "receiver_tensors_alternatives")
        assert r.features == {"feature": p} and r.receiver_tensors == {"x": p}
        assert r.receiver_tensors_alternatives is None
        assert repr(r).startswith("UnsupervisedInputReceiver(")
        assert export.UnsupervisedInputReceiver({"a": p}, p).receiver_tensors == {"input": p}
        with pytest.raises(ValueError, match="features must be defined"):
            export.UnsupervisedInputReceiver(None, p)


def test_build_supervised_input_receiver_fn_from_input_fn():
    """2.15, features {'x': (4, 3) float32 'Const', 'n': (4,) int32 'Const_1'} and labels (4, 1)
    int32 'Const_2': Placeholders x (None, 3) 'Const', n (None,) 'Const_1', label (None, 1)
    'Const_2' (3 ops), receiver_tensors {'x', 'n', 'label'}; a Dataset batched by input_fn_args:
    'IteratorGetNext' (None, 3) float32 and 'IteratorGetNext_1' (None,) int64; a lone
    features tensor goes under 'input' in receiver_tensors, label dict keys as given (2.15
    failed on labels None with an AttributeError when called; ours says so when built)."""
    build = _export().build_supervised_input_receiver_fn_from_input_fn

    def input_fn():
        return ({"x": tf.constant(np.ones((4, 3), np.float32)),
                 "n": tf.constant([1, 2, 3, 4])}, tf.constant([[1], [0], [1], [0]]))

    def dataset_fn(batch):
        return tf.data.Dataset.from_tensor_slices(
            ({"x": np.ones((4, 3), np.float32)}, np.zeros((4,), np.int64))).batch(batch)

    def tensor_fn():
        return tf.constant(np.ones((4, 3), np.float32)), {"a": tf.constant([1.0]),
                                                           "b": tf.constant(["x"])}

    def described(value):
        return {k: (t.op.type, t.op.name, t.shape.as_list(), t.dtype.name)
                for k, t in value.items()}

    with tf.Graph().as_default() as g:
        r = build(input_fn)()
        assert described(r.features) == {"x": ("Placeholder", "Const", [None, 3], "float32"),
                                         "n": ("Placeholder", "Const_1", [None], "int32")}
        assert (r.labels.op.type, r.labels.op.name, r.labels.shape.as_list()) == (
            "Placeholder", "Const_2", [None, 1])
        assert list(r.receiver_tensors) == ["x", "n", "label"]
        assert len(g.get_operations()) == 3
    with tf.Graph().as_default():
        r = build(dataset_fn, batch=3)()
        assert described(r.features) == {
            "x": ("Placeholder", "IteratorGetNext", [None, 3], "float32")}
        assert (r.labels.op.name, r.labels.shape.as_list(), r.labels.dtype) == (
            "IteratorGetNext_1", [None], tf.int64)
    with tf.Graph().as_default():
        r = build(tensor_fn)()
        assert r.features.op.name == "Const" and list(r.receiver_tensors) == ["input", "a", "b"]
        assert described(r.labels)["b"] == ("Placeholder", "Const_2", [None], "string")
    with pytest.raises(ValueError, match="labels=None"):
        build(lambda: ({"a": tf.constant([1.0])}, None))


def test_fake_summary_writer_records_and_asserts(tmp_path):
    """2.15: install() makes FileWriterCache.get give a FakeSummaryWriter (logdir, graph kept);
    summaries {3: [Summary, Summary]} after two add_summary at 3; add_graph(graph_def=...) ->
    "Unexpected graph_def ..."; add_meta_graph keeps the proto only without a global_step;
    assert_summaries: "Missing step 4 from dict_keys([3])." and the {tag: simple_value} compared
    over every value of the step; install twice -> "FakeSummaryWriter already installed.",
    uninstall twice -> "FakeSummaryWriter not installed."."""
    from tensorflow.python.summary.writer import writer
    from tensorflow_estimator.python.estimator.hooks.fake_summary_writer import \
        FakeSummaryWriter
    real = writer.FileWriter
    FakeSummaryWriter.install()
    try:
        with pytest.raises(ValueError, match="already installed"):
            FakeSummaryWriter.install()
        logdir = str(tmp_path / "fake")
        with tf.Graph().as_default() as g:
            w = v1.summary.FileWriterCache.get(logdir)
        assert isinstance(w, FakeSummaryWriter)
        s = v1.Summary(value=[v1.Summary.Value(tag="a", simple_value=1.5)])
        w.add_summary(s, 3)
        w.add_summary(s, 3)
        assert w.summaries == {3: [s, s]}
        w.add_graph(g)
        with pytest.raises(ValueError, match="Unexpected graph_def"):
            w.add_graph(g, graph_def=g.as_graph_def())
        w.add_meta_graph(v1.MetaGraphDef(), global_step=2)
        w.add_session_log(v1.SessionLog(status=v1.SessionLog.START), 2)
        tc = tf.test.TestCase()
        w.assert_summaries(tc, expected_logdir=logdir, expected_graph=g,
                           expected_summaries={3: {"a": 1.5}}, expected_added_graphs=[g],
                           expected_added_meta_graphs=[],
                           expected_session_logs=[v1.SessionLog(status=v1.SessionLog.START)])
        with pytest.raises(AssertionError, match=r"Missing step 4 from dict_keys\(\[3\]\)"):
            w.assert_summaries(tc, expected_summaries={4: {"a": 1.5}})
        with pytest.raises(AssertionError):
            w.assert_summaries(unittest.TestCase(), expected_summaries={3: {"a": 2.5}})
        v1.summary.FileWriterCache.clear()
    finally:
        FakeSummaryWriter.uninstall()
    assert writer.FileWriter is real
    with pytest.raises(ValueError, match="not installed"):
        FakeSummaryWriter.uninstall()


def test_examples_per_second_hook(caplog):
    """2.15: ExamplesPerSecondHook(batch_size=8, every_n_steps=2) is a StepCounterHook;
    _log_and_record(4, 2.0, 10) writes 'global_step/sec' 2 and 'examples/sec' 16 at step 10
    (two Summary protos) and logs "global_step/sec: 2", "examples/sec: 16"."""
    from tensorflow_estimator.python.estimator.hooks.fake_summary_writer import \
        FakeSummaryWriter
    from tensorflow_estimator.python.estimator.tpu.tpu_estimator import ExamplesPerSecondHook
    writer = FakeSummaryWriter("/unused")
    hook = ExamplesPerSecondHook(batch_size=8, every_n_steps=2, summary_writer=writer)
    assert isinstance(hook, v1.train.StepCounterHook)
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        hook._log_and_record(4, 2.0, 10)
    assert [[(v.tag, v.simple_value) for v in s.value] for s in writer.summaries[10]] == [
        [("global_step/sec", 2.0)], [("examples/sec", 16.0)]]
    assert "global_step/sec: 2" in caplog.text and "examples/sec: 16" in caplog.text


def test_tpu_util_and_export_options():
    """2.15: check_positive_integer: 0 -> "n must be positive, got 0", 1.0 -> TypeError "n must
    be int, got <class 'float'>", True and np.int64(3) pass; parse_iterations_per_loop: 100 and
    '100' -> (100, 'count'), '3600s' / '60m' / '1h' -> (3600, 'seconds'), '2h' -> 7200;
    '0s', '0', 0, -1, '1d', '1.5h', '10 s', 1.5, '10S' -> ValueError "Invalid TPUConfig
    `iterations_per_loop` value..."; BatchConfig(1, 2, 3, [1, 2]).max_enqueued_batches 100;
    ExportSavedModelApiVersion V1 = 1, V2 = 2."""
    from tensorflow_estimator.python.estimator.tpu import tpu_estimator, util
    util.check_positive_integer(5, "n")
    util.check_positive_integer(True, "n")
    util.check_positive_integer(np.int64(3), "n")
    with pytest.raises(ValueError, match="n must be positive, got 0"):
        util.check_positive_integer(0, "n")
    with pytest.raises(TypeError, match="n must be int, got <class 'float'>"):
        util.check_positive_integer(1.0, "n")
    parse = util.parse_iterations_per_loop
    assert parse(100) == parse("100") == util.IterationsPerLoopCounter(100, "count")
    assert parse("3600s") == parse("60m") == parse("1h") == (3600, "seconds")
    assert parse("2h").value == 7200 and parse("2h").unit == "seconds"
    for bad in ("0s", "0", 0, -1, "1d", "1.5h", "10 s", 1.5, "10S"):
        with pytest.raises(ValueError, match="Invalid TPUConfig `iterations_per_loop` value"):
            parse(bad)
    config = tpu_estimator.BatchConfig(1, 2, 3, [1, 2])
    assert config._fields[-1] == "max_enqueued_batches" and config.max_enqueued_batches == 100
    assert tpu_estimator.BatchConfig(1, 2, 3, [1], max_enqueued_batches=5)[4] == 5
    version = tpu_estimator.ExportSavedModelApiVersion
    assert (version.V1.value, version.V2.value, version(2)) == (1, 2, version.V2)


CONVERTER_FIXTURES = __import__("pathlib").Path(__file__).parent / "fixtures" / \
    "checkpoint_converter"


def _checkpoint_dump(prefix):
    reader = tf.train.load_checkpoint(str(prefix))
    dtypes = reader.get_variable_to_dtype_map()
    return {name: (dtypes[name].name, np.asarray(reader.get_tensor(name)))
            for name in reader.get_variable_to_shape_map()}


@pytest.mark.parametrize("case", ["dnn_adagrad", "dnn_adam", "dnn_rms", "dnn_momentum",
                                  "linear_ftrl", "combined_adam_ftrl", "combined_ftrl_adam",
                                  "combined_sgd"])
def test_checkpoint_converter_matches_tf215(case, tmp_path):
    """tests/fixtures/checkpoint_converter/<case>/ (tests/fixtures/make_tf215_checkpoint_
    converter.py): tf.compat.v1.estimator DNN / Linear / DNNLinearCombined checkpoints TF 2.15
    wrote after 3 steps with Adagrad, Adam, RMSProp,
    Momentum, Ftrl, SGD; tf215_converted.json: every variable (name, dtype, value) TF 2.15's
    convert_checkpoint wrote from them (the same with this minimal graph.pbtxt as with the
    estimator's own, whose values 2.15 never used), e.g. dnn_adagrad's
    `training/Adagrad/dnn/logits/kernel/accumulator` and `training/Adagrad/learning_rate`
    0.001, dnn_adam's `training/Adam/beta_1` 0.8689404 (= 0.6561 ** (1/3))."""
    import json
    from tensorflow_estimator.python.estimator.tools import checkpoint_converter
    expected = json.loads((CONVERTER_FIXTURES / "tf215_converted.json").read_text())[case]
    target = tmp_path / "model.ckpt-3"
    checkpoint_converter.convert_checkpoint(expected["estimator_type"],
                                            str(CONVERTER_FIXTURES / case / "model.ckpt-3"),
                                            str(CONVERTER_FIXTURES / "graph.pbtxt"),
                                            str(target))
    ours = _checkpoint_dump(target)
    assert sorted(ours) == sorted(expected["target"])
    for name, record in expected["target"].items():
        assert ours[name][0] == record["dtype"], name
        np.testing.assert_allclose(ours[name][1], np.asarray(record["value"]), rtol=1e-6,
                                   err_msg=name)


def test_checkpoint_converter_runs_as_module_and_checks_its_input(tmp_path, monkeypatch):
    """`python -m tensorflow_estimator.python.estimator.tools.checkpoint_converter dnn SRC
    GRAPH TARGET` (2.15's argparse command line: estimator_type one of dnn, linear, combined)
    runs the tool; a wrong estimator_type is a clear error (2.15: "No variables to save")."""
    import runpy
    from tensorflow_estimator.python.estimator.tools import checkpoint_converter
    target = tmp_path / "model.ckpt-3"
    monkeypatch.setattr("sys.argv", ["checkpoint_converter", "dnn",
                                     str(CONVERTER_FIXTURES / "dnn_adagrad" / "model.ckpt-3"),
                                     str(CONVERTER_FIXTURES / "graph.pbtxt"), str(target)])
    runpy.run_module("tensorflow_estimator.python.estimator.tools.checkpoint_converter",
                     run_name="__main__", alter_sys=True)
    assert "training/Adagrad/dnn/logits/bias/accumulator" in _checkpoint_dump(target)
    with pytest.raises(ValueError, match="estimator_type must be one of dnn, linear, combined"):
        checkpoint_converter.convert_checkpoint(
            "DNN", str(CONVERTER_FIXTURES / "dnn_adagrad" / "model.ckpt-3"),
            str(CONVERTER_FIXTURES / "graph.pbtxt"), str(tmp_path / "x"))
    with pytest.raises(SystemExit):
        checkpoint_converter.main(argv=["foo", "a", "b", "c"])


@pytest.fixture(scope="module")
def model_fn_runs():
    import estimator_tree_model_fn_cases
    return estimator_tree_model_fn_cases.run_all(("dnn", "linear", "combined"))


@pytest.mark.parametrize("case", ["dnn", "linear", "combined"])
def test_private_canned_model_fns_match_tf215(model_fn_runs, case):
    """`canned.dnn._dnn_model_fn`, `canned.linear._linear_model_fn` (optimizer None: Ftrl at
    0.2), `canned.dnn_linear_combined._dnn_linear_combined_model_fn` in a user's model_fn
    with a v1 head (tests/estimator_tree_model_fn_cases.py), against TF 2.15's run
    (tests/fixtures/tf215_private_model_fns.json): the same checkpoint variables (slots
    `.../t_0/Adagrad`, `.../part_0/Ftrl`, combined's `.../Adagrad`, `.../Ftrl_1`) and metric
    keys; the linear model (zero-initialized) the same weights and metrics, e.g. loss
    1.8075675 and prediction/mean 0.46494305 after 2 steps."""
    import json
    expected = json.loads((__import__("pathlib").Path(__file__).parent / "fixtures" /
                           "tf215_private_model_fns.json").read_text())[case]
    ours = model_fn_runs[case]
    assert ours["variables"] == expected["variables"]
    assert sorted(ours["metrics"]) == sorted(expected["metrics"])
    if case == "linear":
        for name, value in expected["linear_values"].items():
            np.testing.assert_allclose(ours["linear_values"][name], value, rtol=1e-5,
                                       err_msg=name)
        for name, value in expected["metrics"].items():
            np.testing.assert_allclose(ours["metrics"][name], value, rtol=1e-5, err_msg=name)


def test_imported_private_helpers():
    """2.15: _check_hooks_type(None) -> [], a tuple -> list, [1] -> TypeError "Hooks must be a
    SessionRunHook, given: 1"; _get_default_warm_start_settings: None -> None, a path ->
    WarmStartSettings(path, '.*', {}, {}), a SavedModel dir -> its variables/variables, 3 ->
    ValueError "warm_start_from must be a string or a WarmStartSettings, instead got <class
    'int'>"; _assert_eval_spec(3) -> TypeError "`eval_spec` must have type
    `tf.estimator.EvalSpec`. Got: <class 'int'>"; _EvalStatus values 'evaluated', 'missing
    checkpoint', 'no new checkpoint'; _is_google_env() False (True with TF_CONFIG environment
    'google'); _name_from_scope_name 'a/b/' -> 'a/b', 'a//' -> 'a/', '' -> '', None -> None;
    _linear_learning_rate(1 | 4 | 100) 0.005; SyncReplicasOptimizer -> ValueError
    "SyncReplicasOptimizer does not support multi optimizers case..."; _get_default_optimizer:
    Ftrl at 0.2 for 1 column, 0.19611614 for 26; _compute_fraction_of_zero([a, b]) and
    ([[a], [b]]) 0.71428573 (a: 3 zeros of 4, b: 2 of 3); _get_expanded_variable_list([a, c
    split in 2]) -> a, c/part_0, c/part_1; _add_hidden_layer_summary(x, 'layer') /
    _add_layer_summary: ScalarSummary 'layer/fraction_of_zero_values' (0.5 for
    [[0, 1, 2], [0, 0, 3]]) and HistogramSummary 'layer/activation'."""
    from tensorflow_estimator.python.estimator import estimator, training
    from tensorflow_estimator.python.estimator.canned import dnn, linear
    from tensorflow_estimator.python.estimator.canned import dnn_linear_combined as dlc
    hook = v1.train.StopAtStepHook(1)
    assert estimator._check_hooks_type(None) == [] and estimator._check_hooks_type((hook,)) == [
        hook]
    with pytest.raises(TypeError, match="Hooks must be a SessionRunHook, given: 1"):
        estimator._check_hooks_type([1])
    default_ws = estimator._get_default_warm_start_settings
    assert default_ws(None) is None
    assert tuple(default_ws("/some/dir")) == ("/some/dir", ".*", {}, {})
    settings = estimator.WarmStartSettings("/x", vars_to_warm_start="a.*")
    assert default_ws(settings) is settings
    with pytest.raises(ValueError, match="instead got <class 'int'>"):
        default_ws(3)
    with pytest.raises(TypeError, match="Got: <class 'int'>"):
        training._assert_eval_spec(3)
    training._assert_eval_spec(training.EvalSpec(lambda: None))
    assert (training._EvalStatus.EVALUATED, training._EvalStatus.MISSING_CHECKPOINT,
            training._EvalStatus.NO_NEW_CHECKPOINT) == (
        "evaluated", "missing checkpoint", "no new checkpoint")
    assert training._is_google_env() is False
    assert [dnn._name_from_scope_name(n) for n in ("a/", "a/b/", "a//", "", None)] == [
        "a", "a/b", "a/", "", None]
    assert [dlc._linear_learning_rate(n) for n in (1, 4, 100)] == [0.005] * 3
    with pytest.raises(ValueError, match="SyncReplicasOptimizer does not support multi"):
        dlc._check_no_sync_replicas_optimizer(v1.train.SyncReplicasOptimizer(
            v1.train.GradientDescentOptimizer(0.1), 1))
    dlc._check_no_sync_replicas_optimizer("Adagrad")
    assert isinstance(linear._get_default_optimizer([1]), v1.train.FtrlOptimizer)
    assert linear._get_default_optimizer([1])._learning_rate == 0.2
    assert abs(linear._get_default_optimizer(list(range(26)))._learning_rate -
               0.19611613513818404) < 1e-12
    with tf.Graph().as_default() as g:
        a = v1.get_variable("a", initializer=np.array([[0., 1.], [0., 0.]], np.float32))
        b = v1.get_variable("b", initializer=np.array([1., 0., 0.], np.float32))
        with v1.variable_scope("p", partitioner=v1.fixed_size_partitioner(2)):
            c = v1.get_variable("c", shape=[4, 1], initializer=v1.ones_initializer())
        assert [v.name for v in linear._get_expanded_variable_list([a, c])] == [
            "a:0", "p/c/part_0:0", "p/c/part_1:0"]
        fractions = [linear._compute_fraction_of_zero([a, b]),
                     linear._compute_fraction_of_zero([[a], [b]])]
        x = tf.constant([[0., 1., 2.], [0., 0., 3.]])
        dnn._add_hidden_layer_summary(x, "layer")
        dlc._add_layer_summary(x, "lin")
        summaries = v1.get_collection(v1.GraphKeys.SUMMARIES)
        assert [(t.op.name, t.op.type) for t in summaries] == [
            ("layer/fraction_of_zero_values", "ScalarSummary"),
            ("layer/activation", "HistogramSummary"),
            ("lin/fraction_of_zero_values", "ScalarSummary"),
            ("lin/activation", "HistogramSummary")]
        with v1.Session(graph=g) as session:
            session.run(v1.global_variables_initializer())
            np.testing.assert_allclose(session.run(fractions), [0.71428573] * 2, rtol=1e-6)
            first = v1.Summary.FromString(session.run(summaries[0]))
            assert first.value[0].simple_value == 0.5


def test_warm_start_settings_from_a_saved_model_dir(tmp_path, monkeypatch):
    """2.15: a SavedModel dir warm-starts from `<dir>/variables/variables`; TF_CONFIG's
    environment 'google' makes _is_google_env() True."""
    from tensorflow_estimator.python.estimator import estimator, training

    class Module(tf.Module):
        def __init__(self):
            self.v = tf.Variable(1.0)

    tf.saved_model.save(Module(), str(tmp_path))
    settings = estimator._get_default_warm_start_settings(str(tmp_path))
    assert settings.ckpt_to_initialize_from == str(tmp_path / "variables" / "variables")
    monkeypatch.setenv("TF_CONFIG", '{"environment": "google"}')
    assert training._is_google_env() is True


def test_verify_model_fn_args_and_replica_device_setter(monkeypatch):
    """2.15 (estimator._verify_model_fn_args and model_fn.verify_model_fn_args alike): f(labels,
    mode) -> "model_fn (...) must include features argument"; f(features, labels) with params
    -> "does not include params argument, but params ({'a': 1}) is passed to Estimator.";
    f(features, labels, mode, extra=1) -> "has following not expected args: ['extra']"; a
    partial binding extra, f(features, **kw) and a bound method pass. _get_replica_device_setter:
    None without ps; with TF_CONFIG ps [2] / worker / chief, task worker 0: variables on
    /job:ps/task:0 then /job:ps/task:1, ops on /job:worker/task:0. run_config._USE_DEFAULT is
    RunConfig's default sentinel."""
    import functools
    import json
    from tensorflow_estimator.python.estimator import estimator, model_fn, run_config

    def no_features(labels, mode):
        pass

    def two(features, labels):
        pass

    def extra(features, labels, mode, extra=1):
        pass

    def keywords(features, **kw):
        pass

    class Model:
        def fn(self, features, labels, mode):
            pass

    for verify in (estimator._verify_model_fn_args, model_fn.verify_model_fn_args):
        with pytest.raises(ValueError, match="must include features argument"):
            verify(no_features, None)
        with pytest.raises(ValueError, match=r"does not include params argument, but params "
                                             r"\(\{'a': 1\}\) is passed to Estimator"):
            verify(two, {"a": 1})
        with pytest.raises(ValueError, match=r"has following not expected args: \['extra'\]"):
            verify(extra, None)
        for fine in (two, functools.partial(extra, extra=2), keywords, Model().fn):
            verify(fine, None)
    assert estimator._get_replica_device_setter(run_config.RunConfig()) is None
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"ps": ["h:1", "h:2"], "worker": ["h:3"], "chief": ["h:0"]},
        "task": {"type": "worker", "index": 0}}))
    device_fn = estimator._get_replica_device_setter(run_config.RunConfig())
    with tf.Graph().as_default(), v1.device(device_fn):
        first = v1.get_variable("v", [1])
        op = tf.constant(1.0) + 1
        second = v1.get_variable("w", [1])
    assert (first.device, op.device, second.device) == (
        "/job:ps/task:0", "/job:worker/task:0", "/job:ps/task:1")
    assert run_config._USE_DEFAULT is estimator_compat.run_config._USE_DEFAULT


def test_periodic_logger_and_dataset_initializer_hooks(caplog, monkeypatch):
    """2.15: PeriodicLogger(0.3): log('a %d', 1), log('b %d', 2), 0.4 s later log('c %s',
    'x'), log('d') -> INFO 'a 1' and 'c x' only; util.MultiHostDatasetInitializerHook
    ([iterator.initializer]) and DistributedIteratorInitializerHook(a tf.distribute v1
    dataset iterator) in a MonitoredSession: range(5) reads 0, 1 and [0 1], [2 3]."""
    import time as time_lib
    from tensorflow_estimator.python.estimator import util
    from tensorflow_estimator.python.estimator.tpu import tpu_estimator
    from tensorflow_estimator.python.estimator.tpu import util as tpu_util
    now = [1000.0]
    monkeypatch.setattr(time_lib, "time", lambda: now[0])
    logger = tpu_estimator.PeriodicLogger(0.3)
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        logger.log("a %d", 1)
        logger.log("b %d", 2)
        now[0] += 0.4
        logger.log("c %s", "x")
        logger.log("d")
    assert [r.getMessage() for r in caplog.records if r.name == "tensorflow"] == ["a 1", "c x"]
    assert tpu_util.MultiHostDatasetInitializerHook is util.MultiHostDatasetInitializerHook
    with tf.Graph().as_default():
        dataset = tf.data.Dataset.range(5)
        iterator = v1.data.make_initializable_iterator(dataset)
        element = iterator.get_next()
        hook = util.MultiHostDatasetInitializerHook([iterator.initializer])
        with v1.train.MonitoredSession(hooks=[hook]) as session:
            assert [session.run(element), session.run(element)] == [0, 1]
        distributed = v1.distribute.OneDeviceStrategy("/cpu:0").make_dataset_iterator(
            dataset.batch(2))
        batch = distributed.get_next()
        hook = util.DistributedIteratorInitializerHook(distributed)
        with v1.train.MonitoredSession(hooks=[hook]) as session:
            assert [session.run(batch).tolist(), session.run(batch).tolist()] == [[0, 1],
                                                                                  [2, 3]]


def test_install_signal_handler_hook():
    """2.15: InstallSignalHandlerHook() remembers the SIGINT handler in place; before_run
    sets SIG_DFL (0); end puts the remembered one back."""
    import signal
    from tensorflow_estimator.python.estimator.tpu.tpu_estimator import \
        InstallSignalHandlerHook
    original = signal.getsignal(signal.SIGINT)

    def mine(*args):
        del args

    signal.signal(signal.SIGINT, mine)
    try:
        hook = InstallSignalHandlerHook()
        signal.signal(signal.SIGINT, signal.default_int_handler)
        assert hook.before_run(None) is None
        assert signal.getsignal(signal.SIGINT) == signal.SIG_DFL == 0
        hook.end(None)
        assert signal.getsignal(signal.SIGINT) is mine
    finally:
        signal.signal(signal.SIGINT, original)


def _events(logdir):
    import glob
    out = []
    for path in sorted(glob.glob(f"{logdir}/events*")):
        for event in v1.train.summary_iterator(path):
            if event.HasField("summary"):
                out.append((event.step, [(v.tag, v.WhichOneof("value"), v.simple_value)
                                         for v in event.summary.value]))
    return out


def test_write_dict_to_summary(tmp_path):
    """2.15, {'loss': 0.5, 'acc': np.float32(0.25), 'n': np.int64(3), 'i': 7, 'global_step': 10,
    's': 'hello', 'b': b'bytes', 'arr': [1., 2.], 'scalar_arr': np.array(2.5), 'summ': a
    serialized image Summary, 'lst': [1, 2], 'f64': 1.5, 'i32': np.int32(4), 'bool': True}
    at step 10, then {'loss': 0.25} at 20: one event per call with loss 0.5, acc 0.25, n 3,
    i 7 (simple_value), arr and scalar_arr (tensor), summ/0 (image), f64 1.5, i32 4, bool 1;
    s, b and lst skipped with a warning; read back by early_stopping.read_eval_metrics. Also
    from a TF1 graph-mode thread."""
    from estimator_compat.legacy import graph_mode
    from tensorflow_estimator.python.estimator import early_stopping, estimator
    image = v1.Summary(value=[v1.Summary.Value(tag="img", image=v1.Summary.Image(
        height=1, width=1, colorspace=1, encoded_image_string=b"x"))]).SerializeToString()
    values = {"loss": 0.5, "acc": np.float32(0.25), "n": np.int64(3), "i": 7,
              "global_step": 10, "s": "hello", "b": b"bytes", "arr": np.array([1.0, 2.0]),
              "scalar_arr": np.array(2.5), "summ": image, "lst": [1, 2],
              "f64": np.float64(1.5), "i32": np.int32(4), "bool": True}
    expected = [(10, [("loss", "simple_value", 0.5), ("acc", "simple_value", 0.25),
                      ("n", "simple_value", 3.0), ("i", "simple_value", 7.0),
                      ("arr", "tensor", 0.0), ("scalar_arr", "tensor", 0.0),
                      ("summ/0", "image", 0.0), ("f64", "simple_value", 1.5),
                      ("i32", "simple_value", 4.0), ("bool", "simple_value", 1.0)]),
                (20, [("loss", "simple_value", 0.25)])]
    eager_dir, graph_dir = str(tmp_path / "eager"), str(tmp_path / "graph")
    estimator._write_dict_to_summary(eager_dir, values, 10)
    estimator._write_dict_to_summary(eager_dir, {"loss": 0.25}, 20)
    assert _events(eager_dir) == expected
    graph_mode.tf1_thread()
    try:
        with tf.Graph().as_default():
            estimator._write_dict_to_summary(graph_dir, values, 10)
            estimator._write_dict_to_summary(graph_dir, {"loss": 0.25}, 20)
    finally:
        graph_mode.tf2_thread()
    assert _events(graph_dir) == expected
    metrics = early_stopping.read_eval_metrics(eager_dir)
    assert sorted(metrics) == [10, 20] and metrics[20] == {"loss": 0.25}


def test_metric_update_ops_dataset_check_and_stop_var():
    """2.15: _extract_metric_update_ops({'b': mean, 'a': accuracy}) -> a NoOp 'group_deps'
    whose control inputs are accuracy/update_op, mean/update_op, and {'a': accuracy/value,
    'b': mean/value} (sorted); values 0.5 and 1.5 after one update; {} -> (None, {}).
    _has_dataset_or_queue_runner: an IteratorGetNext tensor (alone, in a dict or a list) ->
    True; a constant or `it + 1` -> [] (the graph's queue runners); with a queue runner ->
    that list. _get_or_create_stop_var(): `signal_early_stopping/STOP:0`, bool, shape (),
    not trainable, the same variable on a second call, only in 'variables'."""
    from tensorflow_estimator.python.estimator import early_stopping, estimator
    with tf.Graph().as_default() as g:
        stop = early_stopping._get_or_create_stop_var()
        assert early_stopping._get_or_create_stop_var() is stop
        assert (stop.name, stop.dtype, stop.shape.as_list(), stop.trainable) == (
            "signal_early_stopping/STOP:0", tf.bool, [], False)
        assert g.get_all_collection_keys() == ["variables"]
        mean = v1.metrics.mean(tf.constant([1.0, 2.0]))
        accuracy = v1.metrics.accuracy(tf.constant([1, 0]), tf.constant([1, 1]))
        update, values = estimator._extract_metric_update_ops({"b": mean, "a": accuracy})
        assert (update.name, update.type) == ("group_deps", "NoOp")
        assert [op.name for op in update.control_inputs] == ["accuracy/update_op",
                                                             "mean/update_op"]
        assert list(values) == ["a", "b"]
        assert estimator._extract_metric_update_ops({}) == (None, {})
        with v1.Session() as session:
            session.run(v1.local_variables_initializer())
            session.run(update)
            assert session.run(values) == {"a": 0.5, "b": 1.5}
        element = v1.data.make_one_shot_iterator(tf.data.Dataset.range(3)).get_next()
        check = estimator._has_dataset_or_queue_runner
        assert check(element) is True and check({"x": element}) is True
        assert check([tf.constant(1), element]) is True
        assert check({"x": tf.constant(1)}) == [] and check(element + 1) == []
    with tf.Graph().as_default():
        queue = tf.queue.FIFOQueue(3, tf.float32)
        runner = v1.train.QueueRunner(queue, [queue.enqueue(1.0)])
        v1.train.add_queue_runner(runner)
        assert estimator._has_dataset_or_queue_runner(tf.constant(1.0)) == [runner]
