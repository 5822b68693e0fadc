"""Anomaly-robust filtering (TF 1.15's `state_space_models/filtering_postprocessor`:
`FilteringStepPostprocessor`, `StateInterpolatingAnomalyDetector`,
`cauchy_alternative_to_gaussian`): after each filtering step the observation is weighed
against an anomaly alternative (a Cauchy with the prediction's entropy); the state is
interpolated between the filtered and the predicted state by the posterior probability of
"no anomaly", the loss is the interpolated log likelihood, and the log odds of an anomaly are
the `anomaly_score` output."""
import abc
import math

import numpy as np
import tensorflow as tf


class FilteringStepPostprocessor(metaclass=abc.ABCMeta):
    """Changes a filtering step's state and outputs (`output_names` lists what it adds)."""

    @abc.abstractmethod
    def process_filtering_step(self, current_times, current_values, predicted_state,
                               filtered_state, outputs):
        """(state, outputs) for this step."""

    @property
    @abc.abstractmethod
    def output_names(self):
        return []


def cauchy_alternative_to_gaussian(current_times, current_values, outputs):
    """log p(values) under independent Cauchys matching the prediction's entropy."""
    del current_times
    scale = tf.sqrt(math.e / (8. * math.pi) * tf.linalg.diag_part(outputs["covariance"]))
    z = (current_values - outputs["mean"]) / scale
    log_pdfs = -np.log(np.pi) - tf.math.log(scale) - tf.math.log1p(tf.square(z))
    return tf.reduce_sum(log_pdfs, axis=1)


def _interpolate_state_linear(first_state, second_state, first_responsibility):
    """Float parts mixed by `first_responsibility` (per batch row); the rest must agree."""
    mixed = []
    for first, second in zip(tf.nest.flatten(first_state), tf.nest.flatten(second_state)):
        if first.dtype.is_floating:
            weight = tf.reshape(first_responsibility, tf.concat(
                [tf.shape(first_responsibility), tf.ones([tf.rank(first) - 1], tf.int32)], 0))
            value = weight * first + (1. - weight) * second
            value.set_shape(first.shape)
            mixed.append(value)
        else:
            with tf.control_dependencies([tf.debugging.assert_equal(first, second)]):
                mixed.append(tf.identity(first))
    return tf.nest.pack_sequence_as(first_state, mixed)


class StateInterpolatingAnomalyDetector(FilteringStepPostprocessor):
    """Interpolates filtered and predicted states by the probability of no anomaly."""

    output_names = ["anomaly_score"]

    def __init__(self, anomaly_log_likelihood=cauchy_alternative_to_gaussian,
                 anomaly_prior_probability=0.01, responsibility_scaling=1.0):
        self._anomaly_log_likelihood = anomaly_log_likelihood
        self._responsibility_scaling = responsibility_scaling
        self._anomaly_prior_probability = anomaly_prior_probability

    def process_filtering_step(self, current_times, current_values, predicted_state,
                               filtered_state, outputs):
        anomaly = self._anomaly_log_likelihood(current_times=current_times,
                                               current_values=current_values,
                                               outputs=outputs)
        prior = tf.convert_to_tensor(self._anomaly_prior_probability,
                                     dtype=current_values.dtype)
        with_anomaly = anomaly + tf.math.log(prior)
        without_anomaly = outputs["log_likelihood"] + tf.math.log(1. - prior)
        log_odds = with_anomaly - without_anomaly
        responsibility = tf.sigmoid(-self._responsibility_scaling * log_odds)
        state = _interpolate_state_linear(first_state=filtered_state,
                                          second_state=predicted_state,
                                          first_responsibility=responsibility)
        outputs["loss"] = -(responsibility * without_anomaly
                            + (1. - responsibility) * with_anomaly)
        outputs["anomaly_score"] = log_odds
        return state, outputs
