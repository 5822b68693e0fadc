"""`tf.contrib.compiler`, served whole: its two submodules, `jit` (TF 2.21 still has
`experimental_jit_scope`, TF 1.15's own) and `xla` (`compile`, TensorFlow's own, and
`estimator_model_fn`, see compiler_xla.py).

The census lists only the module's top level; the submodules' public names in TF 1.15 are
`JIT_NAMES` and `XLA_NAMES` (modules they imported included), all served here.
"""
import __future__
import sys

from tensorflow.python.compiler.xla import jit as _jit
from tensorflow.python.compiler.xla import xla as _xla
from tensorflow.python.framework import ops
from tensorflow.python.ops import array_ops
from tensorflow.python.platform import tf_logging
from tensorflow.python.util import function_utils, tf_decorator

from estimator_compat.legacy.contrib import compiler_xla

JIT_NAMES = ("absolute_import", "division", "experimental_jit_scope", "jit", "print_function")
XLA_NAMES = ("absolute_import", "array_ops", "check_function_argument_count", "compile",
             "division", "estimator_model_fn", "function_utils", "logging", "model_fn_lib",
             "ops", "print_function", "tf_decorator", "xla")
_FUTURE = dict(absolute_import=__future__.absolute_import, division=__future__.division,
               print_function=__future__.print_function)


def build():
    from estimator_compat.legacy import module_paths
    from estimator_compat.legacy.namespaces import namespace
    module_paths.install()
    jit = namespace("tensorflow.contrib.compiler.jit", "tf.contrib.compiler.jit",
                    experimental_jit_scope=_jit.experimental_jit_scope, jit=_jit, **_FUTURE)
    xla = namespace(
        "tensorflow.contrib.compiler.xla", "tf.contrib.compiler.xla",
        compile=_xla.compile, check_function_argument_count=_xla.check_function_argument_count,
        estimator_model_fn=compiler_xla.estimator_model_fn, array_ops=array_ops,
        function_utils=function_utils, logging=tf_logging,
        model_fn_lib=sys.modules["tensorflow.python.estimator.model_fn"], ops=ops,
        tf_decorator=tf_decorator, xla=_xla, **_FUTURE)
    return namespace("tensorflow.contrib.compiler", __doc__, __served_whole__=True, jit=jit,
                     xla=xla, **_FUTURE)
