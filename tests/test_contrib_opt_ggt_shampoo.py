"""tf.contrib.opt's GGTOptimizer and ShampooOptimizer against TF 1.15.5's record
(tests/tf115_cases/contrib_opt_ggt_shampoo.py): slot and non-slot variable names (checkpoint
keys), collections and each step's values of every variable, with TF1 reference variables (a
session program) and with resource variables (an Estimator's model_fn)."""
import numpy as np
import pytest
from tf115_cases import harness

MODULE = "contrib_opt_ggt_shampoo"


ours, ours_resource, test_case_matches_tf115 = harness.case_tests_both_variable_kinds(MODULE)


def test_matrix_inverse_pth_root_matches_the_eigendecomposition():
    from estimator_compat.legacy.contrib.opt.matrix_functions import (
        matrix_inverse_pth_root,
        matrix_square_root,
    )
    rng = np.random.RandomState(0)
    a = rng.randn(5, 5)
    mat = (a @ a.T + np.eye(5)).astype(np.float64)
    values, vectors = np.linalg.eigh(mat)
    for p in (1, 2, 4):
        got = matrix_inverse_pth_root(mat, 5, -1.0 / p, epsilon=1e-10, ridge_epsilon=0.0)
        np.testing.assert_allclose(got.numpy(), vectors @ np.diag(values ** (-1.0 / p))
                                   @ vectors.T, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(matrix_square_root(mat, 5, ridge_epsilon=0.0).numpy(),
                               vectors @ np.diag(np.sqrt(values)) @ vectors.T, rtol=1e-6)
    with pytest.raises(ValueError, match="alpha = -1/p"):
        matrix_inverse_pth_root(mat, 5, -0.3)


def test_scalar_variable_is_refused_with_a_clear_error():
    from estimator_compat.legacy import tf1_view
    tf = tf1_view.build()
    with tf.Graph().as_default():
        v = tf.get_variable("s", initializer=2.0)
        with pytest.raises(ValueError, match="scalar"):
            tf.contrib.opt.ShampooOptimizer().minimize(v * v)
