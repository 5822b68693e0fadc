"""The Kalman filter over a batch of linear Gaussian state space models (TF 1.15's
`state_space_models/kalman_filter.KalmanFilter`): advance a state's mean and covariance by
transition matrix powers plus the accumulated transition noise, project a state to an
observation distribution, and condition a state on an observation (Joseph-form covariance
update), with the one-step-ahead log likelihood the models minimize the negative of."""
import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.state_space import matrices

_INSTABILITY = (
    "This may occur due to numerically unstable filtering when there is a large difference in "
    "posterior variances, or when inferences are near-deterministic. Considering tuning the "
    "'filtering_maximum_posterior_variance_ratio' or 'filtering_minimum_posterior_variance' "
    "parameters in your StateSpaceModelConfiguration, or tuning the transition matrix.")


class KalmanFilter:
    """Filtering and prediction steps; every argument has a leading batch dimension."""

    def __init__(self, dtype=tf.float32, simplified_posterior_covariance_computation=False):
        self._simplified = simplified_posterior_covariance_computation
        self.dtype = dtype

    def do_filter(self, estimated_state, estimated_state_covariance, predicted_observation,
                  predicted_observation_covariance, observation, observation_model,
                  observation_noise):
        """(posterior state, posterior covariance, log p(observation | prediction))."""
        symmetric = 0.5 * (predicted_observation_covariance
                           + tf.linalg.matrix_transpose(predicted_observation_covariance))
        symmetric = tf.debugging.check_numerics(
            symmetric, f"Predicted observation covariance was not finite. {_INSTABILITY}")
        min_diagonal = tf.reduce_min(tf.linalg.diag_part(symmetric))
        message = (f"The predicted observation covariance has a negative diagonal entry. "
                   f"{_INSTABILITY}")
        non_negative = tf.debugging.Assert(min_diagonal >= 0., [message, min_diagonal])
        with tf.control_dependencies([non_negative]):
            cholesky = tf.linalg.cholesky(symmetric)
        log_prob = matrices.mvn_tril_log_prob(loc=predicted_observation, scale_tril=cholesky,
                                              x=observation)
        state, covariance = self.posterior_from_prior_state(
            prior_state=estimated_state, prior_state_var=estimated_state_covariance,
            observation=observation, observation_model=observation_model,
            predicted_observations=(predicted_observation, predicted_observation_covariance),
            observation_noise=observation_noise)
        return state, covariance, log_prob

    def predict_state_mean(self, prior_state, transition_matrices):
        return tf.squeeze(tf.matmul(transition_matrices, prior_state[..., None]), axis=[-1])

    def predict_state_var(self, prior_state_var, transition_matrices, transition_noise_sums):
        transitioned = tf.matmul(tf.matmul(transition_matrices, prior_state_var),
                                 transition_matrices, adjoint_b=True)
        return transitioned + transition_noise_sums

    def posterior_from_prior_state(self, prior_state, prior_state_var, observation,
                                   observation_model, predicted_observations,
                                   observation_noise):
        """The state conditioned on `observation` (gain from the predicted covariance)."""
        observed_mean, observed_var = predicted_observations
        residual = observation - observed_mean
        rhs = tf.matmul(observation_model, prior_state_var, adjoint_b=True)
        gain_transposed = tf.linalg.solve(observed_var, rhs, adjoint=True)
        posterior_state = prior_state + tf.squeeze(
            tf.matmul(gain_transposed, residual[..., None], adjoint_a=True), axis=[-1])
        gain_observation = tf.matmul(gain_transposed, observation_model, adjoint_a=True)
        identity = tf.eye(tf.shape(gain_observation)[1], dtype=gain_observation.dtype)[None]
        factor = identity - gain_observation
        if self._simplified:
            return posterior_state, tf.matmul(factor, prior_state_var)
        observation_noise = tf.convert_to_tensor(observation_noise)
        joseph = tf.matmul(factor, tf.matmul(factor, prior_state_var), adjoint_b=True)
        if observation_noise.shape.ndims == 2:
            noise_term = matrices.batch_times_matrix(gain_transposed, observation_noise,
                                                     adj_x=True)
        else:
            noise_term = tf.matmul(gain_transposed, observation_noise, adjoint_a=True)
        return posterior_state, joseph + tf.matmul(noise_term, gain_transposed)

    def observed_from_state(self, state_mean, state_var, observation_model,
                            observation_noise):
        """(mean, covariance) of the observation the state predicts."""
        observed_mean = tf.squeeze(tf.matmul(state_mean[:, None], observation_model,
                                             adjoint_b=True), axis=[1])
        observed_var = tf.matmul(tf.matmul(observation_model, state_var), observation_model,
                                 adjoint_b=True)
        return observed_mean, observed_var + observation_noise
