"""tf.contrib.data against TF 1.15.5: the cases of tests/tf115_cases/contrib_data.py run here and
compared with TF 1.15's record (tests/fixtures/tf115_cases/contrib_data.json)."""

from tf115_cases import harness

MODULE = "contrib_data"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)
