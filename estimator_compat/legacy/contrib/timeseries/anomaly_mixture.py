"""The autoregressive model with an anomaly mixture (TF 1.15's `ar_model.AnomalyMixtureARModel`,
what `ARRegressor(anomaly_prior_probability=..., anomaly_distribution=...)` trains).

Each target is modelled as coming from the ARModel's normal prediction with probability
`1 - anomaly_prior_probability`, or from a wide anomaly distribution centred on the same mean
(`GAUSSIAN_ANOMALY`: a normal of variance `exp(anomaly_log_param)`; `CAUCHY_ANOMALY`: a Cauchy
of that scale) otherwise, so spikes cost little: the loss is the mixture's negative log
likelihood per value. The one variable added is the scalar `anomaly_log_param` (starting at
0), in the variable scope the model is called in (`model/anomaly_log_param` under the
Estimator). Predictions, evaluation keys and state are the ARModel's."""
import numpy as np
import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.ar_model import (
    ARModel, FlatPredictionModel, normal_log_prob)

v1 = tf.compat.v1


def cauchy_log_prob(loc, scale, x):
    """TF 1.15's `math_utils.cauchy_log_prob`: the Cauchy log density of `x`."""
    z = (x - loc) / scale
    return -float(np.log(np.pi)) - tf.math.log(scale) - tf.math.log1p(tf.square(z))


class AnomalyMixtureARModel(ARModel):
    """ARModel whose likelihood mixes the normal prediction with an anomaly distribution."""
    GAUSSIAN_ANOMALY = "gaussian"
    CAUCHY_ANOMALY = "cauchy"

    def __init__(self, periodicities, anomaly_prior_probability, input_window_size,
                 output_window_size, num_features,
                 prediction_model_factory=FlatPredictionModel,
                 anomaly_distribution=GAUSSIAN_ANOMALY, num_time_buckets=10,
                 exogenous_feature_columns=None):
        # Bad arguments raise AssertionError (with a message), as TF 1.15's asserts did.
        if not 0.0 < anomaly_prior_probability < 1.0:
            raise AssertionError(f"anomaly_prior_probability must be strictly between 0 and 1, "
                                 f"got {anomaly_prior_probability}.")
        if anomaly_distribution not in (self.GAUSSIAN_ANOMALY, self.CAUCHY_ANOMALY):
            raise AssertionError(
                f"anomaly_distribution must be AnomalyMixtureARModel.GAUSSIAN_ANOMALY "
                f"('gaussian') or CAUCHY_ANOMALY ('cauchy'), got {anomaly_distribution!r}.")
        self._anomaly_prior_probability = anomaly_prior_probability
        self._anomaly_distribution = anomaly_distribution
        super().__init__(
            periodicities=periodicities, input_window_size=input_window_size,
            output_window_size=output_window_size, num_features=num_features,
            prediction_model_factory=prediction_model_factory,
            num_time_buckets=num_time_buckets, loss=ARModel.NORMAL_LIKELIHOOD_LOSS,
            exogenous_feature_columns=exogenous_feature_columns)

    def prediction_ops(self, times, values, exogenous_regressors):
        """The ARModel's {"mean", "covariance"}, and "anomaly_params": the anomaly
        distribution's variance (Gaussian) or scale (Cauchy)."""
        predictions = super().prediction_ops(times, values, exogenous_regressors)
        with v1.variable_scope(v1.get_variable_scope(), reuse=v1.AUTO_REUSE):
            log_param = v1.get_variable("anomaly_log_param", shape=[], dtype=self.dtype,
                                        initializer=v1.zeros_initializer())
        predictions["anomaly_params"] = tf.exp(log_param)
        return predictions

    def _anomaly_log_prob(self, targets, prediction_ops):
        mean, param = prediction_ops["mean"], prediction_ops["anomaly_params"]
        if self._anomaly_distribution == self.GAUSSIAN_ANOMALY:
            return normal_log_prob(targets, tf.sqrt(tf.maximum(param, 1e-5)), mean)
        return cauchy_log_prob(targets, param, mean)

    def loss_op(self, targets, prediction_ops):
        """The mixture's negative log likelihood, averaged over the values."""
        sigma = tf.sqrt(tf.maximum(prediction_ops["covariance"], 1e-5))
        prior = self._anomaly_prior_probability
        normal = (normal_log_prob(targets, sigma, prediction_ops["mean"])
                  + float(np.log(1.0 - prior)))
        anomaly = self._anomaly_log_prob(targets, prediction_ops) + float(np.log(prior))
        mixed = tf.reduce_logsumexp(tf.stack([normal, anomaly]), axis=0)
        loss = -tf.reduce_sum(mixed)
        return loss / tf.cast(tf.reduce_prod(tf.shape(targets)), self.dtype)
