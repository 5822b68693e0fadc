"""tf.contrib.timeseries' state space models (TF 1.x style; Python 3.7 syntax: they also run
in TF 1.15.5): structural ensembles (level/trend, VARMA, periodic cycles) built in a graph of
their own, every variable set to a fixed pattern, then their training and evaluation losses,
one-step predictions, end states and `predict` continuations compared; the periodic
components' transition powers and noise sums (integer, fractional and folded periods); the
ChainingStateManager's cached states across two steps; and the errors of misuse.
"""
import importlib

import numpy as np

from tf115_cases.contrib_timeseries_ar import _fixed_weights

SSM = "tensorflow.contrib.timeseries.python.timeseries.state_space_models."


def _module(tf, name):
    tf.contrib.timeseries  # registers the deep paths here
    return importlib.import_module(SSM + name)


def _series(batch, length, features, gap=1, offset=0):
    steps = np.arange(length, dtype=np.int64)
    times = (np.tile(steps * gap + offset + (steps % 3 == 2), [batch, 1])
             + np.arange(batch)[:, None])
    values = (np.sin(times[..., None] / 3.0 + np.arange(features))
              + 0.1 * times[..., None] + np.arange(batch)[:, None, None])
    return {"times": times, "values": values.astype(np.float64)}


def _tensors(tf, series):
    return {key: tf.constant(value) for key, value in series.items()}


def _state(state):
    mean, covariance, time = state
    return {"mean": mean, "covariance": covariance, "time": time}


def _outputs(outputs):
    return {"loss": outputs.loss, "predictions": outputs.predictions,
            "times": outputs.prediction_times, "end_state": _state(outputs.end_state)}


def _configuration(tf, **kwargs):
    args = dict(num_features=1, dtype=tf.float64)
    args.update(kwargs)
    return _module(tf, "state_space_model").StateSpaceModelConfiguration(**args)


def _multi_resolution(tf, num_features=2, **kwargs):
    args = dict(cycle_num_latent_values=5, moving_average_order=2, autoregressive_order=1,
                periodicities=[10, 7.5])
    args.update(kwargs)
    model = _module(tf, "structural_ensemble").MultiResolutionStructuralEnsemble(
        configuration=_configuration(tf, num_features=num_features), **args)
    return model


def case_multi_resolution_train_with_statistics(tf):
    math_utils = importlib.import_module(
        "tensorflow.contrib.timeseries.python.timeseries.math_utils")
    series = _tensors(tf, _series(3, 5, 1, gap=2))
    statistics = math_utils.InputStatisticsFromMiniBatch(
        num_features=1, dtype=tf.float64).initialize_graph(series)
    model = _multi_resolution(tf, num_features=1, autoregressive_order=3,
                              moving_average_order=1, periodicities=12)
    model.initialize_graph(input_statistics=statistics)
    return _fixed_weights(tf, _outputs(model.define_loss(series, tf.estimator.ModeKeys.TRAIN)))


def case_structural_ensemble_integer_cycles(tf):
    """Integer cycles, filtered with the window loop statically unrolled."""
    model = _module(tf, "structural_ensemble").StructuralEnsemble(
        periodicities=[3, 4], moving_average_order=1, autoregressive_order=0,
        configuration=_configuration(tf, static_unrolling_window_size_threshold=10))
    model.initialize_graph()
    outputs = model.define_loss(_tensors(tf, _series(1, 7, 1, gap=3)),
                                tf.estimator.ModeKeys.EVAL)
    return _fixed_weights(tf, _outputs(outputs))


def case_exogenous_updates(tf):
    """Exogenous features raising (and lowering) the state's uncertainty where a condition
    holds: `state_update_step/exogenous_noise_*/fully_connected` variables."""
    series = _series(2, 4, 1)
    series["c"] = (series["times"] % 2).astype(np.float64)[..., None]
    configuration = _configuration(
        tf, exogenous_noise_decreases=True,
        exogenous_feature_columns=[tf.feature_column.numeric_column("c", dtype=tf.float64)],
        exogenous_update_condition=lambda times, features: tf.equal(times % 2, 1))
    model = _module(tf, "structural_ensemble").MultiResolutionStructuralEnsemble(
        cycle_num_latent_values=3, moving_average_order=1, autoregressive_order=0,
        periodicities=[], configuration=configuration)
    model.initialize_graph()
    outputs = model.define_loss(_tensors(tf, series), tf.estimator.ModeKeys.EVAL)
    return _fixed_weights(tf, _outputs(outputs))


def case_anomaly_interpolating_filter(tf):
    """StateInterpolatingAnomalyDetector: an outlier's `anomaly_score`, the interpolated
    state and loss."""
    postprocessor = _module(tf, "filtering_postprocessor").StateInterpolatingAnomalyDetector(
        anomaly_prior_probability=0.05)
    model = _module(tf, "structural_ensemble").MultiResolutionStructuralEnsemble(
        cycle_num_latent_values=3, moving_average_order=1, autoregressive_order=0,
        periodicities=[], configuration=_configuration(
            tf, filtering_postprocessor=postprocessor))
    model.initialize_graph()
    series = _series(2, 5, 1)
    series["values"][:, 3] += 25.
    outputs = model.define_loss(_tensors(tf, series), tf.estimator.ModeKeys.TRAIN)
    return _fixed_weights(tf, _outputs(outputs))


def case_generate_from_random_parameters(tf):
    """`random_model_parameters` and `generate` (numpy draws through the model's matrices)."""
    model = _module(tf, "structural_ensemble").StructuralEnsemble(
        periodicities=3, moving_average_order=1, autoregressive_order=0,
        configuration=_configuration(tf))
    model.initialize_graph()

    def run(sess):
        del sess
        parameters = model.random_model_parameters(seed=3)
        generated = model.generate(number_of_series=2, series_length=6,
                                   model_parameters=parameters, seed=4)
        return {"generated": generated, "parameters": sorted(
            float(np.sum(value)) for value in parameters.values())}
    return run


def case_periodic_powers_and_noise_sums(tf):
    periodic = _module(tf, "periodic")
    fetches = {}
    steps = tf.constant([0, 1, 2, 5, 13, 40], dtype=tf.int64)
    for name, periodicity in (("folded", 12), ("fractional", 7.5), ("short", 3)):
        with tf.variable_scope(name):
            model = periodic.ResolutionCycleModel(
                num_latent_values=5, periodicity=periodicity,
                configuration=_configuration(tf, use_observation_noise=False))
            model.initialize_graph()
        fetches[name] = {"powers": model.transition_to_powers(steps),
                         "noise": model.transition_power_noise_accumulator(steps)}
    with tf.variable_scope("cycle"):
        cycle = periodic.CycleStateSpaceModel(periodicity=4, configuration=_configuration(tf))
        cycle.initialize_graph()
    fetches["cycle"] = {"powers": cycle.transition_to_powers(steps),
                        "noise": cycle.transition_power_noise_accumulator(steps)}
    return _fixed_weights(tf, fetches)


def case_level_trend_and_varma_matrices(tf):
    level_trend = _module(tf, "level_trend")
    varma = _module(tf, "varma")
    steps = tf.constant([0, 1, 4, 9], dtype=tf.int64)
    with tf.variable_scope("adder"):
        adder = level_trend.AdderStateSpaceModel(configuration=_configuration(tf))
        adder.initialize_graph()
    with tf.variable_scope("varma"):
        arma = varma.VARMA(autoregressive_order=2, moving_average_order=1,
                           configuration=_configuration(tf, num_features=2))
        arma.initialize_graph()
    return _fixed_weights(tf, {
        "adder_powers": adder.transition_to_powers(steps),
        "adder_noise": adder.transition_power_noise_accumulator(steps),
        "varma_transition": arma.get_state_transition(),
        "varma_noise_transform": arma.get_noise_transform(),
        "varma_observation": arma.get_observation_model(steps),
        "varma_noise": arma.transition_power_noise_accumulator(steps),
        "varma_powers": arma.transition_to_powers(steps)})


def case_multi_resolution_chained_steps_and_predict(tf):
    """Two training steps through a ChainingStateManager (the second window starts from the
    first's cached state), and a continuation predicted from the first's end state."""
    state_management = importlib.import_module(
        "tensorflow.contrib.timeseries.python.timeseries.state_management")
    model = _multi_resolution(tf, periodicities=[])
    model.initialize_graph()
    manager = state_management.ChainingStateManager(state_saving_interval=3)
    manager.initialize_graph(model)
    first = manager.define_loss(model, _tensors(tf, _series(2, 4, 2)),
                                tf.estimator.ModeKeys.TRAIN)
    second = manager.define_loss(model, _tensors(tf, _series(2, 4, 2, offset=4)),
                                 tf.estimator.ModeKeys.TRAIN)
    predicted = model.predict({"times": first.end_state[2][:, None] + np.array([[1, 3, 30]]),
                               "start_tuple": first.end_state})
    run_fixed = _fixed_weights(tf, [])

    def run(sess):
        run_fixed(sess)
        one = sess.run({"outputs": _outputs(first), "predicted": predicted,
                        "start_state": _state(model.get_start_state())})
        return {"first": one, "second": sess.run(_outputs(second))}
    return run


def case_error_even_latent_values(tf):
    _module(tf, "periodic").ResolutionCycleModel(num_latent_values=4, periodicity=10)


def case_error_latent_values_length(tf):
    _multi_resolution(tf, cycle_num_latent_values=[3, 5, 7], periodicities=[4, 6])


def case_error_correlated_members(tf):
    ensembles = _module(tf, "state_space_model")
    member = _module(tf, "level_trend").AdderStateSpaceModel(configuration=_configuration(tf))
    ensembles.StateSpaceCorrelatedFeaturesEnsemble(
        ensemble_members=[member], configuration=_configuration(tf, num_features=2))


def case_error_chaining_start_state_in_training(tf):
    state_management = importlib.import_module(
        "tensorflow.contrib.timeseries.python.timeseries.state_management")
    model = _multi_resolution(tf, num_features=1, periodicities=[])
    model.initialize_graph()
    manager = state_management.ChainingStateManager()
    manager.initialize_graph(model)
    features = _series(1, 3, 1)
    features["start_tuple"] = model.get_start_state()
    manager.define_loss(model, features, tf.estimator.ModeKeys.TRAIN)
