"""RNNClassifier, RNNEstimator (tf.estimator.experimental): a Keras RNN over sequence columns.

As tf.estimator 2.15 built it: a Keras model named `rnn_model` whose SequenceFeatures layer
turns the sequence columns into [batch, time, width] inputs (context columns, through
DenseFeatures, are repeated at each step), masked by each example's length, into one RNN
layer (SimpleRNN / LSTM / GRU for a `units` int, else an RNN over cells, stacked for a list
of units), then a Dense `logits` layer, trained through the head. A named optimizer is
Adagrad-style at learning rate 0.05 with gradients clipped to norm 5, as 2.15 defaulted.
"""
import keras
import tensorflow as tf

from estimator_compat.canned import heads as heads_lib
from estimator_compat.canned.base import _Canned, check_columns, classification_head
from estimator_compat.canned.heads.sequential import SequentialHeadWrapper
from estimator_compat.canned.keras_optimizers import ClippedOptimizer
from estimator_compat.canned.optimizers import get_optimizer
from estimator_compat.keras_bridge.dense_features import DenseFeatures
from estimator_compat.keras_bridge.sequence_features import (
    SequenceFeatures, concatenate_context_input)

USE_DEFAULT = "__use_default__"
SIMPLE_RNN, LSTM, GRU = "simple_rnn", "lstm", "gru"
_LAYERS = {SIMPLE_RNN: keras.layers.SimpleRNN, LSTM: keras.layers.LSTM, GRU: keras.layers.GRU}
_CELLS = {SIMPLE_RNN: keras.layers.SimpleRNNCell, LSTM: keras.layers.LSTMCell,
          GRU: keras.layers.GRUCell}
_DEFAULT_LEARNING_RATE, _DEFAULT_CLIP_NORM = 0.05, 5.0


def _rnn_layer(rnn_cell_fn, units, cell_type, return_sequences):
    """The Keras RNN layer for these arguments (a new one per trace; the store keeps its
    variables by name)."""
    if cell_type in _LAYERS and isinstance(units, int):
        return _LAYERS[cell_type](units=units, return_sequences=return_sequences)
    if rnn_cell_fn is None:
        cell_class = _CELLS[SIMPLE_RNN if cell_type == USE_DEFAULT else cell_type] \
            if isinstance(cell_type, str) else cell_type
        sizes = [units] if isinstance(units, int) else list(units)
        cells = [cell_class(units=n) for n in sizes]
        rnn_cell_fn = lambda: cells[0] if len(cells) == 1 else \
            keras.layers.StackedRNNCells(cells)  # noqa: E731
    return keras.layers.RNN(cell=rnn_cell_fn(), return_sequences=return_sequences)


class RNNModel:
    """Logits from sequence (and context) features: SequenceFeatures -> RNN -> Dense, called
    under the `rnn_model` scope. Plain layers rather than a Keras Model subclass: Keras 3 builds
    a subclassed model's inner layers without their own scopes, which would lose tf.estimator's
    names (`rnn_model/rnn/simple_rnn_cell/kernel`, `rnn_model/logits/kernel`)."""

    def __init__(self, rnn_layer, units, sequence_feature_columns, context_feature_columns=None,
                 activation=None, return_sequences=False, name="rnn_model"):
        if not isinstance(units, int):
            raise ValueError(f"units must be an int.  Given type: {type(units)}")
        self.name = name
        self._sequence_features = SequenceFeatures(sequence_feature_columns)
        self._sequence_features.top_level_names = True  # tf.estimator's variable names
        self._context_features = None
        if context_feature_columns:
            self._context_features = DenseFeatures(context_feature_columns)
            self._context_features.top_level_names = True
        self._rnn_layer = rnn_layer
        self._logits_layer = keras.layers.Dense(units, activation=activation, name="logits")
        self.sequence_mask = None

    def __call__(self, inputs, training=None):
        if not isinstance(inputs, dict):
            raise ValueError(f"inputs should be a dictionary of `Tensor`s. Given type: "
                             f"{type(inputs)}")
        with keras.name_scope(self.name):
            with tf.name_scope("sequence_input_layer"):
                sequence_input, sequence_length = self._sequence_features(inputs)
                tf.compat.v1.summary.histogram("sequence_length", sequence_length)
                if self._context_features is not None:
                    sequence_input = concatenate_context_input(
                        self._context_features(inputs), sequence_input)
            self.sequence_mask = tf.sequence_mask(sequence_length,
                                                  maxlen=tf.shape(sequence_input)[1])
            outputs = self._rnn_layer(sequence_input, mask=self.sequence_mask,
                                      training=training)
            return self._logits_layer(outputs)


def _check(head, sequence_feature_columns, units, cell_type, rnn_cell_fn, return_sequences):
    if rnn_cell_fn is not None and (units or cell_type != USE_DEFAULT):
        raise ValueError("units and cell_type must not be specified when using rnn_cell_fn")
    if rnn_cell_fn is None and not units:
        raise ValueError("units must be given (an int, or a list of ints for stacked cells) "
                         "when rnn_cell_fn is not.")
    if isinstance(cell_type, str) and cell_type not in _LAYERS and cell_type != USE_DEFAULT:
        raise ValueError(f"cell_type must be one of {sorted(_LAYERS)} or a Keras RNN cell "
                         f"class, given {cell_type!r}.")
    if return_sequences and not isinstance(head, SequentialHeadWrapper):
        raise ValueError("Provided head must be a `_SequentialHead` object when "
                         "`return_sequences` is set to True.")
    return check_columns(sequence_feature_columns, "sequence_feature_columns")


def _optimizer(optimizer):
    """2.15's default for a named optimizer: learning rate 0.05, gradients clipped to 5."""
    if isinstance(optimizer, str):
        return lambda: ClippedOptimizer(get_optimizer(optimizer, _DEFAULT_LEARNING_RATE),
                                        clipnorm=_DEFAULT_CLIP_NORM)
    return optimizer


class RNNEstimator(_Canned):
    def __init__(self, head, sequence_feature_columns, context_feature_columns=None,
                 units=None, cell_type=USE_DEFAULT, rnn_cell_fn=None, return_sequences=False,
                 model_dir=None, optimizer="Adagrad", config=None):
        columns = _check(head, sequence_feature_columns, units, cell_type, rnn_cell_fn,
                         return_sequences)
        context = list(context_feature_columns or [])

        def logits_fn(features, mode):
            model = RNNModel(_rnn_layer(rnn_cell_fn, units, cell_type, return_sequences),
                             head.logits_dimension, columns, context,
                             return_sequences=return_sequences)
            logits = model(features, training=mode == "train")
            key = getattr(head, "input_sequence_mask_key", None)
            if return_sequences and key not in features:
                features[key] = model.sequence_mask
            return logits

        super().__init__(head=head, logits_fn=logits_fn, optimizer=_optimizer(optimizer),
                         learning_rate=None, model_dir=model_dir, config=config,
                         columns=columns + context)


class RNNClassifier(RNNEstimator):
    def __init__(self, sequence_feature_columns, context_feature_columns=None, units=None,
                 cell_type=USE_DEFAULT, rnn_cell_fn=None, return_sequences=False,
                 model_dir=None, n_classes=2, weight_column=None, label_vocabulary=None,
                 optimizer="Adagrad", loss_reduction=heads_lib.SUM_OVER_BATCH_SIZE,
                 sequence_mask="sequence_mask", config=None):
        head = classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)
        if return_sequences:
            head = SequentialHeadWrapper(head, sequence_mask)
        super().__init__(head, sequence_feature_columns, context_feature_columns, units,
                         cell_type, rnn_cell_fn, return_sequences, model_dir, optimizer, config)
