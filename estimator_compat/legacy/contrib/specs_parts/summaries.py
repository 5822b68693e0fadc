"""`tf.contrib.specs.summaries`: short descriptions of the graph a spec builds, for tests and
model-size estimates: a postfix string of op types (`tf_structure`), an indented op tree
(`tf_print`) and per-layer parameter counts along the leftmost input chain
(`tf_parameter_summary`).

TF 1.15's graphs read reference variables through `Identity` ops; where a graph here holds
resource variables, their reads (`ReadVariableOp`) are passed over as those Identity ops were
and their handles (`VarHandleOp`) are named and counted as the `VariableV2` they stand for, so
the strings and counts are TF 1.15's either way.
"""
from __future__ import absolute_import, division, print_function

import importlib as _importlib
import re

from tensorflow.python.framework import dtypes
from tensorflow.python.framework.tensor import Tensor as _Tensor
from tensorflow.python.framework.tensor_shape import TensorShape as _TensorShape
from tensorflow.python.ops import array_ops

from estimator_compat.legacy.contrib.specs_parts import builder as specs

# TensorFlow's framework module, which TF 1.15's summaries held as `ops` (tf.contrib.specs.ops)
ops = _importlib.import_module("tensorflow.python.framework.ops")

SHORT_NAMES_SRC = """
BiasAdd biasadd
Const _
Conv2D conv
MatMul dot
Placeholder _
Sigmoid sig
Variable var
""".split()

SHORT_NAMES = {x: y for x, y in zip(SHORT_NAMES_SRC[::2], SHORT_NAMES_SRC[1::2])}

_READS = ("Identity", "ReadVariableOp")


def _op_type(op):
    return "VariableV2" if op.type == "VarHandleOp" else op.type


def _shape(tensor):
    """The tensor's static shape as a list (a resource handle: its variable's shape)."""
    if tensor.op.type == "VarHandleOp":
        return _TensorShape(tensor.op.get_attr("shape")).as_list()
    return tensor.get_shape().as_list()


def _truncate_structure(x):
    """Whether to leave out the inputs of `x` (unrolled HorizontalLstm internals)."""
    return "/HorizontalLstm/" in x.name


def tf_structure(x, include_shapes=False, finished=None):
    """A postfix string of the op types under `x` (a Tensor or Operation), each op once
    (` <>` where met again), reads left out; `include_shapes` adds each tensor's shape."""
    if finished is None:
        finished = set()
    if isinstance(x, _Tensor):
        shape = _shape(x)
        x = x.op
    else:
        shape = []
    if x in finished:
        return " <>"
    finished |= {x}
    result = ""
    if not _truncate_structure(x):
        for y in x.inputs:
            result += tf_structure(y, include_shapes, finished)
    if include_shapes:
        result += " %s" % (shape,)
    if x.type not in _READS:
        op_type = _op_type(x)
        result += " " + SHORT_NAMES.get(op_type, op_type.lower())
    return result


def tf_print(x, depth=0, finished=None, printer=print):
    """Print the op tree under `x`, one op per line indented by depth (`<name>` where met
    again)."""
    if finished is None:
        finished = set()
    if isinstance(x, _Tensor):
        shape = _shape(x)
        x = x.op
    else:
        shape = ""
    if x.type in _READS:
        x = x.inputs[0].op
    if x in finished:
        printer("%s<%s> %s %s" % ("  " * depth, x.name, _op_type(x), shape))
        return
    finished |= {x}
    printer("%s%s %s %s" % ("  " * depth, x.name, _op_type(x), shape))
    if not _truncate_structure(x):
        for y in x.inputs:
            tf_print(y, depth + 1, finished, printer=printer)


def tf_num_params(x):
    """The number of variable elements under `x` (a variable met twice counts twice)."""
    if isinstance(x, _Tensor):
        shape = x.get_shape()
        x = x.op
    if x.type in ("Variable", "VariableV2"):
        return shape.num_elements()
    if x.type == "VarHandleOp":
        return _TensorShape(x.get_attr("shape")).num_elements()
    return sum(tf_num_params(y) for y in x.inputs)


def tf_left_split(op):
    """(the leftmost input of `op`, its other inputs); (None, []) for an op without inputs."""
    if len(op.inputs) < 1:
        return None, []
    if op.type == "Concat":
        return op.inputs[1], op.inputs[2:]
    return op.inputs[0], op.inputs[1:]


def tf_parameter_iter(x):
    """Yield (op name, parameters in its non-leftmost inputs, shape) down the leftmost input
    chain from `x`."""
    while 1:
        if isinstance(x, _Tensor):
            shape = _shape(x)
            x = x.op
        else:
            shape = ""
        left, right = tf_left_split(x)
        yield x.name, sum(tf_num_params(y) for y in right), shape
        if left is None:
            break
        x = left


def _combine_filter(rows):
    """Successive rows of one top-level scope merged (the first row's shape kept)."""
    last_name, last_total, last_shape = None, 0, None
    for name, total, shape in rows:
        name = re.sub("/.*", "", name)
        if name == last_name:
            last_total += total
            continue
        if last_name is not None:
            yield last_name, last_total, last_shape
        last_name, last_total, last_shape = name, total, shape
    if last_name is not None:
        yield last_name, last_total, last_shape


def tf_parameter_summary(x, printer=print, combine=True):
    """Print the parameter count of each op (or top-level scope, `combine`) from the input up
    to `x`."""
    rows = tf_parameter_iter(x)
    if combine:
        rows = _combine_filter(rows)
    for name, total, shape in reversed(list(rows)):
        printer("%10d %-20s %s" % (total, name, shape))


def _spec_outputs(spec, inputs, input_shape, input_type):
    if inputs is None:
        inputs = array_ops.placeholder(input_type, input_shape)
    return specs.create_net(spec, inputs)


def tf_spec_structure(spec, inputs=None, input_shape=None, input_type=dtypes.float32):
    """`tf_structure` of the net `spec` builds on `inputs` (or a placeholder of
    `input_shape`)."""
    return str(tf_structure(_spec_outputs(spec, inputs, input_shape, input_type)).strip())


def tf_spec_summary(spec, inputs=None, input_shape=None, input_type=dtypes.float32):
    """Print `tf_parameter_summary` of the net `spec` builds."""
    tf_parameter_summary(_spec_outputs(spec, inputs, input_shape, input_type))


def tf_spec_print(spec, inputs=None, input_shape=None, input_type=dtypes.float32):
    """Print `tf_print` of the net `spec` builds."""
    tf_print(_spec_outputs(spec, inputs, input_shape, input_type))
