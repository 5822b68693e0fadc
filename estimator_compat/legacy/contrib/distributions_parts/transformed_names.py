"""H3's part of `tf.contrib.distributions`: TransformedDistribution and the distributions
built on bijectors and linear operators, the quadrature schemes and the distribution
regression head (`NAMES`, name -> object, joined into the namespace by `distributions.py`).
Importing `mvn` registers the multivariate Normals' KL divergence."""
from estimator_compat.legacy.contrib.distributions_parts import (
    autoregressive, conditional, kumaraswamy, mvn, poisson_lognormal, quadrature,
    regression_head, relaxed, sinh_arcsinh, transformed_distribution, vector_diag,
    vector_diffeomixture, wishart)

NAMES = {
    "TransformedDistribution": transformed_distribution.TransformedDistribution,
    "ConditionalDistribution": conditional.ConditionalDistribution,
    "ConditionalTransformedDistribution": conditional.ConditionalTransformedDistribution,
    "Autoregressive": autoregressive.Autoregressive,
    "RelaxedBernoulli": relaxed.RelaxedBernoulli,
    "RelaxedOneHotCategorical": relaxed.RelaxedOneHotCategorical,
    "Kumaraswamy": kumaraswamy.Kumaraswamy,
    "SinhArcsinh": sinh_arcsinh.SinhArcsinh,
    "MultivariateNormalDiag": mvn.MultivariateNormalDiag,
    "MultivariateNormalDiagPlusLowRank": mvn.MultivariateNormalDiagPlusLowRank,
    "MultivariateNormalDiagWithSoftplusScale": mvn.MultivariateNormalDiagWithSoftplusScale,
    "MultivariateNormalFullCovariance": mvn.MultivariateNormalFullCovariance,
    "MultivariateNormalTriL": mvn.MultivariateNormalTriL,
    "VectorExponentialDiag": vector_diag.VectorExponentialDiag,
    "VectorLaplaceDiag": vector_diag.VectorLaplaceDiag,
    "VectorSinhArcsinhDiag": sinh_arcsinh.VectorSinhArcsinhDiag,
    "VectorDiffeomixture": vector_diffeomixture.VectorDiffeomixture,
    "WishartCholesky": wishart.WishartCholesky,
    "WishartFull": wishart.WishartFull,
    "PoissonLogNormalQuadratureCompound": poisson_lognormal.PoissonLogNormalQuadratureCompound,
    "quadrature_scheme_lognormal_gauss_hermite":
        quadrature.quadrature_scheme_lognormal_gauss_hermite,
    "quadrature_scheme_lognormal_quantiles": quadrature.quadrature_scheme_lognormal_quantiles,
    "quadrature_scheme_softmaxnormal_gauss_hermite":
        quadrature.quadrature_scheme_softmaxnormal_gauss_hermite,
    "quadrature_scheme_softmaxnormal_quantiles":
        quadrature.quadrature_scheme_softmaxnormal_quantiles,
    "estimator_head_distribution_regression":
        regression_head.estimator_head_distribution_regression,
}
