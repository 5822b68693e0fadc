"""`tf.contrib.specs.specs_ops`: the vocabulary of the spec language, the environment
`eval_spec` executes specs in. Layers are tf.contrib.layers' (slim's) own, so a spec builds the
variables TF 1.15's did (`Conv/weights`, `fully_connected_1/biases`, ...)."""
from __future__ import absolute_import, division, print_function

import importlib as _importlib
import sys as _sys

from tensorflow.python.ops import array_ops, logging_ops, math_ops, nn, nn_ops, variable_scope

from estimator_compat.legacy.contrib.specs_parts import specs_lib


def _contrib_layers():
    """tf.contrib.layers' `layers` module (building tf.contrib.layers if need be)."""
    path = "tensorflow.contrib.layers.python.layers.layers"
    if path not in _sys.modules:
        from estimator_compat.legacy import contrib
        _importlib.import_module(contrib.MODULES["layers"]).build()
    return _sys.modules[path]


layers = _contrib_layers()


class Idx(specs_lib.Composable):
    """The identity, as a spec object."""

    def funcall(self, x):
        return x


class Conc(specs_lib.Composable):
    """The outputs of the functions `args` on the same input, concatenated along `dim`."""

    def __init__(self, dim, *args):
        self.dim = dim
        self.funs = args

    def funcall(self, x):
        return array_ops.concat([f.funcall(x) for f in self.funs], self.dim)


External = specs_lib.External
Import = specs_lib.Import
Fun = specs_lib.Function
debug = specs_lib.debug
Print = Fun(logging_ops.Print)
Id = Fun(array_ops.identity)

# convolutions: plain (relu), sigmoid, tanh, relu, softmax, linear
Cx = Fun(layers.conv2d)
Cs = Fun(layers.conv2d, activation_fn=math_ops.sigmoid)
Ct = Fun(layers.conv2d, activation_fn=math_ops.tanh)
Cr = Fun(layers.conv2d, activation_fn=nn_ops.relu)
Cm = Fun(layers.conv2d, activation_fn=nn_ops.softmax)
Cl = Fun(layers.conv2d, activation_fn=None)

# fully connected layers, the same activations
Fx = Fun(layers.fully_connected)
Fs = Fun(layers.fully_connected, activation_fn=math_ops.sigmoid)
Ft = Fun(layers.fully_connected, activation_fn=math_ops.tanh)
Fr = Fun(layers.fully_connected, activation_fn=nn_ops.relu)
Fm = Fun(layers.fully_connected, activation_fn=nn_ops.softmax)
Fl = Fun(layers.fully_connected, activation_fn=None)

Mp = Fun(layers.max_pool2d)
Ap = Fun(layers.avg_pool2d)

Do = Fun(layers.dropout)
Bn = Fun(layers.batch_norm)
Lrn = Fun(nn.local_response_normalization)
Unit = Fun(layers.unit_norm)

Flat = Fun(layers.flatten)
Reshape = Fun(array_ops.reshape)
Transpose = Fun(array_ops.transpose)
Squeeze = Fun(array_ops.squeeze)
Expand = Fun(array_ops.expand_dims)

Relu = Fun(nn_ops.relu)
Sig = Fun(math_ops.sigmoid)
Tanh = Fun(math_ops.tanh)
Smax = Fun(nn_ops.softmax)


def Dws(n):
    """A 1x1 convolution to n channels with sigmoid (the depth-wise output after an LSTM)."""
    return Cs(n, [1, 1])


def Dwm(n):
    """A 1x1 convolution to n channels with softmax."""
    return Cm(n, [1, 1])


def Var(name, *args, **kw):
    """A spec object ignoring its input and returning `get_variable(name, *args, **kw)`."""

    def var(_):
        return variable_scope.get_variable(name, *args, **kw)

    return specs_lib.Callable(var)


class Shared(specs_lib.Composable):
    """`subnet` in one variable scope, reused on every later application (`f = Shared(Cr(100,
    3)); g = f | f | f` builds one set of variables). Unnamed scopes are `Shared_<n>`, n counted
    over the process. As in TF 1.15, a `name` is refused unless `scope` is a string, which
    is refused too: only unnamed Shared, or a VariableScope, can be made."""

    shared_number = 1

    def __init__(self, subnet, name=None, scope=None):
        if scope is not None and not isinstance(scope, variable_scope.VariableScope):
            raise ValueError("scope must be None or a VariableScope")
        if name is not None and not isinstance(scope, str):
            raise ValueError("name must be None or a string")
        if scope is not None and name is not None:
            raise ValueError("cannot provide both a name and a scope")
        if name is None:
            name = "Shared_%d" % Shared.shared_number
            Shared.shared_number += 1
        self.subnet = subnet
        self.name = name
        self.scope = scope

    def funcall(self, x):
        if self.scope is None:
            with variable_scope.variable_scope(self.name, values=[x]) as scope:
                self.scope = scope
                return self.subnet.funcall(x)
        with variable_scope.variable_scope(self.scope, values=[x], reuse=True):
            return self.subnet.funcall(x)
