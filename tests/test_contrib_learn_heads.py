"""tf.contrib.learn's heads' TF 1.15 options against TF 1.15.5's record of the same cases
(tests/tf115_cases/contrib_learn_heads.py): centered bias on every head (its variable, Adagrad
slot, summaries, training step, shifted predictions), a custom loss_fn on the classification
heads, metric_class_ids' per-class metrics, thresholds, the errors' messages, and a
LinearEstimator under a centered-bias multi-class head (metric keys, checkpoint keys)."""
import pytest
from tf115_cases import harness

CASES = "contrib_learn_heads"

ours, test_case_matches_tf115 = harness.case_tests(CASES)


def test_heads_served_here():
    from estimator_compat.legacy import tf1_view
    tf = tf1_view.build()
    assert tf.contrib.learn.multi_class_head.__module__ == "estimator_compat.learn.heads"


def test_no_placeholder_errors(ours):
    """No case ends in an error here: every option TF 1.15 took is served."""
    for name, record in ours.items():
        assert "error" not in record, (name, record)
        assert "not supported by estimator_compat" not in str(record), name


@pytest.mark.parametrize("key", ["loss_fn_keyword_only", "binary_label_keys",
                                 "binary_metric_class_ids", "multi_label_one_class"])
def test_error_messages(ours, key):
    theirs = harness.recorded(CASES)["errors"]["values"][key]
    assert ours["errors"]["values"][key] == theirs
