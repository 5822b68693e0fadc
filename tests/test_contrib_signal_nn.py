"""tf.contrib.signal, .stateless, .sparsemax and .nn against TF 1.15.5's record
(tests/tf115_cases/contrib_signal_nn.py): values on fixed inputs and seeds, sparsemax's
gradients, op names and the errors of bad seeds."""

from tf115_cases import harness

MODULE = "contrib_signal_nn"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)
