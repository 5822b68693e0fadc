"""`tf.contrib.learn` and the module paths 2017-era code imported its parts from.

The top-level names (`Estimator`, the canned estimators, `ModelFnOps`, `Experiment`,
`RunConfig`, `SKCompat`, `monitors`, `preprocessing`, `datasets`, `read_batch_*`,
`graph_actions`' `train` / `evaluate` / `infer` / `run_n` / `run_feeds`, ...) live in
`estimator_compat/learn/`; this module gathers them into the namespace, and registers the same
objects under `tensorflow.contrib.learn.python.learn.<module>` (`estimators.run_config`,
`utils.saved_model_export_utils`, `datasets.base`, `preprocessing.text`, `learn_io.graph_io`,
...), as `from tensorflow.contrib.learn.python.learn.utils import saved_model_export_utils`
reads them. A VocabularyProcessor pickled by TF 1.15 unpickles through those paths.
"""
import sys

from estimator_compat.legacy.namespaces import namespace

_PREFIX = "tensorflow.contrib.learn"


def _public(module):
    """The names of `module.__all__`."""
    return {name: getattr(module, name) for name in module.__all__}


def _names(module, *names):
    return {name: getattr(module, name) for name in names}


def _modules():
    """{path under tensorflow.contrib.learn.python.learn: {name: object} or a module}."""
    from estimator_compat import inputs, learn
    from estimator_compat.learn import (datasets, estimator, export_strategy, graph_actions,
                                        graph_io, heads, infer_columns, interfaces, kmeans,
                                        learn_io,
                                        logistic_regressor, model_fn_ops, models, monitors, svm,
                                        numpy_input, ops, preprocessing)
    from estimator_compat.run_config import TaskType

    readers = _names(graph_io, "read_batch_examples", "read_batch_features",
                     "read_batch_record_features", "read_keyed_batch_examples",
                     "read_keyed_batch_examples_shared_queue", "read_keyed_batch_features",
                     "read_keyed_batch_features_shared_queue")
    extractors = _names(learn_io, "extract_dask_data", "extract_dask_labels",
                        "extract_pandas_data", "extract_pandas_labels", "extract_pandas_matrix")
    actions = _names(graph_actions, "train", "evaluate", "infer", "run_n", "run_feeds",
                     "run_feeds_iter")
    infer = _names(infer_columns, "infer_real_valued_columns_from_input",
                   "infer_real_valued_columns_from_input_fn")
    serving = dict(InputFnOps=export_strategy.InputFnOps,
                   build_parsing_serving_input_fn=export_strategy.build_parsing_serving_input_fn,
                   build_default_serving_input_fn=export_strategy.build_default_serving_input_fn)
    errors_and_keys = dict(NotFittedError=interfaces.NotFittedError,
                           PredictionKey=interfaces.PredictionKey,
                           BaseEstimator=interfaces.BaseEstimator,
                           Trainable=interfaces.Trainable, Evaluable=interfaces.Evaluable)
    return {
        "learn_runner": learn.learn_runner,
        "experiment": dict(Experiment=learn.Experiment),
        "metric_spec": dict(MetricSpec=model_fn_ops.MetricSpec),
        "export_strategy": dict(ExportStrategy=export_strategy.ExportStrategy),
        "evaluable": dict(Evaluable=interfaces.Evaluable),
        "trainable": dict(Trainable=interfaces.Trainable),
        "graph_actions": actions,
        "monitors": dict(_names(monitors, *monitors.__all__),
                         NanLossDuringTrainingError=interfaces.NanLossDuringTrainingError),
        "estimators": dict(Estimator=estimator.Estimator, ModelFnOps=model_fn_ops.ModelFnOps,
                           RunConfig=learn.RunConfig, ProblemType=model_fn_ops.ProblemType,
                           SKCompat=numpy_input.SKCompat, **errors_and_keys, **infer,
                           KMeansClustering=kmeans.KMeansClustering,
                           LogisticRegressor=logistic_regressor.LogisticRegressor, SVM=svm.SVM,
                           **estimator.CANNED, **_head_estimators()),
        "estimators.kmeans": dict(KMeansClustering=kmeans.KMeansClustering),
        "estimators.svm": dict(SVM=svm.SVM),
        **_rnn_modules(),
        "estimators.logistic_regressor": dict(
            LogisticRegressor=logistic_regressor.LogisticRegressor),
        "estimators.head": dict(Head=heads.Head, regression_head=heads.regression_head,
                                multi_class_head=heads.multi_class_head,
                                multi_label_head=heads.multi_label_head,
                                poisson_regression_head=heads.poisson_regression_head,
                                multi_head=heads.multi_head, binary_svm_head=svm.binary_svm_head,
                                no_op_train_fn=model_fn_ops.no_op_train_fn),
        "models": _public(models),
        "ops": _public(ops),
        "estimators.estimator": dict(Estimator=estimator.Estimator,
                                     BaseEstimator=interfaces.BaseEstimator,
                                     SKCompat=numpy_input.SKCompat, **infer),
        "estimators._sklearn": dict(NotFittedError=interfaces.NotFittedError),
        "estimators.prediction_key": dict(PredictionKey=interfaces.PredictionKey),
        "estimators.model_fn": dict(ModelFnOps=model_fn_ops.ModelFnOps,
                                    ModeKeys=model_fn_ops.ModeKeys),
        "estimators.run_config": dict(RunConfig=learn.RunConfig, TaskType=TaskType),
        "estimators.constants": dict(ProblemType=model_fn_ops.ProblemType),
        "utils": dict(make_export_strategy=export_strategy.make_export_strategy, **serving),
        "utils.saved_model_export_utils": dict(
            make_export_strategy=export_strategy.make_export_strategy),
        "utils.input_fn_utils": serving,
        "datasets": dict(load_dataset=datasets.load_dataset, DATASETS=datasets.DATASETS,
                         load_iris=datasets.load_iris, load_boston=datasets.load_boston),
        "datasets.mnist": _public(datasets.mnist),
        "datasets.base": _public(datasets.base),
        "datasets.text_datasets": _public(datasets.text_datasets),
        "preprocessing": _public(preprocessing),
        "preprocessing.text": _public(preprocessing.text),
        "preprocessing.categorical": _public(preprocessing.categorical),
        "preprocessing.categorical_vocabulary": _public(preprocessing.categorical_vocabulary),
        "learn_io": dict(numpy_input_fn=inputs.numpy_input_fn,
                         pandas_input_fn=inputs.pandas_input_fn,
                         queue_parsed_features=graph_io.queue_parsed_features,
                         HAS_PANDAS=_has("pandas"), HAS_DASK=_has("dask"),
                         **readers, **extractors),
        "learn_io.graph_io": dict(_names(graph_io, "queue_parsed_features"), **readers),
        "learn_io.pandas_io": dict(pandas_input_fn=inputs.pandas_input_fn,
                                   **{k: v for k, v in extractors.items() if "pandas" in k}),
        "learn_io.dask_io": {k: v for k, v in extractors.items() if "dask" in k},
        "learn_io.numpy_io": dict(numpy_input_fn=inputs.numpy_input_fn),
    }


def _head_estimators():
    """The estimators taking a head and DynamicRnnEstimator (learn/)."""
    from estimator_compat.learn import dynamic_rnn, head_estimators
    return dict(head_estimators.SERVED, DynamicRnnEstimator=dynamic_rnn.DynamicRnnEstimator)


def _rnn_modules():
    """DynamicRnnEstimator's modules, where its PredictionType is imported from."""
    from estimator_compat.learn import dynamic_rnn
    return {"estimators.rnn_common": dict(PredictionType=dynamic_rnn.PredictionType,
                                          RNNKeys=dynamic_rnn.RNNKeys),
            "estimators.dynamic_rnn_estimator": dict(
                DynamicRnnEstimator=dynamic_rnn.DynamicRnnEstimator,
                PredictionType=dynamic_rnn.PredictionType)}


def _has(module):
    import importlib.util
    return importlib.util.find_spec(module) is not None


def build():
    """The `tensorflow.contrib.learn` module (its submodules registered in sys.modules)."""
    from estimator_compat import learn
    from estimator_compat.learn import estimator, export_strategy, heads, model_fn_ops
    from estimator_compat.learn.interfaces import NanLossDuringTrainingError
    from estimator_compat.run_config import TaskType

    deep = {}
    for name, attrs in _modules().items():
        dotted = f"{_PREFIX}.python.learn.{name}"
        if isinstance(attrs, dict):
            deep[name] = namespace(dotted, f"tf.contrib.learn's {name}", **attrs)
        else:
            deep[name] = sys.modules[dotted] = attrs
    python_learn = namespace(f"{_PREFIX}.python.learn", "tf.contrib.learn",
                             **{k: v for k, v in deep.items() if "." not in k})
    for name, module in deep.items():
        if "." in name:
            parent, child = name.rsplit(".", 1)
            setattr(deep[parent], child, module)
    python = namespace(f"{_PREFIX}.python", "tf.contrib.learn", learn=python_learn)
    utils = namespace(f"{_PREFIX}.utils", "tf.contrib.learn.utils",
                      saved_model_export_utils=deep["utils.saved_model_export_utils"],
                      input_fn_utils=deep["utils.input_fn_utils"], **vars_of(deep["utils"]))
    top = {}
    for name in ("graph_actions", "estimators", "learn_io", "utils"):
        top.update(vars_of(deep[name]))
    top.pop("run_feeds_iter")
    top.pop("queue_parsed_features")
    top.pop("HAS_PANDAS")
    top.pop("HAS_DASK")
    top.pop("numpy_input_fn")
    top.pop("pandas_input_fn")
    top.pop("build_default_serving_input_fn")
    top.update(
        learn_runner=learn.learn_runner,
        Experiment=learn.Experiment, RunConfig=learn.RunConfig, TaskType=TaskType,
        Estimator=estimator.Estimator, ModelFnOps=model_fn_ops.ModelFnOps,
        ModeKeys=model_fn_ops.ModeKeys, ProblemType=model_fn_ops.ProblemType,
        MetricSpec=model_fn_ops.MetricSpec, InputFnOps=export_strategy.InputFnOps,
        ExportStrategy=export_strategy.ExportStrategy,
        NanLossDuringTrainingError=NanLossDuringTrainingError, utils=utils,
        datasets=deep["datasets"], io=deep["learn_io"], python=python,
        preprocessing=deep["preprocessing"], monitors=deep["monitors"],
        graph_actions=deep["graph_actions"], models=deep["models"], ops=deep["ops"],
        no_op_train_fn=model_fn_ops.no_op_train_fn, head=deep["estimators.head"],
        Head=heads.Head, regression_head=heads.regression_head,
        multi_class_head=heads.multi_class_head, multi_label_head=heads.multi_label_head,
        poisson_regression_head=heads.poisson_regression_head, multi_head=heads.multi_head,
        binary_svm_head=deep["estimators.head"].binary_svm_head)
    # every TF 1.15 name is served or declined (legacy/contrib/missing.py)
    return namespace(_PREFIX, "tf.contrib.learn", __served_whole__=True, **top)


def vars_of(module):
    """A namespace's own public attributes."""
    return {k: v for k, v in vars(module).items()
            if not k.startswith("_") and not isinstance(v, type(sys))}
