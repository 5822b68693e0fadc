"""The functions of `tf.contrib.rnn`: the stacked bidirectional RNNs
(`contrib/rnn/python/ops/rnn.py`: variables `stack_bidirectional_rnn/cell_<i>/...`), TF 2.21's
own `static_rnn` / `static_bidirectional_rnn` / `static_state_saving_rnn`, and the two helpers
contrib re-exported from `rnn.py` / `rnn_cell_impl.py`."""
import tensorflow as tf

v1 = tf.compat.v1


def _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw):
    if not cells_fw:
        raise ValueError("Must specify at least one fw cell for BidirectionalRNN.")
    if not cells_bw:
        raise ValueError("Must specify at least one bw cell for BidirectionalRNN.")
    if not isinstance(cells_fw, list):
        raise ValueError("cells_fw must be a list of RNNCells (one per layer).")
    if not isinstance(cells_bw, list):
        raise ValueError("cells_bw must be a list of RNNCells (one per layer).")
    if len(cells_fw) != len(cells_bw):
        raise ValueError("Forward and Backward cells must have the same depth.")
    for name, states in (("fw", initial_states_fw), ("bw", initial_states_bw)):
        if states is not None and (not isinstance(states, list) or len(states) != len(cells_fw)):
            raise ValueError(f"initial_states_{name} must be a list of state tensors (one per "
                             "layer).")


def stack_bidirectional_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None,
                            initial_states_bw=None, dtype=None, sequence_length=None,
                            scope=None):
    """Bidirectional static RNNs stacked: layer i reads the concatenated fw/bw outputs of
    layer i-1. Returns (outputs list, fw final states tuple, bw final states tuple)."""
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    if not inputs:
        raise ValueError("inputs must not be empty")
    states_fw, states_bw, layer = [], [], inputs
    with v1.variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            with v1.variable_scope(f"cell_{i}") as cell_scope:
                layer, state_fw, state_bw = v1.nn.static_bidirectional_rnn(
                    cell_fw, cell_bw, layer,
                    initial_state_fw=initial_states_fw[i] if initial_states_fw else None,
                    initial_state_bw=initial_states_bw[i] if initial_states_bw else None,
                    sequence_length=sequence_length, dtype=dtype, scope=cell_scope)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return layer, tuple(states_fw), tuple(states_bw)


def stack_bidirectional_dynamic_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None,
                                    initial_states_bw=None, dtype=None, sequence_length=None,
                                    parallel_iterations=None, time_major=False, scope=None,
                                    swap_memory=False):
    """bidirectional_dynamic_rnn layers stacked (`stack_bidirectional_rnn/cell_<i>/
    bidirectional_rnn/{fw,bw}/...`). Returns (outputs [batch, time, fw + bw], fw final states
    tuple, bw final states tuple)."""
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    if inputs is None:
        raise ValueError("inputs must not be None")
    states_fw, states_bw, layer = [], [], inputs
    with v1.variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            with v1.variable_scope(f"cell_{i}"):
                outputs, (state_fw, state_bw) = v1.nn.bidirectional_dynamic_rnn(
                    cell_fw, cell_bw, layer,
                    initial_state_fw=initial_states_fw[i] if initial_states_fw else None,
                    initial_state_bw=initial_states_bw[i] if initial_states_bw else None,
                    sequence_length=sequence_length, parallel_iterations=parallel_iterations,
                    dtype=dtype, swap_memory=swap_memory, time_major=time_major)
                layer = tf.concat(outputs, 2)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return layer, tuple(states_fw), tuple(states_bw)


def transpose_batch_time(x):
    """[batch, time, ...] <-> [time, batch, ...]; a tensor of rank < 2 is returned as is."""
    x = tf.convert_to_tensor(x)
    rank = x.shape.rank
    if rank is not None and rank < 2:
        return x
    if rank is not None:
        perm = [1, 0] + list(range(2, rank))
    else:
        perm = tf.concat(([1, 0], tf.range(2, tf.rank(x))), axis=0)
    out = tf.transpose(x, perm)
    if rank is not None:
        out.set_shape(tf.TensorShape([x.shape[1], x.shape[0]]).concatenate(x.shape[2:]))
    return out


def best_effort_input_batch_size(flat_input):
    """The batch size (axis 1 of time-major inputs): the first static one among `flat_input`,
    else the dynamic size of the first input."""
    for value in flat_input:
        shape = value.shape
        if shape.rank is None:
            continue
        if shape.rank < 2:
            raise ValueError(f"Expected input tensor {value} to have rank at least 2")
        if shape[1] is not None:
            return shape[1]
    return tf.shape(flat_input[0])[1]


static_rnn = v1.nn.static_rnn
static_bidirectional_rnn = v1.nn.static_bidirectional_rnn
static_state_saving_rnn = v1.nn.static_state_saving_rnn
