"""tf.layers / slim batch normalization's renorm, virtual_batch_size and adjustment, their
variables, update ops and op names, and dilated tf.layers convolutions' op names, against TF
1.15.5 (tests/tf115_cases/layers_batch_norm_extras.py)."""
from tf115_cases import harness

MODULE = "layers_batch_norm_extras"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)
