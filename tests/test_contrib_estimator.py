"""tf.contrib.estimator against TF 1.15.5: the heads' predictions, losses, eval metrics,
export outputs and summaries, the logit fns' variables and clip_gradients_by_norm
(tests/tf115_cases/contrib_estimator.py, recorded in tests/fixtures/tf115_cases/).

Known differences, not compared: the metric variables' names (LOCAL_VARIABLES: estimator_compat's
heads build their metrics from one table, TF 1.15's under a `metrics/` scope of their own), the
LOSSES collection (TF 1.15's heads added their weighted losses to it) and MODEL_VARIABLES
(TensorFlow 2.21's linear_model adds its weights there)."""
import copy

import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from tf115_cases import harness

MODULE = "contrib_estimator"
NOT_COMPARED = ("local_variables", "losses", "model_variables")


def _without_known_differences(record):
    record = copy.deepcopy(record)
    for key in NOT_COMPARED:
        record.get("collections", {}).pop(key, None)
    return record


@pytest.fixture(scope="module")
def ours():
    return harness.run_here(MODULE)


@pytest.mark.parametrize("name", list(harness.cases(MODULE)))
def test_case_matches_tf115(ours, name):
    harness.compare(_without_known_differences(ours[name]),
                    _without_known_differences(harness.recorded(MODULE)[name]),
                    harness.cases(MODULE)[name])


def test_replicate_model_fn_is_served():  # its cases: tests/tf115_cases/contrib_leftovers.py
    from estimator_compat.legacy import tf1_view
    contrib = tf1_view.build().contrib
    assert callable(contrib.estimator.replicate_model_fn)
    assert issubclass(contrib.estimator.TowerOptimizer, tf.compat.v1.train.Optimizer)


def test_forward_features_and_export_for_mode(tmp_path):
    """forward_features adds the features to predict's dicts; export_saved_model_for_mode
    writes one mode's graph ('eval' tag), as tf.contrib.estimator did."""
    from estimator_compat.legacy.contrib import estimator as contrib_estimator
    contrib = contrib_estimator.build()
    x = np.arange(8, dtype=np.float32).reshape(4, 2)

    def model_fn(features, labels, mode):
        w = tf.compat.v1.get_variable("w", [2, 1], initializer=tf.compat.v1.ones_initializer())
        pred = tf.matmul(features["x"], w)
        if mode == ec.ModeKeys.PREDICT:
            return ec.EstimatorSpec(mode, predictions={"y": pred})
        loss = tf.reduce_mean(tf.square(pred - labels))
        step = tf.compat.v1.train.get_global_step()
        return ec.EstimatorSpec(mode, loss=loss, train_op=step.assign_add(1))

    def input_fn():
        return tf.data.Dataset.from_tensor_slices(({"x": x, "id": np.arange(4)},
                                                   np.ones([4, 1], np.float32))).batch(4)
    est = ec.Estimator(model_fn, model_dir=str(tmp_path / "model"))
    est.train(input_fn, steps=1)
    forwarded = contrib.forward_features(est, "id")
    rows = list(forwarded.predict(lambda: input_fn().map(lambda f, y: f)))
    assert [int(r["id"]) for r in rows] == [0, 1, 2, 3]
    assert [float(r["y"][0]) for r in rows] == [1.0, 5.0, 9.0, 13.0]
    with pytest.raises(ValueError, match="is not in features"):
        list(contrib.forward_features(est, "nope").predict(
            lambda: input_fn().map(lambda f, y: f)))

    receiver = contrib.build_supervised_input_receiver_fn_from_input_fn(input_fn)
    path = contrib.export_saved_model_for_mode(est, str(tmp_path / "export"), receiver,
                                               mode=ec.ModeKeys.EVAL)
    loaded = tf.saved_model.load(path.decode() if isinstance(path, bytes) else path,
                                 tags=["eval"])
    assert "eval" in loaded.signatures


def test_cloud_course_trainer_with_add_metrics_and_forward_features(tmp_path):
    """tests/programs/cloud_course/taxifare.py (the Cloud training course's trainer style:
    a canned wide & deep regressor on CSV, contrib.estimator.add_metrics for rmse,
    forward_features for the key, train_and_evaluate with a LatestExporter, the export read by
    contrib.predictor). TF 1.15.5 on the same files: rmse 7.2694, average_loss 52.844,
    prediction keys k1_0, k1_1, the served signature ['key', 'predictions']."""
    import json
    import os

    from helpers import PROGRAMS, run_program
    out, _ = run_program(os.path.join(PROGRAMS, "cloud_course", "taxifare.py"),
                         "--data_dir", tmp_path / "data", "--output_dir", tmp_path / "out")
    result = json.loads([x for x in out.splitlines() if x.startswith("RESULT ")][-1][7:])
    assert abs(result["rmse"] - 7.2694) < 0.35
    assert result["keys"] == ["k1_0", "k1_1"]
    assert result["served_keys"] == ["key", "predictions"] and result["served_key"] == "served_1"
