"""Export outputs: TensorFlow's own classes, which tf.estimator re-exported as tf.estimator.export.*."""
from tensorflow.python.saved_model.model_utils.export_output import (  # noqa: F401
    ClassificationOutput,
    EvalOutput,
    ExportOutput,
    PredictOutput,
    RegressionOutput,
    TrainOutput,
)
