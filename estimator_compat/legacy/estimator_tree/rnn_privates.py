"""`canned.rnn`'s private helpers in tensorflow_estimator 2.15, on Keras 3's RNN layers and
estimator_compat's RNN model (canned/rnn.py):

- `_single_rnn_cell(units, cell_type)`: one cell ('simple_rnn', 'lstm', 'gru' or a class);
- `_make_rnn_cell_fn(units, cell_type)`: a function giving one cell per entry of `units` (the
  cell alone for one entry, else their list);
- `_verify_rnn_cell_input`, `_make_rnn_layer`: the estimator's RNN layer (SimpleRNN / LSTM /
  GRU for an int `units` and a named cell type, else an RNN over the cells);
- `_get_rnn_estimator_spec`: the EstimatorSpec of an RNN model's logits through a head.
"""
import keras

from estimator_compat.canned import rnn
from estimator_compat.canned.optimizers import get_optimizer

_CELL_NAMES = [rnn.SIMPLE_RNN, rnn.LSTM, rnn.GRU]


def _single_rnn_cell(units, cell_type):
    """A `cell_type` cell of `units` units; ValueError for an unknown name or a class that
    makes no RNN cell (one without `call` and `state_size`)."""
    cell_type = rnn._CELLS.get(cell_type, cell_type) if isinstance(cell_type, str) \
        else cell_type
    if not callable(cell_type):
        raise ValueError("`cell_type` should be a class producing a RNN cell, or a string "
                         f"specifying the cell type. Supported strings are: {_CELL_NAMES}.")
    cell = cell_type(units=units)
    if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
        raise ValueError("RNN cell should have a `call` and `state_size` method.")
    return cell


def _make_rnn_cell_fn(units, cell_type=rnn.SIMPLE_RNN):
    """A function returning new cells, one per entry of `units` (the cell itself for one)."""
    def rnn_cell_fn():
        cells = [_single_rnn_cell(n, cell_type) for n in units]
        return cells[0] if len(cells) == 1 else cells
    return rnn_cell_fn


def _verify_rnn_cell_input(rnn_cell_fn, units, cell_type):
    """ValueError when `rnn_cell_fn` is given with `units` or a `cell_type`."""
    if rnn_cell_fn and (units or not _is_default(cell_type)):
        raise ValueError("units and cell_type must not be specified when using rnn_cell_fn")


def _is_default(cell_type):
    """`cell_type` left at the estimators' default (canned.rnn.USE_DEFAULT)."""
    return isinstance(cell_type, str) and cell_type == rnn.USE_DEFAULT


def _make_rnn_layer(rnn_cell_fn, units, cell_type, return_sequences):
    """The RNN layer the canned RNN estimators run: a Keras SimpleRNN / LSTM / GRU layer for
    an int `units` and a cell name, else `keras.layers.RNN` over `rnn_cell_fn()` (or simple
    RNN cells of `units`)."""
    _verify_rnn_cell_input(rnn_cell_fn, units, cell_type)
    if isinstance(cell_type, str) and cell_type in rnn._LAYERS and isinstance(units, int):
        return rnn._LAYERS[cell_type](units=units, return_sequences=return_sequences)
    if not rnn_cell_fn:
        if _is_default(cell_type):
            cell_type = rnn.SIMPLE_RNN
        rnn_cell_fn = _make_rnn_cell_fn(units, cell_type)
    return keras.layers.RNN(cell=rnn_cell_fn(), return_sequences=return_sequences)


def _get_rnn_estimator_spec(features, labels, mode, head, rnn_model, optimizer,
                            return_sequences):
    """`head`'s EstimatorSpec on `rnn_model(features, training)`'s logits, trained in TRAIN
    mode by `optimizer` (a name: at learning rate 0.05 with gradients clipped to norm 5, as
    the RNN estimators); with `return_sequences` the model's sequence mask goes into
    `features` under the head's `input_sequence_mask_key` unless given."""
    from estimator_compat.canned.base import regularization_losses
    training = mode == "train"
    opt = get_optimizer(rnn._optimizer(optimizer), None) if training else None
    logits = rnn_model(features, training=training)
    key = getattr(head, "input_sequence_mask_key", None)
    if return_sequences and key not in features:
        features[key] = getattr(rnn_model, "sequence_mask", None)
        if features[key] is None:
            features[key] = getattr(logits, "_keras_mask", None)
    return head.create_estimator_spec(features=features, mode=mode, labels=labels,
                                      optimizer=opt, logits=logits,
                                      regularization_losses=regularization_losses())
