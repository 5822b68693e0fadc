"""`AttentionWrapper` and `AttentionWrapperState` (TF 1.15's `tf.contrib.seq2seq`): a cell
whose input is concatenated with the previous attention, and whose output queries one or more
attention mechanisms.

A TF1 cell of `legacy/rnn_cells.py` (scope `attention_wrapper`, the inner cell and the
`attention_layer` inside it), so a decoder's variables are named as TF 1.15 named them:
`decoder/attention_wrapper/lstm_cell/kernel`, `decoder/attention_wrapper/attention_layer/kernel`.
"""
import collections

import tensorflow as tf

from estimator_compat.legacy.contrib.seq2seq.attention import AttentionMechanism, Projection
from estimator_compat.legacy.contrib.seq2seq.basic_decoder import check_cell, layer_output_size
from estimator_compat.legacy.rnn_cells import RNNCell

v1 = tf.compat.v1


class AttentionWrapperState(collections.namedtuple("AttentionWrapperState", (
        "cell_state", "attention", "time", "alignments", "alignment_history",
        "attention_state"))):
    """The wrapped cell's state, the last attention, the step, each mechanism's alignments and
    state, and (with `alignment_history`) a TensorArray of past alignments per mechanism."""
    __slots__ = ()

    def clone(self, **kwargs):
        """A copy with `kwargs` replaced; a replaced tensor keeps the old one's static shape."""
        def same_shape(old, new):
            if tf.is_tensor(old) and tf.is_tensor(new):
                new.set_shape(old.shape)
            return new
        return tf.nest.map_structure(same_shape, self, self._replace(**kwargs))


def _zero_state_tensors(size, batch_size, dtype):
    static_batch = tf.get_static_value(batch_size) if tf.is_tensor(batch_size) else batch_size

    def zeros(s):
        shape = tf.TensorShape(s)
        out = tf.zeros(tf.concat([tf.reshape(batch_size, [1]),
                                  tf.constant(shape.as_list(), tf.int32)], 0), dtype)
        out.set_shape(tf.TensorShape([static_batch]).concatenate(shape))
        return out
    return tf.nest.map_structure(zeros, size)


def _compute_attention(attention_mechanism, cell_output, attention_state, attention_layer):
    alignments, next_attention_state = attention_mechanism(cell_output, state=attention_state)
    context = tf.squeeze(tf.matmul(tf.expand_dims(alignments, 1), attention_mechanism.values),
                         [1])
    if attention_layer is not None:
        attention = attention_layer(tf.concat([cell_output, context], 1))
    else:
        attention = context
    return attention, alignments, next_attention_state


class AttentionWrapper(RNNCell):
    """Wraps `cell` with attention over `attention_mechanism` (one or a list)."""
    _default_name = "attention_wrapper"

    def __init__(self, cell, attention_mechanism, attention_layer_size=None,
                 alignment_history=False, cell_input_fn=None, output_attention=True,
                 initial_cell_state=None, name=None, attention_layer=None, attention_fn=None,
                 dtype=None):
        super().__init__(name=name, dtype=dtype)
        check_cell(cell)
        if isinstance(attention_mechanism, (list, tuple)):
            self._is_multi = True
            mechanisms = tuple(attention_mechanism)
            for mechanism in mechanisms:
                if not isinstance(mechanism, AttentionMechanism):
                    raise TypeError("attention_mechanism must contain only instances of "
                                    "AttentionMechanism, saw type: %s" % type(mechanism).__name__)
        else:
            self._is_multi = False
            if not isinstance(attention_mechanism, AttentionMechanism):
                raise TypeError("attention_mechanism must be an AttentionMechanism or list of "
                                "multiple AttentionMechanism instances, saw type: %s"
                                % type(attention_mechanism).__name__)
            mechanisms = (attention_mechanism,)
        if cell_input_fn is None:
            def cell_input_fn(inputs, attention):
                return tf.concat([inputs, attention], -1)
        elif not callable(cell_input_fn):
            raise TypeError("cell_input_fn must be callable, saw type: %s"
                            % type(cell_input_fn).__name__)
        if attention_layer_size is not None and attention_layer is not None:
            raise ValueError("Only one of attention_layer_size and attention_layer should be set")
        if attention_layer_size is not None:
            sizes = tuple(attention_layer_size if isinstance(attention_layer_size, (list, tuple))
                          else (attention_layer_size,))
            if len(sizes) != len(mechanisms):
                raise ValueError("If provided, attention_layer_size must contain exactly one "
                                 "integer per attention_mechanism, saw: %d vs %d"
                                 % (len(sizes), len(mechanisms)))
            self._attention_layers = tuple(Projection(size, "attention_layer", m.dtype)
                                           for size, m in zip(sizes, mechanisms))
            self._attention_layer_size = sum(sizes)
        elif attention_layer is not None:
            self._attention_layers = tuple(attention_layer if isinstance(
                attention_layer, (list, tuple)) else (attention_layer,))
            if len(self._attention_layers) != len(mechanisms):
                raise ValueError("If provided, attention_layer must contain exactly one layer "
                                 "per attention_mechanism, saw: %d vs %d"
                                 % (len(self._attention_layers), len(mechanisms)))
            self._attention_layer_size = sum(
                layer_output_size(layer, cell.output_size + m.values.shape[-1])[-1]
                for layer, m in zip(self._attention_layers, mechanisms))
        else:
            self._attention_layers = None
            self._attention_layer_size = sum(m.values.shape[-1] for m in mechanisms)
        self._attention_fn = attention_fn or _compute_attention
        self._cell = cell
        self._attention_mechanisms = mechanisms
        self._cell_input_fn = cell_input_fn
        self._output_attention = output_attention
        self._alignment_history = alignment_history
        if initial_cell_state is None:
            self._initial_cell_state = None
        else:
            with tf.name_scope(name or "AttentionWrapperInit"):
                last = tf.nest.flatten(initial_cell_state)[-1]
                checks = self._batch_size_checks(
                    tf.compat.dimension_value(last.shape[0]) or tf.shape(last)[0],
                    "When constructing AttentionWrapper %s: Non-matching batch sizes between "
                    "the memory (encoder output) and initial_cell_state.  Are you using the "
                    "BeamSearchDecoder?  You may need to tile your initial state via the "
                    "tf.contrib.seq2seq.tile_batch function with argument multiple=beam_width."
                    % self.name)
                with tf.control_dependencies(checks):
                    self._initial_cell_state = tf.nest.map_structure(
                        lambda s: tf.identity(s, name="check_initial_cell_state"),
                        initial_cell_state)

    def _batch_size_checks(self, batch_size, message):
        return [v1.assert_equal(batch_size, m.batch_size, message=message)
                for m in self._attention_mechanisms]

    def _item_or_tuple(self, seq):
        seq = tuple(seq)
        return seq if self._is_multi else seq[0]

    @property
    def output_size(self):
        return self._attention_layer_size if self._output_attention else self._cell.output_size

    @property
    def state_size(self):
        mechanisms = self._attention_mechanisms
        return AttentionWrapperState(
            cell_state=self._cell.state_size, time=tf.TensorShape([]),
            attention=self._attention_layer_size,
            alignments=self._item_or_tuple(m.alignments_size for m in mechanisms),
            attention_state=self._item_or_tuple(m.state_size for m in mechanisms),
            alignment_history=self._item_or_tuple(
                m.alignments_size if self._alignment_history else () for m in mechanisms))

    def zero_state(self, batch_size, dtype):
        """The initial state for `batch_size` entries (the memory's batch, times beam_width
        under beam search)."""
        with tf.name_scope(type(self).__name__ + "ZeroState"):
            if self._initial_cell_state is not None:
                cell_state = self._initial_cell_state
            elif hasattr(self._cell, "get_initial_state"):
                cell_state = self._cell.get_initial_state(batch_size=batch_size, dtype=dtype)
            else:
                cell_state = self._cell.zero_state(batch_size, dtype)
            checks = self._batch_size_checks(
                batch_size,
                "When calling zero_state of AttentionWrapper %s: Non-matching batch sizes "
                "between the memory (encoder output) and the requested batch size.  Are you "
                "using the BeamSearchDecoder?  If so, make sure your encoder output has been "
                "tiled to beam_width via tf.contrib.seq2seq.tile_batch, and the batch_size= "
                "argument passed to zero_state is batch_size * beam_width." % self.name)
            with tf.control_dependencies(checks):
                cell_state = tf.nest.map_structure(
                    lambda s: tf.identity(s, name="checked_cell_state"), cell_state)
            alignments = [m.initial_alignments(batch_size, dtype)
                          for m in self._attention_mechanisms]
            return AttentionWrapperState(
                cell_state=cell_state, time=tf.zeros([], tf.int32),
                attention=_zero_state_tensors(self._attention_layer_size, batch_size, dtype),
                alignments=self._item_or_tuple(alignments),
                attention_state=self._item_or_tuple(
                    m.initial_state(batch_size, dtype) for m in self._attention_mechanisms),
                alignment_history=self._item_or_tuple(
                    tf.TensorArray(dtype, size=0, dynamic_size=True, element_shape=a.shape)
                    if self._alignment_history else () for a in alignments))

    def call(self, inputs, state):
        if not isinstance(state, AttentionWrapperState):
            raise TypeError("Expected state to be instance of AttentionWrapperState. Received "
                            "type %s instead." % type(state))
        cell_inputs = self._cell_input_fn(inputs, state.attention)
        cell_output, next_cell_state = self._cell(cell_inputs, state.cell_state)
        batch = tf.compat.dimension_value(cell_output.shape[0]) or tf.shape(cell_output)[0]
        checks = self._batch_size_checks(
            batch, "When applying AttentionWrapper %s: Non-matching batch sizes between the "
            "memory (encoder output) and the query (decoder output).  Are you using the "
            "BeamSearchDecoder?  You may need to tile your memory input via the "
            "tf.contrib.seq2seq.tile_batch function with argument multiple=beam_width."
            % self.name)
        with tf.control_dependencies(checks):
            cell_output = tf.identity(cell_output, name="checked_cell_output")
        if self._is_multi:
            previous_states, previous_histories = state.attention_state, state.alignment_history
        else:
            previous_states = [state.attention_state]
            previous_histories = [state.alignment_history]
        attentions, alignments_all, states, histories = [], [], [], []
        for i, mechanism in enumerate(self._attention_mechanisms):
            attention, alignments, next_attention_state = self._attention_fn(
                mechanism, cell_output, previous_states[i],
                self._attention_layers[i] if self._attention_layers else None)
            history = previous_histories[i].write(state.time, alignments) \
                if self._alignment_history else ()
            attentions.append(attention)
            alignments_all.append(alignments)
            states.append(next_attention_state)
            histories.append(history)
        attention = tf.concat(attentions, 1)
        next_state = AttentionWrapperState(
            time=state.time + 1, cell_state=next_cell_state, attention=attention,
            attention_state=self._item_or_tuple(states),
            alignments=self._item_or_tuple(alignments_all),
            alignment_history=self._item_or_tuple(histories))
        return (attention if self._output_attention else cell_output), next_state
