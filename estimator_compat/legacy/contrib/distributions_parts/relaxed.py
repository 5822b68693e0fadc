"""TF 1.15's relaxed (Concrete / Gumbel-softmax) distributions, continuous stand-ins for
discrete ones: `RelaxedBernoulli` (Logistic(logits / t, 1 / t) through a sigmoid) and
`RelaxedOneHotCategorical` (ExpRelaxedOneHotCategorical through exp)."""
import tensorflow as tf
from tensorflow.python.ops.distributions import util as distribution_util

from estimator_compat.legacy.contrib.distributions_parts.bijectors.exp import Exp
from estimator_compat.legacy.contrib.distributions_parts.bijectors.sigmoid import Sigmoid
from estimator_compat.legacy.contrib.distributions_parts.exp_relaxed_onehot_categorical import (
    ExpRelaxedOneHotCategorical)
from estimator_compat.legacy.contrib.distributions_parts.location_scale import Logistic
from estimator_compat.legacy.contrib.distributions_parts.transformed_distribution import (
    TransformedDistribution)

_v1 = tf.compat.v1


class RelaxedBernoulli(TransformedDistribution):
    """Values in (0, 1), concentrating on {0, 1} as `temperature` goes to 0."""

    def __init__(self, temperature, logits=None, probs=None, validate_args=False,
                 allow_nan_stats=True, name="RelaxedBernoulli"):
        parameters = dict(locals())
        with _v1.name_scope(name, values=[logits, probs, temperature]) as name:
            checks = [_v1.assert_positive(temperature)] if validate_args else []
            with tf.control_dependencies(checks):
                self._temperature = tf.identity(temperature, name="temperature")
            self._logits, self._probs = distribution_util.get_logits_and_probs(
                logits=logits, probs=probs, validate_args=validate_args)
            super().__init__(
                distribution=Logistic(self._logits / self._temperature,
                                      1.0 / self._temperature, validate_args=validate_args,
                                      allow_nan_stats=allow_nan_stats,
                                      name=name + "/Logistic"),
                bijector=Sigmoid(validate_args=validate_args),
                validate_args=validate_args, name=name)
        self._parameters = parameters

    @staticmethod
    def _param_shapes(sample_shape):
        return {"logits": tf.convert_to_tensor(sample_shape, dtype=tf.int32)}

    @property
    def temperature(self):
        return self._temperature

    @property
    def logits(self):
        return self._logits

    @property
    def probs(self):
        return self._probs


class RelaxedOneHotCategorical(TransformedDistribution):
    """Points of the simplex, concentrating on its vertices as `temperature` goes to 0."""

    def __init__(self, temperature, logits=None, probs=None, dtype=None, validate_args=False,
                 allow_nan_stats=True, name="RelaxedOneHotCategorical"):
        dist = ExpRelaxedOneHotCategorical(temperature, logits=logits, probs=probs,
                                           dtype=dtype, validate_args=validate_args,
                                           allow_nan_stats=allow_nan_stats)
        super().__init__(dist, Exp(), name=name)
