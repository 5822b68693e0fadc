"""ModeKeys: the three modes a model_fn is called in (TensorFlow's own class, as tf.estimator used)."""
from tensorflow.python.saved_model.model_utils.mode_keys import EstimatorModeKeys as ModeKeys

__all__ = ["ModeKeys"]
