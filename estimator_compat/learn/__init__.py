"""tf.contrib.learn's engine pieces (legacy/contrib/learn.py gathers them into the namespace).

TF 1.15 name                                        here
`Estimator`, the canned estimators, `fit` / `x=`     `estimator.py`, `numpy_input.py` (SKCompat)
`ModelFnOps`, `ModeKeys`, `MetricSpec`, ...          `model_fn_ops.py`
`Experiment`, `learn_runner`, `RunConfig`, HParams   `experiment.py`, `learn_runner.py`, ...
`ExportStrategy`, `InputFnOps`, `make_export_...`    `export_strategy.py`
`Trainable`, `Evaluable`, `BaseEstimator`, errors,   `interfaces.py`
`PredictionKey`
`monitors`                                           `monitors.py`
`read_batch_*` (queue readers)                       `graph_io.py`
`train`, `evaluate`, `infer`, `run_n`, `run_feeds`   `graph_actions.py`
`extract_pandas_*`, `extract_dask_*`                 `learn_io.py`
`infer_real_valued_columns_from_input(_fn)`          `infer_columns.py`
`LogisticRegressor`, `KMeansClustering`              `logistic_regressor.py`, `kmeans.py`
`LinearEstimator`, `DNNEstimator`, `DNNLinear...`    `head_estimators.py` (heads: `heads.py`)
`DynamicRnnEstimator`, `PredictionType`              `dynamic_rnn.py`
`SVM`, `binary_svm_head` (hinge-loss SDCA)           `svm.py`
`models`, `ops`                                      `models.py`, `ops.py`
`datasets`, `preprocessing`                          `datasets/`, `preprocessing/`
"""
from estimator_compat.learn import learn_runner  # noqa: F401
from estimator_compat.learn.experiment import Experiment  # noqa: F401
from estimator_compat.learn.hparams import HParams  # noqa: F401
from estimator_compat.learn.run_config import RunConfig  # noqa: F401
from estimator_compat.run_config import TaskType  # noqa: F401
