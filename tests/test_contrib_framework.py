"""tf.contrib.framework against TF 1.15.5's record (tests/tf115_cases/contrib_framework.py):
arg_scope, the variable helpers and their collections, checkpoint restoring, tensor helpers."""

from tf115_cases import harness


ours, test_case_matches_tf115 = harness.case_tests("contrib_framework")
