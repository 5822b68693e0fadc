"""`FusedRNNCell` (`contrib/rnn/python/ops/fused_rnn_cell.py`): a cell that runs a whole
time-major sequence, `cell(inputs, initial_state=None, dtype=None, sequence_length=None,
scope=None) -> (outputs, final_state)`; the adaptor runs a per-step cell through
dynamic_rnn / static_rnn, the reversal runs a fused cell backwards in time."""
import abc

import tensorflow as tf

v1 = tf.compat.v1


class FusedRNNCell(metaclass=abc.ABCMeta):
    """Abstract: a whole-sequence RNN over [time, batch, depth] (or a list of [batch, depth])."""

    @abc.abstractmethod
    def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None,
                 scope=None):
        """(outputs, final_state)."""


class FusedRNNCellAdaptor(FusedRNNCell):
    """A per-step cell run over the sequence by `dynamic_rnn(time_major=True)` (or
    `static_rnn`): variables `rnn/<cell scope>/...`."""

    def __init__(self, cell, use_dynamic_rnn=False):
        self._cell = cell
        self._use_dynamic_rnn = use_dynamic_rnn

    def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None,
                 scope=None):
        is_list = isinstance(inputs, list)
        if self._use_dynamic_rnn:
            outputs, state = v1.nn.dynamic_rnn(
                self._cell, tf.stack(inputs) if is_list else inputs,
                sequence_length=sequence_length, initial_state=initial_state, dtype=dtype,
                time_major=True, scope=scope)
            return (tf.unstack(outputs) if is_list else outputs), state
        outputs, state = v1.nn.static_rnn(
            self._cell, inputs if is_list else tf.unstack(inputs), initial_state=initial_state,
            dtype=dtype, sequence_length=sequence_length, scope=scope)
        return (outputs if is_list else tf.stack(outputs)), state


class TimeReversedFusedRNN(FusedRNNCell):
    """A fused cell run on the time-reversed inputs (each sequence reversed within its
    length), its outputs reversed back."""

    def __init__(self, cell):
        self._cell = cell

    @staticmethod
    def _reverse(t, lengths):
        if isinstance(t, list):
            return list(reversed(t))
        if lengths is None:
            return tf.reverse(t, [0])
        return tf.reverse_sequence(t, lengths, 0, 1)

    def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None,
                 scope=None):
        outputs, state = self._cell(self._reverse(inputs, sequence_length),
                                    initial_state=initial_state, dtype=dtype,
                                    sequence_length=sequence_length, scope=scope)
        return self._reverse(outputs, sequence_length), state
