"""`Decoder` (the interface) and `dynamic_decode` (the loop that runs one), as TF 1.15 had them.

The loop is a `tf.compat.v1.while_loop` under the variable scope `decoder` (or `scope`), so the
variables a decoder's cell and output layer make on their first step get TF 1.15's names
(`decoder/lstm_cell/kernel`, `decoder/dense/kernel`); outputs gather in `TensorArray`s.
"""
import abc

import tensorflow as tf

v1 = tf.compat.v1


class Decoder(abc.ABC):
    """What `dynamic_decode` runs: `initialize()` -> (finished, inputs, state) and
    `step(time, inputs, state)` -> (outputs, state, next_inputs, finished); `finalize` is
    optional. `batch_size`, `output_size` and `output_dtype` describe one step's output."""

    @property
    def batch_size(self):
        raise NotImplementedError

    @property
    def output_size(self):
        raise NotImplementedError

    @property
    def output_dtype(self):
        raise NotImplementedError

    @abc.abstractmethod
    def initialize(self, name=None):
        raise NotImplementedError

    @abc.abstractmethod
    def step(self, time, inputs, state, name=None):
        raise NotImplementedError

    def finalize(self, outputs, final_state, sequence_lengths):
        raise NotImplementedError

    @property
    def tracks_own_finished(self):
        """True where the decoder's own `finished` is final (the loop then does not OR it with
        the previous step's, as beam search reorders its beams)."""
        return False


def _static_int(value):
    return tf.get_static_value(value) if tf.is_tensor(value) else value


def _batch_major(t):
    """[time, batch, ...] -> [batch, time, ...]."""
    if t.shape.rank is not None and t.shape.rank < 2:
        return t
    rank = tf.rank(t) if t.shape.rank is None else t.shape.rank
    perm = tf.concat([[1, 0], tf.range(2, rank)], 0) if tf.is_tensor(rank) else \
        [1, 0] + list(range(2, rank))
    out = tf.transpose(t, perm)
    if t.shape.rank is not None:
        out.set_shape([t.shape[1], t.shape[0]] + t.shape[2:].as_list())
    return out


def _zeros(size, batch_size, dtype):
    shape = tf.TensorShape(size)
    zeros = tf.zeros(tf.concat([[batch_size], tf.constant(shape.as_list(), tf.int32)], 0)
                     if shape.rank else tf.reshape(batch_size, [1]), dtype)
    zeros.set_shape(tf.TensorShape([_static_int(batch_size)]).concatenate(shape))
    return zeros


def _is_ta(value):
    return isinstance(value, tf.TensorArray)


def _keep_finished(finished, new, old):
    """new where a batch entry is still running, old where it finished (scalars and
    TensorArrays pass through)."""
    if _is_ta(old):
        return new
    new.set_shape(old.shape)
    if new.shape.rank == 0:
        return new
    return v1.where(finished, old, new)


def dynamic_decode(decoder, output_time_major=False, impute_finished=False,
                   maximum_iterations=None, parallel_iterations=32, swap_memory=False,
                   scope=None, **kwargs):
    """Run `decoder` step by step until every batch entry is finished (or
    `maximum_iterations`): returns (final_outputs, final_state, final_sequence_lengths),
    outputs [batch, time, ...] (or [time, batch, ...] with `output_time_major`). `kwargs`
    (TF 1.15's inputs for its Keras-style decoders) are not used by a `Decoder`."""
    if not isinstance(decoder, Decoder):
        raise TypeError("Expected decoder to be type Decoder, but saw: %s" % type(decoder))
    with v1.variable_scope(scope or "decoder"):
        if maximum_iterations is not None:
            maximum_iterations = tf.convert_to_tensor(maximum_iterations, tf.int32,
                                                      name="maximum_iterations")
            if maximum_iterations.shape.rank != 0:
                raise ValueError("maximum_iterations must be a scalar")
        initial_finished, initial_inputs, initial_state = decoder.initialize()
        batch_size = decoder.batch_size
        zero_outputs = tf.nest.map_structure(lambda size, dtype: _zeros(size, batch_size, dtype),
                                             decoder.output_size, decoder.output_dtype)
        if maximum_iterations is not None:
            initial_finished = tf.logical_or(initial_finished, 0 >= maximum_iterations)
        initial_lengths = tf.zeros_like(initial_finished, tf.int32)
        static_batch = _static_int(batch_size)

        def new_array(size, dtype):
            shape = tf.TensorShape([static_batch]).concatenate(tf.TensorShape(size))
            return tf.TensorArray(dtype, size=0, dynamic_size=True, element_shape=shape)
        initial_arrays = tf.nest.map_structure(new_array, decoder.output_size,
                                               decoder.output_dtype)

        def condition(time, arrays, state, inputs, finished, lengths):
            return tf.logical_not(tf.reduce_all(finished))

        def body(time, arrays, state, inputs, finished, lengths):
            outputs, decoder_state, next_inputs, decoder_finished = decoder.step(
                time, inputs, state)
            if decoder.tracks_own_finished:
                next_finished = decoder_finished
            else:
                next_finished = tf.logical_or(decoder_finished, finished)
            next_lengths = tf.where(tf.logical_not(finished),
                                    tf.fill(tf.shape(lengths), time + 1), lengths)
            tf.nest.assert_same_structure(state, decoder_state)
            tf.nest.assert_same_structure(arrays, outputs)
            tf.nest.assert_same_structure(inputs, next_inputs)
            if maximum_iterations is not None:
                next_finished = tf.logical_or(next_finished, time + 1 >= maximum_iterations)
            if impute_finished:
                emit = tf.nest.map_structure(lambda out, zero: v1.where(finished, zero, out),
                                             outputs, zero_outputs)
                next_state = tf.nest.map_structure(
                    lambda new, old: _keep_finished(finished, new, old), decoder_state, state)
            else:
                emit, next_state = outputs, decoder_state
            arrays = tf.nest.map_structure(lambda ta, out: ta.write(time, out), arrays, emit)
            return time + 1, arrays, next_state, next_inputs, next_finished, next_lengths

        loop = v1.while_loop(
            condition, body,
            loop_vars=(tf.constant(0, tf.int32), initial_arrays, initial_state, initial_inputs,
                       initial_finished, initial_lengths),
            parallel_iterations=parallel_iterations, maximum_iterations=maximum_iterations,
            swap_memory=swap_memory)
        _, final_arrays, final_state, _, _, final_lengths = loop
        final_outputs = tf.nest.map_structure(lambda ta: ta.stack(), final_arrays)
        try:
            final_outputs, final_state = decoder.finalize(final_outputs, final_state,
                                                          final_lengths)
        except NotImplementedError:
            pass
        if not output_time_major:
            final_outputs = tf.nest.map_structure(_batch_major, final_outputs)
    return final_outputs, final_state, final_lengths
