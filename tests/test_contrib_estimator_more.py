"""tf.contrib.estimator's RNNClassifier / RNNEstimator and DNN*WithLayerAnnotations against
TF 1.15.5 (tests/tf115_cases/contrib_estimator_more.py, recorded in tests/fixtures/tf115_cases/):
from the same fixed checkpoint, the evaluation before and after three training steps, the
predictions and the checkpoint's names and shapes (slots included); the layer annotation
collections; the argument errors."""
from tf115_cases import harness

MODULE = "contrib_estimator_more"
ours, test_case_matches_tf115 = harness.case_tests(MODULE)
