"""tf.contrib.learn's SVM and binary_svm_head against TF 1.15.5 (tests/tf115_cases/
contrib_learn_svm.py): the head's hinge loss, metrics and predictions; the SVM's SDCA
training (hinge loss) to TF 1.15's loss and accuracy, with its variable names."""
import pytest
from tf115_cases import harness

MODULE = "contrib_learn_svm"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_served_names_and_bad_arguments():
    from estimator_compat.legacy.contrib import learn
    from estimator_compat.learn import svm
    module = learn.build()
    assert module.SVM is svm.SVM and module.binary_svm_head is svm.binary_svm_head
    assert module.head.binary_svm_head is svm.binary_svm_head
    from tensorflow.contrib.learn.python.learn.estimators import svm as deep
    assert deep.SVM is svm.SVM
    with pytest.raises(ValueError, match="Kernel SVMs"):
        svm.SVM("id", [], kernels=["rbf"])
    with pytest.raises(ValueError, match="example_id_column"):
        svm.SVM("", [])
    with pytest.raises(ValueError, match="no probabilities"):
        svm.SVM("id", []).predict_proba(input_fn=lambda: None)
