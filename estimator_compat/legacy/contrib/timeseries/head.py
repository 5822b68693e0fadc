"""The time series model_fn (TF 1.15's `head.TimeSeriesRegressionHead` and the state managers
ARModel uses, `state_management.PassthroughStateManager` / `FilteringOnlyStateManager`, and
tensorflow_estimator 2.15's privates of those modules that code imported: the feature checks,
the identity metrics, `_NoStatePredictOutput`, `_OverridableStateManager`).

Train: the model's loss on a batch of windows, the input statistics updated first, the
optimizer's `minimize`. Evaluate: the loss's mean (`average_loss`), and the model's last
predictions, times and end state as "identity" metrics (a local variable holding the last
value, TF 1.15's `_identity_metric_single`); the end state's elements are the metrics
`start_tuple_0..N` here (a metric value must be one tensor in this Estimator), put back
together as `start_tuple` by `TimeSeriesRegressor._regroup_eval_results` (before the eval
summaries, which leave that tuple out as TF 1.15 did). Predict: the model's
`predict` on `PredictionFeatures`, with their `times`.

Serving (features holding the flat state `model_state_00..N`, as
`TimeSeriesRegressor.build_raw_serving_input_receiver_fn` gives them): three signatures on
one graph, `serving_default` (predict after the given state), `filter` (the state after the
given `times` / `values`, from the given state) and `cold_start_filter` (the same from the
model's start state: its signature takes no state inputs). `OneShotPredictionHead` serves
one signature instead: filter the given values, predict the rest of the times."""
import re

import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries import feature_keys
from estimator_compat.legacy.contrib.timeseries.ar_model import EVAL, TRAIN
from estimator_compat.export.outputs import PredictOutput
from estimator_compat.spec import EstimatorSpec

v1 = tf.compat.v1
PREDICT = "infer"
STATE_PART = feature_keys.FilteringResults.STATE_TUPLE + "_{}"


class PassthroughStateManager:
    """No state kept between batches: every batch starts from the model's start state."""

    def __init__(self):
        self._input_statistics = None
        self._graph_initialized = False

    def initialize_graph(self, model, input_statistics=None):
        del model
        self._graph_initialized = True
        self._input_statistics = input_statistics

    def define_loss(self, model, features, mode):
        if feature_keys.State.STATE_TUPLE in features:
            raise ValueError("Overriding start state is not supported for this model.")
        return model.define_loss(features, mode)


class _OverridableStateManager(PassthroughStateManager):
    """A state manager whose evaluation may start from a given `start_tuple` feature
    (tensorflow_estimator 2.15's base of FilteringOnlyStateManager); without one, the loss
    is `_define_loss_with_saved_state`'s, which a subclass defines (from a state it keeps)."""

    def _define_loss_with_saved_state(self, model, features, mode):
        raise NotImplementedError(
            f"{type(self).__name__} must define _define_loss_with_saved_state(model, "
            f"features, mode): the loss when no '{feature_keys.State.STATE_TUPLE}' feature "
            f"is given.")

    def define_loss(self, model, features, mode):
        key = feature_keys.State.STATE_TUPLE
        if key not in features:
            return self._define_loss_with_saved_state(model=model, features=features,
                                                      mode=mode)
        if mode == TRAIN:
            raise ValueError(f"Overriding saved state for training is not supported (but a "
                             f"value for feature {key} was specified).")
        features = dict(features)
        state = features.pop(key)
        return model.get_batch_loss(features=features, mode=mode, state=state)


class FilteringOnlyStateManager(_OverridableStateManager):
    """As Passthrough, but an evaluation may start from a given `start_tuple` feature."""

    def _define_loss_with_saved_state(self, model, features, mode):
        return model.define_loss(features, mode)


def _identity_metric(name, tensor):
    """(the variable's value, its assignment): the value seen by the last update (a local
    variable `<name>_identity_metric` of any shape)."""
    variable = v1.Variable(tf.zeros([], dtype=tensor.dtype), name=f"{name}_identity_metric",
                           trainable=False, collections=[v1.GraphKeys.LOCAL_VARIABLES],
                           validate_shape=False, shape=tf.TensorShape(None))
    update = variable.assign(tensor, read_value=False)
    value = tf.identity(variable.read_value())
    value.set_shape(tensor.shape)
    return value, update


_identity_metric_single = _identity_metric  # tensorflow_estimator 2.15's name


def _identity_metric_nested(name, input_tensors):
    """(the values in `input_tensors`' structure, one op running every update): an identity
    metric `<name>_<i>` per flattened element (2.15's `head._identity_metric_nested`)."""
    pairs = [_identity_metric(f"{name}_{number}", tensor)
             for number, tensor in enumerate(tf.nest.flatten(input_tensors))]
    values = tf.nest.pack_sequence_as(input_tensors, [value for value, _ in pairs])
    return values, tf.group(*[update for _, update in pairs])


def state_to_dictionary(state_tuple):
    """{`model_state_00`: first state element, ...}: a state as flat named tensors."""
    return {f"{feature_keys.State.STATE_PREFIX}_{number:02d}": value
            for number, value in enumerate(tf.nest.flatten(state_tuple))}


class _NoStatePredictOutput(PredictOutput):
    """A predict signature without the state inputs (cold_start_filter's)."""

    def as_signature_def(self, receiver_tensors):
        return super().as_signature_def({
            key: value for key, value in receiver_tensors.items()
            if not key.startswith(feature_keys.State.STATE_PREFIX)})


class TimeSeriesRegressionHead:
    """The model_fn `create_estimator_spec(features, mode, labels=None)` of a model."""

    def __init__(self, model, state_manager, optimizer, input_statistics_generator=None,
                 name=None):
        self.model = model
        self.state_manager = state_manager
        self.optimizer = optimizer
        self.input_statistics_generator = input_statistics_generator
        self._name = name

    @property
    def name(self):
        return self._name

    @property
    def logits_dimension(self):
        return 1

    def create_loss(self, features, mode, logits=None, labels=None):
        outputs = self.state_manager.define_loss(self.model, features, mode)
        v1.summary.scalar("loss" if self._name is None else f"loss/{self._name}",
                          outputs.loss)
        return outputs

    def _train_ops(self, features):
        with v1.variable_scope("model", use_resource=True):
            outputs = self.create_loss(features, TRAIN)
        train_op = self.optimizer.minimize(outputs.loss,
                                           global_step=v1.train.get_global_step())
        return EstimatorSpec(mode=TRAIN, loss=outputs.loss, train_op=train_op)

    def _evaluate_ops(self, features):
        with v1.variable_scope("model", use_resource=True):
            outputs = self.create_loss(features, EVAL)
        metrics = {key: _identity_metric(key, value)
                   for key, value in outputs.predictions.items()}
        times = feature_keys.FilteringResults.TIMES
        metrics[times] = _identity_metric(times, outputs.prediction_times)
        for number, part in enumerate(tf.nest.flatten(outputs.end_state)):
            metrics[STATE_PART.format(number)] = _identity_metric(
                STATE_PART.format(number), part)
        metrics["average_loss"] = v1.metrics.mean(outputs.loss, name="average_loss")
        return EstimatorSpec(mode=EVAL, loss=outputs.loss, eval_metric_ops=metrics,
                             predictions=outputs.predictions)

    def _predict_ops(self, features):
        with v1.variable_scope("model", use_resource=True):
            predictions = self.model.predict(features=features)
        predictions[feature_keys.PredictionResults.TIMES] = features[
            feature_keys.PredictionFeatures.TIMES]
        return EstimatorSpec(mode=PREDICT, predictions=predictions)

    def _check_predict_features(self, features):
        _check_times(features, feature_keys.PredictionFeatures.TIMES, "prediction")
        if feature_keys.PredictionFeatures.STATE_TUPLE not in features:
            raise ValueError(f"Expected a '{feature_keys.PredictionFeatures.STATE_TUPLE}' "
                             f"feature for prediction.")

    def _serving_ops(self, features):
        """The three serving signatures (see the module docstring)."""
        with v1.variable_scope("model", use_resource=True):
            predictions = self.model.predict(features=features)
        with v1.variable_scope("model", reuse=True):
            filtering = self.create_loss(features, EVAL)
        cold = {key: value for key, value in features.items()
                if not key.startswith(feature_keys.State.STATE_PREFIX)
                and key != feature_keys.State.STATE_TUPLE}
        with v1.variable_scope("model", reuse=True):
            cold_filtering = self.model.define_loss(features=cold, mode=EVAL)
        labels = feature_keys.SavedModelLabels
        return EstimatorSpec(mode=PREDICT, predictions={}, export_outputs={
            labels.PREDICT: PredictOutput(predictions),
            labels.FILTER: PredictOutput(state_to_dictionary(filtering.end_state)),
            labels.COLD_START_FILTER: _NoStatePredictOutput(
                state_to_dictionary(cold_filtering.end_state))})

    def _gather_state(self, features):
        """(features, whether a flat state was given): `model_state_NN` features packed into
        the model's state structure as `start_tuple`."""
        pattern = re.compile("^" + feature_keys.State.STATE_PREFIX + r"_(\d+)$")
        numbered = sorted((int(match.group(1)), key) for key in features
                          for match in [pattern.search(key)] if match)
        if not numbered:
            return features, False
        features = dict(features)
        flat = [features.pop(key) for _, key in numbered]
        features[feature_keys.State.STATE_TUPLE] = tf.nest.pack_sequence_as(
            self.model.get_start_state(), flat)
        return features, True

    def _convert(self, name, value):
        if name in (feature_keys.TrainEvalFeatures.TIMES, feature_keys.PredictionFeatures.TIMES):
            return tf.cast(value, tf.int64)
        if name == feature_keys.TrainEvalFeatures.VALUES:
            return tf.cast(value, self.model.dtype)
        if name == feature_keys.PredictionFeatures.STATE_TUPLE:
            return value
        return v1.convert_to_tensor_or_sparse_tensor(value)

    def create_estimator_spec(self, features, mode, labels=None):
        with tf.name_scope(self._name or "head"):
            if labels is not None and not (isinstance(labels, dict) and not labels):
                raise ValueError(
                    f"The model received a `labels`, which is not supported. Pass "
                    f"'{feature_keys.TrainEvalFeatures.TIMES}' and "
                    f"'{feature_keys.TrainEvalFeatures.VALUES}' as features.")
            features = {name: self._convert(name, value) for name, value in features.items()}
            statistics = None
            if self.input_statistics_generator is not None:
                statistics = self.input_statistics_generator.initialize_graph(
                    features, update_statistics=mode == TRAIN)
            self.model.initialize_graph(input_statistics=statistics)
            features, flat_state = self._gather_state(features)
            if mode in (TRAIN, EVAL):
                _check_train_eval_features(features, self.model)
            elif mode == PREDICT:
                self._check_predict_features(features)
            else:
                raise ValueError(f"Unknown mode '{mode}' passed to model_fn.")
            self.state_manager.initialize_graph(model=self.model, input_statistics=statistics)
            if mode == TRAIN:
                return self._train_ops(features)
            if mode == EVAL:
                return self._evaluate_ops(features)
            if flat_state:
                return self._serving_ops(features)
            return self._predict_ops(features)


def _check_times(features, name, what):
    if name not in features:
        raise ValueError(f"Expected a '{name}' feature for {what}.")
    times = features[name]
    if not times.shape.is_compatible_with([None, None]):
        raise ValueError(f"Expected shape (batch dimension, window size) for feature "
                         f"'{name}' (got shape {times.shape})")
    for key, value in features.items():
        if key == feature_keys.State.STATE_TUPLE or key == name:
            continue
        if not value.shape[:2].is_compatible_with(times.shape):
            raise ValueError(
                f"Features must have shape (batch dimension, window size, ...) (got shape "
                f"{value.shape} for feature '{key}', but shape {times.shape} for feature "
                f"'{name}')")


def _check_feature_shapes_compatible_with(features, compatible_with_name,
                                          compatible_with_value, ignore=None):
    """Every feature (but those in `ignore`, and those of unknown rank) is at least
    `[batch, window, ...]` with the batch and window of `compatible_with_value`."""
    for name, value in features.items():
        if ignore and name in ignore:
            continue
        shape = value.shape
        if shape.ndims is None:
            continue
        if shape.ndims < 2:
            raise ValueError(f"Features must have shape (batch dimension, window size, ...) "
                             f"(got rank {shape.ndims} for feature '{name}')")
        if not shape[:2].is_compatible_with(compatible_with_value.shape):
            raise ValueError(
                f"Features must have shape (batch dimension, window size, ...) where batch "
                f"dimension and window size match the '{compatible_with_name}' feature (got "
                f"shape {shape} for feature '{name}' but shape {compatible_with_value.shape} "
                f"for feature '{compatible_with_name}')")


def _check_train_eval_features(features, model):
    """`times` `[batch, window]` and `values` `[batch, window, num_features]` present, and
    every other feature `[batch, window, ...]`: a clear ValueError otherwise."""
    times_key, values_key = (feature_keys.TrainEvalFeatures.TIMES,
                             feature_keys.TrainEvalFeatures.VALUES)
    for name in (times_key, values_key):
        if name not in features:
            raise ValueError(f"Expected a '{name}' feature for training/evaluation.")
    times, values = features[times_key], features[values_key]
    if not times.shape.is_compatible_with([None, None]):
        raise ValueError(f"Expected shape (batch dimension, window size) for feature "
                         f"'{times_key}' (got shape {times.shape})")
    if not values.shape.is_compatible_with([None, None, model.num_features]):
        raise ValueError(
            f"Expected shape (batch dimension, window size, {model.num_features}) for feature "
            f"'{values_key}', since the model was configured with num_features="
            f"{model.num_features} (got shape {values.shape})")
    _check_feature_shapes_compatible_with(
        features={k: v for k, v in features.items() if k != feature_keys.State.STATE_TUPLE},
        compatible_with_name=times_key, compatible_with_value=times)


class OneShotPredictionHead(TimeSeriesRegressionHead):
    """A head serving one signature, `serving_default`, that filters the given `values`
    from the model's start state and predicts the rest of `times` (the first times go with
    `values`): for `build_one_shot_parsing_serving_input_receiver_fn`'s tf.Examples. Its
    evaluation has no `start_tuple`."""

    def _check_predict_features(self, features):
        for name in (feature_keys.PredictionFeatures.TIMES, feature_keys.TrainEvalFeatures.VALUES,
                     feature_keys.PredictionFeatures.STATE_TUPLE):
            if name not in features:
                raise ValueError(f"Expected a '{name}' feature for prediction.")
        _check_times({k: v for k, v in features.items()
                      if k != feature_keys.TrainEvalFeatures.VALUES},
                     feature_keys.PredictionFeatures.TIMES, "prediction")

    def _evaluate_ops(self, features):
        spec = super()._evaluate_ops(features)
        for key in [k for k in spec.eval_metric_ops
                    if k.startswith(feature_keys.State.STATE_TUPLE + "_")]:
            del spec.eval_metric_ops[key]
        return spec

    def _serving_ops(self, features):
        values = feature_keys.FilteringFeatures.VALUES
        with v1.variable_scope("model", use_resource=True):
            filtering, prediction = {}, {}
            length = tf.shape(features[values])[1]
            for key, value in features.items():
                if key == feature_keys.State.STATE_TUPLE:
                    continue
                if key == values:
                    filtering[key] = value
                else:
                    filtering[key] = value[:, :length]
                    prediction[key] = value[:, length:]
            cold = self.model.define_loss(features=filtering, mode=EVAL)
            prediction[feature_keys.State.STATE_TUPLE] = cold.end_state
        with v1.variable_scope("model", reuse=True):
            outputs = self.model.predict(features=prediction)
        return EstimatorSpec(mode=PREDICT, predictions={}, export_outputs={
            feature_keys.SavedModelLabels.PREDICT: _NoStatePredictOutput(outputs)})
