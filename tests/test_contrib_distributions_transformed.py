"""tf.contrib.distributions' TransformedDistribution family against TF 1.15.5
(tests/tf115_cases/contrib_distributions_transformed.py): TransformedDistribution with batch /
event overrides, ConditionalTransformedDistribution, Autoregressive, the multivariate Normals
and their KL, VectorExponential / VectorLaplace / (Vector)SinhArcsinh, Kumaraswamy, the relaxed
distributions, Wishart, the quadrature schemes, PoissonLogNormalQuadratureCompound,
VectorDiffeomixture and estimator_head_distribution_regression: values, shapes, names,
parameters, sample shapes and sample-mean bands, and the errors of invalid arguments."""
import numpy as np

from tf115_cases import harness

MODULE = "contrib_distributions_transformed"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_softmaxnormal_gauss_hermite_scheme():
    """TF 1.15's raised AttributeError on any call (`dt.dtype` of a DType); served working:
    the grid is softmax(-[0, loc + sqrt(2) scale x_i]) over the Gauss-Hermite nodes x_i (its
    first row sigmoid(loc + sqrt(2) scale x_i), as the quantile scheme's), the probs their
    normalized weights."""
    import tensorflow as tf

    from estimator_compat.legacy.contrib.distributions_parts import quadrature
    loc, scale = np.array([[0.5], [-1.]], np.float32), np.array([[1.], [2.]], np.float32)
    grid, probs = quadrature.quadrature_scheme_softmaxnormal_gauss_hermite(loc, scale, 4)
    nodes, weights = np.polynomial.hermite.hermgauss(4)
    logits = loc + np.sqrt(2.) * scale * nodes  # [2, 4]
    first = 1. / (1. + np.exp(-logits))
    expected = np.stack([first, 1. - first], axis=-2)
    np.testing.assert_allclose(grid.numpy(), expected, rtol=1e-5)
    np.testing.assert_allclose(probs.numpy(), weights / weights.sum(), rtol=1e-6)
    assert grid.dtype == tf.float32
