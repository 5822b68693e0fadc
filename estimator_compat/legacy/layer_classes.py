"""The TF1 layer classes (`tf.layers.Dense(10)(x)`), on the same `get_variable` functions.

A layer takes its variable scope on its first call (`dense`, `dense_1`, … as TF1 numbered them)
and re-enters it on later calls, so calling one layer object twice shares its variables, as a TF1
layer did. Its variables are found by that scope's name in the graph being built.
"""
import inspect

import tensorflow as tf

from estimator_compat.legacy import layers as fns

v1 = tf.compat.v1


class Layer:
    """Base TF1 layer: `call()` runs inside the layer's variable scope."""
    _default_name = "layer"

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        self.trainable = trainable
        self._name = name
        self.dtype = dtype
        self._scope = None
        self.built = False
        self._kwargs = kwargs

    @property
    def name(self):
        return self._scope.name if self._scope is not None else (self._name or self._default_name)

    @property
    def scope_name(self):
        return self.name

    def call(self, inputs, **kwargs):
        return inputs

    def __call__(self, inputs, *args, **kwargs):
        if self._scope is None:
            with v1.variable_scope(self._name, default_name=self._default_name) as scope:
                self._scope = scope
                outputs = self.call(inputs, *args, reuse=None, **kwargs)
        else:
            outputs = self.call(inputs, *args, reuse=v1.AUTO_REUSE, **kwargs)
        self.built = True
        return outputs

    apply = __call__

    @property
    def variables(self):
        if self._scope is None:
            return []
        return v1.get_collection(v1.GraphKeys.GLOBAL_VARIABLES, self._scope.name + "/")

    weights = variables

    @property
    def trainable_variables(self):
        if self._scope is None or not self.trainable:
            return []
        return v1.get_collection(v1.GraphKeys.TRAINABLE_VARIABLES, self._scope.name + "/")

    trainable_weights = trainable_variables

    @property
    def non_trainable_variables(self):
        trainable = {id(v) for v in self.trainable_variables}
        return [v for v in self.variables if id(v) not in trainable]

    non_trainable_weights = non_trainable_variables

    def __getattr__(self, attr):  # layer.kernel, layer.bias, layer.moving_mean, ...
        if attr.startswith("_"):
            raise AttributeError(attr)
        for var in self.__dict__.get("_scope") and self.variables or ():
            if var.name.split(":")[0].rsplit("/", 1)[-1] == attr:
                return var
        raise AttributeError(f"{type(self).__name__} has no attribute {attr!r}")


def _positional(function):
    """The constructor's positional parameters, in TF1's order: the function's, after
    `inputs`, without what belongs to a call (`training`, `reuse`) or comes last (`trainable`,
    `name`). `tf.layers.Dense(128, 'relu')`, `Conv2D(32, 3, 1, 'same')`."""
    return tuple(p for p in inspect.signature(function).parameters
                 if p not in ("inputs", "training", "reuse", "trainable", "name"))


def _layer_class(name, function, default_name, call_args=(), positional=None):
    """A Layer class whose call() is `function(inputs, **config)` in the layer's scope."""
    positional = positional or _positional(function)

    def __init__(self, *args, trainable=True, name=None, dtype=None, **kwargs):
        if len(args) > len(positional):
            raise TypeError(f"{type(self).__name__} takes {len(positional)} positional "
                            f"arguments ({', '.join(positional)}), given {len(args)}.")
        kwargs.update(zip(positional, args))
        Layer.__init__(self, trainable=trainable, name=name, dtype=dtype)
        self._config = kwargs

    def call(self, inputs, *args, reuse=None, **kwargs):
        kwargs.update(zip(call_args, args))
        config = dict(self._config, **kwargs)
        if "reuse" in function.__code__.co_varnames:
            config.update(reuse=reuse, trainable=self.trainable)
        return function(inputs, name=self._scope, **config)

    attrs = {"__init__": __init__, "call": call, "_default_name": default_name,
             "__doc__": f"TF1 `tf.layers.{name}`: `{function.__name__}` as a layer object."}
    return type(name, (Layer,), attrs)


def _name_scope_only(function):
    """Pooling/flatten/dropout have no variables: `name` is a name scope string for them."""
    def call(inputs, name=None, **kwargs):
        return function(inputs, name=None if name is None else name.name, **kwargs)
    call.__name__ = function.__name__
    return call


_SPECS = {
    "Dense": (fns.dense, "dense"),
    "Conv1D": (fns.conv1d, "conv1d"),
    "Conv2D": (fns.conv2d, "conv2d"),
    "Conv3D": (fns.conv3d, "conv3d"),
    "Conv2DTranspose": (fns.conv2d_transpose, "conv2d_transpose"),
    "SeparableConv2D": (fns.separable_conv2d, "separable_conv2d"),
    "BatchNormalization": (fns.batch_normalization, "batch_normalization", ("training",)),
}
_SCOPE_ONLY = {
    "MaxPooling1D": (fns.max_pooling1d, "max_pooling1d"),
    "MaxPooling2D": (fns.max_pooling2d, "max_pooling2d"),
    "MaxPooling3D": (fns.max_pooling3d, "max_pooling3d"),
    "AveragePooling1D": (fns.average_pooling1d, "average_pooling1d"),
    "AveragePooling2D": (fns.average_pooling2d, "average_pooling2d"),
    "AveragePooling3D": (fns.average_pooling3d, "average_pooling3d"),
    "Dropout": (fns.dropout, "dropout", ("training",)),
    "Flatten": (fns.flatten, "flatten"),
}

CLASSES = {"Layer": Layer}
CLASSES.update({name: _layer_class(name, *spec) for name, spec in _SPECS.items()})
CLASSES.update({name: _layer_class(name, _name_scope_only(spec[0]), *spec[1:],
                                   positional=_positional(spec[0]))
                for name, spec in _SCOPE_ONLY.items()})
CLASSES.update(MaxPool1D=CLASSES["MaxPooling1D"], MaxPool2D=CLASSES["MaxPooling2D"],
               MaxPool3D=CLASSES["MaxPooling3D"], AvgPool1D=CLASSES["AveragePooling1D"],
               AvgPool2D=CLASSES["AveragePooling2D"], AvgPool3D=CLASSES["AveragePooling3D"],
               Convolution1D=CLASSES["Conv1D"], Convolution2D=CLASSES["Conv2D"],
               Convolution3D=CLASSES["Conv3D"], Convolution2DTranspose=CLASSES["Conv2DTranspose"],
               SeparableConvolution2D=CLASSES["SeparableConv2D"])
globals().update(CLASSES)
