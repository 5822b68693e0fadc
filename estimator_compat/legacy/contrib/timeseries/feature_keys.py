"""The feature and result keys of TF 1.15's time series models (`feature_keys.py` there):
`times` / `values` in, `start_tuple` (the model's state) and `times` out of an evaluation, and
the SavedModel signature names, so programs index features and results as they did."""
import tensorflow as tf


class State:
    """Key formats for accepting/returning state."""
    STATE_TUPLE = "start_tuple"
    STATE_PREFIX = "model_state"


class Times:
    """Key formats for accepting/returning times."""
    TIMES = "times"


class Values:
    """Key formats for accepting/returning values."""
    VALUES = "values"


class TrainEvalFeatures(Times, Values):
    """Feature names used during training and evaluation."""


class PredictionFeatures(Times, State):
    """Feature names used during prediction."""


class FilteringFeatures(Times, Values, State):
    """Special feature names for filtering."""


class PredictionResults(Times):
    """Keys returned when predicting (not comprehensive)."""


class FilteringResults(Times, State):
    """Keys returned from evaluation/filtering."""


class SavedModelLabels:
    """Names of signatures exported with export_savedmodel."""
    PREDICT = tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY
    FILTER = "filter"
    COLD_START_FILTER = "cold_start_filter"
