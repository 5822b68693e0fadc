"""`tf.contrib.learn` and the module paths 2017-era code imported its parts from.

`tf.contrib.learn.{Estimator, ModelFnOps, ModeKeys, MetricSpec, InputFnOps, Experiment, RunConfig,
learn_runner, DNNClassifier, ..., datasets, utils.saved_model_export_utils, io}`, and the same
objects under `tensorflow.contrib.learn.python.learn.<module>` (`estimators.run_config`,
`utils.saved_model_export_utils`, `utils.input_fn_utils`, `datasets.mnist`, ...), as
`from tensorflow.contrib.learn.python.learn.utils import saved_model_export_utils` reads them.
"""
import sys

from estimator_compat.legacy.namespaces import namespace

_PREFIX = "tensorflow.contrib.learn"


def build():
    """The `tensorflow.contrib.learn` module (its submodules registered in sys.modules)."""
    from estimator_compat import inputs, learn
    from estimator_compat.learn import datasets, estimator, export_strategy, model_fn_ops
    from estimator_compat.run_config import TaskType

    modules = {
        "learn_runner": learn.learn_runner,
        "experiment": dict(Experiment=learn.Experiment),
        "metric_spec": dict(MetricSpec=model_fn_ops.MetricSpec),
        "export_strategy": dict(ExportStrategy=export_strategy.ExportStrategy),
        "estimators": dict(Estimator=estimator.Estimator, ModelFnOps=model_fn_ops.ModelFnOps,
                           RunConfig=learn.RunConfig, ProblemType=model_fn_ops.ProblemType,
                           **estimator.CANNED),
        "estimators.estimator": dict(Estimator=estimator.Estimator),
        "estimators.model_fn": dict(ModelFnOps=model_fn_ops.ModelFnOps,
                                    ModeKeys=model_fn_ops.ModeKeys),
        "estimators.run_config": dict(RunConfig=learn.RunConfig, TaskType=TaskType),
        "estimators.constants": dict(ProblemType=model_fn_ops.ProblemType),
        "utils": dict(InputFnOps=export_strategy.InputFnOps),
        "utils.saved_model_export_utils": dict(
            make_export_strategy=export_strategy.make_export_strategy),
        "utils.input_fn_utils": dict(
            InputFnOps=export_strategy.InputFnOps,
            build_parsing_serving_input_fn=export_strategy.build_parsing_serving_input_fn,
            build_default_serving_input_fn=export_strategy.build_default_serving_input_fn),
        "datasets": dict(load_dataset=datasets.load_dataset),
        "datasets.mnist": dict(read_data_sets=datasets.read_data_sets, DataSet=datasets.DataSet,
                               load_mnist=datasets.load_mnist),
        "datasets.base": dict(Datasets=datasets.Datasets),
        "learn_io": dict(numpy_input_fn=inputs.numpy_input_fn,
                         pandas_input_fn=inputs.pandas_input_fn),
    }
    deep = {}
    for name, attrs in modules.items():
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
                      input_fn_utils=deep["utils.input_fn_utils"],
                      InputFnOps=export_strategy.InputFnOps)
    return namespace(
        _PREFIX, "tf.contrib.learn", learn_runner=learn.learn_runner,
        Experiment=learn.Experiment, RunConfig=learn.RunConfig, TaskType=TaskType,
        Estimator=estimator.Estimator, ModelFnOps=model_fn_ops.ModelFnOps,
        ModeKeys=model_fn_ops.ModeKeys, ProblemType=model_fn_ops.ProblemType,
        MetricSpec=model_fn_ops.MetricSpec, InputFnOps=export_strategy.InputFnOps,
        ExportStrategy=export_strategy.ExportStrategy, utils=utils,
        datasets=deep["datasets"], io=deep["learn_io"], python=python, **estimator.CANNED)
