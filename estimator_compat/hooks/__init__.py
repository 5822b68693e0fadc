"""SessionRunHook protocol (TensorFlow's own classes) and how the engine runs hooks."""
from tensorflow.python.training.basic_session_run_hooks import (  # noqa: F401
    CheckpointSaverListener,
    NanLossDuringTrainingError,
    SecondOrStepTimer,
)
from tensorflow.python.training.session_run_hook import (  # noqa: F401
    SessionRunArgs,
    SessionRunContext,
    SessionRunHook,
    SessionRunValues,
)
