"""tensorflow_estimator 2.15's `python/estimator/` tree (tests/fixtures/tf_estimator_215_tree.json,
from tools/tf_estimator_census.py): every module imports under both prefixes and every name it
defined resolves, or is in legacy/estimator_tree's DECLINED tables; the v1 heads
(`canned.head`, canned/v1_heads.py) give TF 2.15's losses, predictions, metrics, export
outputs and summaries on the same logits (tests/v1_heads_cases.py, recorded in
tests/fixtures/tf215_v1_heads.json); the other non-trivial mappings behave as TF 2.15's."""
import importlib
import json
import pathlib

import numpy as np
import pytest
import tensorflow as tf

import estimator_compat
import base_head_cases
import v1_heads_cases
from estimator_compat.legacy import estimator_tree

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
PREFIXES = ("tensorflow_estimator.python.estimator.", "tensorflow.python.estimator.")
v1 = tf.compat.v1


@pytest.fixture(scope="module", autouse=True)
def installed():
    estimator_compat.install()


def _tree():
    return json.loads((FIXTURES / "tf_estimator_215_tree.json").read_text())["modules"]


def test_every_module_imports_and_every_name_resolves_or_is_declined():
    declined = estimator_tree.declined()
    served = total = 0
    for path, names in sorted(_tree().items()):
        modules = [importlib.import_module(prefix + path) for prefix in PREFIXES]
        assert modules[0] is not None and modules[1] is not None
        for name in names:
            total += 1
            found = [hasattr(m, name) for m in modules]
            if all(found):
                served += 1
                assert getattr(modules[0], name) is getattr(modules[1], name)
            else:
                assert name in declined.get(path, {}), f"{path}.{name} neither served nor declined"
        for name in declined.get(path, {}):
            assert name in names, f"DECLINED {path}.{name} is not a tensorflow_estimator name"
            assert not hasattr(modules[0], name), f"{path}.{name} is served and declined"
    print(f"\nestimator tree: {len(_tree())} modules import; {served} of {total} names served, "
          f"{total - served} declined")


def test_declined_name_fails_clearly():
    from tensorflow_estimator.python.estimator.tpu import tpu_estimator
    with pytest.raises(AttributeError, match="not provided"):
        tpu_estimator._train_on_tpu_system  # noqa: B018


@pytest.fixture(scope="module")
def v1_heads_ours():
    from tensorflow_estimator.python.estimator.canned import head
    from tensorflow_estimator.python.estimator.mode_keys import ModeKeys
    return v1_heads_cases.run_all(head, v1, ModeKeys)


@pytest.mark.parametrize("case", sorted(v1_heads_cases.cases(None, v1)))
def test_v1_heads_match_tf215(v1_heads_ours, case):
    theirs = json.loads((FIXTURES / "tf215_v1_heads.json").read_text())[case]
    ours = v1_heads_ours[case]
    for key in ("name", "logits_dimension", "export_outputs", "train_summaries"):
        assert ours[key] == theirs[key], key
    for key in ("create_loss", "predictions", "metrics"):
        assert sorted(ours[key]) == sorted(theirs[key]), key
        for k, expected in theirs[key].items():
            if isinstance(_first(expected), str):
                assert ours[key][k] == expected, (key, k)
            else:
                np.testing.assert_allclose(ours[key][k], expected, atol=1e-5, err_msg=f"{key} {k}")
    for key in ("eval_loss", "train_loss"):
        assert ours[key] == pytest.approx(theirs[key], abs=1e-5), key


def _first(value):
    while isinstance(value, list):
        value = value[0]
    return value


def test_v1_head_helpers_match_tf215():
    """canned.head's private metric and check helpers, which _Head subclasses called."""
    from tensorflow_estimator.python.estimator.canned import head
    theirs = json.loads((FIXTURES / "tf215_v1_heads.json").read_text())["helpers"]
    ours = v1_heads_cases.run_helpers(head, v1)
    assert sorted(ours) == sorted(theirs)
    for key, expected in theirs.items():
        if isinstance(expected, str):
            assert ours[key] == expected, key
        else:
            np.testing.assert_allclose(ours[key], expected, atol=1e-5, err_msg=key)


def test_base_head_helpers_match_tf215():
    """head.base_head's helpers (canned/head_helpers.py): values, summary names, errors."""
    from tensorflow_estimator.python.estimator.head import base_head
    theirs = json.loads((FIXTURES / "tf215_base_head.json").read_text())
    assert base_head_cases.run(base_head, v1) == theirs


def test_v1_head_subclass_api():
    """A library's _Head subclass: its own create_loss and create_estimator_spec are used, an
    unimplemented create_estimator_spec says what to implement."""
    from tensorflow_estimator.python.estimator.canned import head as head_lib

    class Bare(head_lib._Head):
        name = property(lambda self: "bare")
        logits_dimension = property(lambda self: 1)

    with pytest.raises(NotImplementedError, match="create_estimator_spec"):
        Bare().create_estimator_spec({}, "train", tf.zeros([1, 1]))
    head = head_lib._regression_head()
    assert isinstance(head, head_lib._Head) and isinstance(head, estimator_compat.Head)
    with pytest.raises(ValueError, match="loss_reduction"):
        head_lib._regression_head(loss_reduction=v1.losses.Reduction.NONE)
    assert head_lib._summary_key("h", "loss") == "loss/h"
    assert head_lib.LossSpec._fields == ("training_loss", "unreduced_loss", "weights",
                                         "processed_labels")


def test_optimizer_getters_as_tf215():
    """TF 2.15: v1 names need a rate; v2 names get Keras' defaults (Adagrad 0.001, SGD 0.01)."""
    from tensorflow_estimator.python.estimator.canned import optimizers
    with pytest.raises(ValueError, match="learning_rate must be specified"):
        optimizers.get_optimizer_instance("Adam")
    assert isinstance(optimizers.get_optimizer_instance("SGD", 0.1),
                      v1.train.GradientDescentOptimizer)
    adagrad = optimizers.get_optimizer_instance_v2("Adagrad")
    assert float(adagrad.learning_rate) == pytest.approx(0.001)
    assert float(optimizers.get_optimizer_instance_v2("SGD").learning_rate) == pytest.approx(0.01)
    assert float(optimizers.get_optimizer_instance_v2("Adam", 0.3).learning_rate) == \
        pytest.approx(0.3)
    with pytest.raises(ValueError, match="Unsupported optimizer name: Foo"):
        optimizers.get_optimizer_instance_v2("Foo")
    with pytest.raises(ValueError, match="not a tf.keras.optimizers.Optimizer"):
        optimizers.get_optimizer_instance_v2(3)
    assert optimizers._optimizer_has_default_learning_rate(v1.train.AdamOptimizer)
    assert not optimizers._optimizer_has_default_learning_rate(
        v1.train.GradientDescentOptimizer)


def test_parse_input_fn_result_and_helpers():
    from tensorflow_estimator.python.estimator import estimator, run_config, util
    with tf.Graph().as_default():
        dataset = tf.data.Dataset.from_tensor_slices(({"x": [1.0, 2.0]}, [0, 1]))
        features, labels, hooks = util.parse_input_fn_result(dataset)
        with v1.train.MonitoredSession(hooks=hooks) as session:
            assert session.run([features["x"], labels]) == [1.0, 0]
    assert util.parse_iterator_result({"x": 1}) == ({"x": 1}, None)
    with pytest.raises(ValueError, match="len 2 tuple"):
        util.parse_iterator_result((1, 2, 3))
    config = run_config.get_default_session_config()
    assert config.allow_soft_placement
    assert config.graph_options.rewrite_options.meta_optimizer_iterations == 1
    assert run_config.path_to_str(pathlib.Path("/a/b")) == "/a/b"
    assert estimator._load_global_step_from_checkpoint_dir("/nonexistent") == 0


def test_v1_head_trains_in_an_estimator(tmp_path):
    """A model_fn on the v1 head (the way libraries used it) trains, evaluates and predicts
    under estimator_compat's Estimator; eval reports the v1 head's metric keys."""
    from tensorflow_estimator.python.estimator.canned import head as head_lib
    head = head_lib._binary_logistic_head_with_sigmoid_cross_entropy_loss()

    def model_fn(features, labels, mode):
        w = v1.get_variable("w", [1, 1], initializer=v1.zeros_initializer())
        logits = tf.matmul(features["x"], w)
        return head.create_estimator_spec(
            features, mode, logits, labels,
            optimizer=v1.train.GradientDescentOptimizer(0.5))

    def input_fn():
        x = [[1.0], [-1.0], [2.0], [-2.0]]
        return tf.data.Dataset.from_tensors(({"x": x}, [[1], [0], [1], [0]])).repeat(4)

    estimator = estimator_compat.Estimator(model_fn, model_dir=str(tmp_path))
    estimator.train(input_fn, steps=3)
    metrics = estimator.evaluate(input_fn, steps=1)
    assert metrics["global_step"] == 3 and metrics["accuracy"] == 1.0
    assert {"auc", "auc_precision_recall", "average_loss", "label/mean",
            "prediction/mean"} <= set(metrics)
    prediction = next(estimator.predict(input_fn))
    assert prediction["class_ids"][0] == 1 and prediction["classes"][0] == b"1"


def test_base_head_train_op_with_a_keras_optimizer(tmp_path):
    """head.base_head.create_estimator_spec_train_op in a model_fn: the Keras optimizer
    minimizes the loss over the given variables and the update ops run with it; a v1
    optimizer is refused."""
    import keras
    from tensorflow_estimator.python.estimator.head import base_head
    sgd = keras.optimizers.SGD(0.25)

    def model_fn(features, labels, mode):
        w = v1.get_variable("w", initializer=2.0)
        counter = v1.get_variable("n", initializer=0.0, trainable=False)
        loss = w * w + 0.0 * tf.reduce_sum(features)
        with pytest.raises(ValueError, match="not a tf.keras.optimizers.Optimizer"):
            base_head.create_estimator_spec_train_op(
                "head", optimizer=v1.train.GradientDescentOptimizer(0.1),
                trainable_variables=[w], regularized_training_loss=loss)
        train_op = base_head.create_estimator_spec_train_op(
            "head", optimizer=sgd, trainable_variables=[w],
            update_ops=[v1.assign_add(counter, 1.0)], regularized_training_loss=loss)
        return estimator_compat.EstimatorSpec(mode, loss=loss, train_op=train_op)

    estimator = estimator_compat.Estimator(model_fn, model_dir=str(tmp_path))
    estimator.train(lambda: tf.data.Dataset.from_tensors(([1.0], [0.0])).repeat(), steps=1)
    assert estimator.get_variable_value("w") == pytest.approx(1.0)  # 2 - 0.25 * 2 * 2
    assert estimator.get_variable_value("n") == 1.0
    assert estimator.get_variable_value("global_step") == 1


def test_v1_and_v2_names_map_to_their_classes():
    """As tensorflow_estimator defined them: the plain canned names are tf.compat.v1.estimator's
    classes, the `...V2` ones tf.estimator's; the api modules are the two namespaces."""
    from estimator_compat.legacy import estimator_v1
    from tensorflow.python.estimator.canned import dnn, linear
    from tensorflow_estimator.python.estimator.api._v1 import estimator as api_v1
    from tensorflow_estimator.python.estimator.api._v2 import estimator as api_v2
    from tensorflow_estimator.python.estimator.head import base_head, head_utils
    assert dnn.DNNClassifier is estimator_v1.DNNClassifier
    assert dnn.DNNClassifierV2 is estimator_compat.DNNClassifier
    assert linear.LinearRegressorV2 is estimator_compat.LinearRegressor
    assert api_v1.LinearClassifier is estimator_v1.LinearClassifier
    assert api_v2.LinearClassifier is estimator_compat.LinearClassifier
    assert api_v2.experimental.RNNClassifier is estimator_compat.experimental.RNNClassifier
    assert base_head.Head is estimator_compat.Head
    assert isinstance(head_utils.binary_or_multi_class_head(3, None, None, "sum"),
                      estimator_compat.MultiClassHead)


def test_maybe_overwrite_model_dir_and_session_config(tmp_path):
    """TF 2.15 (TF Lattice calls it): (None, dir) -> RunConfig on dir with a default
    ConfigProto; (RunConfig(model_dir=a), None) -> a; different dirs -> ValueError "model_dir
    are set both"; a config that is not a RunConfig -> ValueError; (None, None) -> a temporary
    model_dir."""
    import estimator_compat as ec
    ec.install()
    from tensorflow_estimator.python.estimator import estimator as lib
    overwrite = lib.maybe_overwrite_model_dir_and_session_config
    config = overwrite(None, str(tmp_path / "x"))
    assert config.model_dir == str(tmp_path / "x")
    assert type(config.session_config).__name__ == "ConfigProto"
    assert overwrite(ec.RunConfig(model_dir=str(tmp_path / "y")), None).model_dir == \
        str(tmp_path / "y")
    with pytest.raises(ValueError, match="model_dir are set both"):
        overwrite(ec.RunConfig(model_dir=str(tmp_path / "y")), str(tmp_path / "z"))
    with pytest.raises(ValueError, match="config must be an instance of"):
        overwrite("bad", None)
    assert overwrite(None, None).model_dir
