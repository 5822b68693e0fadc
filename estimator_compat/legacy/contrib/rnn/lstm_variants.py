"""The LSTM / GRU variants of `contrib/rnn/python/ops/rnn_cell.py`, TF 1.15's equations and
variable names (scope: the class name in snake case, e.g. `rnn/layer_norm_basic_lstm_cell/`).

- LayerNormBasicLSTMCell (Ba et al. 2016), CoupledInputForgetGateLSTMCell (`W_0`, `B`, ...),
  TimeFreqLSTMCell (Li & Wu 2015), GLSTMCell (group LSTM, Kuchaiev & Ginsburg 2017)
- NASCell (Zoph & Le 2017), UGRNNCell and IntersectionRNNCell (Collins et al. 2017)
- PhasedLSTMCell (Neil et al. 2016): inputs are (time [batch, 1], features)
- SRUCell (Lei et al. 2017), IndRNNCell, IndyGRUCell, IndyLSTMCell (Li et al. 2018)
"""
import tensorflow as tf

from estimator_compat.legacy import rnn_cells
from estimator_compat.legacy.contrib.rnn._common import input_depth, layer_norm, linear, sharded

v1 = tf.compat.v1
LSTMStateTuple = rnn_cells.LSTMStateTuple


def _static_depth(inputs, cell):
    depth = inputs.shape.with_rank(2)[1]
    if depth is None:
        raise ValueError(f"{cell}: could not infer input size from inputs.get_shape()[-1]")
    return int(depth)


class LayerNormBasicLSTMCell(rnn_cells.RNNCell):
    """BasicLSTM with layer normalization of the gates (`input`, `transform`, `forget`,
    `output`) and the new cell state (`state`); no bias when normalizing; recurrent dropout."""
    _default_name = "layer_norm_basic_lstm_cell"

    def __init__(self, num_units, forget_bias=1.0, input_size=None, activation=tf.tanh,
                 layer_norm=True, norm_gain=1.0, norm_shift=0.0, dropout_keep_prob=1.0,
                 dropout_prob_seed=None, reuse=None):
        super().__init__(_reuse=reuse)
        self._num_units, self._forget_bias, self._activation = num_units, forget_bias, activation
        self._keep_prob, self._seed = dropout_keep_prob, dropout_prob_seed
        self._layer_norm, self._gain, self._shift = layer_norm, norm_gain, norm_shift

    state_size = property(lambda self: LSTMStateTuple(self._num_units, self._num_units))
    output_size = property(lambda self: self._num_units)

    def _norm(self, x, scope):
        return layer_norm(x, scope, self._gain, self._shift)

    def call(self, inputs, state):
        c, h = state
        args = tf.concat([inputs, h], 1)
        concat = tf.matmul(args, v1.get_variable("kernel", [args.shape[-1], 4 * self._num_units],
                                                 args.dtype))
        if not self._layer_norm:
            concat = tf.nn.bias_add(concat, v1.get_variable("bias", [4 * self._num_units],
                                                            args.dtype))
        i, j, f, o = tf.split(concat, 4, axis=1)
        if self._layer_norm:
            i, j, f, o = (self._norm(x, s) for x, s in
                          ((i, "input"), (j, "transform"), (f, "forget"), (o, "output")))
        g = self._activation(j)
        if not isinstance(self._keep_prob, float) or self._keep_prob < 1:
            g = v1.nn.dropout(g, self._keep_prob, seed=self._seed)
        new_c = c * tf.sigmoid(f + self._forget_bias) + tf.sigmoid(i) * g
        if self._layer_norm:
            new_c = self._norm(new_c, "state")
        new_h = self._activation(new_c) * tf.sigmoid(o)
        return new_h, LSTMStateTuple(new_c, new_h)


class CoupledInputForgetGateLSTMCell(rnn_cells.RNNCell):
    """LSTM whose input gate is 1 - forget gate: `W_0` [in + proj, 3n] (j, f, o), `B`,
    peepholes `W_F_diag` / `W_O_diag`, projection `W_P_0`."""
    _default_name = "coupled_input_forget_gate_lstm_cell"

    def __init__(self, num_units, use_peepholes=False, initializer=None, num_proj=None,
                 proj_clip=None, num_unit_shards=1, num_proj_shards=1, forget_bias=1.0,
                 state_is_tuple=True, activation=tf.tanh, reuse=None, layer_norm=False,
                 norm_gain=1.0, norm_shift=0.0):
        super().__init__(_reuse=reuse)
        self._num_units, self._use_peepholes = num_units, use_peepholes
        self._num_proj, self._proj_clip = num_proj, proj_clip
        self._unit_shards, self._proj_shards = num_unit_shards, num_proj_shards
        self._forget_bias, self._state_is_tuple = forget_bias, state_is_tuple
        self._activation = activation
        self._layer_norm, self._gain, self._shift = layer_norm, norm_gain, norm_shift
        h = num_proj or num_units
        self._state_size = (LSTMStateTuple(num_units, h) if state_is_tuple else num_units + h)
        self._output_size = h

    state_size = property(lambda self: self._state_size)
    output_size = property(lambda self: self._output_size)

    def call(self, inputs, state):
        n = self._num_units
        num_proj = self._num_proj or n
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev, m_prev = state[:, :n], state[:, n:n + num_proj]
        dtype = inputs.dtype
        depth = _static_depth(inputs, type(self).__name__)
        w = sharded("W", [depth + num_proj, 3 * n], dtype, self._unit_shards)
        b = v1.get_variable("B", [3 * n], dtype, initializer=v1.zeros_initializer())
        matrix = tf.matmul(tf.concat([inputs, m_prev], 1), w)
        if not self._layer_norm:
            matrix = tf.nn.bias_add(matrix, b)
        j, f, o = tf.split(matrix, 3, axis=1)
        if self._layer_norm:
            j, f, o = (layer_norm(x, s, self._gain, self._shift)
                       for x, s in ((j, "transform"), (f, "forget"), (o, "output")))
        if self._use_peepholes:
            w_f = v1.get_variable("W_F_diag", [n], dtype)
            w_o = v1.get_variable("W_O_diag", [n], dtype)
            f_act = tf.sigmoid(f + self._forget_bias + w_f * c_prev)
        else:
            f_act = tf.sigmoid(f + self._forget_bias)
        c = f_act * c_prev + (1 - f_act) * self._activation(j)
        if self._layer_norm:
            c = layer_norm(c, "state", self._gain, self._shift)
        m = tf.sigmoid(o + w_o * c if self._use_peepholes else o) * self._activation(c)
        if self._num_proj is not None:
            m = tf.matmul(m, sharded("W_P", [n, self._num_proj], dtype, self._proj_shards))
            if self._proj_clip is not None:
                m = tf.clip_by_value(m, -self._proj_clip, self._proj_clip)
        return m, (LSTMStateTuple(c, m) if self._state_is_tuple else tf.concat([c, m], 1))


class TimeFreqLSTMCell(rnn_cells.RNNCell):
    """LSTM across frequency blocks of width `feature_size` taken every `frequency_skip`:
    `W_0`, `B`, `W_{F,I,O}_diag`; the state is [c, m] per block (state_size 2 * num_units, as
    TF 1.15 declared it: one block; more blocks need their own initial state)."""
    _default_name = "time_freq_lstm_cell"

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None,
                 num_unit_shards=1, forget_bias=1.0, feature_size=None, frequency_skip=1,
                 reuse=None):
        super().__init__(_reuse=reuse)
        self._num_units, self._use_peepholes, self._cell_clip = num_units, use_peepholes, cell_clip
        self._shards, self._forget_bias = num_unit_shards, forget_bias
        self._feature_size, self._frequency_skip = feature_size, frequency_skip

    state_size = property(lambda self: 2 * self._num_units)
    output_size = property(lambda self: self._num_units)

    def call(self, inputs, state):
        n, dtype = self._num_units, inputs.dtype
        depth = inputs.shape.with_rank(2)[-1]
        if depth is None:
            raise ValueError("Cannot infer input_size from static shape inference.")
        blocks = [inputs[:, f * self._frequency_skip:f * self._frequency_skip +
                         self._feature_size]
                  for f in range(int((depth - self._feature_size) / self._frequency_skip) + 1)]
        w = sharded("W", [int(blocks[0].shape[1]) + 2 * n, 4 * n], dtype, self._shards)
        b = v1.get_variable("B", [4 * n], dtype, initializer=v1.zeros_initializer())
        if self._use_peepholes:
            w_f, w_i, w_o = (v1.get_variable(name, [n], dtype)
                             for name in ("W_F_diag", "W_I_diag", "W_O_diag"))
        m_prev_freq = tf.zeros([inputs.shape[0] or tf.shape(inputs)[0], n], dtype)
        states, outputs = [], []
        for fq, block in enumerate(blocks):
            c_prev = state[:, 2 * fq * n:(2 * fq + 1) * n]
            m_prev = state[:, (2 * fq + 1) * n:(2 * fq + 2) * n]
            matrix = tf.nn.bias_add(tf.matmul(tf.concat([block, m_prev, m_prev_freq], 1), w), b)
            i, j, f, o = tf.split(matrix, 4, axis=1)
            if self._use_peepholes:
                c = (tf.sigmoid(f + self._forget_bias + w_f * c_prev) * c_prev +
                     tf.sigmoid(i + w_i * c_prev) * tf.tanh(j))
            else:
                c = tf.sigmoid(f + self._forget_bias) * c_prev + tf.sigmoid(i) * tf.tanh(j)
            if self._cell_clip is not None:
                c = tf.clip_by_value(c, -self._cell_clip, self._cell_clip)
            m = tf.sigmoid(o + w_o * c if self._use_peepholes else o) * tf.tanh(c)
            m_prev_freq = m
            states += [c, m]
            outputs.append(m)
        return tf.concat(outputs, 1), tf.concat(states, 1)


class GLSTMCell(rnn_cells.RNNCell):
    """Group LSTM: the input and recurrent state split in `number_of_groups`, one `kernel` per
    `group<k>` scope, biases `bias_{i,j,f,o}`, optional `projection/kernel`."""
    _default_name = "glstm_cell"

    def __init__(self, num_units, initializer=None, num_proj=None, number_of_groups=1,
                 forget_bias=1.0, activation=tf.tanh, reuse=None):
        super().__init__(_reuse=reuse)
        if num_units % number_of_groups:
            raise ValueError("num_units must be divisible by number_of_groups")
        if num_proj and num_proj % number_of_groups:
            raise ValueError("num_proj must be divisible by number_of_groups")
        self._num_units, self._initializer, self._num_proj = num_units, initializer, num_proj
        self._forget_bias, self._activation, self._groups = forget_bias, activation, \
            number_of_groups
        self._group_shape = [(num_proj or num_units) // number_of_groups,
                             num_units // number_of_groups]

    state_size = property(lambda self: LSTMStateTuple(self._num_units,
                                                      self._num_proj or self._num_units))
    output_size = property(lambda self: self._num_proj or self._num_units)

    def call(self, inputs, state):
        c_prev, m_prev = state
        depth = inputs.shape[1]
        if depth is None:
            raise ValueError("input size must be statically known")
        if depth % self._groups:
            raise ValueError(f"input size ({depth}) must be divisible by number_of_groups "
                             f"({self._groups})")
        size, dtype = depth // self._groups, inputs.dtype
        parts = [[], [], [], []]
        with v1.variable_scope(v1.get_variable_scope(), initializer=self._initializer):
            for g in range(self._groups):
                with v1.variable_scope(f"group{g}"):
                    x = tf.concat([inputs[:, g * size:(g + 1) * size],
                                   m_prev[:, g * self._group_shape[0]:
                                          (g + 1) * self._group_shape[0]]], 1)
                    for part, value in zip(parts, tf.split(
                            linear(x, 4 * self._group_shape[1], False), 4, 1)):
                        part.append(value)
            i, j, f, o = (tf.nn.bias_add(tf.concat(p, 1), v1.get_variable(
                "bias_" + k, [self._num_units], dtype,
                initializer=v1.constant_initializer(0.0, dtype=dtype)))
                for p, k in zip(parts, "ijfo"))
        c = tf.sigmoid(f + self._forget_bias) * c_prev + tf.sigmoid(i) * tf.tanh(j)
        m = tf.sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            with v1.variable_scope("projection"):
                m = linear(m, self._num_proj, False)
        return m, LSTMStateTuple(c, m)


class NASCell(rnn_cells.LayerRNNCell):
    """The cell Neural Architecture Search found: `kernel`, `recurrent_kernel` (8 n wide),
    optional `bias` and `projection_weights`."""
    _default_name = "nas_cell"

    def __init__(self, num_units, num_proj=None, use_bias=False, reuse=None, **kwargs):
        super().__init__(_reuse=reuse, **kwargs)
        self._num_units, self._num_proj, self._use_bias = num_units, num_proj, use_bias

    state_size = property(lambda self: LSTMStateTuple(self._num_units,
                                                      self._num_proj or self._num_units))
    output_size = property(lambda self: self._num_proj or self._num_units)

    def build(self, inputs_shape):
        depth = input_depth(inputs_shape, "NASCell")
        n = self._num_units
        self._recurrent = self.add_variable("recurrent_kernel", [self._num_proj or n, 8 * n])
        self._kernel = self.add_variable("kernel", [depth, 8 * n])
        if self._use_bias:
            self._bias = self.add_variable("bias", [8 * n], initializer=v1.zeros_initializer())
        if self._num_proj is not None:
            self._projection = self.add_variable("projection_weights", [n, self._num_proj])

    def call(self, inputs, state):
        c_prev, m_prev = state
        m = tf.matmul(m_prev, self._recurrent)
        if self._use_bias:
            m = tf.nn.bias_add(m, self._bias)
        x = tf.split(tf.matmul(inputs, self._kernel), 8, axis=1)
        m = tf.split(m, 8, axis=1)
        s, r, t = tf.sigmoid, tf.nn.relu, tf.tanh
        l1 = [s(x[0] + m[0]), r(x[1] + m[1]), s(x[2] + m[2]), r(x[3] * m[3]),
              t(x[4] + m[4]), s(x[5] + m[5]), t(x[6] + m[6]), s(x[7] + m[7])]
        l2_0 = t(t(l1[0] * l1[1]) + c_prev)
        l2_1 = t(l1[2] + l1[3])
        l2_2 = t(l1[4] * l1[5])
        l2_3 = s(l1[6] + l1[7])
        new_c = l2_0 * l2_1
        new_m = t(new_c * t(l2_2 + l2_3))
        if self._num_proj is not None:
            new_m = tf.matmul(new_m, self._projection)
        return new_m, LSTMStateTuple(new_c, new_m)


class UGRNNCell(rnn_cells.RNNCell):
    """Update-gate RNN: `kernel` [in + n, 2n] (gate, candidate), `bias`."""
    _default_name = "ugrnn_cell"

    def __init__(self, num_units, initializer=None, forget_bias=1.0, activation=tf.tanh,
                 reuse=None):
        super().__init__(_reuse=reuse)
        self._num_units, self._initializer = num_units, initializer
        self._forget_bias, self._activation = forget_bias, activation

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def call(self, inputs, state):
        _static_depth(inputs, "UGRNNCell")
        with v1.variable_scope(v1.get_variable_scope(), initializer=self._initializer):
            g_act, c_act = tf.split(linear([inputs, state], 2 * self._num_units, True), 2, 1)
            g = tf.sigmoid(g_act + self._forget_bias)
            new_state = g * state + (1.0 - g) * self._activation(c_act)
        return new_state, new_state


class IntersectionRNNCell(rnn_cells.RNNCell):
    """Intersection RNN: gated paths through time (state) and depth (output); inputs wider or
    narrower than num_units need `num_in_proj` (`in_projection/kernel`)."""
    _default_name = "intersection_rnn_cell"

    def __init__(self, num_units, num_in_proj=None, initializer=None, forget_bias=1.0,
                 y_activation=tf.nn.relu, reuse=None):
        super().__init__(_reuse=reuse)
        self._num_units, self._num_in_proj, self._initializer = num_units, num_in_proj, \
            initializer
        self._forget_bias, self._y_activation = forget_bias, y_activation

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def call(self, inputs, state):
        depth, n = _static_depth(inputs, "IntersectionRNNCell"), self._num_units
        with v1.variable_scope(v1.get_variable_scope(), initializer=self._initializer):
            if depth != n:
                if not self._num_in_proj:
                    raise ValueError("Must have input size == output size for Intersection RNN. "
                                     "To fix, num_in_proj should be set to num_units at cell "
                                     "init.")
                with v1.variable_scope("in_projection"):
                    inputs = linear(inputs, n, True)
            matrix = linear([inputs, state], 4 * n, True)
            gh, h, gy, y = (matrix[:, k * n:(k + 1) * n] for k in range(4))
            gh = tf.sigmoid(gh + self._forget_bias)
            gy = tf.sigmoid(gy + self._forget_bias)
            new_state = gh * state + (1.0 - gh) * tf.tanh(h)
            new_y = gy * inputs + (1.0 - gy) * self._y_activation(y)
        return new_y, new_state


def _random_exp_initializer(minval, maxval):
    def initializer(shape, dtype=tf.float32, partition_info=None):
        return tf.exp(v1.random_uniform(shape, tf.math.log(minval), tf.math.log(maxval), dtype))
    return initializer


class PhasedLSTMCell(rnn_cells.RNNCell):
    """LSTM gated by a per-unit oscillation (`period`, `phase`, `ratio_on`); inputs are the
    pair (time [batch, 1], features [batch, depth])."""
    _default_name = "phased_lstm_cell"

    def __init__(self, num_units, use_peepholes=False, leak=0.001, ratio_on=0.1,
                 trainable_ratio_on=True, period_init_min=1.0, period_init_max=1000.0,
                 reuse=None):
        super().__init__(_reuse=reuse)
        self._num_units, self._use_peepholes, self._leak = num_units, use_peepholes, leak
        self._ratio_on, self._trainable_ratio_on = ratio_on, trainable_ratio_on
        self._period_init = (period_init_min, period_init_max)

    state_size = property(lambda self: LSTMStateTuple(self._num_units, self._num_units))
    output_size = property(lambda self: self._num_units)

    def call(self, inputs, state):
        c_prev, h_prev = state
        time, x = inputs
        n = self._num_units
        mask_in = [x, h_prev] + ([c_prev] if self._use_peepholes else [])
        with v1.variable_scope("mask_gates"):
            input_gate, forget_gate = tf.split(tf.sigmoid(linear(mask_in, 2 * n, True)), 2, 1)
        with v1.variable_scope("new_input"):
            new_input = tf.tanh(linear([x, h_prev], n, True))
        new_c = c_prev * forget_gate + input_gate * new_input
        out_in = [x, h_prev] + ([new_c] if self._use_peepholes else [])
        with v1.variable_scope("output_gate"):
            output_gate = tf.sigmoid(linear(out_in, n, True))
        new_h = tf.tanh(new_c) * output_gate
        period = v1.get_variable("period", [n],
                                 initializer=_random_exp_initializer(*self._period_init))
        phase = v1.get_variable("phase", [n], initializer=v1.random_uniform_initializer(
            0., period.initial_value))
        ratio_on = v1.get_variable("ratio_on", [n],
                                   initializer=v1.constant_initializer(self._ratio_on),
                                   trainable=self._trainable_ratio_on)
        shifted = time - tf.cast(phase, time.dtype)
        period_t = tf.cast(period, time.dtype)
        mod = tf.stop_gradient(tf.math.floormod(shifted, period_t) - shifted) + shifted
        cycle_ratio = tf.cast(mod / period_t, tf.float32)
        k_up = 2 * cycle_ratio / ratio_on
        k = tf.where(cycle_ratio < ratio_on, 2 - k_up, self._leak * cycle_ratio)
        k = tf.where(cycle_ratio < 0.5 * ratio_on, k_up, k)
        new_c = k * new_c + (1 - k) * c_prev
        new_h = k * new_h + (1 - k) * h_prev
        return new_h, LSTMStateTuple(new_c, new_h)


class SRUCell(rnn_cells.LayerRNNCell):
    """Simple recurrent unit: `kernel` [in, 4n] (x̃, f, r, skip), `bias` [2n] for f, r."""
    _default_name = "sru_cell"

    def __init__(self, num_units, activation=None, reuse=None, name=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, **kwargs)
        self._num_units, self._activation = num_units, activation or tf.tanh

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = input_depth(inputs_shape, "SRUCell")
        self._kernel = self.add_variable("kernel", [depth, 4 * self._num_units])
        self._bias = self.add_variable("bias", [2 * self._num_units],
                                       initializer=v1.zeros_initializer())

    def call(self, inputs, state):
        x_bar, f, r, x_tx = tf.split(tf.matmul(inputs, self._kernel), 4, axis=1)
        f, r = tf.split(tf.sigmoid(tf.nn.bias_add(tf.concat([f, r], 1), self._bias)), 2, 1)
        c = f * state + (1.0 - f) * x_bar
        h = r * self._activation(c) + (1.0 - r) * x_tx
        return h, c


def _recurrent_diag(cell, name, width):
    return cell.add_variable(name, [1, width], initializer=v1.random_uniform_initializer(
        -1, 1, dtype=cell.dtype or tf.float32))


class IndRNNCell(rnn_cells.LayerRNNCell):
    """Independently recurrent: `kernel_w` [in, n], elementwise `kernel_u` [1, n], `bias`."""
    _default_name = "ind_rnn_cell"

    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self._num_units, self._activation = num_units, activation or tf.tanh

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth, n = input_depth(inputs_shape, "IndRNNCell"), self._num_units
        self._w = self.add_variable("kernel_w", [depth, n])
        self._u = _recurrent_diag(self, "kernel_u", n)
        self._b = self.add_variable("bias", [n], initializer=v1.zeros_initializer(
            dtype=self.dtype or tf.float32))

    def call(self, inputs, state):
        out = self._activation(tf.nn.bias_add(tf.matmul(inputs, self._w) + state * self._u,
                                              self._b))
        return out, out


class IndyGRUCell(rnn_cells.LayerRNNCell):
    """GRU with elementwise recurrent weights: `gates/kernel_w`, `gates/kernel_u`,
    `gates/bias` (1.0), `candidate/kernel`, `candidate/kernel_u`, `candidate/bias`."""
    _default_name = "indy_gru_cell"

    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None,
                 bias_initializer=None, name=None, dtype=None):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self._num_units, self._activation = num_units, activation or tf.tanh
        self._kernel_init, self._bias_init = kernel_initializer, bias_initializer

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth, n = input_depth(inputs_shape, "IndyGRUCell"), self._num_units
        dtype = self.dtype or tf.float32
        with v1.variable_scope("gates"):
            self._gw = self.add_variable("kernel_w", [depth, 2 * n],
                                         initializer=self._kernel_init)
            self._gu = _recurrent_diag(self, "kernel_u", 2 * n)
            self._gb = self.add_variable("bias", [2 * n], initializer=(
                self._bias_init or v1.constant_initializer(1.0, dtype=dtype)))
        with v1.variable_scope("candidate"):
            self._cw = self.add_variable("kernel", [depth, n], initializer=self._kernel_init)
            self._cu = _recurrent_diag(self, "kernel_u", n)
            self._cb = self.add_variable("bias", [n], initializer=(
                self._bias_init or v1.zeros_initializer(dtype=dtype)))

    def call(self, inputs, state):
        gates = tf.sigmoid(tf.nn.bias_add(
            tf.matmul(inputs, self._gw) + tf.tile(state, [1, 2]) * self._gu, self._gb))
        r, u = tf.split(gates, 2, axis=1)
        c = self._activation(tf.nn.bias_add(tf.matmul(inputs, self._cw) + r * state * self._cu,
                                            self._cb))
        h = u * state + (1 - u) * c
        return h, h


class IndyLSTMCell(rnn_cells.LayerRNNCell):
    """LSTM with elementwise recurrent weights: `kernel_w` [in, 4n], `kernel_u` [1, 4n], `bias`."""
    _default_name = "indy_lstm_cell"

    def __init__(self, num_units, forget_bias=1.0, activation=None, reuse=None,
                 kernel_initializer=None, bias_initializer=None, name=None, dtype=None):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self._num_units, self._forget_bias = num_units, forget_bias
        self._activation = activation or tf.tanh
        self._kernel_init, self._bias_init = kernel_initializer, bias_initializer

    state_size = property(lambda self: LSTMStateTuple(self._num_units, self._num_units))
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth, n = input_depth(inputs_shape, "IndyLSTMCell"), self._num_units
        self._w = self.add_variable("kernel_w", [depth, 4 * n], initializer=self._kernel_init)
        self._u = _recurrent_diag(self, "kernel_u", 4 * n)
        self._b = self.add_variable("bias", [4 * n], initializer=(
            self._bias_init or v1.zeros_initializer(dtype=self.dtype or tf.float32)))

    def call(self, inputs, state):
        c, h = state
        gates = tf.nn.bias_add(tf.matmul(inputs, self._w) + tf.tile(h, [1, 4]) * self._u, self._b)
        i, j, f, o = tf.split(gates, 4, axis=1)
        new_c = c * tf.sigmoid(f + self._forget_bias) + tf.sigmoid(i) * self._activation(j)
        new_h = self._activation(new_c) * tf.sigmoid(o)
        return new_h, LSTMStateTuple(new_c, new_h)
