"""Sampling series from a univariate state space model (TF 1.15's
`StateSpaceModel.random_model_parameters` / `generate` and the ensembles' merged parameters):
numpy draws of the transition noise, prior state and observation noise, stepped through the
model's (evaluated) matrices. TF1 graph mode: tensors are evaluated in the default session."""
import numpy as np
import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.feature_keys import TrainEvalFeatures


def _passed_or_trained(parameters):
    """The override in `parameters` for a tensor, or its value in the default session."""
    def value(tensor):
        return tf.convert_to_tensor(parameters.get(tensor, tensor)).eval()
    return value


class StateSpaceGeneration:
    """`random_model_parameters` and `generate` of a StateSpaceModel."""

    def _check_univariate(self):
        if self.num_features != 1:
            raise NotImplementedError("Generation for multivariate state space models is not "
                                      "currently implemented.")

    def random_model_parameters(self, seed=None):
        """{parameter tensor: random value}: inverse-gamma noise variances, a normal prior
        mean, a zero prior covariance."""
        self._check_univariate()
        if seed:
            np.random.seed(seed)
        state_dimension, noise_dimension = tf.convert_to_tensor(
            self.get_noise_transform()).shape.as_list()
        transition_var = 1.0 / np.random.gamma(shape=10., scale=10., size=[noise_dimension])
        initial_state = np.random.normal(size=[state_dimension])
        parameters = {}
        if self.prior_state_mean is not None:
            parameters[self.prior_state_mean] = initial_state
        if self.state_transition_noise_covariance is not None:
            parameters[self.state_transition_noise_covariance] = np.diag(transition_var)
        if self.prior_state_var is not None:
            parameters[self.prior_state_var] = np.zeros([state_dimension, state_dimension])
        if self._configuration.use_observation_noise:
            observation_var = 1.0 / np.random.gamma(shape=4, scale=4)
            parameters[self._observation_noise_covariance] = [[observation_var]]
        return parameters

    def generate(self, number_of_series, series_length, model_parameters=None, seed=None,
                 add_observation_noise=None):
        """{times: [series, length], values: [series, length, 1]} sampled from the model."""
        if seed is not None:
            np.random.seed(seed)
        self._check_univariate()
        if add_observation_noise is None:
            add_observation_noise = self._configuration.use_observation_noise
        model_parameters = model_parameters or {}
        transitions = tf.convert_to_tensor(self.get_state_transition(), dtype=self.dtype).eval(
            feed_dict=model_parameters)
        noise_transform = tf.convert_to_tensor(self.get_noise_transform()).eval(
            feed_dict=model_parameters)
        noise_dimension = noise_transform.shape[1]
        value = _passed_or_trained(model_parameters)
        transition_std = np.sqrt(np.diag(value(self.state_transition_noise_covariance)))
        if add_observation_noise:
            observation_std = np.sqrt(value(self._observation_noise_covariance)[0][0])
        state = np.tile(np.expand_dims(value(self.prior_state_mean), 0), [number_of_series, 1])
        observations = np.zeros([number_of_series, series_length])
        observation_models = self.get_broadcasted_observation_model(
            times=tf.range(series_length)).eval(feed_dict=model_parameters)
        for step, observation_model in enumerate(observation_models):
            state = np.dot(state, transitions.T)
            state += np.dot(np.random.normal(
                loc=np.zeros([number_of_series, noise_dimension]),
                scale=np.tile(np.expand_dims(transition_std, 0), [number_of_series, 1])),
                noise_transform.T)
            mean = np.dot(state, observation_model[0].T)
            observations[:, step] = (np.random.normal(loc=mean, scale=observation_std)
                                     if add_observation_noise else mean)
        times = np.tile(np.expand_dims(np.arange(series_length), 0), [number_of_series, 1])
        return {TrainEvalFeatures.TIMES: times,
                TrainEvalFeatures.VALUES: np.expand_dims(observations, -1)}


class EnsembleGeneration:
    """An ensemble's random parameters: its members' (seeds offset) and its own."""

    def random_model_parameters(self, seed=None):
        parameters = {}
        for number, member in enumerate(self._ensemble_members):
            parameters.update(member.random_model_parameters(
                seed=seed + number if seed else None))
        parameters.update(super().random_model_parameters(seed=seed))
        return parameters
