"""`tf.estimator.export`: serving input receivers and export outputs."""
from estimator_compat.export.outputs import (  # noqa: F401
    ClassificationOutput, EvalOutput, ExportOutput, PredictOutput, RegressionOutput, TrainOutput)
from estimator_compat.export.receivers import (  # noqa: F401
    ServingInputReceiver, SupervisedInputReceiver, TensorServingInputReceiver,
    build_parsing_serving_input_receiver_fn, build_raw_serving_input_receiver_fn,
    build_raw_supervised_input_receiver_fn)
