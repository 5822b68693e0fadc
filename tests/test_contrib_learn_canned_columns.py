"""tf.contrib.learn's canned estimators over tf.contrib.layers and core feature columns, built as
TF 1.15 built them (contrib.learn's DNN / linear / wide & deep models under a contrib head),
against TF 1.15.5's record of the same cases
(tests/tf115_cases/contrib_learn_canned_columns.py): checkpoint names and shapes (optimizer
slots, the learning rate variables, the centered bias and its slots, joint weights), metric
keys, global steps (wide & deep's double increment), and the linear models' metric values,
weights and predictions."""
from tf115_cases import harness

CASES = "contrib_learn_canned_columns"

ours, test_case_matches_tf115 = harness.case_tests(CASES)


def test_centered_bias_and_joint_weights_names(ours):
    """The names the brief's TF 1.15 findings gave, in our run."""
    def names(case):
        return [n for n, _ in ours[case]["values"]["variables"]]
    assert "linear/regression_head/linear/regression_head/centered_bias_weight/Adagrad" in (
        names("linear_regressor_centered_bias"))
    dnn = [n for n in names("dnn_regressor_centered_bias") if "centered_bias" in n]
    assert len(dnn) == 3 and "dnn/regression_head/centered_bias_weight" in dnn
    assert "regression_head/centered_bias_weight" in names(
        "combined_regressor_centered_bias_joint")
    assert "linear/linear_weights/weights" in names("linear_classifier_joint_weight")


def test_core_columns_build_tf115s_own_model():
    """Core columns alone build TF 1.15's contrib.learn model too (its variable names and
    head metrics: recorded in the *_core_columns cases); only tf.estimator's LinearSDCA, which
    TF 1.15 did not have, makes tf.estimator's canned model (learn/canned_core.py)."""
    import tensorflow as tf

    from estimator_compat.canned.linear_sdca import LinearSDCA
    from estimator_compat.learn import canned_classes, canned_core
    core = [tf.feature_column.numeric_column("x")]
    assert type(canned_classes.DNNClassifier([3], core)) is canned_classes.DNNClassifier
    sdca = canned_classes.LinearClassifier(core, optimizer=LinearSDCA("id"))
    assert type(sdca) is canned_core.LinearClassifier
    assert isinstance(sdca, canned_classes.LinearClassifier)
