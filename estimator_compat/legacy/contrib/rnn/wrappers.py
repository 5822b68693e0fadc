"""Cell wrappers of `contrib.rnn` (`core_rnn_cell.py`, `rnn_cell.py`), on our TF1 cells.

InputProjection / OutputProjection / Embedding / AttentionCellWrapper have a scope of their
own (`rnn/output_projection_wrapper/kernel`, the inner cell below it); HighwayWrapper and
CompiledWrapper have none (`rnn/carry_w` beside the inner cell's scope), as in TF 1.15.
"""
import math

import tensorflow as tf

from estimator_compat.legacy import rnn_cells
from estimator_compat.legacy.contrib.rnn._common import linear

v1 = tf.compat.v1


def _check_cell(cell):
    if not all(hasattr(cell, a) for a in ("output_size", "state_size", "zero_state")) or not \
            callable(cell):
        raise TypeError(f"The argument 'cell' ({cell!r}) is not an RNNCell: 'output_size' "
                        "property is missing, 'state_size' property is missing, either "
                        "'zero_state' or 'get_initial_state' method is required, is not callable.")


class _ScopedWrapper(rnn_cells.RNNCell):
    """A wrapper with its own scope, the wrapped cell's state."""

    def __init__(self, cell, reuse=None):
        super().__init__(_reuse=reuse)
        _check_cell(cell)
        self._cell = cell

    state_size = property(lambda self: self._cell.state_size)
    output_size = property(lambda self: self._cell.output_size)

    def zero_state(self, batch_size, dtype):
        with tf.name_scope(type(self).__name__ + "ZeroState"):
            return self._cell.zero_state(batch_size, dtype)


class InputProjectionWrapper(_ScopedWrapper):
    """`cell(activation(inputs @ kernel + bias))`: inputs projected to `num_proj` first."""
    _default_name = "input_projection_wrapper"

    def __init__(self, cell, num_proj, activation=None, input_size=None, reuse=None):
        super().__init__(cell, reuse)
        self._num_proj, self._activation = num_proj, activation

    def call(self, inputs, state):
        projected = linear(inputs, self._num_proj, True)
        if self._activation:
            projected = self._activation(projected)
        return self._cell(projected, state)


class OutputProjectionWrapper(_ScopedWrapper):
    """The cell's output projected to `output_size` (`kernel`, `bias` after the inner cell's)."""
    _default_name = "output_projection_wrapper"

    def __init__(self, cell, output_size, activation=None, reuse=None):
        super().__init__(cell, reuse)
        if output_size < 1:
            raise ValueError(f"Parameter output_size must be > 0: {output_size}.")
        self._output_size, self._activation = output_size, activation

    output_size = property(lambda self: self._output_size)

    def call(self, inputs, state):
        output, new_state = self._cell(inputs, state)
        projected = linear(output, self._output_size, True)
        if self._activation:
            projected = self._activation(projected)
        return projected, new_state


class EmbeddingWrapper(_ScopedWrapper):
    """Integer ids embedded (`embedding` [classes, size], uniform +-sqrt(3) by default) before
    the cell; inputs [batch] or [batch, 1]."""
    _default_name = "embedding_wrapper"

    def __init__(self, cell, embedding_classes, embedding_size, initializer=None, reuse=None):
        super().__init__(cell, reuse)
        if embedding_classes <= 0 or embedding_size <= 0:
            raise ValueError("Both embedding_classes and embedding_size must be > 0: "
                             f"{embedding_classes}, {embedding_size}.")
        self._classes, self._size, self._initializer = (embedding_classes, embedding_size,
                                                        initializer)

    def call(self, inputs, state):
        initializer = self._initializer or v1.get_variable_scope().initializer
        if not initializer:
            initializer = v1.random_uniform_initializer(-math.sqrt(3), math.sqrt(3))
        dtype = tf.nest.flatten(state)[0].dtype
        embedding = v1.get_variable("embedding", [self._classes, self._size], dtype,
                                    initializer=initializer)
        embedded = tf.nn.embedding_lookup(embedding, tf.reshape(inputs, [-1]))
        return self._cell(embedded, state)


class AttentionCellWrapper(_ScopedWrapper):
    """Attention over the last `attn_length` outputs (Vinyals et al. 2015); the state is
    (cell state, attention, attention states), or their concatenation."""
    _default_name = "attention_cell_wrapper"

    def __init__(self, cell, attn_length, attn_size=None, attn_vec_size=None, input_size=None,
                 state_is_tuple=True, reuse=None):
        super().__init__(cell, reuse)
        if tf.nest.is_nested(cell.state_size) and not state_is_tuple:
            raise ValueError("Cell returns tuple of states, but the flag state_is_tuple is not "
                             f"set. State size is: {cell.state_size}")
        if attn_length <= 0:
            raise ValueError(f"attn_length should be greater than zero, got {attn_length}")
        self._attn_size = attn_size if attn_size is not None else cell.output_size
        self._attn_vec_size = attn_vec_size if attn_vec_size is not None else self._attn_size
        self._attn_length, self._input_size = attn_length, input_size
        self._state_is_tuple = state_is_tuple

    @property
    def state_size(self):
        size = (self._cell.state_size, self._attn_size, self._attn_size * self._attn_length)
        return size if self._state_is_tuple else sum(size)

    output_size = property(lambda self: self._attn_size)

    def zero_state(self, batch_size, dtype):
        return rnn_cells.RNNCell.zero_state(self, batch_size, dtype)

    def call(self, inputs, state):
        if self._state_is_tuple:
            state, attns, attn_states = state
        else:
            states, n = state, self._cell.state_size
            state = states[:, :n]
            attns = states[:, n:n + self._attn_size]
            attn_states = states[:, n + self._attn_size:]
        attn_states = tf.reshape(attn_states, [-1, self._attn_length, self._attn_size])
        input_size = self._input_size or inputs.shape[1]
        inputs = linear([inputs, attns], input_size, True)
        cell_output, new_state = self._cell(inputs, state)
        new_state_cat = (tf.concat(tf.nest.flatten(new_state), 1) if self._state_is_tuple
                         else new_state)
        new_attns, new_attn_states = self._attention(new_state_cat, attn_states)
        with v1.variable_scope("attn_output_projection"):
            output = linear([cell_output, new_attns], self._attn_size, True)
        new_attn_states = tf.reshape(tf.concat([new_attn_states, tf.expand_dims(output, 1)], 1),
                                     [-1, self._attn_length * self._attn_size])
        new_state = (new_state, new_attns, new_attn_states)
        if not self._state_is_tuple:
            new_state = tf.concat(list(new_state), 1)
        return output, new_state

    def _attention(self, query, attn_states):
        with v1.variable_scope("attention"):
            k = v1.get_variable("attn_w", [1, 1, self._attn_size, self._attn_vec_size])
            v = v1.get_variable("attn_v", [self._attn_vec_size])
            hidden = tf.reshape(attn_states, [-1, self._attn_length, 1, self._attn_size])
            features = tf.nn.conv2d(hidden, k, [1, 1, 1, 1], "SAME")
            y = tf.reshape(linear(query, self._attn_vec_size, True),
                           [-1, 1, 1, self._attn_vec_size])
            a = tf.nn.softmax(tf.reduce_sum(v * tf.tanh(features + y), [2, 3]))
            d = tf.reduce_sum(tf.reshape(a, [-1, self._attn_length, 1, 1]) * hidden, [1, 2])
            return tf.reshape(d, [-1, self._attn_size]), attn_states[:, 1:, :]


class HighwayWrapper(rnn_cells._Wrapper):
    """`inputs * carry + cell(inputs) * transform`, carry = sigmoid(inputs @ carry_w + carry_b)
    (carry_b starts at `carry_bias_init`); transform = 1 - carry when coupled."""

    def __init__(self, cell, couple_carry_transform_gates=True, carry_bias_init=1.0):
        super().__init__(cell)
        self._couple = couple_carry_transform_gates
        self._carry_bias_init = carry_bias_init

    def _highway(self, inp, out):
        size = int(inp.shape[1])
        carry = tf.sigmoid(tf.compat.v1.nn.xw_plus_b(
            inp, v1.get_variable("carry_w", [size, size]),
            v1.get_variable("carry_b", [size],
                            initializer=v1.constant_initializer(self._carry_bias_init))))
        if self._couple:
            transform = 1 - carry
        else:
            transform = tf.sigmoid(tf.compat.v1.nn.xw_plus_b(
                inp, v1.get_variable("transform_w", [size, size]),
                v1.get_variable("transform_b", [size],
                                initializer=v1.constant_initializer(-self._carry_bias_init))))
        return inp * carry + out * transform

    def call(self, inputs, state, scope=None):
        outputs, new_state = self._cell(inputs, state, scope=scope)
        tf.nest.assert_same_structure(inputs, outputs)
        tf.nest.map_structure(lambda i, o: i.shape.assert_is_compatible_with(o.shape),
                              inputs, outputs)
        return tf.nest.map_structure(self._highway, inputs, outputs), new_state


class CompiledWrapper(rnn_cells._Wrapper):
    """The cell, as TF 1.15's XLA `jit_scope` wrapper; TensorFlow 2.21 has no graph-mode
    jit_scope for TF1 cells, so the cell runs as it is (same outputs, same variables)."""

    def __init__(self, cell, compile_stateful=False):
        super().__init__(cell)
        self._compile_stateful = compile_stateful

    def call(self, inputs, state, scope=None):
        return self._cell(inputs, state, scope=scope)
