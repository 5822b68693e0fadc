"""Structural time series models (TF 1.15's `structural_ensemble.StructuralEnsemble`,
`MultiResolutionStructuralEnsemble`): level/trend (`adder/feature<i>`), VARMA (`varma`) and
one periodic component per periodicity (`cycle<j>/feature<i>`), each replicated per feature
with correlated transition noise, summed as an independent ensemble with observation noise."""
import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.state_space.ensembles import (
    StateSpaceCorrelatedFeaturesEnsemble, StateSpaceIndependentEnsemble)
from estimator_compat.legacy.contrib.timeseries.state_space.level_trend import (
    AdderStateSpaceModel)
from estimator_compat.legacy.contrib.timeseries.state_space.periodic import (
    CycleStateSpaceModel, ResolutionCycleModel)
from estimator_compat.legacy.contrib.timeseries.state_space.state_space_model import (
    StateSpaceModelConfiguration)
from estimator_compat.legacy.contrib.timeseries.state_space.varma import VARMA

v1 = tf.compat.v1


def _level_trend_and_varma(configuration, autoregressive_order, moving_average_order):
    multivariate = configuration._replace(use_observation_noise=False)
    univariate = multivariate._replace(num_features=1)
    with v1.variable_scope("adder"):
        members = []
        for feature in range(configuration.num_features):
            with v1.variable_scope(f"feature{feature}"):
                members.append(AdderStateSpaceModel(configuration=univariate))
        adder = StateSpaceCorrelatedFeaturesEnsemble(ensemble_members=members,
                                                     configuration=multivariate)
    with v1.variable_scope("varma"):
        varma = VARMA(autoregressive_order=autoregressive_order,
                      moving_average_order=moving_average_order, configuration=multivariate)
    return adder, varma, multivariate, univariate


def _cycles(configuration, multivariate, univariate, make_member, parameters):
    parts = []
    for number, arguments in enumerate(parameters):
        with v1.variable_scope(f"cycle{number}"):
            members = []
            for feature in range(configuration.num_features):
                with v1.variable_scope(f"feature{feature}"):
                    members.append(make_member(univariate, *arguments))
            parts.append(StateSpaceCorrelatedFeaturesEnsemble(ensemble_members=members,
                                                              configuration=multivariate))
    return parts


class StructuralEnsemble(StateSpaceIndependentEnsemble):
    """Level + trend + seasonal cycles of `periodicities` (integers) + moving average."""

    def __init__(self, periodicities, moving_average_order, autoregressive_order,
                 use_level_noise=True, configuration=StateSpaceModelConfiguration()):
        adder, varma, multivariate, univariate = _level_trend_and_varma(
            configuration, autoregressive_order, moving_average_order)
        cycles = _cycles(configuration, multivariate, univariate,
                         lambda config, period: CycleStateSpaceModel(periodicity=period,
                                                                     configuration=config),
                         [(period,) for period in tf.nest.flatten(periodicities)])
        super().__init__(ensemble_members=[adder, varma] + cycles, configuration=configuration)


class MultiResolutionStructuralEnsemble(StateSpaceIndependentEnsemble):
    """As StructuralEnsemble, each cycle of `cycle_num_latent_values` values over any
    periodicity (the model size does not grow with the periodicity)."""

    def __init__(self, cycle_num_latent_values, moving_average_order, autoregressive_order,
                 periodicities, use_level_noise=True,
                 configuration=StateSpaceModelConfiguration()):
        adder, varma, multivariate, univariate = _level_trend_and_varma(
            configuration, autoregressive_order, moving_average_order)
        periods = tf.nest.flatten(periodicities if periodicities is not None else [])
        latent = tf.nest.flatten(cycle_num_latent_values)
        if len(periods) != len(latent):
            if len(latent) != 1:
                raise ValueError(
                    f"`cycle_num_latent_values` must either be a list with the same size as "
                    f"`periodicity` or a scalar. Received length {len(latent)} "
                    f"`cycle_num_latent_values`, while `periodicities` has length "
                    f"{len(periods)}.")
            latent = latent * len(periods)
        cycles = _cycles(configuration, multivariate, univariate,
                         lambda config, period, values: ResolutionCycleModel(
                             num_latent_values=values, periodicity=period,
                             configuration=config),
                         list(zip(periods, latent)))
        super().__init__(ensemble_members=[adder, varma] + cycles, configuration=configuration)
