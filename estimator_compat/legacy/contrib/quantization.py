"""`tf.contrib.quantization`, served whole: TF 1.15's re-export of the generated op wrappers of
gen_math_ops and gen_nn_ops (quantized kernels among the plain ones: QuantizedConv2D,
QuantizedMatMul, Requantize, ...) and of gen_array_ops' dequantize / quantize_v2 /
quantized_concat, each served from TF 2.21's own wrapper (see quantization_ops.py), with its
submodules `python.array_ops` (also `quantized_array_ops`), `python.math_ops`, `python.nn_ops`.
The framework modules it exposed (`ops`, `common_shapes`, `gen_math_ops`, `gen_nn_ops`,
`quantized_gen_array_ops`) are TF 2.21's."""
import __future__

from tensorflow.python.framework import common_shapes, ops
from tensorflow.python.ops import gen_math_ops, gen_nn_ops

from estimator_compat.legacy.contrib import quantization_ops

_FUTURE = dict(absolute_import=__future__.absolute_import, division=__future__.division,
               print_function=__future__.print_function)
_PATH = "tensorflow.contrib.quantization"


def build():
    from estimator_compat.legacy.namespaces import namespace
    array = quantization_ops.array_names()
    math = quantization_ops.gen_names(gen_math_ops)
    nn = quantization_ops.gen_names(gen_nn_ops)
    shared = dict(common_shapes=common_shapes, ops=ops, **_FUTURE)
    array_ops = namespace(f"{_PATH}.python.array_ops", "Quantized Array Operations.",
                          **array, **_FUTURE)
    math_ops = namespace(f"{_PATH}.python.math_ops", "Quantized Math Operations.",
                         gen_math_ops=gen_math_ops, **math, **shared)
    nn_ops = namespace(f"{_PATH}.python.nn_ops",
                       "Wrappers for primitive Neural Net (NN) Operations.",
                       gen_nn_ops=gen_nn_ops, **nn, **shared)
    # the package star-imports all three modules, as TF 1.15's did
    every = dict(math, **nn, **array, **shared, gen_math_ops=gen_math_ops,
                 gen_nn_ops=gen_nn_ops)
    python = namespace(f"{_PATH}.python",
                       "A module containing TensorFlow ops whose API may change in the future.",
                       array_ops=array_ops, math_ops=math_ops, nn_ops=nn_ops, **every)
    return namespace(_PATH, "Ops for building quantized models.", __served_whole__=True,
                     python=python, quantized_array_ops=array_ops, **every)
