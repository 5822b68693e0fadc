"""tf.contrib.learn.DynamicRnnEstimator: an RNN over sequence features, predicting one value
per sequence (`PredictionType.SINGLE_VALUE`, read at each sequence's last step) or one per
step (`MULTIPLE_VALUE`), for `ProblemType.CLASSIFICATION` or `LINEAR_REGRESSION`.

TF 1.15's names here: `DynamicRnnEstimator`; `PredictionType` and `RNNKeys` (its
`rnn_common` module) are registered under the deep paths `...learn.estimators.rnn_common` and
`...dynamic_rnn_estimator`. As TF 1.15 built it: the sequence features (contrib.layers
`real_valued_column`s: a `[batch, time]` input is one value per step, `[batch, time, d]` d
values) joined with the context columns' input repeated over time; `tf.nn.dynamic_rnn` of a
`basic_rnn` / `lstm` / `gru` cell (a list of `num_units` stacks them; `dropout_keep_probabilities`
wraps them in training) over the padded length, its outputs through
`tf.contrib.layers.fully_connected` (`rnn/<cell>/...`, `fully_connected/{weights,biases}`), and
contrib.layers' target column losses (mean squared error; sigmoid or softmax cross entropy)
on the steps within `features["sequence_length"]`. Trained by `optimize_loss` (`SGD` at 0.1,
`Momentum` with `momentum`, gradients clipped to 5.0, the OPTIMIZER_SUMMARIES); evaluated with
`accuracy` for classification. Predictions: `classes` (with `probabilities` when
`predict_probabilities`) or `scores`, and the final state `rnn_cell_state_<i>`, which a feature
of that name sets as the initial state.
"""
import tensorflow as tf

from estimator_compat.learn.estimator import Estimator
from estimator_compat.learn.model_fn_ops import ModeKeys, ModelFnOps, ProblemType

v1 = tf.compat.v1


class PredictionType:
    """What a DynamicRnnEstimator predicts: one value per sequence, or one per step."""
    SINGLE_VALUE = 1
    MULTIPLE_VALUE = 2


class RNNKeys:
    LABELS_KEY = "__labels__"
    SEQUENCE_LENGTH_KEY = "sequence_length"
    STATE_PREFIX = "rnn_cell_state"


_CELL_TYPES = ("basic_rnn", "lstm", "gru")


class _Target:
    """contrib.layers' target column for a problem: its loss and its predictions."""

    def __init__(self, problem_type, num_classes):
        self.classification = problem_type == ProblemType.CLASSIFICATION
        self.binary = self.classification and num_classes == 2
        self.num_label_columns = (num_classes if self.classification and not self.binary
                                  else 1)

    def loss(self, logits, labels):
        if self.classification and not self.binary:
            if not labels.dtype.is_integer:
                raise ValueError(f"Target's dtype should be integer Instead got {labels.dtype}.")
            if labels.shape.rank == 2:
                labels = tf.squeeze(labels, axis=[1])
            per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                         logits=logits)
        else:
            if labels.shape.rank == 1:
                labels = tf.expand_dims(labels, axis=1)
            labels = tf.cast(labels, tf.float32)
            per_example = (tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
                           if self.binary else tf.math.squared_difference(logits, labels))
        return tf.reduce_mean(per_example, name="loss")

    def predictions(self, logits, proba=False):
        if not self.classification:
            return tf.squeeze(logits, axis=[1]) if self.num_label_columns == 1 else logits
        if self.binary:
            logits = tf.concat([tf.zeros_like(logits), logits], 1)
        return tf.nn.softmax(logits) if proba else tf.argmax(logits, 1)


def _sequence_values(column, transformed):
    """A real-valued column's [batch, time, d] input."""
    value = tf.cast(transformed, tf.float32)
    rank = value.shape.rank
    if rank == 2:
        return tf.expand_dims(value, -1)
    if rank == 3:
        return value
    if rank is not None and rank > 3:
        shape = tf.shape(value)
        return tf.reshape(value, tf.concat([shape[:2], [-1]], 0))
    raise ValueError(f"sequence feature {column.name!r} must have rank 2 ([batch, time]) or "
                     f"more ([batch, time, dimension]); its shape is {value.shape}.")


def _contrib_only(feature_columns, what):
    from estimator_compat.legacy.contrib.layers.feature_columns import columns
    for column in feature_columns:
        if not isinstance(column, columns._Column):
            raise ValueError(f"DynamicRnnEstimator's {what} are tf.contrib.layers feature "
                             f"columns, as in TF 1.15; got {column!r}.")


def build_sequence_input(features, sequence_feature_columns, context_feature_columns):
    """[batch, time, n]: the sequence columns' values, then each context column's input
    repeated at every step."""
    from estimator_compat.legacy.contrib.layers.feature_columns import columns, ops
    sequence_columns = sorted(set(sequence_feature_columns), key=lambda c: c.key)
    for column in sequence_columns:
        if not isinstance(column, columns._RealValuedColumn):
            raise ValueError(
                f"DynamicRnnEstimator: sequence column {column.name!r} is a "
                f"{type(column).__name__}; estimator_compat serves real_valued_column sequence "
                "features (embed ids in your input_fn, or use tf.contrib.estimator.RNNEstimator "
                "with tf.feature_column.sequence_* columns).")
    with v1.variable_scope(None, default_name="sequence_input_from_feature_columns"):
        transformed = ops.transform_all(features, sequence_columns)
        sequence_input = tf.concat([_sequence_values(c, transformed[c])
                                    for c in sequence_columns], axis=2)
    if context_feature_columns is None:
        return sequence_input
    context = ops.input_from_feature_columns(features, context_feature_columns)
    tiled = tf.tile(tf.expand_dims(tf.cast(context, tf.float32), 1),
                    tf.stack([1, tf.shape(sequence_input)[1], 1]))
    return tf.concat([sequence_input, tiled], 2)


def construct_rnn_cell(num_units, cell_type="basic_rnn", dropout_keep_probabilities=None):
    """One cell per entry of `num_units` (a MultiRNNCell of several), dropout-wrapped when
    `dropout_keep_probabilities` (one more than the cells: the last is the output's)."""
    from estimator_compat.legacy import rnn_cells
    kinds = {"basic_rnn": rnn_cells.BasicRNNCell, "lstm": rnn_cells.LSTMCell,
             "gru": rnn_cells.GRUCell}
    kind = kinds.get(cell_type, cell_type)
    if not (isinstance(kind, type) and issubclass(kind, rnn_cells.RNNCell)):
        raise ValueError(f"The supported cell types are {list(_CELL_TYPES)}; got {cell_type}")
    if not isinstance(num_units, (list, tuple)):
        num_units = (num_units,)
    cells = [kind(num_units=n) for n in num_units]
    if dropout_keep_probabilities:
        if len(dropout_keep_probabilities) != len(cells) + 1:
            raise ValueError(
                "The number of dropout probabilities must be one greater than the number of "
                f"cells. Got {len(cells)} cells and {len(dropout_keep_probabilities)} dropout "
                "probabilities.")
        wrapped = [rnn_cells.DropoutWrapper(cell, p, 1.0)
                   for cell, p in zip(cells[:-1], dropout_keep_probabilities[:-2])]
        wrapped.append(rnn_cells.DropoutWrapper(cells[-1], dropout_keep_probabilities[-2],
                                                dropout_keep_probabilities[-1]))
        cells = wrapped
    return cells[0] if len(cells) == 1 else rnn_cells.MultiRNNCell(cells)


def _state_name(i):
    return f"{RNNKeys.STATE_PREFIX}_{i}"


def _initial_state(features, cell):
    """The cell's state from the features `rnn_cell_state_<i>`, or None (zeros)."""
    sizes = tf.nest.flatten(cell.state_size)
    given = [features.get(_state_name(i)) for i in range(len(sizes))]
    given = [tf.convert_to_tensor(s) for s in given if s is not None]
    if not given:
        return None
    if len(given) != len(sizes):
        raise ValueError(f"RNN state was partially specified.Expected zero or {len(sizes)} "
                         f"state Tensors; got {len(given)}")
    return tf.nest.pack_sequence_as(cell.state_size, given)


def select_last_activations(activations, sequence_lengths):
    """[batch, n]: each sequence's activations at its last step (the padded length without
    `sequence_lengths`)."""
    with tf.name_scope("select_last_activations"):
        shape = tf.shape(activations)
        batch_size, padded_length = shape[0], shape[1]
        if sequence_lengths is None:
            sequence_lengths = padded_length
        flat = tf.reshape(activations, [-1, shape[2]])
        indices = (tf.range(batch_size) * padded_length
                   + tf.cast(sequence_lengths, tf.int32) - 1)
        return tf.gather(flat, indices)


def mask_activations_and_labels(activations, labels, sequence_lengths):
    """The steps within each sequence's length, flattened: ([steps, n], [steps])."""
    with tf.name_scope("mask_activations_and_labels"):
        shape = tf.shape(labels)
        if sequence_lengths is None:
            size = shape[0] * shape[1]
            return tf.reshape(activations, [size, -1]), tf.reshape(labels, [size])
        mask = tf.sequence_mask(sequence_lengths, shape[1])
        return tf.boolean_mask(activations, mask), tf.boolean_mask(labels, mask)


def _single_value_predictions(activations, lengths, target, key, proba):
    with tf.name_scope("SingleValuePrediction"):
        last = select_last_activations(activations, lengths)
        if proba:
            probabilities = target.predictions(last, proba=True)
            return {"probabilities": probabilities, key: tf.argmax(probabilities, 1)}
        return {key: target.predictions(last)}


def _multi_value_predictions(activations, target, key, proba):
    with tf.name_scope("MultiValuePrediction"):
        shape = tf.shape(activations)
        flat = tf.reshape(activations, [-1, shape[2]])
        out = {}
        if proba:
            flat_probabilities = target.predictions(flat, proba=True)
            flat_predictions = tf.argmax(flat_probabilities, 1)
            probability_shape = (tf.concat([shape[:2], [2]], 0) if target.num_label_columns == 1
                                 else shape)
            out["probabilities"] = tf.reshape(flat_probabilities, probability_shape,
                                              name="probabilities")
        else:
            flat_predictions = target.predictions(flat)
        out[key] = tf.reshape(flat_predictions, [shape[0], shape[1]], name=key)
        return out


class _RnnOps(ModelFnOps):
    """The model's ops. `predict` reads the predictions alone, as TF 1.15's did: a
    classification output without probabilities (its classes are ids, which a
    classification signature cannot hold) is exported as a predict signature."""

    def estimator_spec(self, default_serving_output_alternative_key=None):
        if self.mode == ModeKeys.INFER and self.output_alternatives:
            problem_type, tensors = self.output_alternatives["dynamic_rnn_output"]
            if problem_type == ProblemType.CLASSIFICATION and "probabilities" not in tensors:
                return ModelFnOps.estimator_spec(self._replace(output_alternatives=None))
        return super().estimator_spec(default_serving_output_alternative_key)


def _model_fn(params):
    """contrib.learn's dynamic RNN model_fn for these settings."""
    from estimator_compat.legacy.contrib.tf_slim_loader import tf_slim
    slim = tf_slim()
    target = params["target"]
    single = params["prediction_type"] == PredictionType.SINGLE_VALUE
    key = "classes" if target.classification else "scores"
    proba = params["predict_probabilities"]

    def model_fn(features, labels, mode):
        with tf.name_scope(params["name"]):
            lengths = features.get(RNNKeys.SEQUENCE_LENGTH_KEY)
            sequence_input = build_sequence_input(features, params["sequence_feature_columns"],
                                                  params["context_feature_columns"])
            cell = construct_rnn_cell(params["num_units"], params["cell_type"],
                                      params["dropout_keep_probabilities"]
                                      if mode == ModeKeys.TRAIN else None)
            initial_state = _initial_state(features, cell)
            with tf.name_scope("RNN"):
                outputs, final_state = v1.nn.dynamic_rnn(
                    cell, sequence_input, initial_state=initial_state, dtype=tf.float32,
                    swap_memory=True, time_major=False)
                activations = slim.layers.fully_connected(outputs, target.num_label_columns,
                                                          activation_fn=None, trainable=True)
            loss = None
            if single:
                predictions = _single_value_predictions(activations, lengths, target, key, proba)
                if mode != ModeKeys.INFER:
                    with tf.name_scope("SingleValueLoss"):
                        loss = target.loss(select_last_activations(activations, lengths),
                                           labels)
            else:
                predictions = _multi_value_predictions(activations, target, key, proba)
                if mode != ModeKeys.INFER:
                    with tf.name_scope("MultiValueLoss"):
                        loss = target.loss(*mask_activations_and_labels(activations, labels,
                                                                        lengths))
            with tf.name_scope("state_tuple_to_dict"):
                states = {_state_name(i): tf.identity(s, name=_state_name(i))
                          for i, s in enumerate(tf.nest.flatten(final_state))}
            alternatives = None if not single else {"dynamic_rnn_output": (
                params["problem_type"], dict(predictions))}
            predictions.update(states)
            metrics = None
            if mode != ModeKeys.INFER and target.classification:
                classes = predictions["classes"]
                if not single:
                    classes, labels = mask_activations_and_labels(classes, labels, lengths)
                metrics = {"accuracy": v1.metrics.accuracy(labels=labels, predictions=classes)}
            train_op = None
            if mode == ModeKeys.TRAIN:
                train_op = slim.optimizers.optimize_loss(
                    loss, None, learning_rate=params["learning_rate"],
                    optimizer=params["optimizer"], clip_gradients=params["clip"],
                    summaries=slim.optimizers.OPTIMIZER_SUMMARIES)
        return _RnnOps(mode, predictions=predictions, loss=loss, train_op=train_op,
                          eval_metric_ops=metrics, output_alternatives=alternatives)
    return model_fn


class DynamicRnnEstimator(Estimator):
    """tf.contrib.learn.DynamicRnnEstimator (see the module docstring)."""

    def __init__(self, problem_type, prediction_type, sequence_feature_columns,
                 context_feature_columns=None, num_classes=None, num_units=None,
                 cell_type="basic_rnn", optimizer="SGD", learning_rate=0.1,
                 predict_probabilities=False, momentum=None, gradient_clipping_norm=5.0,
                 dropout_keep_probabilities=None, model_dir=None, feature_engineering_fn=None,
                 config=None):
        if prediction_type == PredictionType.MULTIPLE_VALUE:
            name = "MultiValueDynamicRNN"
        elif prediction_type == PredictionType.SINGLE_VALUE:
            name = "SingleValueDynamicRNN"
        else:
            raise ValueError("prediction_type must be one of PredictionType.MULTIPLE_VALUE or "
                             f"PredictionType.SINGLE_VALUE; got {prediction_type}")
        if problem_type == ProblemType.LINEAR_REGRESSION:
            name += "Regressor"
        elif problem_type == ProblemType.CLASSIFICATION:
            if not num_classes:
                raise ValueError("For CLASSIFICATION problem_type, num_classes must be "
                                 "specified.")
            name += "Classifier"
        else:
            raise ValueError("problem_type must be either ProblemType.LINEAR_REGRESSION or "
                             f"ProblemType.CLASSIFICATION; got {problem_type}")
        if problem_type != ProblemType.CLASSIFICATION and predict_probabilities:
            raise ValueError("predict_probabilities can only be set to True for problem_type "
                             f"ProblemType.CLASSIFICATION; got {problem_type}.")
        if num_units is None:
            raise ValueError("DynamicRnnEstimator needs num_units: the cell size, or a list of "
                             "sizes for stacked cells.")
        sequence_feature_columns = list(sequence_feature_columns or [])
        if not sequence_feature_columns:
            raise ValueError("sequence_feature_columns must be a non-empty list of "
                             "tf.contrib.layers.real_valued_column columns.")
        _contrib_only(sequence_feature_columns, "sequence_feature_columns")
        if context_feature_columns is not None:
            _contrib_only(context_feature_columns, "context_feature_columns")
        if optimizer == "Momentum":
            optimizer = v1.train.MomentumOptimizer(learning_rate, momentum)
        params = dict(target=_Target(problem_type, num_classes), problem_type=problem_type,
                      prediction_type=prediction_type, name=name,
                      sequence_feature_columns=sequence_feature_columns,
                      context_feature_columns=context_feature_columns, num_units=num_units,
                      cell_type=cell_type, optimizer=optimizer, learning_rate=learning_rate,
                      predict_probabilities=predict_probabilities, clip=gradient_clipping_norm,
                      dropout_keep_probabilities=dropout_keep_probabilities)
        from estimator_compat.learn.head_estimators import _tf1_equality
        super().__init__(_tf1_equality(_model_fn(params)), model_dir=model_dir, config=config,
                         feature_engineering_fn=feature_engineering_fn)
