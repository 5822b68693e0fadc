"""Running an exported time series model (TF 1.15's `saved_model_utils`): feed a SavedModel
loaded into a TF1 session (`tf.saved_model.loader.load`'s MetaGraphDef as `signatures`) through
the signatures `TimeSeriesRegressor.build_raw_serving_input_receiver_fn` exports.

    predict_continuation   predictions after a state (an evaluation's or a filter's)
    cold_start_filter      the state after a series, from the model's start state
    filter_continuation    the state after more of the series, from a given state
"""
from estimator_compat.legacy.contrib.timeseries import numpy_data
from estimator_compat.legacy.contrib.timeseries.continuation import (
    canonicalize_times_or_steps_from_output)
from estimator_compat.legacy.contrib.timeseries.feature_keys import (
    FilteringFeatures, FilteringResults, PredictionFeatures, PredictionResults, SavedModelLabels)
from estimator_compat.legacy.contrib.timeseries.head import state_to_dictionary


def _feeds_and_fetches(signature, features, graph, continue_from=None):
    """(fetches by output key, feed_dict) of `signature` for `features` and the state in
    `continue_from` (an evaluation's `start_tuple`, or a filter's `model_state_NN`)."""
    if continue_from is None:
        state = {}
    elif FilteringResults.STATE_TUPLE in continue_from:
        state = state_to_dictionary(continue_from[FilteringResults.STATE_TUPLE])
    else:
        state = continue_from
    inputs = {key: graph.as_graph_element(value.name) for key, value in signature.inputs.items()}
    fetches = {key: graph.as_graph_element(value.name)
               for key, value in signature.outputs.items()}
    feed_dict = {}
    for key, value in list(state.items()) + list(features.items()):
        if key not in inputs:
            raise ValueError(f"'{key}' is not an input of this signature (its inputs: "
                             f"{sorted(inputs)}).")
        feed_dict[inputs[key]] = value
    return fetches, feed_dict


def predict_continuation(continue_from, signatures, session, steps=None, times=None,
                         exogenous_features=None):
    """`steps` (or `times`) predicted after `continue_from`'s state, by `serving_default`."""
    times = canonicalize_times_or_steps_from_output(times=times, steps=steps,
                                                    previous_model_output=continue_from)
    features = {PredictionFeatures.TIMES: times}
    features.update(exogenous_features or {})
    fetches, feed_dict = _feeds_and_fetches(
        signatures.signature_def[SavedModelLabels.PREDICT], features, session.graph,
        continue_from=continue_from)
    output = session.run(fetches, feed_dict=feed_dict)
    output[PredictionResults.TIMES] = features[PredictionFeatures.TIMES]
    return output


def cold_start_filter(signatures, session, features):
    """The state (`model_state_NN`) after the series `features`, from the start state."""
    features = numpy_data.canonicalize(features, require_single_batch=False)
    fetches, feed_dict = _feeds_and_fetches(
        signatures.signature_def[SavedModelLabels.COLD_START_FILTER], features, session.graph)
    output = session.run(fetches, feed_dict=feed_dict)
    output[FilteringResults.TIMES] = features[FilteringFeatures.TIMES]
    return output


def filter_continuation(continue_from, signatures, session, features):
    """The state after the series `features`, from `continue_from`'s state."""
    features = numpy_data.canonicalize(features, require_single_batch=False)
    fetches, feed_dict = _feeds_and_fetches(
        signatures.signature_def[SavedModelLabels.FILTER], features, session.graph,
        continue_from=continue_from)
    output = session.run(fetches, feed_dict=feed_dict)
    output[FilteringResults.TIMES] = features[FilteringFeatures.TIMES]
    return output
