"""tf.contrib.kernel_methods against TF 1.15.5 (tests/tf115_cases/contrib_kernel_methods.py):
RandomFourierFeatureMapper's mapping (the same seeded matrix), sparse_multiclass_hinge_loss's
values, reductions and checks. KernelLinearClassifier is trained in
tests/programs/linear_models (tests/test_contrib_linear_optimizer.py runs it)."""
import pytest
from tf115_cases import harness

MODULE = "contrib_kernel_methods"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_kernel_linear_classifier_checks_its_arguments():
    """TF 1.15 raised ValueError for each of these."""
    from estimator_compat.learn.kernel_linear import KernelLinearClassifier
    from estimator_compat.learn.kernel_mappers import RandomFourierFeatureMapper
    from estimator_compat.legacy.contrib.layers.feature_columns import columns
    column = columns.real_valued_column("x", 2)
    mapper = RandomFourierFeatureMapper(2, 4)
    with pytest.raises(ValueError, match="at least one"):
        KernelLinearClassifier()
    with pytest.raises(ValueError, match="Invalid kernel mappers"):
        KernelLinearClassifier(kernel_mappers={column: ["not a mapper"]})
    with pytest.raises(ValueError):
        KernelLinearClassifier(kernel_mappers={column: [mapper]}, n_classes=1)


def test_tf115_module_paths_are_served():
    import sys

    from estimator_compat.legacy import tf1_view
    contrib = tf1_view.build().contrib
    prefix = "tensorflow.contrib."
    assert sys.modules[prefix + "kernel_methods.python.mappers.random_fourier_features"] \
        .RandomFourierFeatureMapper is contrib.kernel_methods.RandomFourierFeatureMapper
    assert sys.modules[prefix + "kernel_methods.python.losses"].sparse_multiclass_hinge_loss \
        is contrib.kernel_methods.sparse_multiclass_hinge_loss
    assert sys.modules[prefix + "linear_optimizer.python.ops.sdca_ops"].SdcaModel \
        is contrib.linear_optimizer.SdcaModel
    assert sys.modules[prefix + "linear_optimizer.python.sdca_optimizer"].SDCAOptimizer \
        is contrib.linear_optimizer.SDCAOptimizer
