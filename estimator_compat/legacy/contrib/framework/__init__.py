"""`tf.contrib.framework` as TF 1.15 had it, with its deep import paths
(`tensorflow.contrib.framework.python.ops.arg_scope`, `...ops.variables`,
`...framework.checkpoint_utils`, `...framework.tensor_util`, ...).

Where TF 1.15's names live here:
- arg_scope, add_arg_scope, current_arg_scope, has_arg_scope, arg_scoped_arguments; the
  variable helpers (model_variable, variable, local_variable, global_variable,
  add_model_variable, get_variables*, get_variables_to_restore, filter_variables,
  get_unique_variable, assign_from_checkpoint(_fn), assign_from_values(_fn),
  VariableDeviceChooser) and the global-step functions: the `tf_slim` package (TF 1.15's contrib
  code), loaded by `tf_slim_loader`
- assert_scalar_int, reduce_sum_n, with_shape, with_same_shape, remove_squeezable_dimensions:
  `tensor_util.py`; get_placeholders, py_func, zero_initializer: `graph_helpers.py`
- what TF 1.15 re-exported from TensorFlow itself (nest, sort, argsort, smart_cond, TensorSpec,
  deprecated, the checkpoint readers and remapping initializers, ...): TensorFlow 2.21's same
  functions
- fuse_op: `fuse_op.py`; the bias / slot remapping initializers: `remap_initializers.py`
"""
import importlib

_PREFIX = "tensorflow.contrib.framework"
_FROM_TF_SLIM = (
    "VariableDeviceChooser", "add_arg_scope", "add_model_variable", "arg_scope",
    "arg_scoped_arguments", "assert_global_step", "assert_or_get_global_step",
    "assign_from_checkpoint", "assign_from_checkpoint_fn", "assign_from_values",
    "assign_from_values_fn", "create_global_step", "current_arg_scope", "filter_variables",
    "get_global_step", "get_local_variables", "get_model_variables", "get_or_create_global_step",
    "get_trainable_variables", "get_unique_variable", "get_variable_full_name", "get_variables",
    "get_variables_by_name", "get_variables_by_suffix", "get_variables_to_restore",
    "global_variable", "has_arg_scope", "local_variable", "model_variable", "variable")
# TF 1.15 re-exported these from TensorFlow's own modules: {name: (module, attribute)}
_FROM_TENSORFLOW = {
    "BoundedTensorSpec": ("tensorflow.python.framework.tensor_spec", "BoundedTensorSpec"),
    "TensorSpec": ("tensorflow.python.framework.tensor_spec", "TensorSpec"),
    "RecordInput": ("tensorflow.python.ops.data_flow_ops", "RecordInput"),
    "argsort": ("tensorflow.python.ops.sort_ops", "argsort"),
    "sort": ("tensorflow.python.ops.sort_ops", "sort"),
    "assert_same_float_dtype": ("tensorflow.python.ops.check_ops", "assert_same_float_dtype"),
    "assert_scalar": ("tensorflow.python.ops.check_ops", "assert_scalar"),
    "convert_to_tensor_or_sparse_tensor": ("tensorflow.python.framework.sparse_tensor",
                                           "convert_to_tensor_or_sparse_tensor"),
    "convolutional_delta_orthogonal": ("tensorflow.python.ops.init_ops",
                                       "ConvolutionDeltaOrthogonal"),
    "convolutional_orthogonal_1d": ("tensorflow.python.ops.init_ops", "ConvolutionOrthogonal1D"),
    "convolutional_orthogonal_2d": ("tensorflow.python.ops.init_ops", "ConvolutionOrthogonal2D"),
    "convolutional_orthogonal_3d": ("tensorflow.python.ops.init_ops", "ConvolutionOrthogonal3D"),
    "deprecated": ("tensorflow.python.util.deprecation", "deprecated"),
    "deprecated_arg_values": ("tensorflow.python.util.deprecation", "deprecated_arg_values"),
    "deprecated_args": ("tensorflow.python.util.deprecation", "deprecated_args"),
    "get_graph_from_inputs": ("tf_slim.ops.framework_ops", "get_graph_from_inputs"),
    "get_name_scope": ("tf_slim.ops.framework_ops", "get_name_scope"),
    "prepend_name_scope": ("tensorflow.python.framework.ops", "prepend_name_scope"),
    "strip_name_scope": ("tensorflow.python.framework.ops", "strip_name_scope"),
    "is_tensor": ("tensorflow.python.framework.tensor_util", "is_tf_type"),
    "smart_case": ("tensorflow.python.framework.smart_cond", "smart_case"),
    "smart_cond": ("tensorflow.python.framework.smart_cond", "smart_cond"),
    "smart_constant_value": ("tensorflow.python.framework.smart_cond", "smart_constant_value"),
    "init_from_checkpoint": ("tensorflow.python.training.checkpoint_utils",
                             "init_from_checkpoint"),
    "list_variables": ("tensorflow.python.training.checkpoint_utils", "list_variables"),
    "load_checkpoint": ("tensorflow.python.training.checkpoint_utils", "load_checkpoint"),
    "load_variable": ("tensorflow.python.training.checkpoint_utils", "load_variable"),
    "load_and_remap_matrix_initializer": ("tensorflow.python.training.checkpoint_ops",
                                          "_load_and_remap_matrix_initializer"),
    "load_embedding_initializer": ("tensorflow.python.training.checkpoint_ops",
                                   "_load_embedding_initializer"),
    "nest": ("tensorflow.python.util", "nest"),
}
_BUILT = []


def names():
    """{name: value} of tf.contrib.framework."""
    from estimator_compat.legacy.contrib.framework import graph_helpers, tensor_util
    from estimator_compat.legacy.contrib.tf_slim_loader import tf_slim
    slim = tf_slim()
    served = {n: getattr(slim, n) for n in _FROM_TF_SLIM}
    served.update({n: getattr(importlib.import_module(m), a)
                   for n, (m, a) in _FROM_TENSORFLOW.items()})
    served.update({n: getattr(tensor_util, n) for n in (
        "assert_scalar_int", "reduce_sum_n", "with_shape", "with_same_shape",
        "remove_squeezable_dimensions")})
    served.update({n: getattr(graph_helpers, n) for n in (
        "get_placeholders", "py_func", "zero_initializer")})
    served.update(importlib.import_module(__name__ + ".remap_initializers").NAMES)
    served.update(importlib.import_module(__name__ + ".fuse_op").NAMES)
    return served


def _deep_paths(served):
    from estimator_compat.legacy.contrib.tf_slim_loader import deep_paths, public

    def pick(*keys):
        return {k: served[k] for k in keys}
    return deep_paths(_PREFIX, {
        "python.ops.arg_scope": importlib.import_module("tf_slim.ops.arg_scope"),
        "python.ops.variables": dict(
            public(importlib.import_module("tf_slim.ops.variables")),
            **pick("zero_initializer")),
        "python.ops.script_ops": pick("py_func"),
        "python.ops": {k: v for k, v in served.items() if k not in _FROM_TENSORFLOW
                       or k in ("sort", "argsort")},
        "python.framework.checkpoint_utils": pick("list_variables", "load_checkpoint",
                                                  "load_variable", "init_from_checkpoint"),
        "python.framework.tensor_util": pick(
            "assert_scalar_int", "reduce_sum_n", "with_shape", "with_same_shape",
            "remove_squeezable_dimensions", "is_tensor", "assert_same_float_dtype"),
        "python.framework.graph_util": pick("get_placeholders", "fuse_op"),
        "python.framework": {k: served[k] for k in (
            "assert_scalar_int", "reduce_sum_n", "with_shape", "with_same_shape",
            "remove_squeezable_dimensions", "is_tensor", "list_variables", "load_checkpoint",
            "load_variable", "init_from_checkpoint", "get_placeholders", "deprecated",
            "deprecated_args", "deprecated_arg_values", "smart_cond", "smart_case",
            "smart_constant_value", "TensorSpec", "BoundedTensorSpec",
            "convert_to_tensor_or_sparse_tensor", "assert_same_float_dtype")},
        "python": {},
    })


def build():
    """The `tensorflow.contrib.framework` namespace (made once, deep paths registered)."""
    if not _BUILT:
        from estimator_compat.legacy.contrib.layers import declined
        from estimator_compat.legacy.namespaces import namespace
        declined.register("framework")
        served = names()
        _deep_paths(served)
        module = namespace(_PREFIX, "tf.contrib.framework (TF 1.15's names; estimator_compat)",
                           **served)
        module.__served_whole__ = True  # every TF 1.15 name: served, or declined (declined.py)
        _BUILT.append(module)
    return _BUILT[0]


def __getattr__(name):  # `from estimator_compat.legacy.contrib.framework import get_variables`
    if name not in _FROM_TF_SLIM:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(build(), name)
