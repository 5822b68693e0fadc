"""tf.contrib.optimizer_v2 against TF 1.15.5 (tests/tf115_cases/contrib_optimizer_v2.py): three
steps of each optimizer, dense and sparse gradients, ref and resource variables, hyperparameters
as numbers / tensors / callables; slot and non-slot names; a subclass's hooks; misuse errors."""
from tf115_cases import harness

MODULE = "contrib_optimizer_v2"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)
