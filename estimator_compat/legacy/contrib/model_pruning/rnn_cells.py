"""`MaskedBasicLSTMCell` and `MaskedLSTMCell`: the TF1 LSTM cells (legacy/rnn_cells.py) whose
kernel is `mask * kernel`, as TF 1.15's model_pruning made them.

The cell's variables are TF 1.15's, in its scope (`masked_basic_lstm_cell`,
`masked_lstm_cell`) and order: `kernel`, `bias`, (`w_{f,i,o}_diag`, `projection/kernel`),
then `mask` (ones, [input depth + num_units, 4 * num_units]) and `threshold`. The projection
kernel is not masked. The mask is put in the pruning collections once, however often the cell
runs. Where the cell first runs in a while loop's body (dynamic_rnn: TensorFlow 2's loops
are functions), the collected product is made in the graph around the loop, named as TF 1.15's
(`rnn/while/masked_basic_lstm_cell/weights/masked_weight`), so a session can fetch it.
"""
import tensorflow as tf
from tensorflow.python.ops.control_flow_v2_func_graphs import ControlFlowFuncGraph

from estimator_compat.legacy import rnn_cells
from estimator_compat.legacy.contrib.model_pruning import pruning
from estimator_compat.legacy.contrib.rnn._common import input_depth

v1 = tf.compat.v1


def _kernel(shape, dtype, initializer, shards):
    """(kernel tensor, the variable as the weight collection holds it: partitioned in
    `shards` parts when given)."""
    if shards is None:
        var = v1.get_variable("kernel", shape, dtype, initializer=initializer)
        return var, var
    with v1.variable_scope(v1.get_variable_scope(),
                           partitioner=v1.fixed_size_partitioner(shards)):
        var = v1.get_variable("kernel", shape, dtype, initializer=initializer)
    return tf.convert_to_tensor(var), var


def _masked(kernel, weight, depth, num_units, dtype):
    mask = v1.get_variable("mask", [depth + num_units, 4 * num_units], dtype,
                           initializer=v1.ones_initializer(), trainable=False)
    threshold = v1.get_variable("threshold", [], dtype, initializer=v1.zeros_initializer(),
                                trainable=False)
    masked = tf.multiply(mask, kernel, pruning.MASKED_WEIGHT_NAME)
    if not any(m is mask for m in v1.get_collection_ref(pruning.MASK_COLLECTION)):
        collected = _outside_loops(mask, weight) if weight is kernel else None
        pruning.add_to_pruning_collections(
            mask, threshold, masked if collected is None else collected, weight)
    return masked


def _outside_loops(mask, kernel):
    """`mask * kernel` made in the first graph outside control-flow bodies, in their name
    scopes; None where the cell runs outside any."""
    graph, scopes = v1.get_default_graph(), []
    while isinstance(graph, ControlFlowFuncGraph):
        scopes.insert(0, graph.get_name_scope())
        graph = graph.outer_graph
    if not scopes:
        return None
    scope = "/".join(s for s in [graph.get_name_scope()] + scopes if s)
    with graph.as_default(), tf.name_scope(scope + "/" if scope else None):
        return tf.multiply(mask, kernel, pruning.MASKED_WEIGHT_NAME)


class MaskedBasicLSTMCell(rnn_cells.BasicLSTMCell):
    """BasicLSTMCell with a pruning mask on its kernel."""
    _default_name = "masked_basic_lstm_cell"

    def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None,
                 reuse=None, name=None):
        super().__init__(num_units, forget_bias=forget_bias, state_is_tuple=state_is_tuple,
                         activation=activation, reuse=reuse, name=name)

    def call(self, inputs, state):
        dtype, n = inputs.dtype, self._num_units
        c, h = state if self._state_is_tuple else tf.split(state, 2, axis=1)
        depth = input_depth(inputs.shape, self)
        kernel, weight = _kernel([depth + n, 4 * n], dtype, None, None)
        bias = v1.get_variable("bias", [4 * n], dtype, initializer=v1.zeros_initializer(dtype))
        masked = _masked(kernel, weight, depth, n, dtype)
        gates = tf.nn.bias_add(tf.matmul(tf.concat([inputs, h], 1), masked), bias)
        i, j, f, o = tf.split(gates, 4, axis=1)
        forget_bias = tf.constant(self._forget_bias, dtype=f.dtype)
        new_c = c * tf.sigmoid(f + forget_bias) + tf.sigmoid(i) * self._activation(j)
        new_h = self._activation(new_c) * tf.sigmoid(o)
        new_state = (rnn_cells.LSTMStateTuple(new_c, new_h) if self._state_is_tuple
                     else tf.concat([new_c, new_h], 1))
        return new_h, new_state


class MaskedLSTMCell(rnn_cells.LSTMCell):
    """LSTMCell (peepholes, cell clipping, projection) with a pruning mask on its kernel."""
    _default_name = "masked_lstm_cell"

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None,
                 num_proj=None, proj_clip=None, num_unit_shards=None, num_proj_shards=None,
                 forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None):
        super().__init__(num_units, use_peepholes=use_peepholes, cell_clip=cell_clip,
                         initializer=initializer, num_proj=num_proj, proj_clip=proj_clip,
                         num_unit_shards=num_unit_shards, num_proj_shards=num_proj_shards,
                         forget_bias=forget_bias, state_is_tuple=state_is_tuple,
                         activation=activation, reuse=reuse)

    def call(self, inputs, state):
        dtype, n = inputs.dtype, self._num_units
        num_proj = self._num_proj or n
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev = tf.slice(state, [0, 0], [-1, n])
            m_prev = tf.slice(state, [0, n], [-1, num_proj])
        depth = input_depth(inputs.shape, self)
        kernel, weight = _kernel([depth + num_proj, 4 * n], dtype, self._initializer,
                                 self._unit_shards)
        bias = v1.get_variable("bias", [4 * n], dtype, initializer=v1.zeros_initializer(dtype))
        if self._use_peepholes:
            w_f, w_i, w_o = (v1.get_variable(name, [n], dtype, initializer=self._initializer)
                             for name in ("w_f_diag", "w_i_diag", "w_o_diag"))
        if self._num_proj is not None:
            with v1.variable_scope("projection"):
                projection, _ = _kernel([n, self._num_proj], dtype, self._initializer,
                                        self._proj_shards)
        masked = _masked(kernel, weight, depth, n, dtype)
        lstm = tf.nn.bias_add(tf.matmul(tf.concat([inputs, m_prev], 1), masked), bias)
        i, j, f, o = tf.split(lstm, 4, axis=1)
        if self._use_peepholes:
            c = (tf.sigmoid(f + self._forget_bias + w_f * c_prev) * c_prev +
                 tf.sigmoid(i + w_i * c_prev) * self._activation(j))
        else:
            c = tf.sigmoid(f + self._forget_bias) * c_prev + tf.sigmoid(i) * self._activation(j)
        if self._cell_clip is not None:
            c = tf.clip_by_value(c, -self._cell_clip, self._cell_clip)
        gate_o = tf.sigmoid(o + w_o * c) if self._use_peepholes else tf.sigmoid(o)
        m = gate_o * self._activation(c)
        if self._num_proj is not None:
            m = tf.matmul(m, projection)
            if self._proj_clip is not None:
                m = tf.clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = (rnn_cells.LSTMStateTuple(c, m) if self._state_is_tuple
                     else tf.concat([c, m], 1))
        return m, new_state
