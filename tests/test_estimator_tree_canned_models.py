"""tensorflow_estimator 2.15's canned Keras models, served as Keras 3 Model / Layer subclasses
(legacy/estimator_tree/canned_keras_models.py): `canned.dnn._DNNModelV2` / `_DNNModel`,
`canned.linear.LinearModel` / `_LinearModelLayer`, against what 2.15.1 gave for the same
calls (tests/fixtures/tf215_canned_models.json, from make_tf215_canned_models.py, whose cases
these run): in a TF1 graph the same `variables` (names, shapes, trainable),
`trainable_variables`, `losses`, `updates`, collections, summary tags and outputs for the
same fixed weights, batch norm's moving averages after a training run with `updates`;
eagerly the same; in an Estimator's model_fn the same checkpoint keys. 2.15's
`_DNNModelV2` could not be built eagerly (TypeError); this one can."""
import json
import pathlib
import sys

import numpy as np
import pytest
import tensorflow as tf

import estimator_compat

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
estimator_compat.install()
import make_tf215_canned_models as cases  # noqa: E402

TF215 = json.loads((FIXTURES / "tf215_canned_models.json").read_text())
EXACT = ("name", "variables", "trainable", "non_trainable", "losses", "updates", "bias",
         "collections", "update_ops")


def _compare(got, want):
    for key in EXACT:
        assert got.get(key) == want.get(key), key
    for key in ("outputs", "after_updates"):
        assert sorted(got.get(key, {})) == sorted(want.get(key, {})), key
        for part, value in want.get(key, {}).items():
            np.testing.assert_allclose(got[key][part], value, rtol=1e-5, atol=1e-5,
                                       err_msg=f"{key}/{part}")


@pytest.mark.parametrize("name", sorted(cases.GRAPH_CASES))
def test_in_a_tf1_graph_as_tf215(name):
    got, want = cases.graph_case(name), TF215["graph"][name]
    _compare(got, want)
    assert got["summaries"] == want["summaries"]


@pytest.mark.parametrize("name", sorted(cases.EAGER_CASES))
def test_eagerly_as_tf215(name):
    _compare(cases.eager_case(name), TF215["eager"][name])


def test_the_v2_dnn_is_built_eagerly_too():
    assert TF215["eager_dnn_v2_error"] == "TypeError"  # 2.15's name-scope accident
    model, call = cases._dnn_v2(batch_norm=True, hidden_units=[3])
    features = cases.features()
    first = call(features, "infer")
    assert [v.name for v in model.variables] == [
        v[0] for v in TF215["graph"]["dnn_v2_batch_norm"]["variables"]]
    np.testing.assert_allclose(call(features, "infer"), first)  # the same variables
    mean = model.variables[5]
    call(features, "train")  # batch norm's moving averages move with the call
    assert np.abs(mean.numpy()).sum() > 0 and model.updates == [] and model.losses == []

    @tf.function
    def traced(f):
        return model(f, "infer")
    np.testing.assert_allclose(traced(features), model(features, "infer"), rtol=1e-6)
    assert len(model.variables) == 9


def test_an_estimator_model_fn_checkpoints_tf215s_keys(tmp_path):
    assert cases.estimator_checkpoint(str(tmp_path)) == TF215["checkpoint"]


def test_keras_models_of_both_import_paths():
    from tensorflow.python.estimator.canned import linear as linear_alias
    from tensorflow_estimator.python.estimator.canned import dnn, linear
    assert linear_alias.LinearModel is linear.LinearModel
    assert issubclass(dnn._DNNModelV2, tf.keras.Model)
    assert issubclass(dnn._DNNModel, tf.keras.Model)
    assert issubclass(linear.LinearModel, tf.keras.Model)
    assert issubclass(linear._LinearModelLayer, tf.keras.layers.Layer)
    with tf.Graph().as_default():  # tf.keras 2's default names, numbered per graph
        x, _ = cases.columns()
        names = [linear.LinearModel([x]).name, linear.LinearModel([x]).name,
                 linear._LinearModelLayer([x]).name,
                 dnn._DNNModelV2(1, [2], [x], tf.nn.relu, None, False).name,
                 dnn._DNNModel(1, [2], [x], tf.nn.relu, None, None, False).name]
    assert names == ["linear_model", "linear_model_1", "private__linear_model_layer",
                     "private_dnn_model_v2", "private_dnn_model"]


def test_keras_weights_api_and_config(tmp_path):
    model, call = cases._linear(units=2)
    call(cases.features(), "infer")
    assert [w.shape for w in model.get_weights()] == [(4, 2), (2, 2), (2,)]
    assert model.count_params() == 14
    model.set_weights([np.ones((4, 2)), np.zeros((2, 2)), np.array([0.5, -0.5])])
    want = [[2.5, 1.5], [1.5, 0.5], [0.5, -0.5]]
    np.testing.assert_allclose(call(cases.features(), "infer"), want)
    model.save_weights(str(tmp_path / "linear.weights.h5"))
    other, call_other = cases._linear(units=2)
    with pytest.raises(ValueError, match="call the model once"):
        other.load_weights(str(tmp_path / "linear.weights.h5"))
    call_other(cases.features(), "infer")
    other.load_weights(str(tmp_path / "linear.weights.h5"))
    np.testing.assert_allclose(call_other(cases.features(), "infer"), want)
    assert model.bias is model.variables[-1]
    model.trainable = False
    assert model.trainable_variables == [] and len(model.non_trainable_variables) == 3
    layer = model.layer
    copy = type(layer).from_config(layer.get_config())
    assert (copy.name, copy._units, copy._sparse_combiner) == (layer.name, 2, "sum")
    assert [c.name for c in copy._feature_columns] == ["c", "x"]


def test_what_2_15_rejected_is_rejected():
    from tensorflow_estimator.python.estimator.canned import dnn, linear
    x, _ = cases.columns()
    with pytest.raises(ValueError, match="must be a FeatureColumn"):
        linear.LinearModel(["x"])
    with pytest.raises(ValueError, match="must not be empty"):
        linear.LinearModel([])
    with pytest.raises(ValueError, match="Duplicate feature column"):
        linear.LinearModel([x, x])
    with pytest.raises(ValueError, match="expected a dictionary"):
        linear.LinearModel([x])(tf.constant([[1.0, 2.0]]))
    with tf.Graph().as_default():  # TF1's shared embeddings are graph-only
        v1_only = tf.compat.v1.feature_column.shared_embedding_columns(
            [tf.compat.v1.feature_column.categorical_column_with_identity("a", 3)], 2)
        with pytest.raises(ValueError, match="feature column from TensorFlow v1"):
            dnn._DNNModelV2(1, [2], v1_only, tf.nn.relu, None, False, name="dnn")
    with pytest.raises(ValueError, match="expected a dictionary"):
        dnn._DNNModelV2(1, [2], [x], tf.nn.relu, None, False, name="dnn")(
            tf.constant([[1.0, 2.0]]), "infer")
