"""tensorflow_estimator 2.15's canned Keras models, as Keras 3 Model / Layer subclasses:

- `canned.dnn._DNNModelV2(units, hidden_units, feature_columns, activation_fn, dropout,
  batch_norm, name=None)`: `model(features, mode)` -> logits, variables
  `<name>/input_from_feature_columns/input_layer/...`, `<name>/hiddenlayer_N/kernel`,
  `.../batchnorm_N/gamma`, `<name>/logits/kernel` in the caller's variable scope;
- `canned.dnn._DNNModel(..., input_layer_partitioner, batch_norm, name=None)` (the
  tf.compat.v1 one): `hiddenlayer_N/...` and `logits/...` in the caller's variable scope (2.15's
  v1 model_fn opened `dnn` around it), the input layer's variables split by the partitioner;
- `canned.linear.LinearModel(feature_columns, units=1, sparse_combiner='sum', trainable=True,
  name=None)` over `canned.linear._LinearModelLayer`: `<name>/<column>/weights` and
  `<name>/bias_weights` (its `bias`).

Why not Keras 3 layers inside: 2.15's were tf.keras 2 models of tf.keras 2 layers whose variables
took the graph's variable scopes, so their checkpoint keys were the canned estimators'; a Keras 3
variable is named by its layer path alone. These models run estimator_compat's own canned
networks instead (canned/dnn.py's `dnn_logits`; TensorFlow's
`tf.compat.v1.feature_column.linear_model`), which make their variables with `get_variable`
under 2.15's names: in an Estimator's model_fn the checkpoint keys are 2.15's. Each model
records the variables its calls made (a variable creator; eagerly a store of its own, so a
second call reuses them) and answers `variables`, `trainable_variables`,
`non_trainable_variables`, `weights` (so `get_weights` / `set_weights` / `count_params`) with
them; `updates` are the batch-norm moving-average ops its calls made in the current graph (none
eagerly, where they run with the call); `losses` is empty, as 2.15's was. A call opens the
model's graph name scope once (`dnn`, then `dnn_1`), as tf.keras 2 did, and the DNN's layer
summaries are tagged under it as 2.15's were (`dnn/hiddenlayer_0/activation`).

Where it differs from 2.15: 2.15's `_DNNModelV2` could not be built eagerly (a TypeError from a
name scope), this one can; inside an outer variable scope its variables are
`outer/dnn/hiddenlayer_0/kernel` (2.15: `outer/dnn/outer/hiddenlayer_0/kernel`); two models of
one name in one graph make get_variable's "already exists" error (2.15's second DNN took
`hiddenlayer_0_1` names); `tf.train.Checkpoint(model=...)` does not hold the variables
(Estimator checkpoints, `get_weights` and Keras 3's `save_weights` / `load_weights` do).
"""
import collections
import weakref

import tensorflow as tf
from keras.src.backend.common.name_scope import name_scope as keras_name_scope
from keras.src.utils import naming
from tensorflow.python.ops import variable_scope

from estimator_compat.canned.dnn import dnn_logits
from estimator_compat.canned.logit_fns import _without_scope
from estimator_compat.legacy.estimator_tree.canned_model_fn_privates import _check_v2_columns
from estimator_compat.variables import current_store

v1 = tf.compat.v1
_UPDATE_OPS = v1.GraphKeys.UPDATE_OPS
_SUMMARIES = v1.GraphKeys.SUMMARIES
_RETAGGED = {"ScalarSummary": v1.summary.scalar, "HistogramSummary": v1.summary.histogram}
_NOT_A_DICT = "We expected a dictionary here. Instead we got: {}"
_GRAPH_NAMES = weakref.WeakKeyDictionary()  # a TF1 graph's numbering of default names


def _default_name(cls):
    """tf.keras 2's automatic name: snake case, `private` before a leading underscore
    (`private__linear_model_layer`), numbered from the second (`linear_model_1`) per TF1
    graph, or by Keras (eagerly; afresh in each trace of an Estimator's model_fn)."""
    snake = naming.to_snake_case(cls.__name__)
    base = "private" + snake if snake.startswith("_") else snake
    if tf.executing_eagerly() or tf.inside_function():
        return naming.uniquify(base)
    used = _GRAPH_NAMES.setdefault(v1.get_default_graph(), collections.Counter())
    used[base] += 1
    return base if used[base] == 1 else f"{base}_{used[base] - 1}"


def _added_losses(layer):
    """The layer's and its sublayers' `add_loss` losses (its variables have no Keras
    regularizers)."""
    return [loss for each in layer._flatten_layers() for loss in each._get_own_losses()]


class _Calls:
    """What a model's calls made: its variables by name (creation order) and, per graph, the
    update ops. A plain object, so Keras 3 tracks none of it as its own state."""

    def __init__(self):
        self.variables = {}
        self.eager_store = variable_scope.EagerVariableStore()
        self.graphs = weakref.WeakKeyDictionary()  # graph -> its update ops

    def creator(self, next_creator, **kwargs):
        """Records each variable made; traced in a tf.function of the caller's, a later call
        gets the eager variable of the first (elsewhere `eager_store`, an Estimator's
        variable store or get_variable's reuse in a TF1 graph answers before this)."""
        name = kwargs.get("name")
        known = self.variables.get(name)
        if known is not None and current_store() is None and tf.inside_function() \
                and not getattr(known, "_in_graph_mode", True):
            return known
        made = next_creator(**kwargs)
        self.variables[name] = made
        return made


class _MadeByCalls:
    """Keras 3 state answered from the tf.Variables that the model's calls made."""

    def _start_recording(self):
        self._calls = _Calls()
        self.built = True  # no Keras build: the variables come with the first call
        self._allow_non_tensor_positional_args = True  # model(features, mode)

    def _open_name_scope(self):
        """Keras' path of the layer, but no graph name scope: Keras 3 opens one to build and
        one to call (`dnn`, `dnn_1`), where tf.keras 2 opened one a call (see `_run`)."""
        return keras_name_scope(self.name, caller=self)

    def _run(self, make, keep_update_ops=True, summaries_in=None):
        """`make()` with its variables recorded, in the model's name scope (`dnn`, a second
        call `dnn_1`) and the caller's variable scope, reusing this model's variables where
        this graph has them; the UPDATE_OPS it added recorded (and taken out of the
        collection unless `keep_update_ops`); the summaries it made retagged under
        `summaries_in(<the model's name scope>)` where given."""
        calls = self._calls
        if tf.executing_eagerly():  # get_variable's store of this model's eager variables
            with calls.eager_store.as_default(), tf.variable_creator_scope(calls.creator):
                return make(None)
        graph = v1.get_default_graph()
        # A later call, or a later trace (a tf.function's, another mode's) of a model that
        # has its variables: get_variable reuses them.
        again = graph in calls.graphs or (tf.inside_function() and bool(calls.variables))
        reuse = v1.AUTO_REUSE if again else None
        updates = graph.get_collection_ref(_UPDATE_OPS)
        before = len(updates)
        summaries = graph.get_collection_ref(_SUMMARIES)
        summaries_before = len(summaries)
        with graph.name_scope(self.name) as model_scope, \
                tf.variable_creator_scope(calls.creator):
            out = make(reuse)
        model_scope = model_scope.rstrip("/")
        if summaries_in is not None:
            _retag(graph, summaries, summaries_before, model_scope, summaries_in(model_scope))
        added = updates[before:]
        if not keep_update_ops:
            del updates[before:]
        calls.graphs.setdefault(graph, []).extend(added)
        return out

    # -- Keras state --------------------------------------------------------------------------
    @property
    def variables(self):
        return list(self._calls.variables.values())

    @property
    def weights(self):
        return self.variables

    @property
    def trainable_variables(self):
        return [v for v in self.variables if v.trainable] if self.trainable else []

    @property
    def non_trainable_variables(self):
        if not self.trainable:
            return self.variables
        return [v for v in self.variables if not v.trainable]

    trainable_weights = trainable_variables
    non_trainable_weights = non_trainable_variables

    @property
    def losses(self):
        return _added_losses(self)

    def save_own_variables(self, store):
        """Keras 3's `save_weights`: the variables, in `variables` order."""
        for i, variable in enumerate(self.variables):
            store[f"{i}"] = variable.numpy()

    def load_own_variables(self, store):
        """Keras 3's `load_weights`, into a model that a call has given its variables."""
        if not self.variables or len(store.keys()) != len(self.variables):
            raise ValueError(
                f"The weights file holds {len(store.keys())} variables for {self.name!r}, "
                f"which has {len(self.variables)}: call the model once on features (its "
                "variables come with the first call), then load the weights.")
        for i, variable in enumerate(self.variables):
            variable.assign(store[f"{i}"])

    @property
    def updates(self):
        """The batch-norm moving-average ops this model's calls made in the current graph, to
        run with the train op (none eagerly: they ran with the call)."""
        if tf.executing_eagerly():
            return []
        return list(self._calls.graphs.get(v1.get_default_graph(), []))


def _retag(graph, summaries, start, model_scope, scope):
    """The canned network's layer summaries (`<model scope>/dnn/hiddenlayer_0/activation`,
    `summaries[start:]`) made again under `scope` as 2.15's models tagged them
    (`<scope>/hiddenlayer_0/activation`), on the same values, in their place in SUMMARIES."""
    prefix = model_scope + "/dnn/"
    kept, retagged = [], []
    for summary in summaries[start:]:
        tag = tf.get_static_value(summary.op.inputs[0]) if summary.op.type in _RETAGGED \
            else None
        tag = tf.compat.as_text(tag.item()) if tag is not None and tag.size == 1 else ""
        if tag.startswith(prefix):
            retagged.append((tag[len(prefix):], summary))
        else:
            kept.append(summary)
    summaries[start:] = kept
    with graph.name_scope(scope + "/" if scope else ""):
        for tag, summary in retagged:
            _RETAGGED[summary.op.type](tag, summary.op.inputs[1])


def _check_features(features):
    if not isinstance(features, dict):
        raise ValueError(_NOT_A_DICT.format(features))


class _DNN(_MadeByCalls, tf.keras.Model):
    """The network both DNN models run: canned/dnn.py's (relu layers by default, dropout in
    TRAIN, batch norm of momentum 0.999, each layer's summaries) on the columns' input layer."""

    def _configure(self, units, hidden_units, feature_columns, activation_fn, dropout,
                   batch_norm, partitioner=None):
        self._units = units
        self._hidden_units = list(hidden_units)
        self._feature_columns = feature_columns
        self._activation_fn = activation_fn
        self._dropout = dropout
        self._batch_norm = batch_norm
        self._input_layer_partitioner = partitioner
        self._start_recording()

    def _logits(self, features, mode):
        """The logits, the variables in the current variable scope (`hiddenlayer_0/kernel`)."""
        _check_features(features)
        return _without_scope("dnn", lambda: dnn_logits(
            features, mode, self._feature_columns, self._hidden_units, self._units,
            self._activation_fn, self._dropout, self._batch_norm,
            input_layer_partitioner=self._input_layer_partitioner))


class _DNNModelV2(_DNN):
    """tensorflow_estimator 2.15's V2 DNN: `model(features, mode)` -> logits, its variables
    `<name>/hiddenlayer_N/...`, `<name>/logits/...` (tf.feature_column columns only)."""

    def __init__(self, units, hidden_units, feature_columns, activation_fn, dropout,
                 batch_norm, name=None, **kwargs):
        feature_columns = list(feature_columns)
        _check_v2_columns(feature_columns)
        super().__init__(name=name or _default_name(type(self)), **kwargs)
        self._configure(units, hidden_units, feature_columns, activation_fn, dropout,
                        batch_norm)

    def call(self, features, mode):
        def make(reuse):
            with v1.variable_scope(self.name, reuse=reuse, auxiliary_name_scope=False):
                return self._logits(features, mode)
        # 2.15's Keras layers' update ops were not in UPDATE_OPS; its summaries were tagged
        # under the model's name scope (`dnn/...`, a second call `dnn_1/...`)
        return self._run(make, keep_update_ops=False, summaries_in=lambda scope: scope)


class _DNNModel(_DNN):
    """tensorflow_estimator 2.15's tf.compat.v1 DNN: `model(features, mode)` -> logits, its
    variables (`hiddenlayer_N/kernel`) in the caller's variable scope (tf.compat.v1 or
    tf.feature_column columns), the input layer's split by `input_layer_partitioner`; batch
    norm's updates also in UPDATE_OPS."""

    def __init__(self, units, hidden_units, feature_columns, activation_fn, dropout,
                 input_layer_partitioner, batch_norm, name=None, **kwargs):
        super().__init__(name=name or _default_name(type(self)), **kwargs)
        self._configure(units, hidden_units, list(feature_columns), activation_fn, dropout,
                        batch_norm, input_layer_partitioner)

    def call(self, features, mode):
        def make(reuse):
            with v1.variable_scope(v1.get_variable_scope(), reuse=reuse,
                                   auxiliary_name_scope=False):
                return self._logits(features, mode)
        # 2.15 tagged the summaries in the scope above the model's, or in the model's own
        # at the top (`dnn/...`)
        return self._run(make, summaries_in=lambda scope: scope.rpartition("/")[0] or scope)


def _checked_linear_columns(feature_columns):
    """The columns as 2.15 took them (TensorFlow's own checks: non-empty, FeatureColumns,
    unique names), each a dense or categorical column."""
    from tensorflow.python.feature_column import feature_column_v2 as fc_v2
    feature_columns = fc_v2._normalize_feature_columns(feature_columns)
    for column in feature_columns:
        if not isinstance(column, (fc_v2.DenseColumn, fc_v2.CategoricalColumn)):
            raise ValueError("Items of feature_columns must be either a DenseColumn or "
                             f"CategoricalColumn. Given: {column}")
    return feature_columns


class _LinearModelLayer(_MadeByCalls, tf.keras.layers.Layer):
    """tensorflow_estimator 2.15's linear layer: `layer(features)` -> the weighted sum of the
    columns plus `bias` ([batch, units]), with `<name>/<column>/weights` (zeros) and
    `<name>/bias_weights` in the caller's variable scope; categorical columns weighted per
    id, multivalent ones combined by `sparse_combiner`."""

    def __init__(self, feature_columns, units=1, sparse_combiner="sum", trainable=True,
                 name=None, **kwargs):
        feature_columns = _checked_linear_columns(feature_columns)
        super().__init__(name=name or _default_name(type(self)), trainable=trainable,
                         **kwargs)
        self._feature_columns = feature_columns
        self._units = units
        self._sparse_combiner = sparse_combiner
        self._column_trainable = trainable
        self._start_recording()

    @property
    def bias(self):
        """The `bias_weights` variable (None before the first call)."""
        found = [v for v in self.variables if v.name.split(":")[0].endswith("/bias_weights")]
        return found[0] if found else None

    def call(self, features):
        _check_features(features)

        def make(reuse):
            with v1.variable_scope(self.name, reuse=reuse, auxiliary_name_scope=False):
                return _without_scope("linear_model", lambda: v1.feature_column.linear_model(
                    features, self._feature_columns, units=self._units,
                    sparse_combiner=self._sparse_combiner, trainable=self._column_trainable))
        return self._run(make)

    def get_config(self):
        from tensorflow.python.feature_column import serialization
        config = super().get_config()
        config.update(feature_columns=serialization.serialize_feature_columns(
            self._feature_columns), units=self._units, sparse_combiner=self._sparse_combiner)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from tensorflow.python.feature_column import serialization
        config = dict(config)
        columns = serialization.deserialize_feature_columns(config.pop("feature_columns"),
                                                            custom_objects=custom_objects)
        return cls(feature_columns=columns, **config)


class LinearModel(tf.keras.Model):
    """tensorflow_estimator 2.15's `canned.linear.LinearModel`: `model(features)` -> its
    `_LinearModelLayer`'s (`model.layer`, of the model's name) predictions; `bias` its
    bias variable."""

    _open_name_scope = _MadeByCalls._open_name_scope  # its layer's: `linear_model`

    def __init__(self, feature_columns, units=1, sparse_combiner="sum", trainable=True,
                 name=None, **kwargs):
        super().__init__(name=name or _default_name(type(self)), **kwargs)
        self.layer = _LinearModelLayer(feature_columns, units, sparse_combiner, trainable,
                                       name=self.name, **kwargs)
        self.built = True

    def call(self, features):
        return self.layer(features)

    @property
    def bias(self):
        return self.layer.bias

    @property
    def variables(self):
        return self.layer.variables

    @property
    def weights(self):
        return self.layer.variables

    @property
    def trainable_variables(self):
        return self.layer.trainable_variables if self.trainable else []

    @property
    def non_trainable_variables(self):
        return self.layer.non_trainable_variables if self.trainable else self.variables

    trainable_weights = trainable_variables
    non_trainable_weights = non_trainable_variables

    @property
    def losses(self):
        return _added_losses(self)

    @property
    def updates(self):
        return []
