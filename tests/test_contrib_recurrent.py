"""tf.contrib.recurrent against TF 1.15.5 (tests/tf115_cases/contrib_recurrent.py): Recurrent's
states and gradients (max length, end alignment, a custom cell_grad, one step), functional and
bidirectional RNNs with lengths, time-major, reversed, and one training step."""
from tf115_cases import harness

MODULE = "contrib_recurrent"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)
