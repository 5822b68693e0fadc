"""Linear Gaussian state space models (TF 1.15's `state_space_models/state_space_model`:
`StateSpaceModelConfiguration`, `StateSpaceModel`). A subclass gives its transition matrix,
noise transform and observation model; this class trains the noise covariances as variables
(`state_transition_noise_*`, `observation_noise_covariance_*`, the ensemble-wide
`observation_transition_tradeoff_log_scale`), the prior mean `prior_state_mean`, and filters
with the Kalman filter. The state is (mean [batch, n], covariance [batch, n, n], the time it is
for [batch]); variables live in the variable scope the model was constructed in."""
import collections

import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.ar_model import TRAIN
from estimator_compat.legacy.contrib.timeseries.state_space import matrices
from estimator_compat.legacy.contrib.timeseries.state_space.generation import (
    StateSpaceGeneration)
from estimator_compat.legacy.contrib.timeseries.state_space.kalman_filter import KalmanFilter
from estimator_compat.legacy.contrib.timeseries.state_space.sequential import (
    SequentialTimeSeriesModel)

v1 = tf.compat.v1

_FIELDS = ("num_features", "use_observation_noise", "dtype", "covariance_prior_fn",
           "bayesian_prior_weighting", "filtering_postprocessor", "trainable_start_state",
           "exogenous_noise_increases", "exogenous_noise_decreases",
           "exogenous_feature_columns", "exogenous_update_condition",
           "filtering_maximum_posterior_variance_ratio",
           "filtering_minimum_posterior_variance",
           "transition_covariance_initial_log_scale_bias",
           "static_unrolling_window_size_threshold")


class StateSpaceModelConfiguration(collections.namedtuple("StateSpaceModelConfiguration",
                                                          _FIELDS)):
    """Options of a StateSpaceModel (TF 1.15's names and defaults)."""

    def __new__(cls, num_features=1, use_observation_noise=True, dtype=tf.float32,
                covariance_prior_fn=matrices.log_noninformative_covariance_prior,
                bayesian_prior_weighting=True, filtering_postprocessor=None,
                trainable_start_state=False, exogenous_noise_increases=True,
                exogenous_noise_decreases=False, exogenous_feature_columns=None,
                exogenous_update_condition=None,
                filtering_maximum_posterior_variance_ratio=1e6,
                filtering_minimum_posterior_variance=0.,
                transition_covariance_initial_log_scale_bias=-5.,
                static_unrolling_window_size_threshold=None):
        return super().__new__(
            cls, num_features, use_observation_noise, dtype, covariance_prior_fn,
            bayesian_prior_weighting, filtering_postprocessor, trainable_start_state,
            exogenous_noise_increases, exogenous_noise_decreases,
            list(exogenous_feature_columns or []), exogenous_update_condition,
            filtering_maximum_posterior_variance_ratio, filtering_minimum_posterior_variance,
            transition_covariance_initial_log_scale_bias,
            static_unrolling_window_size_threshold)


def _dense(inputs, units, scope):
    """contrib's `layers.fully_connected(activation_fn=None)`: variables
    `<scope>/fully_connected/weights`, `/biases`."""
    with v1.variable_scope(scope), v1.variable_scope("fully_connected"):
        weights = v1.get_variable("weights", shape=[inputs.shape[-1], units],
                                  dtype=inputs.dtype,
                                  initializer=v1.glorot_uniform_initializer(),
                                  collections=[v1.GraphKeys.GLOBAL_VARIABLES,
                                               v1.GraphKeys.MODEL_VARIABLES])
        biases = v1.get_variable("biases", shape=[units], dtype=inputs.dtype,
                                 initializer=v1.zeros_initializer(),
                                 collections=[v1.GraphKeys.GLOBAL_VARIABLES,
                                              v1.GraphKeys.MODEL_VARIABLES])
        return tf.matmul(inputs, weights) + biases


def transform_to_covariance_matrices(input_vectors, matrix_size, scope):
    """A positive definite `[batch, size, size]` matrix from a dense layer of the inputs."""
    combined = _dense(input_vectors, matrix_size ** 2 + 2, scope)
    return matrices.sign_magnitude_positive_definite(
        raw=tf.reshape(combined[..., :-2], tf.concat(
            [tf.shape(combined)[:-1], [matrix_size, matrix_size]], 0)),
        off_diagonal_scale=combined[..., -2], overall_scale=combined[..., -1])


class StateSpaceModel(StateSpaceGeneration, SequentialTimeSeriesModel):
    """Base of the level/trend, periodic, VARMA models and their ensembles."""

    def __init__(self, configuration):
        self._configuration = configuration
        postprocessor = configuration.filtering_postprocessor
        super().__init__(
            train_output_names=(["mean", "covariance", "log_likelihood"]
                                + (list(postprocessor.output_names) if postprocessor else [])),
            predict_output_names=["mean", "covariance"],
            num_features=configuration.num_features, normalize_features=True,
            dtype=configuration.dtype,
            exogenous_feature_columns=configuration.exogenous_feature_columns,
            exogenous_update_condition=configuration.exogenous_update_condition,
            static_unrolling_window_size_threshold=(
                configuration.static_unrolling_window_size_threshold))
        self._kalman_filter = None
        self.prior_state_mean = None
        self.prior_state_var = None
        self.state_transition_noise_covariance = None
        self._observation_noise_covariance = None
        self._variable_scope = v1.get_variable_scope()

    # -- what a model gives ------------------------------------------------------------------
    def get_state_transition(self):
        raise NotImplementedError("A StateSpaceModel gives its transition matrix.")

    def get_noise_transform(self):
        raise NotImplementedError("A StateSpaceModel gives its noise transform.")

    def get_observation_model(self, times):
        raise NotImplementedError("A StateSpaceModel gives its observation model.")

    # -- powers and noise accumulated across gaps --------------------------------------------
    def transition_power_noise_accumulator(self, num_steps):
        """sum_{i<n} A^i (N Q N^T) (A^i)^T for each n of `num_steps`."""
        transform = tf.convert_to_tensor(self.get_noise_transform(), self.dtype)
        noise = tf.matmul(tf.matmul(transform, self.state_transition_noise_covariance),
                          transform, transpose_b=True)
        sums = matrices.power_sums_tensor(
            tf.reduce_max(num_steps) + 1,
            tf.convert_to_tensor(self.get_state_transition(), dtype=self.dtype), noise)
        return tf.gather(sums, indices=num_steps)

    def transition_to_powers(self, powers):
        return matrices.matrix_to_powers(
            tf.convert_to_tensor(self.get_state_transition(), dtype=self.dtype), powers)

    def _window_initializer(self, times, state):
        _, _, priors_from_time = state
        times = tf.convert_to_tensor(times)
        gaps = tf.reshape(times[:, 1:] - times[:, :-1], [-1])
        starting = tf.maximum(times[:, 0] - tf.convert_to_tensor(priors_from_time), 0)
        unique_gaps, _ = tf.unique(tf.concat([gaps, starting], axis=0))
        self._window_power_sums = self.transition_power_noise_accumulator(unique_gaps)
        self._window_transition_powers = self.transition_to_powers(unique_gaps)
        self._window_gap_sizes = unique_gaps

    def _cached_transition_powers_and_sums(self, num_steps):
        _, ids = tf.unique(tf.concat(
            [self._window_gap_sizes, tf.cast(num_steps, self._window_gap_sizes.dtype)], 0))
        ids = ids[-tf.shape(num_steps)[0]:]
        found = []
        for cache in (self._window_transition_powers, self._window_power_sums):
            gathered = tf.gather(cache, ids)
            gathered.set_shape(num_steps.shape.concatenate(gathered.shape[-2:]))
            found.append(gathered)
        return found

    # -- the sequential steps ----------------------------------------------------------------
    def _imputation_step(self, current_times, state):
        mean, covariance, previous_times = state
        catchup = tf.maximum(current_times - previous_times, 0)
        transitions, noise_sums = self._cached_transition_powers_and_sums(catchup)
        mean = self._kalman_filter.predict_state_mean(mean, transitions)
        covariance = self._kalman_filter.predict_state_var(covariance, transitions, noise_sums)
        return (mean, covariance, previous_times + catchup)

    def _filtering_step(self, current_times, current_values, state, predictions):
        mean, covariance, previous_times = state
        observation_model = self.get_broadcasted_observation_model(current_times)
        imputed = tf.debugging.Assert(
            tf.reduce_all(tf.equal(current_times, previous_times)),
            ["Attempted to perform filtering without imputation/prediction"])
        with tf.control_dependencies([imputed]):
            covariance = matrices.clip_covariance(
                covariance, self._configuration.filtering_maximum_posterior_variance_ratio,
                self._configuration.filtering_minimum_posterior_variance)
            filtered, filtered_covariance, log_prob = self._kalman_filter.do_filter(
                estimated_state=mean, estimated_state_covariance=covariance,
                predicted_observation=predictions["mean"],
                predicted_observation_covariance=predictions["covariance"],
                observation=current_values, observation_model=observation_model,
                observation_noise=self._observation_noise_covariance)
        filtered_state = (filtered, filtered_covariance, current_times)
        log_prob.set_shape(current_times.shape)
        predictions["loss"] = -log_prob
        predictions["log_likelihood"] = log_prob
        if self._configuration.filtering_postprocessor is not None:
            return self._configuration.filtering_postprocessor.process_filtering_step(
                current_times=current_times, current_values=current_values,
                predicted_state=state, filtered_state=filtered_state, outputs=predictions)
        return filtered_state, predictions

    def _scale_back_predictions(self, predictions):
        predictions["mean"] = self._scale_back_data(predictions["mean"])
        predictions["covariance"] = self._scale_back_variance(predictions["covariance"])
        return predictions

    def _prediction_step(self, current_times, state):
        mean, covariance, previous_times = state
        advanced = tf.debugging.Assert(
            tf.reduce_all(current_times <= previous_times),
            ["Attempted to predict without imputation"])
        with tf.control_dependencies([advanced]):
            observation_model = self.get_broadcasted_observation_model(current_times)
            observed_mean, observed_var = self._kalman_filter.observed_from_state(
                state_mean=mean, state_var=covariance, observation_model=observation_model,
                observation_noise=self._observation_noise_covariance)
        observed_mean.set_shape(current_times.shape.concatenate((self.num_features,)))
        observed_var.set_shape(current_times.shape.concatenate(
            (self.num_features, self.num_features)))
        return ((mean, covariance, current_times),
                {"mean": observed_mean, "covariance": observed_var})

    def _exogenous_noise_decreasing(self, current_times, exogenous_values, state):
        mean, covariance, previous_times = state
        dimension = self._state_dimension()
        observation_model = tf.eye(dimension, batch_shape=tf.shape(exogenous_values)[:-1],
                                   dtype=self.dtype)
        noise = transform_to_covariance_matrices(
            exogenous_values, dimension, "exogenous_noise_decreasing_covariance")
        observation = _dense(exogenous_values, dimension,
                             "exogenous_noise_decreasing_observation")
        mean, covariance = self._kalman_filter.posterior_from_prior_state(
            prior_state=mean, prior_state_var=covariance, observation=observation,
            observation_model=observation_model,
            predicted_observations=(mean, noise + covariance), observation_noise=noise)
        return (mean, covariance, previous_times)

    def _exogenous_noise_increasing(self, current_times, exogenous_values, state):
        mean, covariance, previous_times = state
        addition = _dense(exogenous_values, mean.shape[1], "exogenous_noise_increasing_mean")
        covariance_addition = transform_to_covariance_matrices(
            exogenous_values, covariance.shape[1], "exogenous_noise_increasing_covariance")
        return (mean + addition, covariance + covariance_addition, previous_times)

    def _exogenous_input_step(self, current_times, current_exogenous_regressors, state):
        if self._configuration.exogenous_noise_decreases:
            state = self._exogenous_noise_decreasing(current_times,
                                                     current_exogenous_regressors, state)
        if self._configuration.exogenous_noise_increases:
            state = self._exogenous_noise_increasing(current_times,
                                                     current_exogenous_regressors, state)
        return state

    def _loss_additions(self, times, values, mode):
        """In training, minus the covariance priors, per observation of the series."""
        if mode != TRAIN:
            return tf.zeros([], dtype=self.dtype)
        if self._input_statistics is not None and self._configuration.bayesian_prior_weighting:
            normalization = 1. / tf.cast(self._input_statistics.total_observation_count,
                                         self.dtype)
        else:
            normalization = 1. / tf.cast(tf.shape(times)[1], self.dtype)
        prior = self._configuration.covariance_prior_fn
        total = tf.convert_to_tensor(prior(self.state_transition_noise_covariance),
                                     dtype=self.dtype)
        if (self._configuration.use_observation_noise
                and self._observation_noise_covariance is not None):
            total += tf.convert_to_tensor(prior(self._observation_noise_covariance),
                                          dtype=self.dtype)
        return -normalization * total

    # -- parameters ----------------------------------------------------------------------------
    def _variable_observation_transition_tradeoff_log(self):
        bias = self._configuration.transition_covariance_initial_log_scale_bias
        return v1.get_variable(name="observation_transition_tradeoff_log_scale",
                               initializer=tf.constant(-bias, dtype=self.dtype),
                               dtype=self.dtype)

    def _define_parameters(self, observation_transition_tradeoff_log=None):
        with v1.variable_scope(self._variable_scope):
            if observation_transition_tradeoff_log is None:
                observation_transition_tradeoff_log = (
                    self._variable_observation_transition_tradeoff_log())
            self._observation_transition_tradeoff_log_scale = (
                observation_transition_tradeoff_log)
            self.state_transition_noise_covariance = (
                self.get_state_transition_noise_covariance())

    def _set_input_statistics(self, input_statistics=None):
        super().initialize_graph(input_statistics=input_statistics)

    def initialize_graph(self, input_statistics=None):
        """Defines this graph's parameters (recursively for ensembles) and priors."""
        self._set_input_statistics(input_statistics=input_statistics)
        self._define_parameters()
        with v1.variable_scope(self._variable_scope):
            self._observation_noise_covariance = tf.convert_to_tensor(
                self.get_observation_noise_covariance(), dtype=self.dtype)
        self._kalman_filter = KalmanFilter(dtype=self.dtype)
        self.prior_state_mean, self.prior_state_var = self._make_priors()

    def _make_priors(self):
        covariance = self.get_prior_covariance()
        return self.get_prior_mean(), covariance

    def _state_dimension(self):
        """The state's size (the components give it without building their transition)."""
        return tf.convert_to_tensor(self.get_state_transition(), dtype=self.dtype).shape[0]

    def get_prior_covariance(self):
        with v1.variable_scope(self._variable_scope):
            dimension = self._state_dimension()
            if not self._configuration.trainable_start_state:
                return tf.eye(dimension, dtype=self.dtype)
            base = matrices.variable_covariance_matrix(dimension, "prior_state_var",
                                                       dtype=self.dtype)
            if self._input_statistics is None:
                return base
            multiplier = tf.reduce_max(self._scale_variance(
                self._input_statistics.series_start_moments.variance))
            return base * tf.maximum(multiplier, 1.0)

    def get_prior_mean(self):
        with v1.variable_scope(self._variable_scope):
            return v1.get_variable(name="prior_state_mean", shape=[self._state_dimension()],
                                   dtype=self.dtype,
                                   trainable=self._configuration.trainable_start_state)

    def get_broadcasted_observation_model(self, times):
        """The observation model as `[batch, num_features, state dimension]`."""
        model = tf.convert_to_tensor(self.get_observation_model(times), dtype=self.dtype)
        rank = model.shape.with_rank_at_least(1).with_rank_at_most(3).ndims
        if rank is None:
            check = tf.debugging.Assert(tf.equal(tf.rank(model), 3), [tf.shape(model)])
            with tf.control_dependencies([check]):
                return tf.identity(model)
        if rank == 1:
            return tf.tile(tf.reshape(model, [1, 1, -1]),
                           [tf.shape(times)[0], self.num_features, 1])
        if rank == 2:
            return tf.tile(model[None], [tf.shape(times)[0], 1, 1])
        return model

    def get_state_transition_noise_covariance(self, minimum_initial_variance=1e-5):
        transform = tf.convert_to_tensor(self.get_noise_transform(), dtype=self.dtype)
        noise_dimension = transform.shape[1]
        if self._input_statistics is not None:
            variance = self._scale_variance(self._input_statistics.series_start_moments.variance)
            scale = tf.math.log(tf.maximum(
                tf.reduce_mean(variance) / tf.cast(
                    self._input_statistics.total_observation_count, self.dtype),
                minimum_initial_variance))
        else:
            scale = 0.
        scale -= self._observation_transition_tradeoff_log_scale
        return matrices.variable_covariance_matrix(
            noise_dimension, "state_transition_noise", dtype=self.dtype,
            initial_overall_scale_log=scale)

    def get_observation_noise_covariance(self, minimum_initial_variance=1e-5):
        if not self._configuration.use_observation_noise:
            return tf.zeros([self.num_features, self.num_features],
                            name="observation_noise_covariance", dtype=self.dtype)
        variance = None
        if self._input_statistics is not None:
            variance = tf.maximum(self._scale_variance(
                self._input_statistics.series_start_moments.variance), minimum_initial_variance)
        return matrices.variable_covariance_matrix(
            size=self.num_features, dtype=self.dtype, name="observation_noise_covariance",
            initial_diagonal_values=variance,
            initial_overall_scale_log=self._observation_transition_tradeoff_log_scale)

    def get_start_state(self):
        """(prior mean, prior covariance, the time before the series' start)."""
        if self._input_statistics is not None:
            start_time = self._input_statistics.start_time
        else:
            start_time = tf.zeros([], dtype=tf.int64)
        return (self.prior_state_mean, self.prior_state_var, start_time - 1)

    def get_features_for_timesteps(self, timesteps):
        return tf.zeros([tf.shape(timesteps)[0], 0], dtype=self.dtype)
