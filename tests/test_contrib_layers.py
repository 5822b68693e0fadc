"""tf.contrib.layers against TF 1.15.5's record (tests/tf115_cases/contrib_layers.py): variable
names and scopes, MODEL_VARIABLES / UPDATE_OPS / REGULARIZATION_LOSSES, summaries, values."""

from tf115_cases import harness


ours, test_case_matches_tf115 = harness.case_tests("contrib_layers")
