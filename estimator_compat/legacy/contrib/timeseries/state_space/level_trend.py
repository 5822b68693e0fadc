"""The level and trend component (TF 1.15's `level_trend.AdderStateSpaceModel`): state
(level, slope), level += slope each step; transition powers and noise sums in closed form; the
prior level starts at the series' start mean (plus the `prior_state_mean` variable)."""
import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.state_space.state_space_model import (
    StateSpaceModel, StateSpaceModelConfiguration)

v1 = tf.compat.v1


class AdderStateSpaceModel(StateSpaceModel):
    """A local linear trend; `use_level_noise=False` leaves noise on the slope only."""

    def __init__(self, use_level_noise=True, configuration=StateSpaceModelConfiguration()):
        self.use_level_noise = use_level_noise
        super().__init__(configuration=configuration)

    def _state_dimension(self):
        return 2

    def get_prior_mean(self):
        if self._input_statistics is None:
            return super().get_prior_mean()
        with v1.variable_scope(self._variable_scope):
            initial = tf.stack([tf.reduce_mean(self._scale_data(
                self._input_statistics.series_start_moments.mean)), tf.constant(0., self.dtype)])
            return initial + v1.get_variable(
                name="prior_state_mean", shape=initial.shape,
                initializer=v1.zeros_initializer(), dtype=self.dtype,
                trainable=self._configuration.trainable_start_state)

    def transition_to_powers(self, powers):
        """[[1, p], [0, 1]] for each power p."""
        paddings = tf.concat([tf.zeros([tf.rank(powers), 2], dtype=tf.int32),
                              [(0, 1), (1, 0)]], axis=0)
        padded = tf.pad(powers[..., None, None], paddings=paddings)
        identity = tf.eye(2, batch_shape=tf.shape(powers), dtype=self.dtype)
        return identity + tf.cast(padded, self.dtype)

    def transition_power_noise_accumulator(self, num_steps):
        """The noise summed over `num_steps` transitions, in closed form."""
        steps = tf.cast(num_steps, self.dtype)
        transitions = steps - 1
        transform = tf.convert_to_tensor(self.get_noise_transform(), self.dtype)
        noise = tf.matmul(tf.matmul(transform, self.state_transition_noise_covariance),
                          transform, adjoint_b=True)
        a, b, c, d = tf.unstack(tf.reshape(noise, [-1, 4]), axis=1)
        first_n = transitions * (transitions + 1) / 2
        first_n_squares = first_n * (2 * transitions + 1) / 3
        stacked = tf.stack(axis=1, values=[
            steps * a + first_n * (b + c) + first_n_squares * d,
            steps * b + first_n * d, steps * c + first_n * d, steps * d])
        return tf.reshape(stacked, tf.concat([tf.shape(num_steps), [2, 2]], axis=0))

    def get_state_transition(self):
        return [[1., 1.], [0., 1.]]

    def get_noise_transform(self):
        if self.use_level_noise:
            return [[1., 0.], [0., 1.]]
        return [[0.], [1.]]

    def get_observation_model(self, times):
        del times
        return tf.constant([1., 0.], dtype=self.dtype)
