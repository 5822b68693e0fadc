"""tf.contrib.learn's estimators taking a head (LinearEstimator, DNNEstimator,
DNNLinearCombinedEstimator), multi_head and DynamicRnnEstimator, against TF 1.15.5's record of
the same cases (tests/tf115_cases/contrib_learn_estimators.py): metrics and predictions of the
linear models, checkpoint keys (optimizer slots included), metric and prediction keys, the
double global-step increment of wide & deep without fix_global_step_increment_bug; a
SavedModel exported from one; and TF 1.15 model_dirs (tests/fixtures/tf115_learn_estimators/)
evaluated, predicted and trained on here to TF 1.15's own numbers."""
import os

import numpy as np
import pytest
from tf115_cases import harness

CASES = "contrib_learn_estimators"
FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "tf115_learn_estimators")

ours, test_case_matches_tf115 = harness.case_tests(CASES)


def test_served():
    from estimator_compat.legacy import tf1_view
    tf = tf1_view.build()
    learn = tf.contrib.learn
    assert learn.DNNEstimator.__module__ == "estimator_compat.learn.head_estimators"
    assert learn.head.multi_head is learn.multi_head
    assert learn.python.learn.estimators.LinearEstimator is learn.LinearEstimator
    rnn_common = learn.python.learn.estimators.rnn_common
    assert rnn_common.PredictionType.MULTIPLE_VALUE == 2
    assert learn.DynamicRnnEstimator.__module__ == "estimator_compat.learn.dynamic_rnn"


def test_export_savedmodel_classifies(tmp_path):
    """The exported DNNEstimator serves its head's classification signature."""
    import tensorflow as tf

    from estimator_compat.learn import export_strategy, head_estimators, heads
    x = np.random.RandomState(0).randn(20, 2).astype(np.float32)
    y = (x[:, :1] > 0).astype(np.int64)
    columns = [tf.feature_column.numeric_column("x", shape=[2])]
    est = head_estimators.DNNEstimator(heads.multi_class_head(3), [4], columns,
                                       model_dir=str(tmp_path / "model"))
    est.fit(input_fn=lambda: ({"x": tf.constant(x)}, tf.constant(y)), steps=2)
    serving = export_strategy.build_parsing_serving_input_fn(
        tf.compat.v1.feature_column.make_parse_example_spec(columns))
    path = est.export_savedmodel(str(tmp_path / "export"), serving)
    loaded = tf.saved_model.load(path.decode() if isinstance(path, bytes) else path)
    example = tf.train.Example(features=tf.train.Features(feature={"x": tf.train.Feature(
        float_list=tf.train.FloatList(value=[0.5, -0.5]))})).SerializeToString()
    scores = loaded.signatures["serving_default"](inputs=tf.constant([example]))["scores"]
    assert scores.shape == (1, 3)
    np.testing.assert_allclose(np.sum(scores), 1.0, rtol=1e-5)


def test_continues_a_tf115_model_dir(tmp_path):
    """TF 1.15.5's DNNLinearCombinedEstimator checkpoint after 5 fit steps (global step 6,
    the double increment), slots and learning rates included, trained 5 more steps here:
    TF 1.15.5 itself reached the same loss (0.72646171, accuracy 0.725, step 12)."""
    import shutil

    import tensorflow as tf

    from estimator_compat.learn import head_estimators, heads
    from estimator_compat.legacy.contrib.layers.feature_columns import columns
    model_dir = tmp_path / "combined"
    shutil.copytree(os.path.join(FIXTURES, "combined"), model_dir)
    rng = np.random.RandomState(0)
    x = rng.randn(40, 2).astype(np.float32)
    y = ((x[:, 0] > 0).astype(np.int64) + (x[:, 1] > 0).astype(np.int64)).reshape(-1, 1)
    cols = [columns.real_valued_column("x", dimension=2)]
    est = head_estimators.DNNLinearCombinedEstimator(
        heads.multi_class_head(3), linear_feature_columns=cols, dnn_feature_columns=cols,
        dnn_hidden_units=[4], model_dir=str(model_dir))

    def input_fn():
        return {"x": tf.constant(x)}, tf.constant(y)
    est.fit(input_fn=input_fn, steps=5)
    metrics = est.evaluate(input_fn=input_fn, steps=1)
    assert metrics["global_step"] == 12
    assert metrics["loss"] == pytest.approx(0.7264617085456848, rel=1e-5)
    assert metrics["accuracy"] == pytest.approx(0.725)


def _rnn_data():
    rng = np.random.RandomState(0)
    xs = rng.randn(12, 4, 2).astype(np.float32)
    context = rng.randn(12, 1).astype(np.float32)
    lengths = np.array([4, 3, 2, 4] * 3, np.int32)
    return xs, context, lengths


def test_dynamic_rnn_estimator_on_tf115_model_dirs(tmp_path):
    """TF 1.15.5's DynamicRnnEstimator checkpoints after 3 fit steps (a stacked LSTM with a
    context column, single-value binary classification; a GRU trained by Adam, one
    regression value per step): evaluated, predicted and trained 3 more steps here, to TF
    1.15.5's own numbers on the same model_dirs."""
    import shutil

    import tensorflow as tf
    from estimator_compat.learn import dynamic_rnn
    from estimator_compat.learn.model_fn_ops import ProblemType
    from estimator_compat.legacy.contrib.layers.feature_columns import columns
    xs, context, lengths = _rnn_data()
    sequence = [columns.real_valued_column("x", dimension=2)]
    runs = {
        "lstm": (lambda d: dynamic_rnn.DynamicRnnEstimator(
            ProblemType.CLASSIFICATION, dynamic_rnn.PredictionType.SINGLE_VALUE, sequence,
            context_feature_columns=[columns.real_valued_column("c")], num_classes=2,
            num_units=[3, 4], cell_type="lstm", predict_probabilities=True, model_dir=d),
            (xs[:, 0, 0] > 0).astype(np.int64)),
        "gru": (lambda d: dynamic_rnn.DynamicRnnEstimator(
            ProblemType.LINEAR_REGRESSION, dynamic_rnn.PredictionType.MULTIPLE_VALUE, sequence,
            num_units=3, cell_type="gru", optimizer="Adam", model_dir=d), xs[:, :, 1]),
    }
    tf115 = {  # evaluate, the first prediction, evaluate after 3 more steps
        "lstm": (0.6895146369934082, {"probabilities": [0.47557023, 0.52442974],
                                      "rnn_cell_state_3": [0.05564304, 0.02253001,
                                                           0.08555703, 0.03704536]},
                 0.687807023525238),
        "gru": (0.4532010555267334, {"scores": [-0.21486382, 1.07756305, 0.45455063,
                                                0.15514487]}, 0.23632477223873138)}
    for kind, (make, labels) in runs.items():
        model_dir = tmp_path / kind
        shutil.copytree(os.path.join(FIXTURES, "rnn_" + kind), model_dir)
        est = make(str(model_dir))

        def input_fn(labels=labels):
            return ({"x": tf.constant(xs), "c": tf.constant(context),
                     "sequence_length": tf.constant(lengths)}, tf.constant(labels))
        loss, predicted, loss_after = tf115[kind]
        assert est.evaluate(input_fn=input_fn, steps=1)["loss"] == pytest.approx(loss, 1e-5)
        first = next(iter(est.predict(input_fn=input_fn)))
        for key, value in predicted.items():
            np.testing.assert_allclose(first[key], value, rtol=1e-5, atol=1e-6)
        est.fit(input_fn=input_fn, steps=3)
        metrics = est.evaluate(input_fn=input_fn, steps=1)
        assert metrics["global_step"] == 6
        assert metrics["loss"] == pytest.approx(loss_after, 1e-5)
