"""`tf.nn.rnn_cell` (and `tf.contrib.rnn`) as TF 1.x had them, on `get_variable`.

In TensorFlow 2.21 with Keras 3 the TF1 cells only raise; `tf.nn.dynamic_rnn`, `static_rnn` and
`bidirectional_dynamic_rnn` remain and accept any object with TF1's cell protocol (`state_size`,
`output_size`, `zero_state`, `__call__(inputs, state)`). These cells follow TF1's equations and
variable names (`rnn/lstm_cell/kernel`, `rnn/multi_rnn_cell/cell_0/gru_cell/gates/bias`, ...):
a cell takes its variable scope on its first call and re-enters it afterwards.
"""
import collections
import types

import tensorflow as tf

from estimator_compat.legacy.layer_classes import Layer

v1 = tf.compat.v1


class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
    """(c, h): the LSTM's cell state and output."""
    __slots__ = ()

    @property
    def dtype(self):
        if self.c.dtype != self.h.dtype:
            raise TypeError(f"Inconsistent internal state: {self.c.dtype} vs {self.h.dtype}")
        return self.c.dtype


def _zeros(size, batch_size, dtype):
    return tf.nest.map_structure(
        lambda s: tf.zeros(tf.stack([batch_size] + tf.TensorShape(s).as_list()), dtype),
        size)


class RNNCell(Layer):
    """Base TF1 cell: subclasses give `state_size`, `output_size` and `call(inputs, state)`;
    `build(inputs_shape)` (optional) runs once, in the cell's scope, before the first call."""
    _default_name = "rnn_cell"

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        super().__init__(trainable=trainable, name=name, dtype=dtype)
        self._reuse = kwargs.pop("_reuse", None)

    @property
    def state_size(self):
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self):
        raise NotImplementedError("Abstract method")

    def build(self, inputs_shape):
        pass

    def add_variable(self, name, shape, dtype=None, initializer=None, regularizer=None,
                     trainable=True, **kwargs):
        return v1.get_variable(name, shape, dtype or self.dtype or tf.float32,
                               initializer=initializer, regularizer=regularizer,
                               trainable=trainable and self.trainable)

    add_weight = add_variable

    def zero_state(self, batch_size, dtype):
        with tf.name_scope(type(self).__name__ + "ZeroState"):
            return _zeros(self.state_size, batch_size, dtype)

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        if inputs is not None:
            batch_size, dtype = tf.shape(inputs)[0], inputs.dtype
        return self.zero_state(batch_size, dtype)

    def __call__(self, inputs, state, scope=None, *args, **kwargs):
        if scope is not None:  # TF1: an explicit scope holds the variables
            with v1.variable_scope(scope, reuse=v1.AUTO_REUSE):
                return self._call_built(inputs, state, *args, **kwargs)
        if self._scope is None:  # TF1: the name is uniquified (`foo`, `foo_1`) unless reusing
            base = self._name or self._default_name
            with (v1.variable_scope(base, reuse=self._reuse) if self._reuse else
                  v1.variable_scope(None, default_name=base)) as scope:
                self._scope = scope
                return self._call_built(inputs, state, *args, **kwargs)
        with v1.variable_scope(self._scope, reuse=v1.AUTO_REUSE):
            return self._call_built(inputs, state, *args, **kwargs)

    def _call_built(self, inputs, state, *args, **kwargs):
        if not self.built:
            self.build(tf.nest.map_structure(lambda t: tf.convert_to_tensor(t).shape, inputs))
            self.built = True
        return self.call(inputs, state, *args, **kwargs)


class LayerRNNCell(RNNCell):
    """TF1's base for cells that make their variables in build()."""


def _kernel_and_bias(inputs, state_h, units, kernel_initializer, bias_initializer, dtype,
                     shards=None):
    """`[x, h] @ kernel + bias`; `shards`: the kernel split in `kernel/part_<i>` (TF1's
    fixed-size partitioner; the bias is never partitioned)."""
    width = inputs.shape[-1] + state_h.shape[-1]
    kernel = _maybe_sharded("kernel", [width, units], dtype, kernel_initializer, shards)
    bias = v1.get_variable("bias", [units], dtype,
                           initializer=bias_initializer or v1.zeros_initializer(dtype=dtype))
    return tf.nn.bias_add(tf.matmul(tf.concat([inputs, state_h], 1), kernel), bias)


def _maybe_sharded(name, shape, dtype, initializer, shards):
    if shards is None:
        return v1.get_variable(name, shape, dtype, initializer=initializer)
    with v1.variable_scope(v1.get_variable_scope(),
                           partitioner=v1.fixed_size_partitioner(shards)):
        return tf.convert_to_tensor(v1.get_variable(name, shape, dtype, initializer=initializer))


class BasicRNNCell(LayerRNNCell):
    """`output = new_state = activation(W [x, h] + b)`."""
    _default_name = "basic_rnn_cell"

    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, _reuse=reuse, **kwargs)
        self._num_units = num_units
        self._activation = activation or tf.tanh

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def call(self, inputs, state):
        output = self._activation(_kernel_and_bias(inputs, state, self._num_units, None, None,
                                                   inputs.dtype))
        return output, output


class GRUCell(LayerRNNCell):
    """Gated recurrent unit: `gates/{kernel,bias}` (bias starts at 1.0), `candidate/...`."""
    _default_name = "gru_cell"

    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None,
                 bias_initializer=None, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, _reuse=reuse, **kwargs)
        self._num_units = num_units
        self._activation = activation or tf.tanh
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def call(self, inputs, state):
        dtype = inputs.dtype
        with v1.variable_scope("gates"):
            gates = tf.sigmoid(_kernel_and_bias(
                inputs, state, 2 * self._num_units, self._kernel_initializer,
                self._bias_initializer or v1.constant_initializer(1.0, dtype=dtype), dtype))
        r, u = tf.split(gates, 2, axis=1)
        with v1.variable_scope("candidate"):
            c = self._activation(_kernel_and_bias(inputs, r * state, self._num_units,
                                                  self._kernel_initializer,
                                                  self._bias_initializer, dtype))
        new_h = u * state + (1 - u) * c
        return new_h, new_h


class BasicLSTMCell(LayerRNNCell):
    """LSTM without peepholes or projection; gates i, j, f, o; `forget_bias` added to f."""
    _default_name = "basic_lstm_cell"

    def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None,
                 reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, _reuse=reuse, **kwargs)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = activation or tf.tanh

    @property
    def state_size(self):
        n = self._num_units
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    output_size = property(lambda self: self._num_units)

    def call(self, inputs, state):
        c, h = state if self._state_is_tuple else tf.split(state, 2, axis=1)
        i, j, f, o = tf.split(_kernel_and_bias(inputs, h, 4 * self._num_units, None, None,
                                               inputs.dtype), 4, axis=1)
        new_c = c * tf.sigmoid(f + self._forget_bias) + tf.sigmoid(i) * self._activation(j)
        new_h = self._activation(new_c) * tf.sigmoid(o)
        new_state = LSTMStateTuple(new_c, new_h) if self._state_is_tuple else tf.concat(
            [new_c, new_h], 1)
        return new_h, new_state


class LSTMCell(LayerRNNCell):
    """LSTM with optional peepholes (`w_{f,i,o}_diag`), cell clipping and a projection; the
    kernels split in `num_unit_shards` / `num_proj_shards` parts (`kernel/part_<i>`)."""
    _default_name = "lstm_cell"

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None,
                 num_proj=None, proj_clip=None, num_unit_shards=None, num_proj_shards=None,
                 forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None, name=None,
                 dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, _reuse=reuse, **kwargs)
        self._unit_shards, self._proj_shards = num_unit_shards, num_proj_shards
        self._num_units, self._use_peepholes = num_units, use_peepholes
        self._cell_clip, self._initializer = cell_clip, initializer
        self._num_proj, self._proj_clip = num_proj, proj_clip
        self._forget_bias, self._state_is_tuple = forget_bias, state_is_tuple
        self._activation = activation or tf.tanh

    @property
    def state_size(self):
        h = self._num_proj or self._num_units
        return LSTMStateTuple(self._num_units, h) if self._state_is_tuple else self._num_units + h

    output_size = property(lambda self: self._num_proj or self._num_units)

    def call(self, inputs, state):
        dtype = inputs.dtype
        if self._state_is_tuple:
            c, h = state
        else:
            c, h = state[:, :self._num_units], state[:, self._num_units:]
        lstm = _kernel_and_bias(inputs, h, 4 * self._num_units, self._initializer, None, dtype,
                                self._unit_shards)
        i, j, f, o = tf.split(lstm, 4, axis=1)
        if self._use_peepholes:
            w_f, w_i, w_o = (v1.get_variable(n, [self._num_units], dtype, initializer=self._initializer)
                             for n in ("w_f_diag", "w_i_diag", "w_o_diag"))
            new_c = (tf.sigmoid(f + self._forget_bias + w_f * c) * c +
                     tf.sigmoid(i + w_i * c) * self._activation(j))
        else:
            new_c = tf.sigmoid(f + self._forget_bias) * c + tf.sigmoid(i) * self._activation(j)
        if self._cell_clip is not None:
            new_c = tf.clip_by_value(new_c, -self._cell_clip, self._cell_clip)
        gate_o = tf.sigmoid(o + w_o * new_c) if self._use_peepholes else tf.sigmoid(o)
        new_h = gate_o * self._activation(new_c)
        if self._num_proj is not None:
            with v1.variable_scope("projection"):
                projection = _maybe_sharded("kernel", [self._num_units, self._num_proj], dtype,
                                            self._initializer, self._proj_shards)
            new_h = tf.matmul(new_h, projection)
            if self._proj_clip is not None:
                new_h = tf.clip_by_value(new_h, -self._proj_clip, self._proj_clip)
        new_state = (LSTMStateTuple(new_c, new_h) if self._state_is_tuple
                     else tf.concat([new_c, new_h], 1))
        return new_h, new_state


class MultiRNNCell(RNNCell):
    """Cells stacked: cell i runs in scope `cell_i` on the output of cell i-1."""
    _default_name = "multi_rnn_cell"

    def __init__(self, cells, state_is_tuple=True):
        super().__init__()
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        self._cells = list(cells)
        self._state_is_tuple = state_is_tuple

    @property
    def state_size(self):
        sizes = tuple(cell.state_size for cell in self._cells)
        return sizes if self._state_is_tuple else sum(sizes)

    output_size = property(lambda self: self._cells[-1].output_size)

    def zero_state(self, batch_size, dtype):
        if self._state_is_tuple:
            return tuple(cell.zero_state(batch_size, dtype) for cell in self._cells)
        return super().zero_state(batch_size, dtype)

    def call(self, inputs, state):
        out, new_states, offset = inputs, [], 0
        for i, cell in enumerate(self._cells):
            with v1.variable_scope(f"cell_{i}"):
                if self._state_is_tuple:
                    cur = state[i]
                else:
                    cur = state[:, offset:offset + cell.state_size]
                    offset += cell.state_size
                out, new = cell(out, cur)
                new_states.append(new)
        return out, tuple(new_states) if self._state_is_tuple else tf.concat(new_states, 1)


class _Wrapper(RNNCell):
    """A cell around a cell: no scope of its own (the inner cell's variables keep their names)."""

    def __init__(self, cell):
        super().__init__()
        self._cell = cell

    state_size = property(lambda self: self._cell.state_size)
    output_size = property(lambda self: self._cell.output_size)

    def zero_state(self, batch_size, dtype):
        return self._cell.zero_state(batch_size, dtype)

    def __call__(self, inputs, state, scope=None):
        return self.call(inputs, state, scope=scope)


def _default_state_filter(substate):
    """TF1's default: an LSTMStateTuple keeps its memory cell c; everything else is dropped."""
    if isinstance(substate, LSTMStateTuple):
        return LSTMStateTuple(c=False, h=True)
    return not isinstance(substate, tf.TensorArray)


def _is_one(p):
    return isinstance(p, float) and p == 1.0


class DropoutWrapper(_Wrapper):
    """Dropout on the cell's inputs, outputs and state (keep probabilities, as TF1 took them).
    `variational_recurrent=True`: one mask per wrapper ([1, size], drawn when the wrapper is
    made, as TF1 did) used at every step; `dropout_state_filter_visitor(substate)` says which
    parts of the state are dropped (default: all but an LSTM's c)."""

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None):
        super().__init__(cell)
        if dropout_state_filter_visitor is not None and not callable(
                dropout_state_filter_visitor):
            raise TypeError("dropout_state_filter_visitor must be callable")
        self._filter = dropout_state_filter_visitor or _default_state_filter
        for name, p in (("input_keep_prob", input_keep_prob),
                        ("output_keep_prob", output_keep_prob),
                        ("state_keep_prob", state_keep_prob)):
            value = tf.get_static_value(p)
            if value is not None and not 0 <= float(value) <= 1:
                raise ValueError(f"Parameter {name} must be between 0 and 1: {float(value)}")
        self._keep = (input_keep_prob, output_keep_prob, state_keep_prob)
        self._seed, self._variational = seed, variational_recurrent
        self._noise = {}
        if variational_recurrent:
            if dtype is None:
                raise ValueError("When variational_recurrent=True, dtype must be provided")

            def noise(size, salt):
                flat = [tf.random.uniform(tf.concat([[1], tf.TensorShape(x).as_list()], 0),
                                          seed=self._salted(salt, i), dtype=dtype)
                        for i, x in enumerate(tf.nest.flatten(size))]
                return tf.nest.pack_sequence_as(size, flat)
            if not _is_one(input_keep_prob):
                if input_size is None:
                    raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 "
                                     "or is unknown, input_size must be provided")
                self._noise["input"] = noise(input_size, "input")
            self._noise["state"] = noise(cell.state_size, "state")
            self._noise["output"] = noise(cell.output_size, "output")

    @property
    def wrapped_cell(self):
        return self._cell

    def _salted(self, salt, index):
        if self._seed is None:
            return None
        return (hash(f"{self._seed}{salt}_{index}") & 0x7fffffff)

    def _drop_one(self, value, keep, salt, index, noise):
        if noise is not None:  # variational: the same mask at every step
            out = tf.math.divide(value, keep) * tf.floor(keep + noise)
            out.set_shape(value.shape)
            return out
        return tf.nn.dropout(value, rate=1.0 - keep, seed=self._salted(salt, index))

    def _drop(self, values, keep, salt, mask=None):
        if _is_one(keep):
            return values
        noise = self._noise.get(salt)
        flat = tf.nest.flatten(values)
        flat_noise = tf.nest.flatten(noise) if noise is not None else [None] * len(flat)
        flat_mask = tf.nest.flatten(mask) if mask is not None else [True] * len(flat)
        out = [self._drop_one(v, keep, salt, i, n) if m else v
               for i, (v, n, m) in enumerate(zip(flat, flat_noise, flat_mask))]
        return tf.nest.pack_sequence_as(values, out)

    def _state_mask(self, state):
        """Which leaves of the state are dropped: the visitor is asked at every level (True:
        look inside / drop this leaf, False: keep all of it, or one flag per child)."""
        decided = self._filter(state)
        if not isinstance(state, (tuple, list)):
            return bool(decided)
        children = list(state)
        flags = [decided] * len(children) if isinstance(decided, bool) else list(decided)
        masks = [self._state_mask(c) if f else tf.nest.map_structure(lambda _: False, c)
                 for c, f in zip(children, flags)]
        return type(state)(*masks) if hasattr(state, "_fields") else type(state)(masks)

    def call(self, inputs, state, scope=None):
        keep_in, keep_out, keep_state = self._keep
        output, new_state = self._cell(self._drop(inputs, keep_in, "input"), state, scope=scope)
        new_state = self._drop(new_state, keep_state, "state", self._state_mask(new_state))
        return self._drop(output, keep_out, "output"), new_state


class ResidualWrapper(_Wrapper):
    """`output = cell(inputs) + inputs`."""

    def __init__(self, cell, residual_fn=None):
        super().__init__(cell)
        self._residual_fn = residual_fn or (lambda i, o: tf.nest.map_structure(tf.add, i, o))

    def call(self, inputs, state, scope=None):
        output, new_state = self._cell(inputs, state, scope=scope)
        return self._residual_fn(inputs, output), new_state


class DeviceWrapper(_Wrapper):
    """Runs the cell on `device`."""

    def __init__(self, cell, device):
        super().__init__(cell)
        self._device = device

    def call(self, inputs, state, scope=None):
        with tf.device(self._device):
            return self._cell(inputs, state, scope=scope)


CLASSES = {cls.__name__: cls for cls in (
    RNNCell, LayerRNNCell, BasicRNNCell, GRUCell, BasicLSTMCell, LSTMCell, MultiRNNCell,
    DropoutWrapper, ResidualWrapper, DeviceWrapper)}
CLASSES["LSTMStateTuple"] = LSTMStateTuple


def _works(name):
    try:
        getattr(v1.nn.rnn_cell, name)
        return True
    except Exception:  # noqa: BLE001 - Keras 3's lazy loader raises AttributeError or ImportError
        return False


_MODULE = []


def use():
    """`tf.compat.v1.nn.rnn_cell` resolves here when TensorFlow's cells only raise (Keras 3);
    with a working tf-keras (TF_USE_LEGACY_KERAS=1) TensorFlow's are kept. Idempotent."""
    from estimator_compat.tf_modules import set_attr
    if _works("LSTMCell"):
        return v1.nn.rnn_cell
    if not _MODULE:
        module = types.ModuleType("tensorflow.compat.v1.nn.rnn_cell",
                                  "TF1 RNN cells (estimator_compat, on get_variable).")
        module.__estimator_compat__ = True
        for name, cls in CLASSES.items():
            setattr(module, name, cls)
        _MODULE.append(module)
    set_attr("tensorflow.compat.v1.nn", "rnn_cell", _MODULE[0])
    return _MODULE[0]
