"""`tf.contrib.solvers`, served whole: Lanczos bidiagonalization, CGLS least squares and
(preconditioned) conjugate gradients on matrix-free operators (`solvers_ops`), at the paths
TF 1.15 had (`tf.contrib.solvers.<module>` = `tensorflow.contrib.solvers.python.ops.<module>`).
"""
import __future__

from estimator_compat.legacy.contrib import solvers_ops as _ops
from estimator_compat.legacy.namespaces import namespace

_FUTURE = dict(absolute_import=__future__.absolute_import, division=__future__.division,
               print_function=__future__.print_function)
_OPS = "tensorflow.contrib.solvers.python.ops"


def build():
    util = namespace(_OPS + ".util", "contrib.solvers' operators and norms", **_FUTURE,
                     create_operator=_ops.create_operator,
                     identity_operator=_ops.identity_operator, dot=_ops.dot,
                     l2norm=_ops.l2norm, l2norm_squared=_ops.l2norm_squared,
                     l2normalize=_ops.l2normalize)
    modules = dict(
        util=util,
        lanczos=namespace(_OPS + ".lanczos", "Lanczos bidiagonalization", **_FUTURE, util=util,
                          lanczos_bidiag=_ops.lanczos_bidiag,
                          bidiag_matmul=_ops.bidiag_matmul),
        least_squares=namespace(_OPS + ".least_squares", "CGLS", **_FUTURE, util=util,
                                cgls=_ops.cgls),
        linear_equations=namespace(_OPS + ".linear_equations", "conjugate gradients",
                                   **_FUTURE, util=util,
                                   conjugate_gradient=_ops.conjugate_gradient))
    ops = namespace(_OPS, "contrib.solvers' ops", **modules)
    python = namespace("tensorflow.contrib.solvers.python", "contrib.solvers", ops=ops)
    return namespace("tensorflow.contrib.solvers", "tf.contrib.solvers (Krylov solvers)",
                     __served_whole__=True, python=python, **_FUTURE, **modules)
