"""tf.contrib.training's samplers against TF 1.15.5: the cases of
tests/tf115_cases/contrib_training_sampling.py run here and compared with TF 1.15's record
(tests/fixtures/tf115_cases/contrib_training_sampling.json)."""

from tf115_cases import harness

MODULE = "contrib_training_sampling"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)
