"""`tfe.Network` / `tfe.Sequential` and their name-based checkpoints: TF 1.15's (already
deprecated) composition of `tf.layers` layers, on estimator_compat's `tf.layers.Layer`.

A Network tracks the layers given to `track_layer`; its variables are theirs, under the
Network's variable scope (`my_network/dense/kernel`, `my_network_1/...`): an unnamed Network is
named from its class (`MyNetwork` -> `my_network`, then `my_network_1`, counted from zero per
graph and parent scope), an unnamed sub-layer within its Network (`dense`, `dense_1`).
`save_network_checkpoint` writes them without the Network's prefix; `restore_network_checkpoint`
assigns the ones that exist and gives the rest their checkpointed value when they are made.
TF 1.15's replacement, to port to: `tf.keras.Model` (layers tracked by attribute).

Executing eagerly, estimator_compat's `tf.layers` keep no variables of their own (they are
`get_variable` functions in a scope), so a top-level Network calls its layers inside an
`EagerVariableStore` of its own: later calls find the variables the first one made, and the
Network's variables are the store's under its scope (kept out of the graph collections, where
TF 1.15's eager Networks never put them).
"""
import collections
import inspect
import logging
import os
import weakref

import tensorflow as tf
from tensorflow.python.eager import context
from tensorflow.python.ops import variable_scope as vs

from estimator_compat.legacy import layers as _layer_fns
from estimator_compat.legacy import layer_classes
from estimator_compat.legacy.layer_classes import Layer, _snake_case

_v1 = tf.compat.v1
_DEPRECATION = (
    "Please inherit from `tf.keras.Model`, and see its documentation for details. "
    "`tf.keras.Model` should be a drop-in replacement for `tfe.Network` in most cases, but "
    "note that `track_layer` is no longer necessary or supported. Instead, `Layer` instances "
    "are tracked on attribute assignment (see the section of `tf.keras.Model`'s documentation "
    "on subclassing). Since the output of `track_layer` is often assigned to an attribute "
    "anyway, most code can be ported by simply removing the `track_layer` calls.")


def _unique_name(base, uids, avoid, namespace=""):
    """TF 1.15's zero-based unique name: `base`, `base_1`, ... (skipping `avoid`)."""
    key = (namespace, base) if namespace else base
    while True:
        number = uids.get(key, 0)
        uids[key] = number + 1
        name = f"{base}_{number}" if number else base
        if name not in avoid:
            return name


def _shared_name(variable):
    return variable.name[:variable.name.index(":")] if ":" in variable.name else variable.name


class Network(Layer):
    """A composition of `tf.layers` layers (deprecated in TF 1.15: use tf.keras.Model)."""

    def __init__(self, name=None):
        if context.executing_eagerly():
            logging.getLogger("tensorflow").warning(
                "** tfe.Network is deprecated and will be removed in a future version.\n\n%s",
                _DEPRECATION)
        if isinstance(name, _v1.VariableScope):
            raise ValueError("VariableScopes are not valid Network names.")
        if name is not None and "/" in name:
            raise ValueError("Forward slashes ('/') are not allowed in Network names.")
        super().__init__(name=name or "network")
        self._name = self._layer_name = name
        self._base_name = None
        self._layers = []
        self._sub_layer_name_uids = collections.defaultdict(int)
        self._first_parent = None  # None: not yet known; False: top level; else a weakref
        self._non_network_sublayers = []
        self._owned_layers = {}
        self._eager_store = None  # the top-level Network's, when called eagerly
        self._default_parent_variable_scope = _v1.get_variable_scope()
        # (the live counts, as TF 1.15 kept them: the name checks see later scopes too)
        self._variable_scope_counts_on_init = vs.get_variable_scope_store().variable_scopes_count

    @property
    def name(self):
        if self._name is None:
            raise ValueError("The network does not yet have a final name, but a name was "
                             "requested for it. Networks get a name when they are added to "
                             "another Network via track_layer, or when they are first "
                             "called/built.")
        return self._name

    def _parent(self):
        return self._first_parent() if self._first_parent else None

    def _root(self):
        parent = self._parent()
        return parent._root() if parent is not None else self

    def __call__(self, inputs, *args, **kwargs):
        if not context.executing_eagerly():
            return super().__call__(inputs, *args, **kwargs)
        root = self._root()
        if root._eager_store is None:
            root._eager_store = vs.EagerVariableStore()
        with layer_classes.eager_store_scope(root._eager_store):
            return super().__call__(inputs, *args, **kwargs)

    def _stored(self, kind):
        """Eagerly made variables of this Network (None when it made none that way)."""
        store = self._root()._eager_store
        if store is None or self._scope is None:
            return None
        prefix = self._scope.name + "/"
        made = list(store._store._vars.values())  # in the order made (the store sorts by name)
        wanted = {"variables": lambda v: True, "trainable_variables": lambda v: v.trainable,
                  "non_trainable_variables": lambda v: not v.trainable}[kind]
        return [v for v in made if v.name.startswith(prefix) and wanted(v)]

    def _finalize_name(self, parent_network):
        if not self._name:
            base = _snake_case(type(self).__name__)
            if parent_network:
                name = _unique_name(base, parent_network._sub_layer_name_uids,
                                    parent_network._owned_layers)
            else:
                prefix = self._default_parent_variable_scope.name
                prefix = prefix + "/" if prefix else ""
                avoid = {n[len(prefix):] for n in self._variable_scope_counts_on_init
                         if n and n.startswith(prefix)}
                uids = _layer_fns._UIDS.setdefault(_v1.get_default_graph(), {})
                name = _unique_name(base, uids, avoid,
                                    self._default_parent_variable_scope.name)
            self._name = self._layer_name = name
            self._base_name = base
        if self._first_parent is None or (self._first_parent and self._parent() is None):
            self._first_parent = weakref.ref(parent_network) if parent_network else False

    def _set_scope(self, scope=None):
        if self._scope is not None:
            return
        first_parent = self._parent()
        if first_parent is None:
            self._finalize_name(parent_network=False)
        if scope is not None:
            raise ValueError("Networks may not be created with explicit scopes.")
        if first_parent:
            first_parent._set_scope()
            parent_scope = first_parent._scope
        else:
            parent_scope = self._default_parent_variable_scope
        taken = ValueError(f"A Network named '{self._name}' already exists (or a "
                           "variable_scope was created with this name). Names must be unique.")
        with _v1.variable_scope(parent_scope) as parent_vs:
            if parent_vs.name + "/" + self._name in self._variable_scope_counts_on_init:
                raise taken
            with _v1.variable_scope(None, use_resource=True, default_name=self._name) as scope:
                self._scope = scope
                prefix, _, suffix = scope.name.rpartition("/")
                if suffix != self._name:
                    raise taken
                if first_parent and prefix != first_parent.scope_name:
                    raise ValueError(
                        "Network variable names must match a nesting of sub-Network names. "
                        f"Expected prefix '{first_parent.scope_name}' from parent network, "
                        f"but got '{prefix}' when attempting to create a variable_scope for "
                        f"Network '{self._name}'. Likely an explicit variable_scope was "
                        "inserted into the nesting.")
                if not first_parent and prefix:
                    self._name = self._layer_name = scope.name
        for sublayer in self._non_network_sublayers:
            self._set_scope_for_nonnetwork_sublayer(sublayer)

    def _set_scope_for_nonnetwork_sublayer(self, sublayer):
        if sublayer._scope is not None:
            return
        parent = sublayer._first_parent() if getattr(sublayer, "_first_parent", None) else None
        if not parent:
            self._finalize_name(False)
            raise ValueError(f"The parent of a Layer added to Network {self.name} was garbage "
                             "collected before the Layer was built. If this limitation "
                             "bothers you please file a feature request.")
        parent._set_scope()
        with _v1.variable_scope(parent._scope):
            with _v1.variable_scope(None, use_resource=True,
                                    default_name=sublayer.name) as sub_scope:
                sublayer._scope = sub_scope

    def track_layer(self, layer):
        """Adds `layer` (a tf.layers layer or Network) to this Network; returns it."""
        if not hasattr(self, "_layers"):
            raise RuntimeError("Need to call Network.__init__ before adding layers")
        if not isinstance(layer, Layer):
            raise TypeError("Network.track_layer() passed type %s, not a tf.layers.Layer" %
                            (type(layer),))
        if isinstance(layer, Network):
            layer._finalize_name(parent_network=self)
        elif not layer.built:
            first = getattr(layer, "_first_parent", None)
            if first is None or first() is None:
                if layer._name is None:  # named by its class: renamed within this Network
                    layer._layer_name = _unique_name(layer._base_name,
                                                     self._sub_layer_name_uids,
                                                     self._owned_layers)
                layer._first_parent = weakref.ref(self)
            self._non_network_sublayers.append(layer)
        first = getattr(layer, "_first_parent", None)
        if not layer.built and first and first() is self:
            if layer.name in self._owned_layers:
                if self._owned_layers[layer.name] is layer:
                    return layer
                raise ValueError("Attempt to add two Layers with the name '%s' to the same "
                                 "Network." % layer.name)
            self._owned_layers[layer.name] = layer
        self._layers.append(layer)
        return layer

    def get_layer(self, name=None, index=None):
        """A tracked layer by `name` (the first of that name) or by `index`."""
        if index is not None:
            if name is not None:
                raise ValueError("Exactly one of 'index' or 'name' must be provided")
            if len(self._layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model "
                                 f"only has {len(self._layers)} layers.")
            return self._layers[index]
        if not name:
            raise ValueError("Provide either a layer name or layer index.")
        for layer in self._layers:
            if layer.name == name:
                return layer
        raise ValueError("No such layer: " + name)

    @property
    def layers(self):
        return self._layers

    @property
    def weights(self):
        stored = self._stored("variables")
        return stored if stored is not None else [
            w for layer in self._layers for w in layer.weights]

    @property
    def trainable_weights(self):
        stored = self._stored("trainable_variables")
        return stored if stored is not None else [
            w for layer in self._layers for w in layer.trainable_weights]

    @property
    def non_trainable_weights(self):
        stored = self._stored("non_trainable_variables")
        return stored if stored is not None else [
            w for layer in self._layers for w in layer.non_trainable_weights]

    variables = weights
    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def trainable(self):
        return True

    @trainable.setter
    def trainable(self, value):
        if not value:
            raise AttributeError("cannot mark Network as not trainable")

    def add_variable(self, name, shape, dtype=None, initializer=None, regularizer=None,
                     trainable=True, constraint=None):
        raise RuntimeError("add_variable not supported in Network class yet. Please file an "
                           "issue at https://github.com/tensorflow/tensorflow/issues/new if "
                           "this is important to you")

    add_weight = add_variable

    def add_loss(self, losses, inputs=None):
        raise RuntimeError("add_loss is not supported in Network class yet. Please file an "
                           "issue at https://github.com/tensorflow/tensorflow/issues/new if "
                           "this is important to you")

    @property
    def losses(self):
        return [loss for layer in self._layers for loss in layer.losses]


class Sequential(Network):
    """Layers (tracked) or plain functions applied one after the other."""

    def __init__(self, layers_funcs=None, name=None):
        super().__init__(name=name)
        self._layers_funcs = []
        for layer_func in layers_funcs or ():
            self.add(layer_func)

    def add(self, layer_func):
        if isinstance(layer_func, Layer):
            args = inspect.signature(layer_func.call).parameters
            self.track_layer(layer_func)
        elif callable(layer_func):
            args = inspect.signature(layer_func).parameters
        else:
            raise TypeError("Sequential.add() takes only tf.layers.Layer objects or "
                            "callables; not '%s' of type '%s'." % (layer_func, type(layer_func)))
        self._layers_funcs.append(("training" in args, layer_func))

    def call(self, inputs, training=None):
        for has_training, layer_func in self._layers_funcs:
            if training is not None and has_training:
                inputs = layer_func(inputs, training)
            else:
                inputs = layer_func(inputs)
        return inputs


def _prefix_stripper(scope_name):
    prefix = scope_name + "/"
    return lambda name: name[len(prefix):] if name.startswith(prefix) else name


def _mapped(network, map_func, user_map_func, action):
    """{checkpoint name: variable} of the Network; two variables on one name is a
    ValueError."""
    out = {}
    for variable in network.variables:
        mapped = map_func(_shared_name(variable))
        first = out.setdefault(mapped, variable)
        if first is not variable:
            how = ("The default checkpoint variable name mapping strategy" if user_map_func is None
                   else f"The map_func passed to {action}")
            raise ValueError(
                f"{how} for Network '{network.name}' resulted in two variables named "
                f"'{mapped}' ('{_shared_name(first)}' and '{_shared_name(variable)}'). "
                f"Variables of sub-Layers of this Network are prefixed with "
                f"'{network.scope_name}'; pass `map_func=lambda n: n` to use fully qualified "
                "names, or write another mapping.")
    return out


def _session():
    return None if context.executing_eagerly() else _v1.get_default_session()


def save_network_checkpoint(network, save_path, global_step=None, map_func=None):
    """Writes the Network's variables (named without its prefix, or by `map_func`) to
    `save_path` (a prefix, or a directory: `<dir>/<network name>`); returns the prefix."""
    if not network.built:
        raise ValueError("Attempt to save the Network before it was first called. This means "
                         "variables have not yet been created, so there is nothing to save.")
    network._set_scope()
    if global_step is None:
        global_step = _v1.train.get_global_step()
    if os.path.isdir(save_path):
        save_path = os.path.join(save_path, network.name.replace("/", "_"))
    variables = _mapped(network, map_func or _prefix_stripper(network.scope_name), map_func,
                        "save_network_checkpoint")
    return _v1.train.Saver(variables).save(sess=_session(), save_path=save_path,
                                           write_meta_graph=False, global_step=global_step)


def _restoring_getter(pending, map_func):
    """A custom getter giving a variable its checkpointed value when it is created."""
    def restoring_getter(getter, name, *args, **kwargs):
        wanted = map_func(name)
        value = pending.get(wanted)
        if value is not None:
            kwargs["initializer"] = value
            kwargs["shape"] = None
        variable = getter(name, *args, **kwargs)
        if value is not None:
            pending[wanted] = None
            if not context.executing_eagerly():
                _v1.get_default_session().run(variable.initializer)
        return variable
    return restoring_getter


def _defer(layer, getter):
    if isinstance(layer, Network):
        layer._set_scope()
    layer._scope.set_custom_getter(getter)
    if isinstance(layer, Network):
        for sublayer in layer.layers:
            if not isinstance(sublayer, Network):
                layer._set_scope_for_nonnetwork_sublayer(sublayer)
            _defer(sublayer, getter)


def restore_network_checkpoint(network, save_path, map_func=None):
    """Assigns the Network's existing variables from the checkpoint; variables made later
    take their checkpointed value when created."""
    network._finalize_name(parent_network=False)
    network._set_scope()
    if os.path.isdir(save_path):
        save_path = os.path.join(save_path, network.name.replace("/", "_"))
    user_map_func, map_func = map_func, map_func or _prefix_stripper(network.scope_name)
    existing = _mapped(network, map_func, user_map_func, "restore_network_checkpoint")
    if existing:
        _v1.train.Saver(var_list=existing).restore(sess=_session(), save_path=save_path)
    reader = tf.train.load_checkpoint(save_path)
    pending = {name: reader.get_tensor(name) for name, _ in tf.train.list_variables(save_path)
               if name not in existing}
    if pending:
        _defer(network, _restoring_getter(pending, map_func))
