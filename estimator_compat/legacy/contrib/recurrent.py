"""`tf.contrib.recurrent`, served whole: `Recurrent` (recurrent_ops.py), and `functional_rnn` /
`bidirectional_functional_rnn`, TF 1.15's RNNs built on it.

`functional_rnn` runs an RNNCell over time with `Recurrent`: the cell is called once on the
first step's inputs (which makes its variables under `scope or "rnn"`, as TF 1.15's traced
function did), then each step reuses them. The per-step output rides in the loop's state (it
is prepended when it is not one of the state's own tensors); the outputs are zeroed past each
sequence's length, and the final state is the one at `length - 1` (or the loop's last, without
lengths or when reversed).
"""
import tensorflow as tf

from estimator_compat.legacy.contrib.recurrent_ops import Recurrent

_v1 = tf.compat.v1


class _CellStep:
    """The cell as `Recurrent`'s cell_fn over the 'extended' state: (output?, *cell state)."""

    def __init__(self, cell, inputs, initial_state):
        first = tf.nest.map_structure(lambda x: tf.stop_gradient(tf.gather(x, 0)), inputs)
        outputs, state1 = cell(first, initial_state)
        flat = tf.nest.flatten(state1)
        found = [i for i, s in enumerate(flat) if s is outputs]
        self.prepend_output = not found
        self.output_index = found[0] if found else 0
        self.output_shape = outputs.shape
        self.cell, self.state_template = cell, initial_state
        self.input_template = first

    @property
    def extended_initial_state(self):
        if self.prepend_output:
            return [tf.zeros(self.output_shape,
                             dtype=tf.nest.flatten(self.state_template)[0].dtype),
                    self.state_template]
        return self.state_template

    def cell_state(self, flat_extended):
        return flat_extended[1:] if self.prepend_output else flat_extended

    def output(self, extended):
        return tf.nest.flatten(extended)[self.output_index]

    def __call__(self, theta, extended_state0, inputs_t):
        del theta
        flat = self.cell_state(tf.nest.flatten(extended_state0))
        state0 = tf.nest.pack_sequence_as(self.state_template, flat)
        for s, t in zip(flat, tf.nest.flatten(self.state_template)):
            s.set_shape(t.shape)
        tf.nest.map_structure(lambda x, t: x.set_shape(t.shape), inputs_t, self.input_template)
        outputs, state1 = self.cell(inputs_t, state0)
        flat1 = tf.nest.flatten(state1)
        step = ([outputs] + flat1) if self.prepend_output else flat1
        return tf.nest.pack_sequence_as(extended_state0, step), []


def _mask_past_lengths(lengths, output):
    """Batch-major outputs times (t < length), as TF 1.15 masked them."""
    shape = tf.shape(output)
    batch, max_time, size = shape[0], shape[1], shape[2]
    times = tf.reshape(tf.tile(tf.range(0, max_time), [batch]), [batch, max_time])
    bound = tf.tile(tf.reshape(lengths, [-1, 1]), [1, max_time])
    keep = tf.cast(tf.less(times, bound), dtype=output.dtype)
    return tf.tile(tf.expand_dims(keep, -1), [1, 1, size]) * output


def _state_at_last_step(acc_state, lengths):
    """Each sequence's state at `length - 1` (zero for an empty one) from the [T, B, ...]
    accumulated states."""
    picked = []
    for history in tf.nest.flatten(acc_state):
        shape = tf.shape(history)
        max_time, batch = shape[0], shape[1]
        times = tf.reshape(tf.tile(tf.range(0, max_time), [batch]), [batch, max_time])
        bound = tf.tile(tf.reshape(lengths, [-1, 1]), [1, max_time])
        last = tf.transpose(tf.cast(tf.equal(times, bound - 1), dtype=history.dtype))
        picked.append(tf.reduce_sum(tf.expand_dims(last, -1) * history, 0))
    return tf.nest.pack_sequence_as(acc_state, picked)


def functional_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None,
                   time_major=False, scope=None, use_tpu=False, reverse=False):
    """(outputs, final state) of `cell` over `inputs`, as `tf.nn.dynamic_rnn` gives them."""
    with _v1.variable_scope(scope or "rnn"):
        if not time_major:
            inputs = tf.nest.map_structure(lambda t: tf.transpose(t, [1, 0, 2]), inputs)
        inputs_flat = tf.nest.flatten(inputs)
        batch_size = tf.shape(inputs_flat[0])[1]
        if initial_state is None:
            initial_state = cell.zero_state(batch_size, dtype)
        step = _CellStep(cell, inputs, initial_state)
    max_length = None if sequence_length is None else tf.reduce_max(sequence_length)
    if reverse:
        inputs = tf.reverse(inputs, [0])
    acc, final = Recurrent(theta=[], state0=step.extended_initial_state, inputs=inputs,
                           cell_fn=step, max_input_length=max_length, use_tpu=use_tpu,
                           aligned_end=reverse)
    template = step.state_template
    if sequence_length is None or reverse:
        state = tf.nest.pack_sequence_as(template, step.cell_state(tf.nest.flatten(final)))
    else:
        state = _state_at_last_step(
            tf.nest.pack_sequence_as(template, step.cell_state(tf.nest.flatten(acc))),
            sequence_length)
    output = step.output(acc)
    if reverse:
        output = tf.reverse(output, [0])
    output = tf.transpose(output, [1, 0, 2])
    output.set_shape([step.output_shape[0], inputs_flat[0].shape[0], step.output_shape[1]])
    if sequence_length is not None:
        output = _mask_past_lengths(sequence_length, output)
    tf.nest.map_structure(lambda s, t: s.set_shape(t.shape), state, template)
    if time_major:
        output = tf.transpose(output, [1, 0, 2])
    return output, state


def bidirectional_functional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None,
                                 initial_state_bw=None, dtype=None, sequence_length=None,
                                 time_major=False, use_tpu=False, fast_reverse=False,
                                 scope=None):
    """((output_fw, output_bw), (state_fw, state_bw)) under `<scope>/fw` and `<scope>/bw`;
    the backward RNN reads the sequences reversed (within their lengths), or, with
    `fast_reverse`, runs the reversed loop end-aligned."""
    time_dim, batch_dim = (0, 1) if time_major else (1, 0)

    def reverse(x):
        if sequence_length is not None:
            return tf.reverse_sequence(x, seq_lengths=sequence_length, seq_axis=time_dim,
                                       batch_axis=batch_dim)
        assert not use_tpu, "Bidirectional with variable sequence lengths unsupported on TPU"
        return tf.reverse(x, axis=[time_dim])
    with _v1.variable_scope(scope or "bidirectional_rnn"):
        with _v1.variable_scope("fw") as fw_scope:
            output_fw, state_fw = functional_rnn(
                cell_fw, inputs, sequence_length=sequence_length,
                initial_state=initial_state_fw, dtype=dtype, time_major=time_major,
                scope=fw_scope, use_tpu=use_tpu)
        with _v1.variable_scope("bw") as bw_scope:
            if not fast_reverse:
                inputs = reverse(inputs)
            output_bw, state_bw = functional_rnn(
                cell_bw, inputs, sequence_length=sequence_length,
                initial_state=initial_state_bw, dtype=dtype, time_major=time_major,
                scope=bw_scope, use_tpu=use_tpu, reverse=fast_reverse)
    if not fast_reverse:
        output_bw = reverse(output_bw)
    return (output_fw, output_bw), (state_fw, state_bw)


def build():
    from estimator_compat.legacy.namespaces import namespace
    prefix = "tensorflow.contrib.recurrent.python"
    recurrent = namespace(prefix + ".ops.recurrent", "recurrent", Recurrent=Recurrent)
    functional = namespace(prefix + ".ops.functional_rnn", "functional_rnn",
                           functional_rnn=functional_rnn,
                           bidirectional_functional_rnn=bidirectional_functional_rnn)
    ops = namespace(prefix + ".ops", "ops", recurrent=recurrent, functional_rnn=functional)
    namespace(prefix, "python", ops=ops)
    return namespace("tensorflow.contrib.recurrent", __doc__, __served_whole__=True,
                     Recurrent=Recurrent, functional_rnn=functional_rnn,
                     bidirectional_functional_rnn=bidirectional_functional_rnn)
