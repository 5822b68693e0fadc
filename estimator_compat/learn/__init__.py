"""tf.contrib.learn: learn_runner.run, Experiment and RunConfig (and HParams of contrib.training)."""
from estimator_compat.learn import learn_runner  # noqa: F401
from estimator_compat.learn.experiment import Experiment  # noqa: F401
from estimator_compat.learn.hparams import HParams  # noqa: F401
from estimator_compat.learn.run_config import RunConfig  # noqa: F401
from estimator_compat.run_config import TaskType  # noqa: F401
