"""`tf.contrib.labeled_tensor`, served whole: tensors with named axes and tick labels
(`LabeledTensor`, `Axis`, `Axes`) and the ops that keep those names in step (alignment by axis
name for broadcasting, selection by label, reshape/transpose by name, reductions, batching).
It was pure Python over TF ops in TF 1.15; ours is written over TF 2.21's ops, in graph mode and
eagerly. The parts live in `labeled_tensor_parts/`.
"""
import __future__

from estimator_compat.legacy.contrib.labeled_tensor_parts import core, io_ops, nn, ops, sugar
from estimator_compat.legacy.contrib.labeled_tensor_parts import typecheck

# TF 1.15's public name -> our function, where the name differs from core's / ops' own
_CORE = ("Axis", "Axes", "LabeledTensor", "as_axis", "convert_to_labeled_tensor", "identity",
         "transpose", "expand_dims", "align", "axis_order_scope", "check_axis_order",
         "impose_axis_order", "AxisOrderError", "define_unary_op", "define_binary_op")
_OPS = ("select", "concat", "pack", "unpack", "reshape", "rename_axis", "random_crop", "map_fn",
        "foldl", "squeeze", "matmul", "tile", "pad", "constant", "zeros_like", "ones_like",
        "cast", "verify_tensor_all_finite", "boolean_mask", "where", "batch", "shuffle_batch",
        "define_reduce_op")


def build():
    from estimator_compat.legacy.namespaces import namespace
    prefix = "tensorflow.contrib.labeled_tensor"
    names = {n: getattr(core, n) for n in _CORE}
    names.update({n: getattr(ops, n) for n in _OPS})
    names.update(core.ELEMENTWISE)
    names.update(ops.REDUCE)
    names.update(slice=core.slice_function, FixedLenFeature=io_ops.FixedLenFeature,
                 parse_example=io_ops.parse_example,
                 parse_single_example=io_ops.parse_single_example,
                 placeholder=io_ops.placeholder, ReshapeCoder=sugar.ReshapeCoder)
    future = {n: getattr(__future__, n) for n in ("absolute_import", "division",
                                                  "print_function")}
    nn_module = namespace(f"{prefix}.python.ops.nn", "lt.nn: neural-network ops", **nn.names())
    core_module = namespace(f"{prefix}.python.ops.core", "labeled_tensor core.py",
                            **{n: names[n] for n in _CORE}, slice_function=core.slice_function,
                            abs_function=core.ELEMENTWISE["abs"],
                            round_function=core.ELEMENTWISE["round"],
                            pow_function=core.ELEMENTWISE["pow"], concat_axes=core.concat_axes,
                            get_axis_order=core.get_axis_order,
                            LabeledTensorLike=core.LabeledTensorLike, AxisLike=core.AxisLike,
                            **{n: f for n, f in core.ELEMENTWISE.items()
                               if n not in ("abs", "round", "pow")})
    ops_module = namespace(f"{prefix}.python.ops.ops", "labeled_tensor ops.py",
                           **{n: getattr(ops, n) for n in _OPS}, **ops.REDUCE)
    io_module = namespace(f"{prefix}.python.ops.io_ops", "labeled_tensor io_ops.py",
                          FixedLenFeature=io_ops.FixedLenFeature,
                          parse_example=io_ops.parse_example,
                          parse_single_example=io_ops.parse_single_example,
                          placeholder=io_ops.placeholder)
    sugar_module = namespace(f"{prefix}.python.ops.sugar", "labeled_tensor sugar.py",
                             ReshapeCoder=sugar.ReshapeCoder)
    typecheck_module = namespace(f"{prefix}.python.ops._typecheck", "labeled_tensor typecheck",
                                 Error=typecheck.Error, accepts=typecheck.accepts)
    ops_package = namespace(f"{prefix}.python.ops", "labeled_tensor's ops", core=core_module,
                            ops=ops_module, io_ops=io_module, sugar=sugar_module, nn=nn_module,
                            _typecheck=typecheck_module)
    python = namespace(f"{prefix}.python", "tf.contrib.labeled_tensor", ops=ops_package)
    return namespace(prefix, "tf.contrib.labeled_tensor (TF 1.15's tensors with named axes)",
                     __served_whole__=True, python=python, nn=nn_module, **future, **names)
