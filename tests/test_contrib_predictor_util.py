"""tf.contrib.predictor, tf.contrib.deprecated and tf.contrib.util against TF 1.15.5: the cases
of tests/tf115_cases/contrib_deprecated_util.py, and predictors over an Estimator and its
SavedModel with the numbers TF 1.15.5 printed for the same model."""
import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from tf115_cases import harness

v1 = tf.compat.v1
MODULE = "contrib_deprecated_util"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def _model_fn(features, labels, mode):
    w = v1.get_variable("w", [3, 1], initializer=v1.constant_initializer([[1.0], [2.0], [3.0]]))
    y = tf.matmul(features["x"], w)
    if mode == ec.ModeKeys.PREDICT:
        return ec.EstimatorSpec(mode, predictions={"y": y, "twice": 2 * y})
    loss = tf.reduce_mean(tf.square(y - labels))
    return ec.EstimatorSpec(mode, loss=loss, train_op=v1.train.GradientDescentOptimizer(
        0.0).minimize(loss, v1.train.get_global_step()))


def test_predictors_from_estimator_and_saved_model(tmp_path):
    """TF 1.15.5, same model: from_estimator({"x": [[1, 1, 1]]}) -> y 6, twice 12 (a
    CoreEstimatorPredictor); from_saved_model({"x": [[1, 0, 1]]}) -> 4, 8; feed keys ['x'],
    fetch keys ['twice', 'y']; an unknown input key: ValueError "Got unexpected keys"."""
    from estimator_compat.legacy import tf1_view
    predictor = tf1_view.build().contrib.predictor
    est = ec.Estimator(_model_fn, str(tmp_path / "m"))
    est.train(lambda: tf.data.Dataset.from_tensors(
        ({"x": np.ones([2, 3], np.float32)}, np.ones([2, 1], np.float32))), steps=1)
    receiver = ec.export.build_raw_serving_input_receiver_fn({"x": tf.zeros([1, 3])})
    p = predictor.from_estimator(est, receiver)
    assert type(p).__name__ == "CoreEstimatorPredictor"
    assert sorted(p.feed_tensors) == ["x"] and sorted(p.fetch_tensors) == ["twice", "y"]
    out = p({"x": [[1.0, 1.0, 1.0]]})
    np.testing.assert_allclose(out["y"], [[6.0]])
    np.testing.assert_allclose(out["twice"], [[12.0]])
    path = est.export_saved_model(str(tmp_path / "export"), receiver).decode()
    p = predictor.from_saved_model(path)
    out = p({"x": [[1.0, 0.0, 1.0]]})
    np.testing.assert_allclose(out["y"], [[4.0]])
    np.testing.assert_allclose(out["twice"], [[8.0]])
    with pytest.raises(ValueError, match="Got unexpected keys in input_dict"):
        p({"z": [[1.0]]})
    with pytest.raises(ValueError, match="Could not find signature def 'nope'"):
        predictor.from_saved_model(path, signature_def_key="nope")
    named = predictor.from_saved_model(path, input_names={"in": p.feed_tensors["x"].name},
                                       output_names={"out": p.fetch_tensors["y"].name})
    np.testing.assert_allclose(named({"in": [[0.0, 1.0, 0.0]]})["out"], [[2.0]])
