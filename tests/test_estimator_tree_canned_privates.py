"""tensorflow_estimator 2.15's private canned and inputs helpers served by the estimator tree
(legacy/estimator_tree/canned_checks.py, canned_model_fn_privates.py, rnn_privates.py,
input_privates.py, feeding_queues.py, sdca_tables.py, sdca_model.py), against what 2.15
returned, raised and trained on the same inputs (tests/fixtures/make_tf215_canned_privates.py,
recorded in tf215_canned_privates.json).

E.g. 2.15: `canned.baseline._get_weight_column_key(3)` -> TypeError "Weight column must be
either a string or _NumericColumn. Given type: <class 'int'>."; `canned.rnn._make_rnn_layer(
None, [2, 3], USE_DEFAULT, True)` -> an RNN over StackedRNNCells of two SimpleRNNCells;
`inputs.queues.feeding_functions._get_integer_indices_for_next_batch(3, 4, 4, 5, 0, 1)` ->
([3, 4], 1); `_SDCAModel` trained one example a step (logistic, squared with l1 and
partitioned weights, smooth hinge, poisson) the same weights, predictions, losses and duality
gap (logistic: regularized loss 0.6135673). The model_fns in an Estimator of the caller's
own, 2 steps: `_baseline_model_fn` (v1 head, Ftrl at 0.3) loss 2.4201269 and bias/slots as
2.15; `_linear_model_fn_v2` (default Ftrl, also fed by `_enqueue_data`'s queue) and
LinearSDCA's the same weights and metrics (sdca loss 0.3084892); the DNN, combined and RNN
ones the same model variables. The V2 model_fns' optimizer slots are saved under compat.v1
names in an Estimator of the caller's own (2.15: Keras names, `training/Ftrl/...`): only model
variables are compared for them."""
import importlib.util
import json
import pathlib
import random

import numpy as np
import pytest

import estimator_compat

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "tf215_canned_privates.json").read_text())
# 2.15 failed on a V2 numeric weight column with "'str' object is not callable" (it called the
# column's key), and on an SDCA option given as None with "unsupported operand type(s) for +"
# (it added None to a string); ours raise the same TypeError saying what is wrong. A failed
# assert_equal's message quotes the graph's stack; _InitializeClustersHook's graph check was a
# bare assert.
SAME_TYPE_ONLY = {"weight_key_v2_numeric", "batch_checks_mismatch", "sdca_missing_option",
                  "clusters_hook_other_graph"}
# compared by value: the model starts from zeros, the rest is deterministic (SDCA's kernel
# visits a batch's examples in a random order: its case has one example a batch)
BY_VALUE = {"baseline_v1", "baseline_v2", "linear_v2", "linear_v2_queue_input", "sdca_v2"}


def _cases():
    spec = importlib.util.spec_from_file_location(
        "make_tf215_canned_privates", FIXTURES / "make_tf215_canned_privates.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cases():
    estimator_compat.install()
    return _cases()


@pytest.mark.parametrize("name", sorted(EXPECTED["helpers"]))
def test_helper_matches_tf215(cases, name):
    expected = EXPECTED["helpers"][name]
    state = random.getstate()  # the feed functions seed Python's `random`, as 2.15's did
    try:
        ours = cases.run_helpers([name])[name]
    finally:
        random.setstate(state)
    assert sorted(ours) == sorted(expected), (ours, expected)
    if "error" in expected:
        assert ours["error"][0] == expected["error"][0], ours
        if name not in SAME_TYPE_ONLY:
            assert ours["error"][1] == expected["error"][1]
    elif name.startswith("default_optimizer"):
        assert ours["ok"][0] == expected["ok"][0]
        np.testing.assert_allclose(ours["ok"][1], expected["ok"][1], rtol=1e-6)
    else:
        assert ours == expected


def test_v2_numeric_weight_column_error_names_the_fix(cases):
    import tensorflow as tf
    from tensorflow_estimator.python.estimator.canned import baseline
    with pytest.raises(TypeError, match="pass its key, 'w'"):
        baseline._get_weight_column_key_v2(tf.feature_column.numeric_column("w"))


@pytest.fixture(scope="module")
def model_fn_runs(cases):
    return cases.run_model_fns()


def _model_variables(variables):
    """Model variables and their shapes: without optimizer slots and hyperparameters (2.15's
    `training/<Optimizer>/...` Keras names, compat.v1's `<var>/<Optimizer>` ones)."""
    names = [n for n in variables if not n.startswith("training/")]
    slot = tuple(f"/{s}" for s in ("Ftrl", "Ftrl_1", "Adagrad", "SGD"))
    return {n: variables[n] for n in names if not n.endswith(slot)}


@pytest.mark.parametrize("case", sorted(EXPECTED["model_fns"]))
def test_private_model_fn_matches_tf215(model_fn_runs, case):
    expected, ours = EXPECTED["model_fns"][case], model_fn_runs[case]
    if case.endswith("_v1"):  # compat.v1 optimizers: slots under the same names
        assert ours["variables"] == expected["variables"]
    else:
        assert _model_variables(ours["variables"]) == _model_variables(expected["variables"])
    assert sorted(ours["metrics"]) == sorted(expected["metrics"])
    if case in BY_VALUE:
        atol = 1e-7
        for name, value in expected["values"].items():
            np.testing.assert_allclose(ours["values"][name], value, rtol=1e-5, atol=atol,
                                       err_msg=name)
        for name, value in expected["metrics"].items():
            np.testing.assert_allclose(ours["metrics"][name], value, rtol=1e-5, atol=atol,
                                       err_msg=name)


def test_pandas_feed_fn_feeds_the_frame_as_its_columns(cases):
    """_PandasFeedFn (the 2.15 venv has no pandas to record it): 2.15 fed a frame's index and
    columns as _OrderedDictNumpyFeedFn feeds the same arrays (recorded: `feed_dict`), with
    the frame's index values in place of row numbers; a wrong placeholder count is
    ValueError "Expected 3 placeholders; got 2."."""
    pd = pytest.importorskip("pandas")
    import tensorflow as tf
    from tensorflow_estimator.python.estimator.inputs.queues import feeding_functions as ff
    frame = pd.DataFrame({"b": np.arange(4.0), "a": np.arange(4.0) * 10},
                         index=[10, 11, 12, 13])
    with tf.Graph().as_default():
        placeholders = [tf.compat.v1.placeholder(tf.float32) for _ in range(3)]
        feed_fn = ff._PandasFeedFn(placeholders, frame, 3, num_epochs=2)
        batches = [[feed[p].tolist() for p in placeholders]
                   for feed in (feed_fn() for _ in range(3))]
        with pytest.raises(tf.errors.OutOfRangeError, match="Already emitted 2 epochs"):
            feed_fn()
        with pytest.raises(ValueError, match="Expected 3 placeholders; got 2."):
            ff._PandasFeedFn(placeholders[:2], frame, 3)
    expected = EXPECTED["helpers"]["feed_dict"]["ok"][:3]
    for ours, recorded in zip(batches, expected):
        assert ours[0] == [10 + i for i in recorded[0]["array"]]
        assert ours[1:] == [column["array"] for column in recorded[1:]]


def test_sdca_model_fn_names_what_to_use_for_a_v1_head(cases):
    """2.15 built a v1 head's SDCA model as `linear_model/...`; that one is not served."""
    import tensorflow as tf
    from tensorflow_estimator.python.estimator.canned import head as head_v1
    from tensorflow_estimator.python.estimator.canned import linear
    head = head_v1._binary_logistic_head_with_sigmoid_cross_entropy_loss()
    with tf.Graph().as_default(), pytest.raises(ValueError, match="BinaryClassHead"):
        linear._sdca_model_fn({"a": tf.ones([2, 1])}, None, "infer", head,
                              [tf.feature_column.numeric_column("a")],
                              linear.LinearSDCA(example_id_column="id"))
