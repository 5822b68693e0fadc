"""Ensembles of state space models (TF 1.15's `StateSpaceEnsemble`,
`StateSpaceIndependentEnsemble`, `StateSpaceCorrelatedFeaturesEnsemble`): the members'
transition matrices, noise transforms and priors stacked block-diagonally. An independent
ensemble sums its members' observations; a correlated-features ensemble (one univariate member
per feature) stacks them per feature and learns its own transition noise covariance across the
members. All members share the ensemble's `observation_transition_tradeoff_log_scale`."""
import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.state_space import matrices
from estimator_compat.legacy.contrib.timeseries.state_space.generation import EnsembleGeneration
from estimator_compat.legacy.contrib.timeseries.state_space.state_space_model import (
    StateSpaceModel)

v1 = tf.compat.v1


class StateSpaceEnsemble(EnsembleGeneration, StateSpaceModel):
    """Members stacked block-diagonally; the observation model is the subclass's."""

    def __init__(self, ensemble_members, configuration):
        self._ensemble_members = ensemble_members
        super().__init__(configuration=configuration)

    def _set_input_statistics(self, input_statistics):
        super()._set_input_statistics(input_statistics)
        for member in self._ensemble_members:
            member._set_input_statistics(input_statistics)

    def _loss_additions(self, times, values, mode):
        return super()._loss_additions(times, values, mode) + tf.add_n([
            member._loss_additions(times, values, mode) for member in self._ensemble_members])

    def _compute_blocked(self, member_fn, name):
        with v1.variable_scope(self._variable_scope):
            return matrices.block_diagonal([member_fn(member)
                                            for member in self._ensemble_members],
                                           dtype=self.dtype, name=name)

    def transition_to_powers(self, powers):
        return self._compute_blocked(lambda member: member.transition_to_powers(powers),
                                     "ensemble_transition_to_powers")

    def _define_parameters(self, observation_transition_tradeoff_log=None):
        with v1.variable_scope(self._variable_scope):
            if observation_transition_tradeoff_log is None:
                observation_transition_tradeoff_log = (
                    self._variable_observation_transition_tradeoff_log())
            for member in self._ensemble_members:
                member._define_parameters(
                    observation_transition_tradeoff_log=observation_transition_tradeoff_log)
            super()._define_parameters(
                observation_transition_tradeoff_log=observation_transition_tradeoff_log)

    def _state_dimension(self):
        return sum(member._state_dimension() for member in self._ensemble_members)

    def get_prior_mean(self):
        return tf.concat([member.get_prior_mean() for member in self._ensemble_members],
                         axis=0, name="ensemble_prior_state_mean")

    def get_state_transition(self):
        return self._compute_blocked(lambda member: member.get_state_transition(),
                                     "ensemble_state_transition")

    def get_noise_transform(self):
        return self._compute_blocked(lambda member: member.get_noise_transform(),
                                     "ensemble_noise_transform")

    def get_observation_model(self, times):
        raise NotImplementedError("No un-broadcasted observation model defined for "
                                  "ensembles.")

    def get_broadcasted_observation_model(self, times):
        return tf.concat([tf.convert_to_tensor(member.get_broadcasted_observation_model(times),
                                               dtype=self.dtype)
                          for member in self._ensemble_members], axis=2)


class StateSpaceIndependentEnsemble(StateSpaceEnsemble):
    """Independent members: noise sums, prior and transition noise covariances blocked."""

    def transition_power_noise_accumulator(self, num_steps):
        return self._compute_blocked(
            lambda member: member.transition_power_noise_accumulator(num_steps),
            "ensemble_power_noise_accumulator")

    def get_prior_covariance(self):
        return self._compute_blocked(lambda member: member.get_prior_covariance(),
                                     "ensemble_prior_state_covariance")

    def get_state_transition_noise_covariance(self):
        return self._compute_blocked(lambda member: member.state_transition_noise_covariance,
                                     "ensemble_state_transition_noise")


class StateSpaceCorrelatedFeaturesEnsemble(StateSpaceEnsemble):
    """One univariate member per feature, with transition noise correlated across them."""

    def __init__(self, ensemble_members, configuration):
        if len(ensemble_members) != configuration.num_features:
            raise ValueError("The number of members in a StateSpaceCorrelatedFeaturesEnsemble "
                             "must equal the number of features in the time series.")
        for member in ensemble_members:
            if member.num_features != 1:
                raise ValueError("StateSpaceCorrelatedFeaturesEnsemble components must be "
                                 "univariate.")
        super().__init__(ensemble_members=ensemble_members, configuration=configuration)

    def transition_power_noise_accumulator(self, num_steps):
        if len(self._ensemble_members) == 1:
            return self._ensemble_members[0].transition_power_noise_accumulator(
                num_steps=num_steps)
        return super().transition_power_noise_accumulator(num_steps=num_steps)

    def get_broadcasted_observation_model(self, times):
        return self._compute_blocked(
            lambda member: tf.convert_to_tensor(member.get_broadcasted_observation_model(times),
                                                dtype=self.dtype),
            "feature_ensemble_observation_model")
