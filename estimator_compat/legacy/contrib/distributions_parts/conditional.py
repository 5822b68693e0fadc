"""TF 1.15's `ConditionalDistribution` (a Distribution whose sample / log_prob / prob / cdf /
survival methods take keyword arguments to condition on, handed to the subclass's `_log_prob`
and the like) and `ConditionalTransformedDistribution` (a TransformedDistribution taking
`bijector_kwargs` / `distribution_kwargs`, handed to its bijector / base distribution)."""
from tensorflow.python.ops.distributions import distribution

from estimator_compat.legacy.contrib.distributions_parts.transformed_distribution import (
    TransformedDistribution)


class ConditionalDistribution(distribution.Distribution):
    """A Distribution whose methods take `**condition_kwargs`."""

    def sample(self, sample_shape=(), seed=None, name="sample", **condition_kwargs):
        """Samples of `sample_shape`, given the condition."""
        return self._call_sample_n(sample_shape, seed, name, **condition_kwargs)

    def log_prob(self, value, name="log_prob", **condition_kwargs):
        """Log probability density/mass of `value`, given the condition."""
        return self._call_log_prob(value, name, **condition_kwargs)

    def prob(self, value, name="prob", **condition_kwargs):
        """Probability density/mass of `value`, given the condition."""
        return self._call_prob(value, name, **condition_kwargs)

    def log_cdf(self, value, name="log_cdf", **condition_kwargs):
        """Log cumulative distribution function, given the condition."""
        return self._call_log_cdf(value, name, **condition_kwargs)

    def cdf(self, value, name="cdf", **condition_kwargs):
        """Cumulative distribution function, given the condition."""
        return self._call_cdf(value, name, **condition_kwargs)

    def log_survival_function(self, value, name="log_survival_function",
                              **condition_kwargs):
        """Log survival function, given the condition."""
        return self._call_log_survival_function(value, name, **condition_kwargs)

    def survival_function(self, value, name="survival_function", **condition_kwargs):
        """Survival function, given the condition."""
        return self._call_survival_function(value, name, **condition_kwargs)


class ConditionalTransformedDistribution(ConditionalDistribution, TransformedDistribution):
    """A TransformedDistribution whose methods take `bijector_kwargs` (for the bijector's
    forward / inverse / log-det-Jacobian) and `distribution_kwargs` (for the base's sample /
    log_prob / cdf ...); TransformedDistribution's methods already pass them on."""
