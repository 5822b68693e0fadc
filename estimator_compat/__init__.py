"""estimator_compat: the TensorFlow Estimator API on TensorFlow 2.16+ and Keras 3."""
from estimator_compat import experimental, export, inputs, tpu  # noqa: F401
from estimator_compat.canned import (  # noqa: F401
    BaselineClassifier, BaselineRegressor, BinaryClassHead, DNNClassifier, DNNEstimator,
    DNNLinearCombinedClassifier, DNNLinearCombinedEstimator, DNNLinearCombinedRegressor,
    DNNRegressor, LinearClassifier, LinearEstimator, LinearRegressor, MultiClassHead,
    RegressionHead, add_metrics)
from estimator_compat.canned import (  # noqa: F401
    BaselineEstimator, LogisticRegressionHead, MultiHead, MultiLabelHead, PoissonRegressionHead)
from estimator_compat.canned.boosted_trees import (  # noqa: F401
    BoostedTreesClassifier, BoostedTreesEstimator, BoostedTreesRegressor)
from estimator_compat.canned.heads import Head  # noqa: F401
from estimator_compat.canned.parsing_utils import (  # noqa: F401
    classifier_parse_example_spec, regressor_parse_example_spec)
from estimator_compat.estimator import Estimator
from estimator_compat.export.outputs import (  # noqa: F401
    ClassificationOutput, ExportOutput, PredictOutput, RegressionOutput)
from estimator_compat.hooks import (  # noqa: F401
    CheckpointSaverListener, NanLossDuringTrainingError, SecondOrStepTimer, SessionRunArgs,
    SessionRunContext, SessionRunHook, SessionRunValues)
from estimator_compat.legacy import install
from estimator_compat.keras_bridge.model_to_estimator import model_to_estimator  # noqa: F401
from estimator_compat.hooks.builtin import (  # noqa: F401
    CheckpointSaverHook, FeedFnHook, FinalOpsHook, GlobalStepWaiterHook, LoggingTensorHook,
    NanTensorHook, ProfilerHook, StepCounterHook, StopAtStepHook, SummarySaverHook)
from estimator_compat.exporters import BestExporter, Exporter, FinalExporter, LatestExporter
from estimator_compat.mode_keys import ModeKeys
from estimator_compat.run_config import RunConfig, TaskType
from estimator_compat.spec import EstimatorSpec
from estimator_compat.training import EvalSpec, TrainSpec, train_and_evaluate
from estimator_compat.warm_start import VocabInfo, WarmStartSettings

__version__ = "0.1.0"

__all__ = [
    "Estimator", "EstimatorSpec", "ModeKeys", "RunConfig", "TaskType", "WarmStartSettings",
    "VocabInfo", "SessionRunHook", "SessionRunArgs", "SessionRunContext", "SessionRunValues",
    "CheckpointSaverListener", "NanLossDuringTrainingError", "SecondOrStepTimer",
    "CheckpointSaverHook", "FeedFnHook", "FinalOpsHook", "GlobalStepWaiterHook",
    "LoggingTensorHook", "NanTensorHook", "ProfilerHook", "StepCounterHook", "StopAtStepHook",
    "SummarySaverHook", "TrainSpec", "EvalSpec", "train_and_evaluate", "Exporter",
    "LatestExporter", "BestExporter", "FinalExporter", "experimental", "export", "inputs",
    "install", "model_to_estimator", "tpu",
]
