"""`predict_continuation_input_fn`: the input_fn that predicts on from an evaluation (TF
1.15's): the evaluation's state (`start_tuple`) and the times to predict (`steps` after its
last time, or explicit `times`), read once each, so `predict()` yields one batch and ends:
in a TF1 graph through `tf.train.limit_epochs` (the next run raises OutOfRangeError), called
eagerly by an Estimator as a one-element `tf.data.Dataset`."""
import numpy as np
import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries.feature_keys import (
    FilteringResults, PredictionFeatures)

v1 = tf.compat.v1


def canonicalize_times_or_steps_from_output(times, steps, previous_model_output):
    """The `[batch, window]` times to predict: `steps` after the last evaluated time, or
    `times` (a batch dimension added where left out), checked against the evaluation."""
    if steps is not None and times is not None:
        raise ValueError("Only one of `steps` and `times` may be specified.")
    if steps is None and times is None:
        raise ValueError("One of `steps` and `times` must be specified.")
    last = np.asarray(previous_model_output[FilteringResults.TIMES])[:, -1:]
    if steps is not None:
        return last + 1 + np.arange(steps)[None, :]
    times = np.array(times)
    if times.ndim != 2:
        times = times[None, ...]
    if last.shape[0] != times.shape[0]:
        raise ValueError(
            f"`times` must have a batch dimension matching the previous model output (got a "
            f"batch dimension of {times.shape[0]} for `times` and {last.shape[0]} for the "
            f"previous model output).")
    if not (last[:, 0] < times[:, 0]).all():
        raise ValueError("Prediction times must be after the corresponding previous model "
                         "output.")
    return times


def predict_continuation_input_fn(evaluation, steps=None, times=None, exogenous_features=None):
    """An input_fn for `predict()` continuing `evaluation` (the dict `evaluate` returned)."""
    features = {
        PredictionFeatures.STATE_TUPLE: evaluation[FilteringResults.STATE_TUPLE],
        PredictionFeatures.TIMES: canonicalize_times_or_steps_from_output(
            times=times, steps=steps, previous_model_output=evaluation),
    }
    features.update(exogenous_features or {})

    def _predict_input_fn():
        if tf.executing_eagerly():  # an Estimator's call: a dataset of this one batch
            return tf.data.Dataset.from_tensors(features)
        once = {key: tf.nest.map_structure(
            lambda value: v1.train.limit_epochs(value, num_epochs=1), values)
            for key, values in features.items()}
        return once, None
    return _predict_input_fn
