"""H2's part of `tf.contrib.distributions`: the scalar, discrete and meta distributions and the
functions, name -> object. TF 2.21's own objects where TensorFlow kept TF 1.15's (the
`tensorflow.python.ops.distributions` classes, the KL registry, distribution_util's
functions); ours (this package) for the rest."""
from tensorflow.python.ops.distributions import (bernoulli, beta, categorical, dirichlet,
                                                 dirichlet_multinomial, distribution,
                                                 exponential, gamma, kullback_leibler,
                                                 laplace, multinomial, normal, student_t,
                                                 uniform, util)

from estimator_compat.legacy.contrib.distributions_parts import (
    batch_reshape, chi2, counts, deterministic, exp_relaxed_onehot_categorical, half_normal,
    independent, inverse_gamma, location_scale, mixture, mixture_same_family, moving_stats,
    normal_conjugates, onehot_categorical, quantized_distribution, sample_stats, seed_stream)

NAMES = {
    # TF 2.21 kept these: TF 1.15's own classes and functions
    "Bernoulli": bernoulli.Bernoulli,
    "Beta": beta.Beta,
    "BetaWithSoftplusConcentration": beta.BetaWithSoftplusConcentration,
    "Categorical": categorical.Categorical,
    "Dirichlet": dirichlet.Dirichlet,
    "DirichletMultinomial": dirichlet_multinomial.DirichletMultinomial,
    "Distribution": distribution.Distribution,
    "ReparameterizationType": distribution.ReparameterizationType,
    "FULLY_REPARAMETERIZED": distribution.FULLY_REPARAMETERIZED,
    "NOT_REPARAMETERIZED": distribution.NOT_REPARAMETERIZED,
    "Exponential": exponential.Exponential,
    "ExponentialWithSoftplusRate": exponential.ExponentialWithSoftplusRate,
    "Gamma": gamma.Gamma,
    "GammaWithSoftplusConcentrationRate": gamma.GammaWithSoftplusConcentrationRate,
    "Laplace": laplace.Laplace,
    "LaplaceWithSoftplusScale": laplace.LaplaceWithSoftplusScale,
    "Multinomial": multinomial.Multinomial,
    "Normal": normal.Normal,
    "NormalWithSoftplusScale": normal.NormalWithSoftplusScale,
    "StudentT": student_t.StudentT,
    "StudentTWithAbsDfSoftplusScale": student_t.StudentTWithAbsDfSoftplusScale,
    "Uniform": uniform.Uniform,
    "RegisterKL": kullback_leibler.RegisterKL,
    "kl_divergence": kullback_leibler.kl_divergence,
    "fill_triangular": util.fill_triangular,
    "fill_triangular_inverse": util.fill_triangular_inverse,
    "matrix_diag_transform": util.matrix_diag_transform,
    "reduce_weighted_logsumexp": util.reduce_weighted_logsumexp,
    "softplus_inverse": util.softplus_inverse,
    "tridiag": util.tridiag,
    # written here
    "Binomial": counts.Binomial,
    "Geometric": counts.Geometric,
    "NegativeBinomial": counts.NegativeBinomial,
    "Poisson": counts.Poisson,
    "Cauchy": location_scale.Cauchy,
    "Logistic": location_scale.Logistic,
    "Chi2": chi2.Chi2,
    "Chi2WithAbsDf": chi2.Chi2WithAbsDf,
    "Deterministic": deterministic.Deterministic,
    "VectorDeterministic": deterministic.VectorDeterministic,
    "HalfNormal": half_normal.HalfNormal,
    "InverseGamma": inverse_gamma.InverseGamma,
    "InverseGammaWithSoftplusConcentrationRate":
        inverse_gamma.InverseGammaWithSoftplusConcentrationRate,
    "OneHotCategorical": onehot_categorical.OneHotCategorical,
    "ExpRelaxedOneHotCategorical": exp_relaxed_onehot_categorical.ExpRelaxedOneHotCategorical,
    "Independent": independent.Independent,
    "Mixture": mixture.Mixture,
    "MixtureSameFamily": mixture_same_family.MixtureSameFamily,
    "BatchReshape": batch_reshape.BatchReshape,
    "QuantizedDistribution": quantized_distribution.QuantizedDistribution,
    "SeedStream": seed_stream.SeedStream,
    "assign_log_moving_mean_exp": moving_stats.assign_log_moving_mean_exp,
    "assign_moving_mean_variance": moving_stats.assign_moving_mean_variance,
    "moving_mean_variance": moving_stats.moving_mean_variance,
    "auto_correlation": sample_stats.auto_correlation,
    "percentile": sample_stats.percentile,
    "normal_conjugates_known_scale_posterior":
        normal_conjugates.normal_conjugates_known_scale_posterior,
    "normal_conjugates_known_scale_predictive":
        normal_conjugates.normal_conjugates_known_scale_predictive,
}
