"""The module paths estimator-era code imported from, registered in sys.modules by install().

- `tensorflow.python.estimator.<module>` (TF 1.x's forwarding copy of tensorflow_estimator:
  `from tensorflow.python.estimator.model_fn import ModeKeys`) and the original
  `tensorflow_estimator.python.estimator.<module>`, each with the public names it had;
- `tensorflow.examples.tutorials.mnist.input_data` (`read_data_sets`, the TF 1.x tutorials').
The `tensorflow.contrib.*.python.*` paths are registered with tf.contrib (contrib/).
"""
import sys
import types

from estimator_compat.legacy.namespaces import namespace


def _estimator_modules():
    """{module path under `.../python/estimator/`: {name: object}}."""
    import estimator_compat as api
    from estimator_compat import canned, checkpoints, exporters, gc, inputs, training
    from estimator_compat.canned import keys, optimizers
    from estimator_compat.export import outputs, receivers
    from estimator_compat.hooks import builtin, early_stopping
    from estimator_compat.keras_bridge.model_to_estimator import model_to_estimator

    def public(module):
        return {n: getattr(module, n) for n in dir(module) if not n.startswith("_")
                and not isinstance(getattr(module, n), types.ModuleType)}
    return {
        "estimator": dict(Estimator=api.Estimator, EstimatorV2=api.Estimator,
                          VocabInfo=api.VocabInfo, WarmStartSettings=api.WarmStartSettings),
        "estimator_lib": public(api),
        "model_fn": dict(EstimatorSpec=api.EstimatorSpec, ModeKeys=api.ModeKeys),
        "mode_keys": dict(ModeKeys=api.ModeKeys),
        "run_config": dict(RunConfig=api.RunConfig, TaskType=api.TaskType),
        "training": dict(TrainSpec=training.TrainSpec, EvalSpec=training.EvalSpec,
                         train_and_evaluate=training.train_and_evaluate),
        "exporter": dict(Exporter=exporters.Exporter, LatestExporter=exporters.LatestExporter,
                         BestExporter=exporters.BestExporter,
                         FinalExporter=exporters.FinalExporter),
        "gc": public(gc),
        "keras": dict(model_to_estimator=model_to_estimator),
        "export": public(api.export),
        "export.export": public(receivers),
        "export.export_lib": public(api.export),
        "export.export_output": public(outputs),
        "inputs": public(inputs),
        "inputs.numpy_io": dict(numpy_input_fn=inputs.numpy_input_fn),
        "inputs.pandas_io": dict(pandas_input_fn=inputs.pandas_input_fn),
        "canned": {},
        "canned.dnn": dict(DNNClassifier=canned.DNNClassifier, DNNRegressor=canned.DNNRegressor,
                           DNNEstimator=canned.DNNEstimator),
        "canned.linear": dict(LinearClassifier=canned.LinearClassifier,
                              LinearRegressor=canned.LinearRegressor,
                              LinearEstimator=canned.LinearEstimator),
        "canned.dnn_linear_combined": dict(
            DNNLinearCombinedClassifier=canned.DNNLinearCombinedClassifier,
            DNNLinearCombinedRegressor=canned.DNNLinearCombinedRegressor,
            DNNLinearCombinedEstimator=canned.DNNLinearCombinedEstimator),
        "canned.baseline": dict(BaselineClassifier=canned.BaselineClassifier,
                                BaselineRegressor=canned.BaselineRegressor,
                                BaselineEstimator=canned.BaselineEstimator),
        "canned.metric_keys": dict(MetricKeys=keys.MetricKeys),
        "canned.prediction_keys": dict(PredictionKeys=keys.PredictionKeys),
        "canned.optimizers": dict(get_optimizer_instance=optimizers.get_optimizer),
        "canned.parsing_utils": dict(
            classifier_parse_example_spec=api.classifier_parse_example_spec,
            regressor_parse_example_spec=api.regressor_parse_example_spec),
        "hooks": dict(public(builtin), **public(early_stopping)),
        "util": dict(fn_args=_fn_args()),
        "checkpoint_utils": dict(latest_checkpoint=checkpoints.latest_checkpoint),
    }


def _fn_args():
    from estimator_compat.fn_args import fn_args
    return fn_args


def register(prefix, modules):
    """Registers `prefix.<path>` for each path of `modules` (parents before children), each
    child also an attribute of its parent; returns the `prefix` module."""
    top = namespace(prefix, f"{prefix}, served by estimator_compat")
    made = {"": top}
    for path in sorted(modules, key=lambda p: p.count(".")):
        module = namespace(f"{prefix}.{path}", f"{prefix}.{path}, served by estimator_compat",
                           **modules[path])
        parent, _, child = path.rpartition(".")
        setattr(made[parent], child, module)
        made[path] = module
    return top


def install():
    """Registers every path above (idempotent)."""
    if "tensorflow.python.estimator.model_fn" in sys.modules:
        return
    modules = _estimator_modules()
    register("tensorflow.python.estimator", modules)
    estimator_v2 = register("tensorflow_estimator.python.estimator", modules)
    namespace("tensorflow_estimator.python", "tensorflow_estimator.python",
              estimator=estimator_v2)
    sys.modules["tensorflow_estimator"].python = sys.modules["tensorflow_estimator.python"]
    from estimator_compat.learn import datasets
    register("tensorflow.examples", {
        "tutorials": {}, "tutorials.mnist": {},
        "tutorials.mnist.input_data": dict(read_data_sets=datasets.read_data_sets,
                                           DataSet=datasets.DataSet)})
