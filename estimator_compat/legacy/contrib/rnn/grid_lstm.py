"""`GridLSTMCell` and `BidirectionalGridLSTMCell` (Kalchbrenner et al. 2015, as Li et al. 2016
used it for frequency): an LSTM along time and one along frequency blocks of the input, per
block `b` the weights `W_f_<b>_0` / `B_f_<b>` (frequency), `W_t_<b>_0` / `B_t_<b>` (time,
unless shared), peepholes `W_{F,I,O}_diag_{freq,time}{f,t}_<b>`; the state a namedtuple
`state_f<ff>_b<bb>_{c,m}` (`fwd_`/`bwd_` prefixed, scopes `fwd`/`bwd`, in the bidirectional
cell)."""
import collections

import tensorflow as tf

from estimator_compat.legacy import rnn_cells
from estimator_compat.legacy.contrib.rnn._common import sharded

v1 = tf.compat.v1


def _state_type(type_name, prefixes, blocks):
    names = [f"{p}_f{f:02d}_b{b:02d}_{k}" for p in prefixes for b, count in enumerate(blocks)
             for f in range(count) for k in "cm"]
    return collections.namedtuple(type_name, names)


class GridLSTMCell(rnn_cells.RNNCell):
    """Grid LSTM over frequency blocks of width `feature_size` every `frequency_skip`
    (`num_frequency_blocks` per block; `start/end_freqindex_list` for several blocks)."""
    _default_name = "grid_lstm_cell"

    def __init__(self, num_units, use_peepholes=False, share_time_frequency_weights=False,
                 cell_clip=None, initializer=None, num_unit_shards=1, forget_bias=1.0,
                 feature_size=None, frequency_skip=None, num_frequency_blocks=None,
                 start_freqindex_list=None, end_freqindex_list=None,
                 couple_input_forget_gates=False, state_is_tuple=True, reuse=None):
        super().__init__(_reuse=reuse)
        if num_frequency_blocks is None:
            raise ValueError("Must specify num_frequency_blocks")
        self._num_units, self._use_peepholes = num_units, use_peepholes
        self._share = share_time_frequency_weights
        self._couple = couple_input_forget_gates
        self._state_is_tuple, self._cell_clip = state_is_tuple, cell_clip
        self._shards, self._forget_bias = num_unit_shards, forget_bias
        self._feature_size, self._frequency_skip = feature_size, frequency_skip
        self._starts, self._ends = start_freqindex_list, end_freqindex_list
        self._blocks = list(num_frequency_blocks)
        self._total_blocks = sum(int(b) for b in self._blocks)
        if state_is_tuple:
            self._state_tuple_type = _state_type("GridLSTMStateTuple", ["state"], self._blocks)
            self._state_size = self._state_tuple_type(*[num_units] * (2 * self._total_blocks))
        else:
            self._state_tuple_type = None
            self._state_size = num_units * self._total_blocks * 2
        self._output_size = num_units * self._total_blocks * 2

    state_size = property(lambda self: self._state_size)
    output_size = property(lambda self: self._output_size)

    def state_tuple_type(self):
        return self._state_tuple_type

    def call(self, inputs, state):
        batch = inputs.shape[0] or tf.shape(inputs)[0]
        outputs, states = [], []
        for block, block_inputs in enumerate(self._make_tf_features(inputs)):
            m, s = self._compute(block_inputs, block, state, batch,
                                 state_is_tuple=self._state_is_tuple)
            outputs += m
            states += s
        state_out = (self._state_tuple_type(*states) if self._state_is_tuple
                     else tf.concat(states, 1))
        return tf.concat(outputs, 1), state_out

    def _compute(self, freq_inputs, block, state, batch, state_prefix="state",
                 state_is_tuple=True):
        n, gates = self._num_units, 3 if self._couple else 4
        dtype = freq_inputs[0].dtype
        width = int(freq_inputs[0].shape[1]) + 2 * n
        w_f = sharded(f"W_f_{block}", [width, gates * n], dtype, self._shards)
        b_f = v1.get_variable(f"B_f_{block}", [gates * n], dtype,
                              initializer=v1.zeros_initializer())
        if not self._share:
            w_t = sharded(f"W_t_{block}", [width, gates * n], dtype, self._shards)
            b_t = v1.get_variable(f"B_t_{block}", [gates * n], dtype,
                                  initializer=v1.zeros_initializer())
        diag = {}
        if self._use_peepholes:
            kinds = ["freq"] + ([] if self._share else ["time"])
            for kind in kinds:
                for gate in ("F", "I", "O"):
                    if gate == "F" and self._couple:
                        continue
                    for src in "ft":
                        name = f"W_{gate}_diag_{kind}{src}_{block}"
                        diag[(gate, kind, src)] = v1.get_variable(name, [n], dtype)
        peep_time = "freq" if self._share else "time"

        def peep(gate, kind, c_freq, c_time):
            return diag[(gate, kind, "f")] * c_freq + diag[(gate, kind, "t")] * c_time

        def split(matrix):
            parts = tf.split(matrix, gates, axis=1)
            if self._couple:
                return parts[0], parts[1], None, parts[2]
            return parts

        m_prev_freq = tf.zeros([batch, n], dtype)
        c_prev_freq = tf.zeros([batch, n], dtype)
        m_out, state_out = [], []
        for fi, x in enumerate(freq_inputs):
            if state_is_tuple:
                prefix = f"{state_prefix}_f{fi:02d}_b{block:02d}"
                c_prev_time, m_prev_time = getattr(state, prefix + "_c"), getattr(state,
                                                                                  prefix + "_m")
            else:
                c_prev_time = state[:, 2 * fi * n:(2 * fi + 1) * n]
                m_prev_time = state[:, (2 * fi + 1) * n:(2 * fi + 2) * n]
            cell_inputs = tf.concat([x, m_prev_time, m_prev_freq], 1)
            i_f, j_f, f_f, o_f = split(tf.nn.bias_add(tf.matmul(cell_inputs, w_f), b_f))
            if self._share:
                i_t, j_t, f_t, o_t = i_f, j_f, f_f, o_f
            else:
                i_t, j_t, f_t, o_t = split(tf.nn.bias_add(tf.matmul(cell_inputs, w_t), b_t))
            peeps = self._use_peepholes

            def gates_for(i, f, kind):
                ig = tf.sigmoid(i + peep("I", kind, c_prev_freq, c_prev_time) if peeps else i)
                if self._couple:
                    return ig, 1.0 - ig
                fg = f + self._forget_bias
                return ig, tf.sigmoid(fg + peep("F", kind, c_prev_freq, c_prev_time)
                                      if peeps else fg)

            ig, fg = gates_for(i_f, f_f, "freq")
            c_freq = fg * c_prev_freq + ig * tf.tanh(j_f)
            if self._cell_clip is not None:
                c_freq = tf.clip_by_value(c_freq, -self._cell_clip, self._cell_clip)
            ig, fg = gates_for(i_t, f_t, peep_time)
            c_time = fg * c_prev_time + ig * tf.tanh(j_t)
            if self._cell_clip is not None:
                c_time = tf.clip_by_value(c_time, -self._cell_clip, self._cell_clip)
            m_freq = tf.sigmoid(o_f + peep("O", "freq", c_freq, c_time) if peeps else o_f) * \
                tf.tanh(c_freq)
            m_time = tf.sigmoid(o_t + peep("O", peep_time, c_freq, c_time) if peeps else o_t) * \
                tf.tanh(c_time)
            m_prev_freq, c_prev_freq = m_freq, c_freq
            state_out += [c_time, m_time]
            m_out += [m_time, m_freq]
        return m_out, state_out

    def _make_tf_features(self, input_feat, slice_offset=0):
        size = input_feat.shape.with_rank(2)[-1]
        if size is None:
            raise ValueError("Cannot infer input_size from static shape inference.")
        inputs = input_feat
        if slice_offset > 0:
            inputs = tf.pad(input_feat, [[0, 0], [0, slice_offset]])
        elif slice_offset < 0:
            inputs = tf.pad(input_feat, [[0, 0], [-slice_offset, 0]])
            slice_offset = 0

        def block(start, count):
            return [inputs[:, start + slice_offset + f * self._frequency_skip:
                           start + slice_offset + f * self._frequency_skip + self._feature_size]
                    for f in range(count)]

        if not self._starts:
            if len(self._blocks) != 1:
                raise ValueError("Length of num_frequency_blocks is not 1, but instead is "
                                 f"{len(self._blocks)}")
            count = int((size - self._feature_size) / self._frequency_skip) + 1
            if count != self._blocks[0]:
                raise ValueError(f"Invalid num_frequency_blocks, requires {count} but gets "
                                 f"{self._blocks[0]}, please check the input size and filter "
                                 "config are correct.")
            return [block(0, count)]
        if len(self._starts) != len(self._ends):
            raise ValueError("Length of start and end freqindex_list does not match "
                             f"{len(self._starts)} {len(self._ends)}")
        if len(self._blocks) != len(self._starts):
            raise ValueError("Length of num_frequency_blocks is not equal to "
                             f"start_freqindex_list {len(self._blocks)} {len(self._starts)}")
        out = []
        for b, (start, end) in enumerate(zip(self._starts, self._ends)):
            count = int((end - start - self._feature_size) / self._frequency_skip) + 1
            if count != self._blocks[b]:
                raise ValueError(f"Invalid num_frequency_blocks, requires {self._blocks[b]} but "
                                 f"gets {count}, please check the input size and filter config "
                                 "are correct.")
            out.append(block(start, count))
        return out


class BidirectionalGridLSTMCell(GridLSTMCell):
    """GridLSTMCell run up (scope `fwd`) and down (`bwd`, the blocks reversed, optionally
    offset by `backward_slice_offset`) the frequency axis; outputs concatenated."""
    _default_name = "bidirectional_grid_lstm_cell"

    def __init__(self, num_units, use_peepholes=False, share_time_frequency_weights=False,
                 cell_clip=None, initializer=None, num_unit_shards=1, forget_bias=1.0,
                 feature_size=None, frequency_skip=None, num_frequency_blocks=None,
                 start_freqindex_list=None, end_freqindex_list=None,
                 couple_input_forget_gates=False, backward_slice_offset=0, reuse=None):
        super().__init__(num_units, use_peepholes, share_time_frequency_weights, cell_clip,
                         initializer, num_unit_shards, forget_bias, feature_size,
                         frequency_skip, num_frequency_blocks, start_freqindex_list,
                         end_freqindex_list, couple_input_forget_gates, True, reuse)
        self._backward_slice_offset = int(backward_slice_offset)
        self._state_tuple_type = _state_type("BidirectionalGridLSTMStateTuple",
                                             ["fwd_state", "bwd_state"], self._blocks)
        self._state_size = self._state_tuple_type(*[num_units] * (4 * self._total_blocks))
        self._output_size = 2 * num_units * self._total_blocks * 2

    def call(self, inputs, state):
        batch = inputs.shape[0] or tf.shape(inputs)[0]
        fwd_inputs = self._make_tf_features(inputs)
        bwd_inputs = (self._make_tf_features(inputs, self._backward_slice_offset)
                      if self._backward_slice_offset else fwd_inputs)
        outputs, states = [], []
        for scope, blocks, prefix, order in (("fwd", fwd_inputs, "fwd_state", 1),
                                             ("bwd", bwd_inputs, "bwd_state", -1)):
            with v1.variable_scope(scope):
                for b, block_inputs in enumerate(blocks):
                    m, s = self._compute(block_inputs[::order], b, state, batch,
                                         state_prefix=prefix, state_is_tuple=True)
                    outputs += m
                    states += s
        return tf.concat(outputs, 1), self._state_tuple_type(*states)
