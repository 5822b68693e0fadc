"""The VARMA component (TF 1.15's `varma.VARMA`): autoregressive coefficients `ar_coefs`
(`[features, features, ar_order]`, zeros) and moving average coefficients `ma_coefs`
(`[ma_order, features, features]`, identities) over a state of max(ar_order, ma_order + 1)
blocks of the past innovations."""
import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.state_space import matrices
from estimator_compat.legacy.contrib.timeseries.state_space.state_space_model import (
    StateSpaceModel, StateSpaceModelConfiguration)

v1 = tf.compat.v1


class VARMA(StateSpaceModel):
    """A vector autoregressive moving average model in state space form."""

    def __init__(self, autoregressive_order, moving_average_order,
                 configuration=StateSpaceModelConfiguration()):
        self.ar_order = autoregressive_order
        self.ma_order = moving_average_order
        self.state_num_blocks = max(autoregressive_order, moving_average_order + 1)
        super().__init__(configuration=configuration)
        self.state_dimension = self.state_num_blocks * self.num_features

    def _define_parameters(self, observation_transition_tradeoff_log=None):
        with v1.variable_scope(self._variable_scope):
            self.ar_coefs = v1.get_variable(
                name="ar_coefs", shape=[self.num_features, self.num_features, self.ar_order],
                dtype=self.dtype, initializer=v1.zeros_initializer())
            self.ma_coefs = v1.get_variable(
                name="ma_coefs", dtype=self.dtype, initializer=tf.tile(
                    tf.eye(self.num_features, dtype=self.dtype)[None, :, :],
                    [self.ma_order, 1, 1]))
        super()._define_parameters(
            observation_transition_tradeoff_log=observation_transition_tradeoff_log)

    def _state_dimension(self):
        return self.state_dimension

    def get_state_transition(self):
        """The AR coefficients over the first block row, a shift below."""
        ar_padded = tf.reshape(
            tf.pad(self.ar_coefs, [[0, 0], [0, 0], [0, self.state_num_blocks - self.ar_order]]),
            [self.num_features, self.state_dimension])
        shift = tf.pad(tf.eye((self.state_num_blocks - 1) * self.num_features,
                              dtype=self.dtype), [[0, 0], [0, self.num_features]])
        return tf.concat([ar_padded, shift], axis=0)

    def get_noise_transform(self):
        ma_padded = tf.reshape(
            tf.pad(self.ma_coefs, [[self.state_num_blocks - 1 - self.ma_order, 0], [0, 0],
                                   [0, 0]]),
            [(self.state_num_blocks - 1) * self.num_features, self.num_features],
            name="noise_transform")
        return tf.concat([ma_padded, tf.eye(self.num_features, dtype=self.dtype)], axis=0)

    def get_observation_model(self, times):
        del times
        identity = tf.eye(self.num_features, dtype=self.dtype)
        if self.ar_order > self.ma_order or self.state_num_blocks < 2:
            return tf.pad(identity, [[0, 0], [0, self.num_features * (self.state_num_blocks - 1)]],
                          name="observation_model")
        return tf.concat([
            tf.pad(identity, [[0, 0], [0, self.num_features * (self.state_num_blocks - 2)]]),
            identity], axis=1, name="observation_model")

    def get_state_transition_noise_covariance(self, minimum_initial_variance=1e-5):
        if self._input_statistics is not None:
            variance = self._scale_variance(self._input_statistics.series_start_moments.variance)
            scale = tf.math.log(tf.maximum(tf.reduce_mean(variance), minimum_initial_variance))
        else:
            scale = 0.
        transform = tf.convert_to_tensor(self.get_noise_transform(), dtype=self.dtype)
        return matrices.variable_covariance_matrix(
            transform.shape[1], "state_transition_noise", dtype=self.dtype,
            initial_overall_scale_log=scale)
