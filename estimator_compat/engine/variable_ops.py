"""`variable.op` for the Estimator's variables inside a model_fn, as TF1 code reads it.

TF1 model_fns name things after their variables: `tf.summary.histogram(var.op.name, var)`,
`{v.op.name: v for v in tf.trainable_variables()}`, slim's `create_train_op(
summarize_gradients=True)`. Here the variables are made eagerly (outside the traced step, so
it is traced once), and an eager variable's `op` raises "Tensor.op is undefined when eager
execution is enabled". Where it would raise for the program's code (a model_fn, tf_slim), `op`
answers with `VariableOp`: the name, type and device of the VarHandleOp the variable had in a
TF1 graph. TensorFlow's and Keras' own code still gets the error: they probe
`hasattr(var, "op")` to tell graph variables from eager ones (an optimizer's slot keys).
"""
import sys

from tensorflow.python.ops import resource_variable_ops

_BASE = resource_variable_ops.BaseResourceVariable
_ORIGINAL = _BASE.op


class VariableOp:
    """What TF1 code reads of a variable's op: `name` (`dense/kernel`), `type`, `device`."""

    type = "VarHandleOp"

    def __init__(self, variable):
        self._variable = variable

    @property
    def name(self):
        return self._variable.name.split(":")[0]

    @property
    def device(self):
        return self._variable.device

    def __repr__(self):
        return f"<VariableOp {self.name!r} type={self.type}>"


_FRAMEWORKS = ("tensorflow.", "keras.", "tf_keras.")


def _op(self):
    try:
        return _ORIGINAL.fget(self)
    except AttributeError:  # an eager variable: the program's TF1 code wants its name
        if sys._getframe(1).f_globals.get("__name__", "").startswith(_FRAMEWORKS):
            raise
        return VariableOp(self)


def patch():
    """Installs `op` above on TensorFlow's resource variables (idempotent)."""
    if _BASE.op is _ORIGINAL:
        _BASE.op = property(_op, doc=_ORIGINAL.__doc__)
