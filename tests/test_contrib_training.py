"""tf.contrib.training against TF 1.15.5: the cases of tests/tf115_cases/contrib_training.py
run here and compared with TF 1.15's record (tests/fixtures/tf115_cases/contrib_training.json)."""

from tf115_cases import harness

MODULE = "contrib_training"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)
