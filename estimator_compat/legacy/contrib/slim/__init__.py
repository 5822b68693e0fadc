"""`tf.contrib.slim` as TF 1.15 had it, with `tensorflow.contrib.slim.nets` and the deep paths
`tensorflow.contrib.slim.python.slim.{learning,evaluation,queues,summaries,model_analyzer}`,
`...slim.data.*` and `...slim.nets.*`.

Where TF 1.15's names live here:
- the layers, arg_scope, variable helpers, `learning` (create_train_op, train), `evaluation`
  (evaluate_once, evaluation_loop), `losses`, `metrics`, `queues`, `summaries`, the data
  providers/decoders and `nets` (alexnet, inception, overfeat, resnet_v1/v2, vgg): the `tf_slim`
  package (TF 1.15's contrib.slim code), loaded by `tf_slim_loader`
- what contrib.layers / contrib.framework add (optimize_loss, bow_encoder, embed_sequence,
  with_shape, ...): their namespaces here (`contrib/layers`, `contrib/framework`)
- the modules TF 1.15's slim re-exported by accident of its imports (`array_ops`, `nn`, `six`,
  `math`, ...): the same modules of TensorFlow 2.21 and Python
- the contrib feature and target columns: `contrib/layers/feature_columns/`; DataFrameColumn,
  sparse_feature_cross (and its op modules), `loader`: `dataframe_column.py`,
  `sparse_feature_cross.py` and contrib.util's loader
"""
import importlib
import sys

_PREFIX = "tensorflow.contrib.slim"
_NETS = ("alexnet", "inception", "inception_v1", "inception_v2", "inception_v3", "overfeat",
         "resnet_utils", "resnet_v1", "resnet_v2", "vgg")
# names TF 1.15's slim had from its imports of TensorFlow and Python modules: {name: module}
_MODULES = {
    "abc": "abc", "collections": "collections", "collections_abc": "collections.abc",
    "functools": "functools", "math": "math", "six": "six",
    "array_ops": "tensorflow.python.ops.array_ops", "clip_ops": "tensorflow.python.ops.clip_ops",
    "control_flow_ops": "tensorflow.python.ops.control_flow_ops",
    "dtypes": "tensorflow.python.framework.dtypes", "init_ops": "tensorflow.python.ops.init_ops",
    "math_ops": "tensorflow.python.ops.math_ops",
    "moving_averages": "tensorflow.python.training.moving_averages",
    "nn": "tensorflow.python.ops.nn", "nn_ops": "tensorflow.python.ops.nn_ops",
    "ops": "tensorflow.python.framework.ops", "optimizer_": "tensorflow.python.training.optimizer",
    "parsing_ops": "tensorflow.python.ops.parsing_ops",
    "random_ops": "tensorflow.python.ops.random_ops",
    "resource_variable_ops": "tensorflow.python.ops.resource_variable_ops",
    "sparse_ops": "tensorflow.python.ops.sparse_ops",
    "sparse_tensor": "tensorflow.python.framework.sparse_tensor",
    "sparse_tensor_py": "tensorflow.python.framework.sparse_tensor",
    "string_ops": "tensorflow.python.ops.string_ops",
    "summary": "tensorflow.python.summary.summary",
    "tensor_shape": "tensorflow.python.framework.tensor_shape",
    "train": "tensorflow.python.training.training",
    "variable_scope": "tensorflow.python.ops.variable_scope",
    "vs": "tensorflow.python.ops.variable_scope",
    "variables": "tensorflow.python.ops.variables", "vars_": "tensorflow.python.ops.variables",
    "logging": "tensorflow.python.platform.tf_logging",
    "resource_loader": "tensorflow.python.platform.resource_loader",
    "deprecation": "tensorflow.python.util.deprecation", "nest": "tensorflow.python.util.nest",
    "fc_core": "tensorflow.python.feature_column.feature_column",
    "losses": "tf_slim.losses", "loss_ops": "tf_slim.losses.loss_ops",
    "metrics": "tf_slim.metrics", "metric_ops": "tf_slim.metrics.metric_ops",
    "learning": "tf_slim.learning", "evaluation": "tf_slim.evaluation",
    "queues": "tf_slim.queues", "summaries": "tf_slim.summaries",
    "model_analyzer": "tf_slim.model_analyzer",
}
_DATA = ("data_decoder", "data_provider", "dataset", "dataset_data_provider", "parallel_reader",
         "prefetch_queue", "tfexample_decoder")
# slim's names that are contrib.layers' / contrib.framework's namespaces (registered by them)
_CONTRIB_PATHS = {
    "contrib_framework": "tensorflow.contrib.framework",
    "contrib_variables": "tensorflow.contrib.framework.python.ops.variables",
    "checkpoint_utils": "tensorflow.contrib.framework.python.framework.checkpoint_utils",
    "contrib_sparse_ops": "tensorflow.contrib.layers.python.ops.sparse_ops",
    "layers": "tensorflow.contrib.layers.python.layers.layers",
    "initializers": "tensorflow.contrib.layers.python.layers.initializers",
    "regularizers": "tensorflow.contrib.layers.python.layers.regularizers",
    "optimizers": "tensorflow.contrib.layers.python.layers.optimizers",
    "normalization": "tensorflow.contrib.layers.python.layers.normalization",
    "utils": "tensorflow.contrib.layers.python.layers.utils",
    "rev_block_lib": "tensorflow.contrib.layers.python.layers.rev_block_lib",
    "encoders": "tensorflow.contrib.layers.python.layers.encoders",
    "embedding_ops": "tensorflow.contrib.layers.python.layers.embedding_ops",
    "bucketization_op": "tensorflow.contrib.layers.python.ops.bucketization_op",
    "feature_column": "tensorflow.contrib.layers.python.layers.feature_column",
    "fc": "tensorflow.contrib.layers.python.layers.feature_column",
    "feature_column_ops": "tensorflow.contrib.layers.python.layers.feature_column_ops",
    "target_column": "tensorflow.contrib.layers.python.layers.target_column",
    "lookup": "tensorflow.contrib.lookup",
}
_BUILT = []


def _contrib(path):
    """The registered contrib namespace `path` (building its tf.contrib module if need be)."""
    if path not in sys.modules:
        from estimator_compat.legacy import contrib
        importlib.import_module(contrib.MODULES[path.split(".")[2]]).build()
    return sys.modules[path]


def names():
    """{name: value} of tf.contrib.slim."""
    import __future__

    from estimator_compat.legacy.contrib import framework, layers
    from estimator_compat.legacy.contrib.framework.experimental import experimental
    from estimator_compat.legacy.contrib.layers import embedding_ops
    from estimator_compat.legacy.contrib.layers.feature_columns import targets
    from estimator_compat.legacy.contrib.tf_slim_loader import tf_slim
    from tensorflow.python.util import all_util
    slim = tf_slim()
    served = {n: v for n, v in vars(slim).items() if not n.startswith("_")
              and n not in ("data", "training", "train_eval", "arg_scope_lib", "check_ops")}
    served.update(layers.names())
    served.update({n: v for n, v in framework.names().items() if n in (
        "deprecated", "deprecated_arg_values", "zero_initializer")})
    served.update({n: importlib.import_module(m) for n, m in _MODULES.items()})
    served.update({n: importlib.import_module("tf_slim.data." + n) for n in _DATA})
    served.update({n: _contrib(p) for n, p in _CONTRIB_PATHS.items()})
    served.update(importlib.import_module(
        "estimator_compat.legacy.contrib.sparse_feature_cross").slim_names())
    served.update(DataFrameColumn=importlib.import_module(
        "estimator_compat.legacy.contrib.dataframe_column").DataFrameColumn)
    served.update({n: getattr(__future__, n) for n in ("absolute_import", "division",
                                                        "print_function")})
    served.update(
        experimental=experimental, make_all=all_util.make_all,
        InputLayer=importlib.import_module(_MODULES["fc_core"]).InputLayer,
        bucketize=slim.bucketize,
        embedding_lookup_sparse_with_distributed_aggregation=(
            embedding_ops.embedding_lookup_sparse_with_distributed_aggregation),
        scattered_embedding_lookup=embedding_ops.scattered_embedding_lookup,
        scattered_embedding_lookup_sparse=embedding_ops.scattered_embedding_lookup_sparse,
        **{n: getattr(targets, n) for n in (
            "binary_svm_target", "ProblemType", "get_default_binary_metrics_for_eval")})
    return served


def _nets():
    from estimator_compat.legacy.namespaces import namespace
    modules = {n: importlib.import_module("tf_slim.nets." + n) for n in _NETS}
    for name, module in modules.items():
        sys.modules[f"{_PREFIX}.python.slim.nets.{name}"] = module
    nets = namespace(f"{_PREFIX}.nets", "tf.contrib.slim.nets (tf_slim.nets)", **modules)
    sys.modules[f"{_PREFIX}.python.slim.nets"] = nets
    return nets


def build():
    """The `tensorflow.contrib.slim` namespace (made once, deep paths registered)."""
    if not _BUILT:
        from estimator_compat.legacy.contrib.layers import declined
        from estimator_compat.legacy.namespaces import namespace
        declined.register("slim")
        served = names()
        nets = _nets()
        for name in ("learning", "evaluation", "queues", "summaries", "model_analyzer"):
            sys.modules[f"{_PREFIX}.python.slim.{name}"] = served[name]
        for name in _DATA:
            sys.modules[f"{_PREFIX}.python.slim.data.{name}"] = served[name]
        namespace(f"{_PREFIX}.python", "tf.contrib.slim's python package")
        namespace(f"{_PREFIX}.python.slim", "tf.contrib.slim's python/slim package",
                  nets=nets, **{n: served[n] for n in ("learning", "evaluation", "queues",
                                                       "summaries", "model_analyzer")})
        namespace(f"{_PREFIX}.python.slim.data", "tf.contrib.slim's data package",
                  **{n: served[n] for n in _DATA})
        served["nets"] = nets
        module = namespace(_PREFIX, "tf.contrib.slim (TF 1.15's names; estimator_compat)",
                           **served)
        module.__served_whole__ = True  # every TF 1.15 name: served, or declined (declined.py)
        _BUILT.append(module)
    return _BUILT[0]
