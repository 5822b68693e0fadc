"""TF 1.15's `tf.contrib.timeseries` state space models
(`python/timeseries/state_space_models/*` and the StateSpaceRegressor /
StructuralEnsembleRegressor Estimators), written on TensorFlow 2's ops:

    StateSpaceModelConfiguration, StateSpaceModel                state_space_model.py
    KalmanFilter                                                 kalman_filter.py
    SequentialTimeSeriesModel (the per-step window loop)         sequential.py
    StateSpace{,Independent,CorrelatedFeatures}Ensemble          ensembles.py
    AdderStateSpaceModel (level_trend)                           level_trend.py
    CycleStateSpaceModel, ResolutionCycleModel (periodic)        periodic.py
    VARMA                                                        varma.py
    StructuralEnsemble, MultiResolutionStructuralEnsemble        structural_ensemble.py
    ChainingStateManager                                         chaining.py
    StateInterpolatingAnomalyDetector                            filtering_postprocessor.py
    StateSpaceRegressor, StructuralEnsembleRegressor             regressor.py
    the math_utils helpers they use                              matrices.py

`served(namespace, name)` (called by `timeseries.build()`) registers the import paths public
code used (`<name>.python.timeseries.state_space_models.{state_space_model,
structural_ensemble, level_trend, periodic, varma, kalman_filter, filtering_postprocessor}`,
`StateSpaceRegressor` / `StructuralEnsembleRegressor` in `...timeseries.estimators`,
`ChainingStateManager` in `...timeseries.state_management`) and returns the names
`tf.contrib.timeseries` serves."""
from estimator_compat.legacy.contrib.timeseries.state_space import (
    chaining, ensembles, filtering_postprocessor, kalman_filter, level_trend, periodic,
    regressor, state_space_model, structural_ensemble, varma)


def served(namespace, name):
    """{top-level name: value}; registers the deep paths (see the module docstring)."""
    prefix = name + ".python.timeseries"
    namespace(prefix + ".estimators", regressor.__doc__,
              StateSpaceRegressor=regressor.StateSpaceRegressor,
              StructuralEnsembleRegressor=regressor.StructuralEnsembleRegressor)
    namespace(prefix + ".state_management", chaining.__doc__,
              ChainingStateManager=chaining.ChainingStateManager)
    namespace(prefix, "contrib.timeseries' modules",
              state_space_models=_state_space_models(namespace, prefix))
    return {"StructuralEnsembleRegressor": regressor.StructuralEnsembleRegressor}


def _state_space_models(namespace, prefix):
    base = prefix + ".state_space_models"
    modules = dict(
        state_space_model=namespace(
            base + ".state_space_model", state_space_model.__doc__,
            StateSpaceModel=state_space_model.StateSpaceModel,
            StateSpaceModelConfiguration=state_space_model.StateSpaceModelConfiguration,
            StateSpaceEnsemble=ensembles.StateSpaceEnsemble,
            StateSpaceIndependentEnsemble=ensembles.StateSpaceIndependentEnsemble,
            StateSpaceCorrelatedFeaturesEnsemble=(
                ensembles.StateSpaceCorrelatedFeaturesEnsemble)),
        structural_ensemble=namespace(
            base + ".structural_ensemble", structural_ensemble.__doc__,
            StructuralEnsemble=structural_ensemble.StructuralEnsemble,
            MultiResolutionStructuralEnsemble=(
                structural_ensemble.MultiResolutionStructuralEnsemble)),
        level_trend=namespace(base + ".level_trend", level_trend.__doc__,
                              AdderStateSpaceModel=level_trend.AdderStateSpaceModel),
        periodic=namespace(base + ".periodic", periodic.__doc__,
                           CycleStateSpaceModel=periodic.CycleStateSpaceModel,
                           ResolutionCycleModel=periodic.ResolutionCycleModel),
        varma=namespace(base + ".varma", varma.__doc__, VARMA=varma.VARMA),
        kalman_filter=namespace(base + ".kalman_filter", kalman_filter.__doc__,
                                KalmanFilter=kalman_filter.KalmanFilter),
        filtering_postprocessor=namespace(
            base + ".filtering_postprocessor", filtering_postprocessor.__doc__,
            FilteringStepPostprocessor=filtering_postprocessor.FilteringStepPostprocessor,
            StateInterpolatingAnomalyDetector=(
                filtering_postprocessor.StateInterpolatingAnomalyDetector),
            cauchy_alternative_to_gaussian=(
                filtering_postprocessor.cauchy_alternative_to_gaussian)))
    return namespace(base, "contrib.timeseries' state space models", **modules)
