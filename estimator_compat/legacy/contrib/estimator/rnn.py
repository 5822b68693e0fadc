"""tf.contrib.estimator's `RNNClassifier` / `RNNEstimator`: TF 1.15's contrib RNN, a TF1 graph.

Not `tf.estimator.experimental`'s Keras RNN (`canned/rnn.py`): contrib's model is
`tf.contrib.feature_column.sequence_input_layer` (context columns through `input_layer`,
repeated at each step) -> `tf.nn.dynamic_rnn` over TF1 cells (`legacy/rnn_cells.py`) -> the
last valid output -> a dense `logits` layer, all under the `rnn` variable scope, so its
checkpoints hold `rnn/rnn/basic_rnn_cell/kernel`, `rnn/logits/dense/kernel`,
`rnn/sequence_input_layer/sequence_input_layer/<column>/...` and slots `<var>/t_0/Adagrad`
(contrib partitioned its variables into one part). Training goes through `canned/base._Canned`
and TF 1.15's v1 heads (`canned/v1_heads.py`); a named optimizer trains at 0.05 with its
gradients clipped to global norm 5 (`clip_gradients_by_norm`), as contrib's did.
"""
import tensorflow as tf

from estimator_compat.canned import v1_heads
from estimator_compat.canned.base import _Canned, check_columns
from estimator_compat.canned.heads.sequential import SequentialHeadWrapper
from estimator_compat.canned.optimizers import get_optimizer, with_slot_scope
from estimator_compat.legacy import rnn_cells
from estimator_compat.legacy.contrib.estimator.extenders import clip_gradients_by_norm
from estimator_compat.legacy.contrib.feature_column import sequence_input_layer

v1 = tf.compat.v1
USE_DEFAULT = object()  # no cell_type given
_DEFAULT_LEARNING_RATE, _DEFAULT_CLIP_NORM = 0.05, 5.0
_CELL_TYPES = {"basic_rnn": "BasicRNNCell", "lstm": "BasicLSTMCell", "gru": "GRUCell"}


def _cell_class(cell_type):
    if isinstance(cell_type, str) and cell_type not in _CELL_TYPES:  # TF 1.15: a TypeError
        raise TypeError(f"Unknown cell_type {cell_type!r}: give one of {list(_CELL_TYPES)} or "
                        "a tf.nn.rnn_cell.RNNCell subclass.")
    cls = rnn_cells.CLASSES[_CELL_TYPES[cell_type]] if isinstance(cell_type, str) \
        else cell_type
    if not isinstance(cls, type) or not issubclass(cls, rnn_cells.CLASSES["RNNCell"]):
        raise ValueError(f"Supported cell types are {list(_CELL_TYPES)} (or a "
                         f"tf.nn.rnn_cell.RNNCell subclass); got {cell_type!r}")
    return cls


def _rnn_cell_fn(rnn_cell_fn, num_units, cell_type):
    """The user's `rnn_cell_fn(mode)`, else one making a cell of `cell_type` per entry of
    `num_units` (a MultiRNNCell for several)."""
    if rnn_cell_fn and (num_units or cell_type is not USE_DEFAULT):
        raise ValueError("num_units and cell_type must not be specified when using rnn_cell_fn")
    if rnn_cell_fn:
        return rnn_cell_fn
    if not num_units:
        raise ValueError("num_units must be given (a list of layer sizes, e.g. [32]) when "
                         "rnn_cell_fn is not.")
    cls = _cell_class("basic_rnn" if cell_type is USE_DEFAULT else cell_type)
    sizes = list(num_units)

    def make_cells(mode):
        del mode  # the default cells are the same in every mode
        cells = [cls(num_units=n) for n in sizes]
        return cells[0] if len(cells) == 1 else rnn_cells.CLASSES["MultiRNNCell"](cells)
    return make_cells


def _with_context(sequence_input, context_input):
    """`context_input` [batch, d1] repeated at each step of `sequence_input` [batch, T, d0]
    and appended to it: [batch, T, d0 + d1]."""
    checks = [
        v1.assert_rank(sequence_input, 3, message="sequence_input must have rank 3",
                       data=[tf.shape(sequence_input)]),
        v1.assert_type(sequence_input, tf.float32, message="sequence_input must have dtype "
                       f"float32; got {sequence_input.dtype}."),
        v1.assert_rank(context_input, 2, message="context_input must have rank 2",
                       data=[tf.shape(context_input)]),
        v1.assert_type(context_input, tf.float32, message="context_input must have dtype "
                       f"float32; got {context_input.dtype}.")]
    with tf.control_dependencies(checks):
        steps = tf.shape(sequence_input)[1]
        tiled = tf.tile(tf.expand_dims(context_input, 1), tf.concat([[1], [steps], [1]], 0))
    return tf.concat([sequence_input, tiled], 2)


def _last_outputs(outputs, sequence_length):
    """outputs[i, sequence_length[i] - 1, :] for each example i: [batch, units]."""
    with tf.name_scope("select_last_activations"):
        shape = tf.shape(outputs)
        batch, steps, units = shape[0], shape[1], shape[2]
        starts = tf.cast(tf.range(batch) * steps, tf.int64)
        flat = tf.reshape(outputs, [batch * steps, units])
        last = tf.gather(flat, starts + tf.cast(sequence_length, tf.int64) - 1)
        last.set_shape([outputs.shape[0], outputs.shape[2]])
        return last


def _logits_fn(head, cell_fn, sequence_columns, context_columns, input_layer_partitioner,
               return_sequences, config):
    units = head.logits_dimension
    if not isinstance(units, int):
        raise ValueError(f"output_units must be an int.  Given type: {type(units)}")

    def logits_fn(features, mode):
        num_ps = config.num_ps_replicas if config else 0
        partitioner = v1.min_max_variable_partitioner(max_partitions=num_ps) if num_ps else None
        input_partitioner = input_layer_partitioner or (v1.min_max_variable_partitioner(
            max_partitions=num_ps, min_slice_size=64 << 20) if num_ps else None)
        values = tuple(features.values())
        with v1.variable_scope("rnn", values=values, partitioner=partitioner):
            with v1.variable_scope("sequence_input_layer", values=values,
                                   partitioner=input_partitioner):
                sequence_input, sequence_length = sequence_input_layer(features,
                                                                       sequence_columns)
                v1.summary.histogram("sequence_length", sequence_length)
                if context_columns:
                    sequence_input = _with_context(
                        sequence_input, v1.feature_column.input_layer(features,
                                                                      context_columns))
            outputs, _ = v1.nn.dynamic_rnn(cell_fn(mode), sequence_input,
                                           sequence_length=sequence_length, dtype=tf.float32)
            if not return_sequences:
                outputs = _last_outputs(outputs, sequence_length)
            with v1.variable_scope("logits", values=(outputs,)):
                logits = v1.layers.dense(outputs, units,
                                         kernel_initializer=v1.glorot_uniform_initializer())
        key = getattr(head, "input_sequence_mask_key", None)
        if return_sequences and key not in features:
            features[key] = tf.sequence_mask(sequence_length)
        return logits
    return logits_fn


def _optimizer(optimizer):
    """An optimizer instance is used as given; a name (or a callable) gets contrib's rate,
    0.05, and its gradients clipped to global norm 5. Slots are `<var>/t_0/<Name>`."""
    if isinstance(optimizer, v1.train.Optimizer):
        return optimizer
    return lambda: clip_gradients_by_norm(
        with_slot_scope(get_optimizer(optimizer, _DEFAULT_LEARNING_RATE), "t_0"),
        _DEFAULT_CLIP_NORM)


class RNNEstimator(_Canned):
    """An RNN over sequence feature columns, trained through `head` (a tf.contrib.estimator
    head; a sequential head with `return_sequences=True`)."""

    def __init__(self, head, sequence_feature_columns, context_feature_columns=None,
                 num_units=None, cell_type=USE_DEFAULT, rnn_cell_fn=None,
                 return_sequences=False, model_dir=None, optimizer="Adagrad",
                 input_layer_partitioner=None, config=None):
        cell_fn = _rnn_cell_fn(rnn_cell_fn, num_units, cell_type)
        if return_sequences and not isinstance(getattr(head, "_head", head),
                                               SequentialHeadWrapper):
            raise ValueError("Provided head must be a `_SequentialHead` object when "
                             "`return_sequences` is set to True.")
        sequence = tuple(check_columns(sequence_feature_columns, "sequence_feature_columns"))
        context = tuple(context_feature_columns or ())
        if isinstance(optimizer, str):
            get_optimizer(optimizer, _DEFAULT_LEARNING_RATE)  # an unknown name fails now
        super().__init__(
            head=head, logits_fn=_logits_fn(head, cell_fn, sequence, context,
                                            input_layer_partitioner, return_sequences, config),
            optimizer=_optimizer(optimizer), learning_rate=_DEFAULT_LEARNING_RATE,
            model_dir=model_dir, config=config, columns=sequence + context,
            v1_names=("rnn", "t_0"))


class RNNClassifier(RNNEstimator):
    """An RNN classifier over sequence feature columns: TF 1.15's binary (logistic) or
    multi-class head, loss averaged over the batch by default."""

    def __init__(self, sequence_feature_columns, context_feature_columns=None, num_units=None,
                 cell_type=USE_DEFAULT, rnn_cell_fn=None, model_dir=None, n_classes=2,
                 weight_column=None, label_vocabulary=None, optimizer="Adagrad",
                 loss_reduction=v1.losses.Reduction.SUM_OVER_BATCH_SIZE,
                 input_layer_partitioner=None, config=None):
        head = v1_heads._binary_logistic_or_multi_class_head(
            n_classes, weight_column, label_vocabulary, loss_reduction)
        super().__init__(head, sequence_feature_columns, context_feature_columns, num_units,
                         cell_type, rnn_cell_fn, False, model_dir, optimizer,
                         input_layer_partitioner, config)
