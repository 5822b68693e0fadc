"""The TF1 layer classes: `tf.layers.Layer` (to subclass) and `tf.layers.Dense`, `Conv2D`, ...

TF 1.15's names and where they live here:

- `tf.layers.Layer` -> `Layer`: `build(input_shape)` runs once, in the layer's variable scope
  (taken on the first call: `my_layer`, `my_layer_1`, ... as `variable_scope(None,
  default_name=...)` numbers them), then `call()` gets the caller's arguments (`training` only
  where `call` takes it); later calls re-enter that scope with reuse, so they share the
  variables. `add_weight` / `add_variable` make `get_variable` variables `<scope>/<name>`.
- `tf.layers.InputSpec` -> `InputSpec`, checked on each call as TF 1.15 checked it.
- `tf.layers.Dense`, `Conv1D`...`Conv3DTranspose`, `SeparableConv1D/2D`, `BatchNormalization`,
  the pooling classes, `Dropout`, `Flatten` -> `_layer_class(...)`: a Layer whose `call()` is the
  function of `layers.py` of the same name, in the layer's scope.
- `tf.layers.experimental.keras_style_scope` / `set_keras_style` -> `keras_style_scope`,
  `set_keras_style`: layers made under them name their variables by name scope, as Keras did
  (`outer/my_layer_1/w`), and take no `scope=` / `_reuse=`.

A layer's own name (`layer.name`) is Keras', numbered per graph from 1 (`my_layer_1`) unless
given; its variable scope (`layer.scope_name`) is numbered as TF1's scopes were. Both as TF 1.15.
"""
import contextlib
import inspect
import re

import numpy as np
import tensorflow as tf
from tensorflow.python.ops import variable_scope

from estimator_compat.legacy import layers as fns

v1 = tf.compat.v1
_KERAS_STYLE = [False]
_KWARGS = ("_scope", "_reuse", "activity_regularizer", "input_shape", "batch_input_shape",
           "batch_size", "weights", "autocast")


@contextlib.contextmanager
def keras_style_scope():
    """tf.layers layers created in this scope manage their variables as Keras layers:
    named by the name scope of their first call, never shared by scope (TF 1.15's
    `tf.layers.experimental.keras_style_scope`)."""
    previous = _KERAS_STYLE[0]
    _KERAS_STYLE[0] = True
    try:
        yield
    finally:
        _KERAS_STYLE[0] = previous


def set_keras_style():
    """Keras-style variable management for every layer created from now on, for the rest of the
    program (TF 1.15's `tf.layers.experimental.set_keras_style`; it cannot be unset)."""
    _KERAS_STYLE[0] = True


def _snake_case(name):
    """`MyLayer` -> `my_layer`, `Conv2DTranspose` -> `conv2d_transpose` (Keras' rule)."""
    name = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    name = re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()
    return "private" + name if name.startswith("_") else name


def _var_name(variable):
    """`dense/kernel` (variables the engine made outside the graph have no `.op`)."""
    return variable.name.split(":")[0]


def _add_once(key, item):
    """Add to a graph collection unless there (by identity: `==` on tensors is elementwise)."""
    if not any(existing is item for existing in v1.get_collection(key)):
        v1.add_to_collection(key, item)


def _to_tensor(value):
    """Inputs TF 1.15 converted before build: numpy arrays and Python numbers."""
    if isinstance(value, (np.ndarray, float, int)) and not isinstance(value, bool):
        return tf.convert_to_tensor(value)
    return value


class InputSpec:
    """What a layer accepts (TF 1.15's `tf.layers.InputSpec`): dtype, shape, ndim, max_ndim,
    min_ndim and `axes` ({axis: size}), checked on every call."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
                 axes=None):
        self.dtype = None if dtype is None else tf.as_dtype(dtype).name
        self.shape = None if shape is None else tuple(shape)
        self.ndim = len(shape) if shape is not None else ndim
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.axes = dict(axes or {})

    def __repr__(self):
        parts = [f"{key}={value}" for key, value in (
            ("dtype", self.dtype), ("shape", self.shape), ("ndim", self.ndim),
            ("max_ndim", self.max_ndim), ("min_ndim", self.min_ndim), ("axes", self.axes))
            if value]
        return f"InputSpec({', '.join(parts)})"

    def check(self, index, layer_name, value):
        """Raise ValueError, in TF 1.15's words, where `value` does not fit."""
        where = f"Input {index} of layer {layer_name} is incompatible with the layer: "
        shape = tf.TensorShape(getattr(value, "shape", None))
        rank = shape.rank
        if self.ndim is not None and rank is not None and rank != self.ndim:
            raise ValueError(f"{where}expected ndim={self.ndim}, found ndim={rank}. "
                             f"Full shape received: {shape.as_list()}")
        if self.max_ndim is not None and rank is not None and rank > self.max_ndim:
            raise ValueError(f"{where}expected max_ndim={self.max_ndim}, found ndim={rank}")
        if self.min_ndim is not None and rank is not None and rank < self.min_ndim:
            raise ValueError(f"{where}: expected min_ndim={self.min_ndim}, found ndim={rank}. "
                             f"Full shape received: {shape.as_list()}")
        if self.dtype is not None and value.dtype.base_dtype.name != self.dtype:
            raise ValueError(f"{where}expected dtype={self.dtype}, found dtype={value.dtype}")
        if rank is None:
            return
        dims = shape.as_list()
        for axis, size in self.axes.items():
            if size is not None and dims[axis] not in (size, None):
                raise ValueError(f"{where}expected axis {axis} of input shape to have value "
                                 f"{size} but received input with shape {dims}")
        if self.shape is not None:
            for want, got in zip(self.shape, dims):
                if want is not None and got is not None and want != got:
                    raise ValueError(f"{where}expected shape={self.shape}, found shape={dims}")


class Layer:
    """TF 1.15's `tf.layers.Layer`: subclasses give `build(input_shape)` (variables, with
    `add_weight`) and `call(inputs, ...)`; calling the layer builds it once, in its variable
    scope, and shares its variables on later calls."""

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        unknown = [key for key in kwargs if key not in _KWARGS]
        if unknown:
            raise TypeError(f"Keyword argument not understood: {unknown[0]!r} "
                            f"(tf.layers.Layer takes trainable, name, dtype and {_KWARGS})")
        self._keras_style = _KERAS_STYLE[0]
        self._reuse = kwargs.get("_reuse")
        self._scope_arg = kwargs.get("_scope")
        if self._keras_style and self._reuse:
            raise ValueError("reuse argument not allowed when keras style layers are enabled, "
                             f"but saw: {self._reuse}")
        if self._keras_style and self._scope_arg is not None:
            raise ValueError("scope argument not allowed when keras style layers are enabled, "
                             f"but saw: {self._scope_arg}")
        if isinstance(name, v1.VariableScope):
            self._scope_arg, name = name, None
        self.trainable = trainable
        self._name = name  # as given: the base of the scope's name
        self._base_name = name or _snake_case(type(self).__name__)
        self._layer_name = name or fns.unique_layer_name(self._base_name)
        self._dtype = None if dtype is None else tf.as_dtype(dtype).name
        self._scope = None
        self._keras_scope = None
        self.built = False
        self.input_spec = None
        self.activity_regularizer = kwargs.get("activity_regularizer")
        self._trainable_weights, self._non_trainable_weights = [], []
        self._losses, self._updates = [], []
        self._initial_weights = kwargs.get("weights")

    # --- identity -------------------------------------------------------------------------
    @property
    def name(self):
        return self._layer_name

    @property
    def dtype(self):
        return self._dtype

    @dtype.setter
    def dtype(self, value):
        self._dtype = None if value is None else tf.as_dtype(value).name

    @property
    def scope_name(self):
        if self._scope is None:
            raise ValueError(
                "No name available for layer scope because the layer "
                f'"{self.name}" has not been used yet. The scope name  is determined the first '
                "time the layer instance is called. You must therefore call the layer before "
                "querying `scope_name`.")
        return self._scope.name

    @property
    def graph(self):
        return None  # TF 1.15 deprecated Layer.graph and returned None

    # --- build and call -------------------------------------------------------------------
    def build(self, input_shape):
        self.built = True

    def call(self, inputs, **kwargs):
        return inputs

    def _set_scope(self, scope=None):
        if self._scope is not None:
            return
        scope = scope if scope is not None else self._scope_arg
        if self._reuse:
            with v1.variable_scope(scope if scope is not None else self._base_name) as captured:
                self._scope = captured
        else:
            with v1.variable_scope(scope, default_name=self._base_name) as captured:
                self._scope = captured

    @contextlib.contextmanager
    def _in_scope(self):
        """The layer's variable scope and the name scope its first call opened."""
        if self._keras_style:
            yield
            return
        reuse = True if self.built else self._reuse
        with v1.variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False):
            with v1.name_scope(self._scope.original_name_scope):
                yield

    def __call__(self, inputs, *args, **kwargs):
        scope = kwargs.pop("scope", None)
        if self._keras_style and scope is not None:
            raise ValueError("scope argument not allowed when keras style layers are enabled, "
                             f"but saw: {scope}")
        inputs = tf.nest.map_structure(_to_tensor, inputs)
        self._check_input_spec(inputs)
        if not self._accepts("training") and "training" in kwargs:
            kwargs.pop("training")
        if self._keras_style:
            with v1.name_scope(self._layer_name) as name_scope:
                if self._keras_scope is None:
                    self._keras_scope = name_scope
                return self._build_and_call(inputs, args, kwargs)
        self._set_scope(scope)
        with self._in_scope():
            return self._build_and_call(inputs, args, kwargs)

    apply = __call__

    def _build_and_call(self, inputs, args, kwargs):
        if not self.built:
            first = tf.nest.flatten(inputs)[0] if tf.nest.flatten(inputs) else None
            if self._dtype is None and hasattr(first, "dtype"):
                self._dtype = first.dtype.base_dtype.name
            shapes = tf.nest.map_structure(lambda t: tf.TensorShape(getattr(t, "shape", None)),
                                           inputs)
            self.build(shapes)
            self.built = True
            if self._initial_weights is not None:
                self.set_weights(self._initial_weights)
        outputs = self.call(inputs, *args, **kwargs)
        if self.activity_regularizer is not None:
            for output in tf.nest.flatten(outputs):
                with v1.name_scope("ActivityRegularizer"):
                    loss = self.activity_regularizer(output)
                    loss = loss / tf.cast(tf.shape(output)[0], loss.dtype)
                self.add_loss(loss)
        return outputs

    def _accepts(self, argument):
        parameters = inspect.signature(self.call).parameters
        return argument in parameters or any(
            p.kind == p.VAR_KEYWORD for p in parameters.values())

    def _check_input_spec(self, inputs):
        if self.input_spec is None:
            return
        specs = tf.nest.flatten(self.input_spec)
        values = tf.nest.flatten(inputs)
        if len(specs) != len(values):
            raise ValueError(f"Layer {self.name} expects {len(specs)} inputs, but it received "
                             f"{len(values)} input tensors. Inputs received: {inputs}")
        for index, (spec, value) in enumerate(zip(specs, values)):
            if spec is not None:
                spec.check(index, self.name, value)

    # --- variables ------------------------------------------------------------------------
    def add_weight(self, name, shape, dtype=None, initializer=None, regularizer=None,
                   trainable=None, constraint=None, use_resource=None,
                   synchronization=tf.VariableSynchronization.AUTO,
                   aggregation=tf.VariableAggregation.NONE, partitioner=None, **kwargs):
        """A variable `<layer scope>/<name>` (made with `get_variable`, or found there when the
        layer reuses its scope); its regularizer's loss goes to the layer's losses and to
        REGULARIZATION_LOSSES, once."""
        if synchronization == tf.VariableSynchronization.ON_READ:
            if trainable:
                raise ValueError("Synchronization value can be set to "
                                 "VariableSynchronization.ON_READ only for non-trainable "
                                 "variables. You have specified trainable=True and "
                                 "synchronization=VariableSynchronization.ON_READ.")
            trainable = False
        elif trainable is None:
            trainable = True
        dtype = tf.as_dtype(dtype or self._dtype or tf.float32)
        initializer = _initializer(initializer)
        if self._keras_style:
            variable, created = self._keras_variable(name, shape, dtype, initializer,
                                                     trainable, constraint), True
        else:
            if self._scope is None:
                self._set_scope()
            with self._in_scope():
                before = {id(v) for v in v1.global_variables() + v1.local_variables()}
                variable = v1.get_variable(
                    name, shape, dtype, initializer=initializer,
                    trainable=trainable and self.trainable, constraint=constraint,
                    partitioner=partitioner, use_resource=use_resource,
                    synchronization=synchronization, aggregation=aggregation, **kwargs)
                created = id(variable) not in before
        if regularizer is not None and created:
            with v1.name_scope(_var_name(variable) + "/Regularizer/"):
                loss = regularizer(variable)
            if loss is not None:
                self.add_loss(loss)
        (self._trainable_weights if trainable else self._non_trainable_weights).append(variable)
        return variable

    add_variable = add_weight

    def _keras_variable(self, name, shape, dtype, initializer, trainable, constraint):
        """Keras style: a variable named by the layer's name scope (`outer/my_layer_1/w`)."""
        initializer = initializer or (v1.glorot_uniform_initializer() if dtype.is_floating
                                      else v1.zeros_initializer())
        with v1.name_scope(self._keras_scope or self._layer_name):
            return v1.Variable(lambda: initializer(shape, dtype=dtype), name=name, dtype=dtype,
                               trainable=trainable and self.trainable, constraint=constraint)

    def _tracked(self):
        """(trainable, non-trainable) weights: those add_weight made; for a subclass with its
        own add_weight (the TF1 RNN cells), the variables in its scope."""
        if type(self).add_weight is Layer.add_weight or self._scope is None:
            return self._trainable_weights, self._non_trainable_weights
        prefix = self._scope.name + "/"
        found = [v for v in v1.global_variables() if _var_name(v).startswith(prefix)]
        trainable = {id(v) for v in v1.trainable_variables()}
        return ([v for v in found if id(v) in trainable],
                [v for v in found if id(v) not in trainable])

    @property
    def trainable_weights(self):
        return list(self._tracked()[0]) if self.trainable else []

    @property
    def non_trainable_weights(self):
        trainable, non_trainable = self._tracked()
        return list(non_trainable) if self.trainable else trainable + non_trainable

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    variables = weights
    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    def get_weights(self):
        """The weights' values, through the default session (as TF 1.15's Keras backend)."""
        if not self.weights:
            return []
        return self._session("get_weights").run(self.weights)

    @staticmethod
    def _session(method):
        session = v1.get_default_session()
        if session is None:
            raise ValueError(f"{method} needs a default session (`with tf.Session() as sess:` "
                             "or `sess.as_default()`), as TF 1.x's Keras backend did.")
        return session

    def set_weights(self, weights):
        mine = self.weights
        if len(weights) != len(mine):
            raise ValueError(f'You called `set_weights(weights)` on layer "{self.name}" with a '
                             f"weight list of length {len(weights)}, but the layer was "
                             f"expecting {len(mine)} weights.")
        for variable, value in zip(mine, weights):
            if tuple(variable.shape.as_list()) != tuple(np.shape(value)):
                raise ValueError(f"Layer weight shape {tuple(variable.shape.as_list())} not "
                                 f"compatible with provided weight shape {np.shape(value)}")
        self._session("set_weights").run(
            [v.assign(np.asarray(value, v.dtype.base_dtype.as_numpy_dtype))
             for v, value in zip(mine, weights)])

    def count_params(self):
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on {self.name}, but the layer "
                             "isn't built. You can build it manually via: "
                             f"`{self.name}.build(batch_input_shape)`.")
        return int(sum(np.prod(v.shape.as_list()) for v in self.weights))

    # --- losses and updates ---------------------------------------------------------------
    def add_loss(self, losses, inputs=None):
        """Losses go to the layer and to REGULARIZATION_LOSSES, as TF 1.15's tf.layers did."""
        for loss in tf.nest.flatten(losses):
            if loss is None:
                continue
            loss = loss() if callable(loss) else tf.convert_to_tensor(loss)
            self._losses.append(loss)
            _add_once(v1.GraphKeys.REGULARIZATION_LOSSES, loss)

    @property
    def losses(self):
        return list(self._losses)

    def get_losses_for(self, inputs):
        return self.losses

    def add_update(self, updates, inputs=None):
        """Update ops go to the layer and to UPDATE_OPS (TF 1.15's tf.layers)."""
        for update in tf.nest.flatten(updates):
            update = update() if callable(update) else update
            if not isinstance(update, tf.Operation) and hasattr(update, "op"):
                update = update.op  # TF 1.15 kept the op of an update tensor
            self._updates.append(update)
            _add_once(v1.GraphKeys.UPDATE_OPS, update)

    @property
    def updates(self):
        return list(self._updates)

    def get_updates_for(self, inputs):
        return self.updates

    def compute_output_shape(self, input_shape):
        raise NotImplementedError(f"{type(self).__name__}.compute_output_shape: TF 1.x layers "
                                  "compute it only where the subclass defines it.")

    def get_config(self):
        config = {"name": self.name, "trainable": self.trainable}
        if self._dtype is not None:
            config["dtype"] = self._dtype
        return config


_INITIALIZERS = {"zeros": v1.zeros_initializer, "ones": v1.ones_initializer,
                 "glorot_uniform": v1.glorot_uniform_initializer,
                 "glorot_normal": v1.glorot_normal_initializer,
                 "random_normal": v1.random_normal_initializer,
                 "random_uniform": v1.random_uniform_initializer,
                 "truncated_normal": v1.truncated_normal_initializer,
                 "orthogonal": v1.orthogonal_initializer, "identity": v1.initializers.identity,
                 "he_normal": v1.initializers.he_normal, "he_uniform": v1.initializers.he_uniform,
                 "lecun_normal": v1.initializers.lecun_normal,
                 "lecun_uniform": v1.initializers.lecun_uniform}


def _initializer(initializer):
    """An initializer as TF 1.15's add_weight took it: an object, a class or a Keras name."""
    if isinstance(initializer, str):
        if initializer not in _INITIALIZERS:
            raise ValueError(f"Unknown initializer {initializer!r}; names add_weight takes: "
                             f"{sorted(_INITIALIZERS)}, or pass an initializer object.")
        return _INITIALIZERS[initializer]()
    return initializer() if isinstance(initializer, type) else initializer


class _FunctionLayer(Layer):
    """A tf.layers class whose call() is a `layers.py` function in the layer's scope; its
    weights are the variables the function made (or found) there."""
    _function = None
    _call_args = ()
    _positional = ()
    _has_variables = True

    def __init__(self, *args, trainable=True, name=None, dtype=None, **kwargs):
        positional = self._positional
        if len(args) > len(positional):
            raise TypeError(f"{type(self).__name__} takes {len(positional)} positional "
                            f"arguments ({', '.join(positional)}), given {len(args)}.")
        kwargs.update(zip(positional, args))
        base = {key: kwargs.pop(key) for key in list(kwargs) if key in _KWARGS}
        super().__init__(trainable=trainable, name=name, dtype=dtype, **base)
        unknown = [key for key in kwargs if key not in self._positional]
        if unknown:
            raise TypeError(f"{type(self).__name__} got an unexpected keyword argument "
                            f"{unknown[0]!r}")
        self._config = kwargs
        self.input_spec = self._spec()

    def _spec(self):
        if type(self)._function is fns.dense:
            return InputSpec(min_ndim=2)
        rank = getattr(type(self)._function, "conv_rank", None)
        return None if rank is None else InputSpec(ndim=rank + 2)

    def __getattr__(self, attr):  # layer.kernel, layer.units, layer.moving_mean, ...
        if attr.startswith("_"):
            raise AttributeError(attr)
        config = self.__dict__.get("_config", {})
        if attr in config:
            return config[attr]
        parameter = inspect.signature(type(self)._function).parameters.get(attr)
        if parameter is not None and attr in self._positional:
            return parameter.default
        for var in self.__dict__.get("_trainable_weights", []) + self.__dict__.get(
                "_non_trainable_weights", []):
            if _var_name(var).rsplit("/", 1)[-1] == attr:
                return var
        raise AttributeError(f"{type(self).__name__} has no attribute {attr!r}")

    def _accepts(self, argument):
        return argument in self._call_args

    def get_config(self):
        return dict(super().get_config(), **{p: getattr(self, p) for p in self._positional})

    def call(self, inputs, *args, **kwargs):
        kwargs.update(zip(self._call_args, args))
        config = dict(self._config, **kwargs)
        function = type(self)._function
        name_scope = v1.get_default_graph().get_name_scope() + "/"
        if not self._has_variables:  # the ops go in the layer's name scope, as TF 1.15's
            return function(inputs, name=name_scope, **config)
        config.update(reuse=True if self._function_ran else self._reuse,
                      trainable=self.trainable)
        scope = self._scope
        if self._keras_style:  # variables under the first call's name scope, ops this call's
            scope = v1.VariableScope(None, name=self._keras_scope.rstrip("/"),
                                     name_scope=name_scope)
        if not tf.executing_eagerly():
            outputs = function(inputs, name=scope, **config)
            self._collect(scope.name, v1.global_variables(), v1.trainable_variables())
            return outputs
        made = []  # in the order made

        def record(next_creator, **kwargs):
            made.append(next_creator(**kwargs))
            return made[-1]
        with self._eager_variables(), tf.variable_creator_scope(record):
            outputs = function(inputs, name=scope, **config)
        self._collect(scope.name, made, [v for v in made if v.trainable])
        return outputs

    def _eager_variables(self):
        """Eagerly, the variable store that keeps the layer's variables from call to call, as
        TF 1.15's layer object kept them: the one in use (a tfe.Network's, a template's), else
        the layer's own."""
        if variable_scope._get_default_variable_store()._store_eager_variables:
            return contextlib.nullcontext()
        store = self.__dict__.get("_eager_store")
        if store is None:
            store = self._eager_store = variable_scope.EagerVariableStore()
        return eager_store_scope(store)

    _function_ran = False

    def _collect(self, scope_name, variables, trainable_variables):
        """The variables directly in the layer's scope, once, in the order made."""
        if self._function_ran:
            return
        self._function_ran = True
        trainable = {id(v) for v in trainable_variables}
        known = {id(v) for v in self._trainable_weights + self._non_trainable_weights}
        prefix = scope_name + "/"
        for var in variables:
            name = _var_name(var)
            if name.startswith(prefix) and "/" not in name[len(prefix):] and id(var) not in known:
                kept = id(var) in trainable or (  # made non-trainable by trainable=False
                    not self.trainable and not name[len(prefix):].startswith("moving_"))
                (self._trainable_weights if kept else self._non_trainable_weights).append(var)

    def _check_input_spec(self, inputs):
        super()._check_input_spec(inputs)
        if self.input_spec is not None and not self.built and hasattr(inputs, "shape"):
            axis = 1 if self._config.get("data_format") == "channels_first" else -1
            size = inputs.shape[axis] if inputs.shape.rank else None
            if size is not None:
                self.input_spec.axes = {axis: size}


@contextlib.contextmanager
def eager_store_scope(store):
    """`store.as_default()` (an EagerVariableStore), leaving the default graph's variable
    lists as they were: TensorFlow 2.21's store also lists what it makes there, and TF 1.15's
    eager variables were in no collection."""
    graph = v1.get_default_graph()
    keys = (v1.GraphKeys.GLOBAL_VARIABLES, v1.GraphKeys.TRAINABLE_VARIABLES)
    listed = {key: list(graph.get_collection(key)) for key in keys}
    try:
        with store.as_default():
            yield
    finally:
        for key, items in listed.items():
            graph.get_collection_ref(key)[:] = items


def _positional(function):
    """The constructor's positional parameters, in TF1's order: the function's, after
    `inputs`, without what belongs to a call (`training`, `reuse`) or comes last (`trainable`,
    `name`). `tf.layers.Dense(128, 'relu')`, `Conv2D(32, 3, 1, 'same')`."""
    return tuple(p for p in inspect.signature(function).parameters
                 if p not in ("inputs", "training", "reuse", "trainable", "name"))


def _layer_class(name, function, call_args=(), has_variables=True):
    """A Layer class whose call() is `function(inputs, **config)` in the layer's scope."""
    attrs = {"_function": staticmethod(function), "_call_args": call_args,
             "_positional": _positional(function), "_has_variables": has_variables,
             "__doc__": f"TF1 `tf.layers.{name}`: `{function.__name__}` as a layer object."}
    cls = type(name, (_FunctionLayer,), attrs)
    cls._function = function
    return cls


_SPECS = {
    "Dense": (fns.dense,),
    "Conv1D": (fns.conv1d,),
    "Conv2D": (fns.conv2d,),
    "Conv3D": (fns.conv3d,),
    "Conv2DTranspose": (fns.conv2d_transpose,),
    "Conv3DTranspose": (fns.conv3d_transpose,),
    "SeparableConv1D": (fns.separable_conv1d,),
    "SeparableConv2D": (fns.separable_conv2d,),
    "BatchNormalization": (fns.batch_normalization, ("training",)),
    "MaxPooling1D": (fns.max_pooling1d, (), False),
    "MaxPooling2D": (fns.max_pooling2d, (), False),
    "MaxPooling3D": (fns.max_pooling3d, (), False),
    "AveragePooling1D": (fns.average_pooling1d, (), False),
    "AveragePooling2D": (fns.average_pooling2d, (), False),
    "AveragePooling3D": (fns.average_pooling3d, (), False),
    "Dropout": (fns.dropout, ("training",), False),
    "Flatten": (fns.flatten, (), False),
}

CLASSES = {"Layer": Layer, "InputSpec": InputSpec}
CLASSES.update({name: _layer_class(name, *spec) for name, spec in _SPECS.items()})
CLASSES.update(MaxPool1D=CLASSES["MaxPooling1D"], MaxPool2D=CLASSES["MaxPooling2D"],
               MaxPool3D=CLASSES["MaxPooling3D"], AvgPool1D=CLASSES["AveragePooling1D"],
               AvgPool2D=CLASSES["AveragePooling2D"], AvgPool3D=CLASSES["AveragePooling3D"],
               Convolution1D=CLASSES["Conv1D"], Convolution2D=CLASSES["Conv2D"],
               Convolution3D=CLASSES["Conv3D"], Convolution2DTranspose=CLASSES["Conv2DTranspose"],
               Convolution3DTranspose=CLASSES["Conv3DTranspose"],
               SeparableConvolution1D=CLASSES["SeparableConv1D"],
               SeparableConvolution2D=CLASSES["SeparableConv2D"])
globals().update(CLASSES)
