"""Periodic components (TF 1.15's `periodic.CycleStateSpaceModel`, `ResolutionCycleModel`):
a cycle of `periodicity` latent values summing to zero (state dimension periodicity - 1), and
its multi-resolution form cycling `num_latent_values` values over any (real) periodicity,
with transition powers and noise sums in closed form (sines of the fractional powers)."""
import numpy as np
import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.state_space.state_space_model import (
    StateSpaceModel, StateSpaceModelConfiguration)

v1 = tf.compat.v1


class CycleStateSpaceModel(StateSpaceModel):
    """A seasonal cycle: each new value is minus the sum of the previous periodicity - 1."""

    def __init__(self, periodicity, configuration=StateSpaceModelConfiguration()):
        self._periodicity = periodicity
        super().__init__(configuration=configuration)

    def _state_dimension(self):
        return self._periodicity - 1

    def get_state_transition(self):
        return self.transition_to_powers(tf.ones([], dtype=tf.int32))

    def get_noise_transform(self):
        return tf.pad(tf.ones([1], dtype=self.dtype),
                      paddings=[(0, self._periodicity - 2)])[..., None]

    def transition_to_powers(self, powers):
        """The transition matrix to each power (periodic in the power)."""
        powers %= self._periodicity
        size = self._periodicity - 1
        index = tf.reshape(tf.range(size, dtype=powers.dtype), tf.concat(
            [tf.ones([tf.rank(powers)], dtype=tf.int32), [size]], axis=0))
        is_row_negative = tf.equal(index + 1, powers[..., None])
        negative_rows = v1.where(is_row_negative,
                                 -tf.ones(tf.shape(is_row_negative), dtype=self.dtype),
                                 tf.zeros(tf.shape(is_row_negative), dtype=self.dtype))
        difference = index[..., None] - index[..., None, :]
        is_one = tf.equal(difference % self._periodicity, powers[..., None, None])
        ones = v1.where(is_one, tf.ones(tf.shape(is_one), dtype=self.dtype),
                        tf.zeros(tf.shape(is_one), dtype=self.dtype))
        return tf.cast(ones + negative_rows[..., None], self.dtype)

    def transition_power_noise_accumulator(self, num_steps, noise_addition_coefficient=1):
        """The noise summed over `num_steps` transitions, in closed form."""
        scalar = tf.squeeze(self.state_transition_noise_covariance, axis=[-1, -2])
        period_range = tf.reshape(tf.range(self._periodicity, dtype=num_steps.dtype), tf.concat(
            [tf.ones([tf.rank(num_steps)], dtype=tf.int32), [self._periodicity]], axis=0))
        remaining = (period_range - (num_steps[..., None] - 1)) % self._periodicity
        additions = (tf.convert_to_tensor(noise_addition_coefficient, self.dtype)[..., None]
                     * scalar * tf.cast((num_steps[..., None] + remaining) // self._periodicity,
                                        dtype=self.dtype))
        diagonal_matrix = tf.linalg.diag(additions)
        upper = tf.concat([tf.zeros_like(diagonal_matrix[..., :-1, 0:1]),
                           -diagonal_matrix[..., :-1, 0:-2]], axis=-1)
        lower = tf.concat([tf.zeros_like(diagonal_matrix[..., 0:1, :-1]),
                           -diagonal_matrix[..., 0:-2, :-1]], axis=-2)
        rotated = tf.concat([additions[..., -1:], additions[..., :-2]], axis=-1)
        return tf.linalg.diag(additions[..., :-1] + rotated) + lower + upper

    def get_observation_model(self, times):
        del times
        return tf.concat([tf.ones([1], dtype=self.dtype),
                          tf.zeros([self._periodicity - 2], dtype=self.dtype)], axis=0)


class ResolutionCycleModel(CycleStateSpaceModel):
    """`num_latent_values` (odd) values cycled over `periodicity` steps, which may be any
    real number: the model size stays fixed as the periodicity grows."""

    def __init__(self, num_latent_values, periodicity, near_integer_threshold=1e-8,
                 configuration=StateSpaceModelConfiguration()):
        if num_latent_values % 2 != 1:
            raise ValueError("Only odd numbers of latent values are supported.")
        self._num_latent_values = num_latent_values
        self._true_periodicity = periodicity
        self._near_integer_threshold = near_integer_threshold
        super().__init__(periodicity=num_latent_values, configuration=configuration)

    def _close_to_integer(self, value):
        value = tf.cast(value, self.dtype)
        return tf.abs(value - tf.round(value)) < self._near_integer_threshold

    def _latent_powers(self, powers):
        count = tf.cast(self._num_latent_values, self.dtype)
        return count, tf.cast(powers, self.dtype) * (
            count / tf.cast(self._true_periodicity, dtype=self.dtype))

    def transition_to_powers(self, powers):
        """Fractional powers of the cycle's transition (integer ones exactly)."""
        count, fractional = self._latent_powers(powers)
        coefficient = (tf.sin(fractional * np.pi) / count)[..., None, None]
        index = tf.reshape(tf.range(self._num_latent_values - 1), tf.concat(
            [tf.ones([tf.rank(fractional)], dtype=tf.int32), [self._num_latent_values - 1]],
            axis=0))
        index_float = tf.cast(index, self.dtype)
        alternating = tf.cast(1 - 2 * (index % 2), self.dtype)
        row_addend = 1. / tf.sin(np.pi / count * (fractional[..., None] - index_float - 1))
        column_minus_row = index_float[..., None, :] - index_float[..., None]
        full_addend = alternating[..., None, :] / tf.sin(
            np.pi / count * (fractional[..., None, None] + column_minus_row))
        continuous = coefficient * alternating[..., None] * (row_addend[..., None] + full_addend)
        return v1.where(self._close_to_integer(fractional),
                        super().transition_to_powers(tf.cast(tf.round(fractional), tf.int64)),
                        continuous)

    def transition_power_noise_accumulator(self, num_steps):
        """Whole true periods folded in (when the periodicity is an integer at least the
        number of latent values), the remaining steps from a cumulative sum."""
        def _whole_periods_folded():
            coefficient = (tf.cast(self._true_periodicity, self.dtype)
                           / tf.cast(self._num_latent_values, self.dtype))
            full_period = super(ResolutionCycleModel, self).transition_power_noise_accumulator(
                noise_addition_coefficient=coefficient,
                num_steps=tf.convert_to_tensor(self._num_latent_values, dtype=num_steps.dtype))
            periodicity = tf.cast(self._true_periodicity, num_steps.dtype)
            full_periods = tf.cast(num_steps // periodicity, self.dtype)
            accumulation = full_periods[..., None, None] * tf.reshape(full_period, tf.concat(
                [tf.ones([tf.rank(full_periods)], dtype=tf.int32), tf.shape(full_period)],
                axis=0))
            return num_steps % periodicity, accumulation

        def _no_whole_period():
            accumulation = tf.zeros(tf.concat([
                tf.shape(num_steps),
                [self._num_latent_values - 1, self._num_latent_values - 1]], axis=0),
                dtype=self.dtype)
            return num_steps, accumulation

        remaining, accumulation = tf.cond(self._whole_period_folding(), _whole_periods_folded,
                                          _no_whole_period)
        sums = self._power_sum_array(tf.reduce_max(remaining))
        scalar = tf.squeeze(self.state_transition_noise_covariance, axis=[-1, -2])
        return accumulation + scalar * tf.gather(sums, indices=remaining)

    def _whole_period_folding(self):
        return tf.logical_and(self._close_to_integer(self._true_periodicity),
                              tf.greater_equal(self._true_periodicity, self._num_latent_values))

    def _power_sum_array(self, max_remaining_steps):
        """`[max_remaining_steps + 1, n, n]`: the noise summed over 0, 1, ... steps."""
        count, fractional = self._latent_powers(tf.range(max_remaining_steps))
        index = tf.range(self._num_latent_values - 1)[None, ...]
        index_float = tf.cast(index, self.dtype)

        def _cosecant(value):
            return 1. / tf.sin(np.pi / count * value)

        power_minus_index = fractional[..., None] - index_float
        mesh = _cosecant(power_minus_index) + _cosecant(power_minus_index - 1.)
        meshed = mesh[..., None, :] * mesh[..., None]
        alternating = tf.cast(1 - 2 * ((index[..., None, :] + index[..., None]) % 2),
                              self.dtype)

        def _discontinuity(value):
            normalized = value / count
            return self._close_to_integer(normalized), tf.cos(normalized * np.pi)

        at_index, index_sign = _discontinuity(fractional[..., None] - index_float)
        at_minus, minus_sign = _discontinuity(fractional[..., None] - index_float - 1)
        ones_vector = tf.logical_or(at_index, at_minus)
        sign_vector = v1.where(at_index, index_sign, minus_sign)
        ones_mask = tf.logical_and(ones_vector[..., None], ones_vector[..., None, :])
        zeroed = v1.where(self._close_to_integer(fractional), tf.zeros_like(meshed), meshed)
        coefficient = tf.sin(np.pi * fractional) / count
        masked = v1.where(ones_mask, sign_vector[..., None] * sign_vector[..., None, :],
                          zeroed * coefficient[..., None, None] ** 2)
        return tf.pad(tf.cumsum(alternating * masked), [(1, 0), (0, 0), (0, 0)])
