"""The state space Estimators (TF 1.15's `estimators.StateSpaceRegressor`,
`StructuralEnsembleRegressor`): a TimeSeriesRegressor over a StateSpaceModel whose state
manager defaults to ChainingStateManager. StructuralEnsembleRegressor builds a
MultiResolutionStructuralEnsemble (level/trend, VARMA, one cycle per periodicity) in float64
by default and trains it with Adam 0.02; with `anomaly_prior_probability`, filtering is
anomaly-robust (StateInterpolatingAnomalyDetector, `anomaly_score` in evaluate's outputs)."""
import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.estimators import TimeSeriesRegressor
from estimator_compat.legacy.contrib.timeseries.head import TimeSeriesRegressionHead
from estimator_compat.legacy.contrib.timeseries.state_space.chaining import (
    ChainingStateManager)
from estimator_compat.legacy.contrib.timeseries.state_space.filtering_postprocessor import (
    StateInterpolatingAnomalyDetector)
from estimator_compat.legacy.contrib.timeseries.state_space.state_space_model import (
    StateSpaceModel, StateSpaceModelConfiguration)
from estimator_compat.legacy.contrib.timeseries.state_space.structural_ensemble import (
    MultiResolutionStructuralEnsemble)


class StateSpaceRegressor(TimeSeriesRegressor):
    """A TimeSeriesRegressor for a StateSpaceModel (ChainingStateManager by default)."""

    def __init__(self, model, state_manager=None, optimizer=None, model_dir=None, config=None,
                 head_type=TimeSeriesRegressionHead):
        if not isinstance(model, StateSpaceModel):
            raise ValueError(f"StateSpaceRegressor only supports state space models (children "
                             f"of StateSpaceModel) in its `model` argument, got {model}.")
        if state_manager is None:
            state_manager = ChainingStateManager()
        super().__init__(model=model, state_manager=state_manager, optimizer=optimizer,
                         model_dir=model_dir, config=config, head_type=head_type)


class StructuralEnsembleRegressor(StateSpaceRegressor):
    """Level, trend, periodic and moving average components summed (see the module
    docstring); train with RandomWindowInputFn, evaluate on whole series."""

    def __init__(self, periodicities, num_features, cycle_num_latent_values=11,
                 moving_average_order=4, autoregressive_order=0,
                 exogenous_feature_columns=None, exogenous_update_condition=None,
                 dtype=tf.float64, anomaly_prior_probability=None, optimizer=None,
                 model_dir=None, config=None, head_type=TimeSeriesRegressionHead):
        postprocessor = None
        if anomaly_prior_probability is not None:
            postprocessor = StateInterpolatingAnomalyDetector(
                anomaly_prior_probability=anomaly_prior_probability)
        configuration = StateSpaceModelConfiguration(
            num_features=num_features, dtype=dtype, filtering_postprocessor=postprocessor,
            exogenous_feature_columns=exogenous_feature_columns,
            exogenous_update_condition=exogenous_update_condition)
        model = MultiResolutionStructuralEnsemble(
            cycle_num_latent_values=cycle_num_latent_values,
            moving_average_order=moving_average_order,
            autoregressive_order=autoregressive_order, periodicities=periodicities,
            configuration=configuration)
        super().__init__(model=model, optimizer=optimizer, model_dir=model_dir, config=config,
                         head_type=head_type)
