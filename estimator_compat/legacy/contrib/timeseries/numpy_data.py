"""A time series given as numpy arrays, brought to TF 1.15's `[batch, series length, ...]`
layout: `times` may be a scalar (one step), `[length]` or `[batch, length]`; `values` adds a
feature dimension where a univariate series left it out; every other feature's shape starts
with the times' shape."""
import numpy as np

from estimator_compat.legacy.contrib.timeseries.feature_keys import TrainEvalFeatures

TIMES, VALUES = TrainEvalFeatures.TIMES, TrainEvalFeatures.VALUES


def canonicalize(data, require_single_batch):
    """{key: array} shaped [batch, length, ...]; `require_single_batch` refuses batch > 1."""
    features = {key: np.array(value) for key, value in data.items()}
    if TIMES not in features or VALUES not in features:
        raise ValueError(f"{TIMES} and {VALUES} are required features (got the keys "
                         f"{sorted(features)}).")
    times = features[TIMES]
    for key, value in features.items():
        if value.shape[:times.ndim] != times.shape:
            raise ValueError(
                f"All features must have their shapes prefixed by the shape of the times "
                f"feature. Got shape {value.shape} for feature '{key}', but shape "
                f"{times.shape} for '{TIMES}'")
    values = features[VALUES]
    if times.ndim == 0:  # one step: values are [] or [features]
        if values.ndim > 1:
            raise ValueError(
                f"Got an unexpected number of dimensions for the '{VALUES}' feature. Was "
                f"expecting at most 1 dimension ([number of features]) since '{TIMES}' does "
                f"not have a batch or time dimension, but got shape {values.shape}")
        if values.ndim == 0:
            features[VALUES] = values[None]
        features = {key: value[None, None, ...] for key, value in features.items()}
    elif times.ndim == 1:  # one series: values are [length] or [length, features]
        if values.ndim > 2:
            raise ValueError(
                f"Got an unexpected number of dimensions for the '{VALUES}' feature. Was "
                f"expecting at most 2 dimensions ([series length, number of features]) since "
                f"'{TIMES}' does not have a batch dimension, but got shape {values.shape}")
        if values.ndim == 1:
            features[VALUES] = values[:, None]
        features = {key: value[None, ...] for key, value in features.items()}
    elif times.ndim != 2:
        raise ValueError(f"Got an unexpected number of dimensions for times. Was expecting at "
                         f"most two ([batch size, series length]), but got shape "
                         f"{times.shape}.")
    if require_single_batch and features[TIMES].shape[0] != 1:
        raise ValueError("Got batch input, was expecting unbatched input (times of shape "
                         f"[series length], got {features[TIMES].shape}).")
    return features
