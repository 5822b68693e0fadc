"""The block cells of `contrib/rnn/python/ops/lstm_ops.py` and `gru_ops.py`.

TF 1.15 ran them as single kernels (`LSTMBlockCell`, `GRUBlockCell`); TensorFlow 2.21 still has
those kernels but no gradients for them, so the per-step cells here compute the same equations
with plain ops (LSTMCell's gate order i, j, f, o; GRUCell's r, u), under TF 1.15's variable
names: `lstm_cell/kernel` (interchangeable with LSTMCell), `gru_cell/w_ru` (GRUBlockCell) or
`gru_cell/gates/kernel` (GRUBlockCellV2). `LSTMBlockFusedCell` runs TF 2.21's `BlockLSTM` kernel
over the whole sequence, as TF 1.15 did (it has a gradient).
"""
import abc

import tensorflow as tf

from estimator_compat.legacy import rnn_cells
from estimator_compat.legacy.contrib.rnn._common import input_depth

v1 = tf.compat.v1
LSTMStateTuple = rnn_cells.LSTMStateTuple


class LSTMBlockCell(rnn_cells.LayerRNNCell):
    """LSTM (no projection), optional peepholes `w_{i,f,o}_diag`; `cell_clip` None: no clip."""
    _default_name = "lstm_cell"

    def __init__(self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False,
                 dtype=None, reuse=None, name="lstm_cell"):
        super().__init__(name=name, dtype=dtype, _reuse=reuse)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._cell_clip = cell_clip if cell_clip is not None else -1
        self._use_peephole = use_peephole

    state_size = property(lambda self: LSTMStateTuple(self._num_units, self._num_units))
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = input_depth(inputs_shape, type(self).__name__)
        n = self._num_units
        self._kernel = self.add_variable("kernel", [depth + n, 4 * n])
        self._bias = self.add_variable("bias", [4 * n], initializer=v1.constant_initializer(0.0))
        if self._use_peephole:
            self._peepholes = [self.add_variable(name, [n])
                               for name in ("w_i_diag", "w_f_diag", "w_o_diag")]

    def call(self, inputs, state):
        if len(state) != 2:
            raise ValueError("Expecting state to be a tuple with length 2.")
        c_prev, h_prev = state
        gates = tf.nn.bias_add(tf.matmul(tf.concat([inputs, h_prev], 1), self._kernel),
                               self._bias)
        i, j, f, o = tf.split(gates, 4, axis=1)
        if self._use_peephole:
            wci, wcf, wco = self._peepholes
            i, f = i + wci * c_prev, f + wcf * c_prev
        c = tf.sigmoid(i) * tf.tanh(j) + c_prev * tf.sigmoid(f + self._forget_bias)
        if self._cell_clip > 0:
            c = tf.clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peephole:
            o = o + wco * c
        h = tf.tanh(c) * tf.sigmoid(o)
        return h, LSTMStateTuple(c, h)


class GRUBlockCell(rnn_cells.LayerRNNCell):
    """GRU with variables `w_ru`, `b_ru` (starts at 1.0), `w_c`, `b_c` (at 0.0)."""
    _default_name = "gru_cell"
    _names = ("w_ru", "b_ru", "w_c", "b_c")

    def __init__(self, num_units=None, cell_size=None, reuse=None, name="gru_cell"):
        super().__init__(name=name, _reuse=reuse)
        if (cell_size is None) == (num_units is None):
            raise ValueError("Exactly one of num_units or cell_size must be provided.")
        self._cell_size = num_units if num_units is not None else cell_size

    state_size = property(lambda self: self._cell_size)
    output_size = property(lambda self: self._cell_size)

    def build(self, inputs_shape):
        width = input_depth(inputs_shape, type(self).__name__) + self._cell_size
        n = self._cell_size
        w_ru, b_ru, w_c, b_c = self._names
        self._w_ru = self.add_variable(w_ru, [width, 2 * n])
        self._b_ru = self.add_variable(b_ru, [2 * n], initializer=v1.constant_initializer(1.0))
        self._w_c = self.add_variable(w_c, [width, n])
        self._b_c = self.add_variable(b_c, [n], initializer=v1.constant_initializer(0.0))

    def call(self, inputs, h_prev):
        if h_prev.shape[1] is not None and h_prev.shape[1] != self._cell_size:
            raise ValueError(f"Shape of h_prev[1] incorrect: cell_size {self._cell_size} vs "
                             f"{h_prev.shape[1]}")
        ru = tf.sigmoid(tf.nn.bias_add(tf.matmul(tf.concat([inputs, h_prev], 1), self._w_ru),
                                       self._b_ru))
        r, u = tf.split(ru, 2, axis=1)
        c = tf.tanh(tf.nn.bias_add(tf.matmul(tf.concat([inputs, r * h_prev], 1), self._w_c),
                                   self._b_c))
        h = u * h_prev + (1 - u) * c
        return h, h


class GRUBlockCellV2(GRUBlockCell):
    """GRUBlockCell under GRUCell's names: `gates/kernel`, `gates/bias`, `candidate/...`."""
    _names = ("gates/kernel", "gates/bias", "candidate/kernel", "candidate/bias")

    def add_variable(self, name, shape, **kwargs):
        scope, leaf = name.split("/")
        with v1.variable_scope(scope):
            return super().add_variable(leaf, shape, **kwargs)


class LSTMBlockWrapper(rnn_cells.RNNCell, metaclass=abc.ABCMeta):
    """A layer running an LSTM over a whole time-major sequence: subclasses give `num_units` and
    `_call_cell(inputs, c0, h0, dtype, sequence_length) -> (cell_states, outputs)`.
    `__call__(inputs, initial_state=None, dtype=None, sequence_length=None)` returns
    `(outputs, LSTMStateTuple(c, h))`, the final state read at each sequence's length."""

    @property
    @abc.abstractmethod
    def num_units(self):
        """The number of units (output depth)."""

    @abc.abstractmethod
    def _call_cell(self, inputs, initial_cell_state, initial_output, dtype, sequence_length):
        """(cell states, outputs), both [time, batch, num_units]."""

    def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None,
                 scope=None):
        def run(*_):
            self._call_built(inputs, initial_state, dtype, sequence_length)
            return self._result
        if scope is not None:
            with v1.variable_scope(scope, reuse=v1.AUTO_REUSE):
                return run()
        if self._scope is None:
            with v1.variable_scope(None, default_name=self._name or self._default_name,
                                   reuse=self._reuse) as vs:
                self._scope = vs
                return run()
        with v1.variable_scope(self._scope, reuse=v1.AUTO_REUSE):
            return run()

    def _call_built(self, inputs, initial_state, dtype, sequence_length):
        is_list = isinstance(inputs, list)
        if is_list:
            inputs = tf.stack(inputs)
        inputs = tf.convert_to_tensor(inputs)
        if inputs.shape.ndims != 3:
            raise ValueError(f"{type(self).__name__} takes time-major inputs [time, batch, depth]"
                             f", got shape {inputs.shape}.")
        if inputs.shape[2] is None:
            raise ValueError(f"Expecting inputs_shape[2] to be set: {inputs.shape}")
        if not self.built:
            self.build(inputs.shape)
            self.built = True
        time_len = inputs.shape[0] if inputs.shape[0] is not None else tf.shape(inputs)[0]
        batch = inputs.shape[1] if inputs.shape[1] is not None else tf.shape(inputs)[1]
        if initial_state is None:
            if dtype is None:
                raise ValueError("Either initial_state or dtype needs to be specified")
            zeros = tf.zeros(tf.stack([batch, self.num_units]), dtype=dtype)
            initial_state = (zeros, zeros)
        else:
            if len(initial_state) != 2:
                raise ValueError("Expecting initial_state to be a tuple with length 2 or None")
            dtype = dtype or initial_state[0].dtype
        if sequence_length is not None:
            sequence_length = tf.cast(sequence_length, tf.int32)
        c0, h0 = initial_state
        cell_states, outputs = self._call_cell(inputs, c0, h0, dtype, sequence_length)
        if sequence_length is not None:
            mask = tf.transpose(tf.sequence_mask(sequence_length, time_len, dtype=dtype), [1, 0])
            outputs = outputs * tf.expand_dims(mask, -1)
            index = tf.stack([sequence_length, tf.range(batch)], axis=1)
            final_c = tf.gather_nd(tf.concat([c0[None], cell_states], 0), index)
            final_h = tf.gather_nd(tf.concat([h0[None], outputs], 0), index)
        else:
            final_c, final_h = cell_states[-1], outputs[-1]
        if is_list:
            outputs = tf.unstack(outputs)
        self._result = outputs, LSTMStateTuple(final_c, final_h)


class LSTMBlockFusedCell(LSTMBlockWrapper):
    """The whole-sequence LSTM (TF 2.21's `BlockLSTM` kernel), variables `kernel`, `bias`
    (and `w_{i,f,o}_diag`) in scope `lstm_fused_cell`, LSTMCell's layout."""
    _default_name = "lstm_fused_cell"

    def __init__(self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False,
                 reuse=None, dtype=None, name="lstm_fused_cell"):
        super().__init__(name=name, dtype=dtype, _reuse=reuse)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._cell_clip = cell_clip if cell_clip is not None else -1
        self._use_peephole = use_peephole

    num_units = property(lambda self: self._num_units)

    def build(self, input_shape):
        n = self._num_units
        self._kernel = self.add_variable("kernel", [int(input_shape[2]) + n, 4 * n])
        self._bias = self.add_variable("bias", [4 * n], initializer=v1.constant_initializer(0.0))
        if self._use_peephole:
            self._peepholes = [self.add_variable(name, [n])
                               for name in ("w_i_diag", "w_f_diag", "w_o_diag")]

    def _call_cell(self, inputs, initial_cell_state=None, initial_output=None, dtype=None,
                   sequence_length=None):
        time_len = tf.shape(inputs)[0]
        if sequence_length is None:
            max_len = tf.cast(time_len, tf.int64)
        else:
            max_len = tf.cast(tf.reduce_max(sequence_length), tf.int64)
        if self._use_peephole:
            wci, wcf, wco = self._peepholes
        else:
            wci = wcf = wco = tf.zeros([self._num_units], dtype=dtype)
        out = tf.raw_ops.BlockLSTM(
            seq_len_max=max_len, x=inputs, cs_prev=initial_cell_state, h_prev=initial_output,
            w=self._kernel, wci=wci, wcf=wcf, wco=wco, b=self._bias,
            forget_bias=self._forget_bias, cell_clip=self._cell_clip,
            use_peephole=self._use_peephole)
        return out.cs, out.h
