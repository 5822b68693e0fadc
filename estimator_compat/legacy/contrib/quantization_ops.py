"""TF 1.15's generated op wrappers, as `tf.contrib.quantization` re-exported them (it star-imported
gen_math_ops and gen_nn_ops), served from TF 2.21's own generated wrappers.

Per op, TF 1.15 had three functions: `snake_case(inputs..., attrs..., name=None)` (positional),
`CamelCase(**kwargs)` (the keyword-only raw op, tf.raw_ops') and `snake_case_eager_fallback(...,
name=None, ctx=None)` (the eager slow path). TF 2.21 still generates all three for the same op
definitions; where an op has since gained attrs (`NEWER_ATTRS`, all with defaults that keep TF
1.15's behaviour), the functions are adapted to TF 1.15's signature, so a positional call still
means what it meant. Ops added after TF 1.15 (`NEWER_OPS`) are not served here; TF 1.15's
BesselI0e / BesselI1e now live in gen_special_math_ops; CompareAndBitpack, which TF 2.21
removed, and QuantizedAvgPool, whose oneDNN kernel rounds where TF 1.15's truncated, are
written with TF ops (quantization_kernels.py).
"""
import functools
import inspect

import tensorflow as tf
from tensorflow.python.eager import context
from tensorflow.python.ops import gen_array_ops, gen_math_ops, gen_special_math_ops

from estimator_compat.legacy.contrib import quantization_kernels

# ops gen_math_ops / gen_nn_ops gained after TF 1.15 (TF 1.15's tf.contrib.quantization lacked them)
NEWER_OPS = frozenset((
    "ApproxTopK", "BatchMatMulV3", "Conv", "Conv2DBackpropFilterV2", "Conv2DBackpropInputV2",
    "DenseBincount", "Erfinv", "IsotonicRegression", "Ndtri",
    "QuantizedMatMulWithBiasAndDequantize", "QuantizedMatMulWithBiasAndRequantize",
    "RaggedBincount", "SegmentMaxV2", "SegmentMinV2", "SegmentProdV2", "SegmentSumV2",
    "SobolSample", "SparseBincount", "SparseSegmentMeanGradV2", "SparseSegmentSqrtNGradV2",
    "SparseSegmentSumGrad", "SparseSegmentSumGradV2", "Xlog1py"))

# attrs ops gained after TF 1.15 (TF 1.15's signature is TF 2.21's without them)
NEWER_ATTRS = {
    "BatchMatMul": ("grad_x", "grad_y"), "BatchMatMulV2": ("grad_x", "grad_y"),
    "MatMul": ("grad_a", "grad_b"),
    "DepthwiseConv2dNative": ("explicit_paddings",),
    "DepthwiseConv2dNativeBackpropFilter": ("explicit_paddings",),
    "DepthwiseConv2dNativeBackpropInput": ("explicit_paddings",),
    "MaxPool": ("explicit_paddings",), "MaxPoolGrad": ("explicit_paddings",),
    "FusedBatchNorm": ("exponential_avg_factor",), "FusedBatchNormV2": ("exponential_avg_factor",),
    "FusedBatchNormV3": ("exponential_avg_factor",),
    "QuantizedDepthwiseConv2DWithBiasAndRelu": ("padding_list",),
    "QuantizedDepthwiseConv2DWithBiasAndReluAndRequantize": ("padding_list",),
    "SparseSegmentMean": ("sparse_gradient",), "SparseSegmentMeanWithNumSegments": (
        "sparse_gradient",),
    "SparseSegmentSqrtN": ("sparse_gradient",), "SparseSegmentSqrtNWithNumSegments": (
        "sparse_gradient",),
    "SparseSegmentSum": ("sparse_gradient",), "SparseSegmentSumWithNumSegments": (
        "sparse_gradient",),
    "TopKV2": ("index_type",),
    "Dequantize": ("narrow_range", "axis", "dtype"),
    "QuantizeV2": ("narrow_range", "axis", "ensure_minimum_range"),
}


def _signature_without(function, dropped):
    signature = inspect.signature(function)
    return signature.replace(parameters=[p for p in signature.parameters.values()
                                         if p.name not in dropped])


def positional(function, dropped):
    """`function` (a generated wrapper) with TF 1.15's signature: the attrs `dropped` taken
    away, so positional arguments land where TF 1.15's did (the attrs keep their defaults)."""
    if not dropped:
        return function
    signature = _signature_without(function, dropped)

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        return function(**signature.bind(*args, **kwargs).arguments)
    wrapper.__signature__ = signature
    return wrapper


def keyword_only(function, op_name):
    """The raw-op form of `function`: keyword arguments only, as TF 1.15's CamelCase names."""
    @functools.wraps(function)
    def raw_op(*args, **kwargs):
        if args:
            raise TypeError(f"{op_name} only takes keyword args (possible keys: "
                            f"{list(inspect.signature(function).parameters)}). Please pass "
                            "these args as kwargs instead.")
        return function(**kwargs)
    raw_op.__name__ = op_name
    raw_op.__signature__ = inspect.signature(function)
    return raw_op


def eager_fallback(fallback, wrapper, dropped):
    """TF 1.15's `<op>_eager_fallback(..., name=None, ctx=None)` on TF 2.21's (which takes every
    attr and `name`, `ctx` without defaults): TF 1.15's defaults, the newer attrs at theirs,
    `ctx` the current eager context unless given."""
    full = inspect.signature(wrapper)
    signature = _signature_without(wrapper, dropped)
    signature = signature.replace(parameters=list(signature.parameters.values()) + [
        inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)])

    @functools.wraps(fallback)
    def slow_path(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        ctx = arguments.pop("ctx") or context.context()
        complete = full.bind(**arguments)
        complete.apply_defaults()
        return fallback(**complete.arguments, ctx=ctx)
    slow_path.__signature__ = signature
    return slow_path


def _raw_ops(module):
    """{op name: its raw-op function} of a TF 2.21 gen_* module (tf.raw_ops' own objects)."""
    return {name: value for name, value in vars(module).items()
            if name[:1].isupper() and getattr(tf.raw_ops, name, None) is value}


def _served_own(names, op_name, function):
    """Add the functions of op `op_name`, written with TF ops (quantization_kernels.py)."""
    names[op_name] = keyword_only(function, op_name)
    names[function.__name__] = function
    names[function.__name__ + "_eager_fallback"] = quantization_kernels.eager(function)


def _served_op(names, op_name, raw_op, module):
    """Add op `op_name`'s TF 1.15 functions to `names`: its raw op, and its positional wrapper
    and eager fallback when they are public (TF 1.15 kept a few wrappers private)."""
    if op_name in quantization_kernels.OWN:
        _served_own(names, op_name, quantization_kernels.OWN[op_name])
        return
    dropped = NEWER_ATTRS.get(op_name, ())
    snake = raw_op.__name__
    wrapper = getattr(module, snake)
    adapted = positional(wrapper, dropped)
    names[op_name] = keyword_only(adapted, op_name) if dropped else raw_op
    if not snake.startswith("_"):
        names[snake] = adapted
        names[snake + "_eager_fallback"] = eager_fallback(
            getattr(module, snake + "_eager_fallback"), wrapper, dropped)


def gen_names(module):
    """The public names TF 1.15's star import of gen_math_ops / gen_nn_ops gave."""
    names = {}
    for op_name, raw_op in _raw_ops(module).items():
        if op_name not in NEWER_OPS:
            _served_op(names, op_name, raw_op, module)
    if module is gen_math_ops:
        for op_name in ("BesselI0e", "BesselI1e"):
            _served_op(names, op_name, getattr(gen_special_math_ops, op_name),
                       gen_special_math_ops)
        _served_own(names, "CompareAndBitpack", quantization_kernels.compare_and_bitpack)
    names.update(deprecated_endpoints=module.deprecated_endpoints, tf_export=module.tf_export)
    return names


def array_names():
    """What TF 1.15's contrib/quantization/python/array_ops.py imported from gen_array_ops."""
    return {"dequantize": positional(gen_array_ops.dequantize, NEWER_ATTRS["Dequantize"]),
            "quantize_v2": positional(gen_array_ops.quantize_v2, NEWER_ATTRS["QuantizeV2"]),
            "quantized_concat": gen_array_ops.quantized_concat,
            "quantized_gen_array_ops": gen_array_ops}
