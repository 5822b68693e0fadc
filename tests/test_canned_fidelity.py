"""Canned estimators give tf.estimator 2.15's metrics on the same script.

`benchmarks/canned_fidelity.py` runs each case under either implementation: the same canned
estimator, started from the same seeded weights (warm start from a TF1 checkpoint, so neither
side's random initialiser decides the result), trained 200 steps on iris with the same seeded
shuffle, then evaluated. TF215 below is what it printed under TensorFlow 2.15.1 +
tensorflow-estimator 2.15.0 (Python 3.11, measured once, 2026-12-02; the LinearSDCA cases
2026-12-03; combined_shared_vocab 2026-12-04); estimator_compat printed the same numbers to 4 decimals. The tolerance allows for float differences across platforms.
"""
import os
import sys

import pytest

pytest.importorskip("sklearn")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "benchmarks"))
import canned_fidelity  # noqa: E402

TF215 = {
    "dnn3": {"accuracy": 0.3333, "average_loss": 0.9793, "loss": 0.951},
    "dnn_binary": {"accuracy": 0.6667, "accuracy_baseline": 0.6667, "auc": 0.3919,
        "auc_precision_recall": 0.2648, "average_loss": 0.6591, "label/mean": 0.3333,
        "loss": 0.6382, "precision": 0.0, "prediction/mean": 0.3108, "recall": 0.0},
    "dnn_reg": {"average_loss": 3.7701, "label/mean": 1.1993, "loss": 3.9964,
        "prediction/mean": -0.5006},
    "dnn_batch_norm": {"accuracy": 0.3333, "average_loss": 1.5898, "loss": 1.5031},
    "dnn_keras_adam": {"accuracy": 0.7933, "average_loss": 0.3777, "loss": 0.3787},
    "dnn_columns": {"accuracy": 0.3667, "average_loss": 1.0069, "loss": 0.9823},
    "linear3": {"accuracy": 0.98, "average_loss": 0.292, "loss": 0.2967},
    "linear_binary": {"accuracy": 0.6667, "accuracy_baseline": 0.6667, "auc": 0.6605,
        "auc_precision_recall": 0.3831, "average_loss": 0.5762, "label/mean": 0.3333,
        "loss": 0.5676, "precision": 0.0, "prediction/mean": 0.2862, "recall": 0.0},
    "linear_reg": {"average_loss": 0.0428, "label/mean": 1.1993, "loss": 0.0482,
        "prediction/mean": 1.1214},
    "linear_columns": {"accuracy": 0.8733, "average_loss": 0.2929, "loss": 0.2941},
    "baseline3": {"accuracy": 0.3333, "average_loss": 1.0991, "loss": 1.0968},
    "baseline_reg": {"average_loss": 0.5772, "label/mean": 1.1993, "loss": 0.5899,
        "prediction/mean": 1.2048},
    "combined3": {"accuracy": 0.3333, "average_loss": 1.2119, "loss": 1.1772},
    "combined_binary": {"accuracy": 0.6667, "accuracy_baseline": 0.6667, "auc": 0.6241,
        "auc_precision_recall": 0.4379, "average_loss": 0.63, "label/mean": 0.3333,
        "loss": 0.6169, "precision": 0.0, "prediction/mean": 0.3509, "recall": 0.0},
    "combined_shared_vocab": {"accuracy": 0.3333, "average_loss": 1.1234, "loss": 1.0777},
    "combined_reg": {"average_loss": 4.9442, "label/mean": 1.1993, "loss": 5.2386,
        "prediction/mean": -0.6778},
    "linear_weighted": {"accuracy": 0.971, "average_loss": 0.3255, "loss": 0.534},
    "head_binary_thresholds": {"accuracy": 0.6667, "accuracy/positive_threshold_0.3": 0.6667,
        "accuracy/positive_threshold_0.7": 0.6667, "accuracy_baseline": 0.6667, "auc": 0.7001,
        "auc_precision_recall": 0.4344, "average_loss": 0.4877, "label/mean": 0.3333,
        "loss": 0.4933, "precision": 0.0, "precision/positive_threshold_0.3": 0.5,
        "precision/positive_threshold_0.7": 0.0, "prediction/mean": 0.3062, "recall": 0.0,
        "recall/positive_threshold_0.3": 1.0, "recall/positive_threshold_0.7": 0.0},
    "head_multi_label": {"accuracy/positive_threshold_0.4": 0.9111, "auc": 0.9805,
        "auc/class0": 1.0, "auc/class2": 0.9209, "auc_precision_recall": 0.9618,
        "auc_precision_recall/class0": 1.0, "auc_precision_recall/class2": 0.8917,
        "average_loss": 0.2112, "loss": 0.2117, "precision/positive_threshold_0.4": 0.8095,
        "probability_mean/class0": 0.3415, "probability_mean/class2": 0.4887,
        "recall/positive_threshold_0.4": 1.0},
    "head_poisson": {"average_loss": 1.2511, "label/mean": 2.4067, "loss": 1.2757,
        "prediction/mean": 2.3277},
    "head_multi": {"accuracy/species": 0.9733, "average_loss/species": 0.3117,
        "average_loss/width": 0.0469, "label/mean/width": 1.1993, "loss": 0.3666,
        "loss/species": 0.3169, "loss/width": 0.0497, "prediction/mean/width": 1.1718},
    "v1_dnn3": {"accuracy": 0.9533, "average_loss": 0.1238, "loss": 3.7148},
    "v1_linear_reg": {"average_loss": 0.0428, "label/mean": 1.1993, "loss": 1.2832,
        "prediction/mean": 1.1212},
    "v1_combined3": {"accuracy": 0.3333, "average_loss": 1.2799, "loss": 38.3958},
    "sdca_one_example": {"accuracy": 0.6667, "accuracy_baseline": 0.6667, "auc": 0.8459,
        "auc_precision_recall": 0.7004, "average_loss": 0.8403, "label/mean": 0.3333,
        "loss": 0.7917, "precision": 0.0, "prediction/mean": 0.0632, "recall": 0.0},
    "sdca_reg_one_example": {"average_loss": 0.1169, "label/mean": 1.3851, "loss": 0.1919,
        "prediction/mean": 1.634},
}
# Batched SDCA: TensorFlow's kernel visits each batch's examples in a new random order, so
# tf.estimator 2.15 itself gives different numbers run to run; these are the (min, max) of six
# of its runs (2026-12-03). A result must fall in that range widened by twice its width (at
# least 1%): a wrong loss, shrinkage or state would land far outside.
TF215_RANGE = {
    "sdca_binary": {"auc": (0.8976, 0.9001), "average_loss": (0.4105, 0.4128),
        "loss": (0.4119, 0.4136), "prediction/mean": (0.3171, 0.3317)},
    # 18 runs (2026-12-03 and -04): 1 in 10 lands near 0.11 (ours 0.118 once in 12, and 0.111
    # in a CI run, outside the 6-run range first recorded here).
    "sdca_reg": {"average_loss": (0.0407, 0.1124), "label/mean": (1.3851, 1.3851),
        "loss": (0.0726, 0.1993), "prediction/mean": (1.1187, 1.5516)},
    # 18 runs (2026-12-03 and -05): prediction/mean spreads most (0.321 once in 12); a CI run
    # of ours gave 0.277 with auc and losses inside their ranges (28 local runs: 0.329-0.360).
    "sdca_adaptive": {"auc": (0.9077, 0.914), "average_loss": (0.383, 0.3869),
        "loss": (0.3861, 0.3933), "prediction/mean": (0.321, 0.3617)},
    "v1_sdca_binary": {"auc": (0.8981, 0.9022), "average_loss": (0.4091, 0.4106),
        "loss": (12.2734, 12.3192), "prediction/mean": (0.3238, 0.3337)},
}


def test_every_case_is_recorded():
    assert set(TF215) | set(TF215_RANGE) == set(canned_fidelity.CASES)


@pytest.mark.parametrize("name", sorted(TF215))
def test_metrics_match_tf_estimator_2_15(name):
    result = canned_fidelity.run_case(name, steps=200)
    assert result["global_step"] == 200
    assert set(result) - {"global_step"} == set(TF215[name])  # the same metrics, no more
    for key, want in TF215[name].items():
        assert result[key] == pytest.approx(want, abs=2e-3, rel=1e-3), (key, result)


@pytest.mark.parametrize("name", sorted(TF215_RANGE))
def test_batched_sdca_within_tf_estimator_2_15_spread(name):
    result = canned_fidelity.run_case(name, steps=200)
    assert result["global_step"] == 200
    for key, (low, high) in TF215_RANGE[name].items():
        margin = max(2 * (high - low), 0.01 * abs(high))
        assert low - margin <= result[key] <= high + margin, (key, result)
