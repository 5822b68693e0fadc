"""Beam search as TF 1.15's `tf.contrib.seq2seq` did it: `BeamSearchDecoder` (length and
coverage penalties), its output and state tuples, `tile_batch` and `gather_tree`.

`gather_tree` was a custom kernel of tf.contrib (TensorFlow 2 has none): here a reversed
`tf.scan` over time that follows each beam's parent pointers, then end tokens filled after the
first one.
"""
import collections
import logging

import numpy as np
import tensorflow as tf

from estimator_compat.legacy.contrib.seq2seq.attention_wrapper import AttentionWrapperState
from estimator_compat.legacy.contrib.seq2seq.basic_decoder import (check_cell, check_layer,
                                                                    layer_output_size)
from estimator_compat.legacy.contrib.seq2seq.decoder import Decoder

v1 = tf.compat.v1
log = logging.getLogger("tensorflow")


class BeamSearchDecoderState(collections.namedtuple("BeamSearchDecoderState", (
        "cell_state", "log_probs", "finished", "lengths", "accumulated_attention_probs"))):
    """Per beam: the cell state, total log probability, finished flag and length."""
    __slots__ = ()


class BeamSearchDecoderOutput(collections.namedtuple("BeamSearchDecoderOutput", (
        "scores", "predicted_ids", "parent_ids"))):
    """One step's beam scores, chosen ids, and the beams they extend."""
    __slots__ = ()


class FinalBeamSearchDecoderOutput(collections.namedtuple("FinalBeamSearchDecoderOutput", (
        "predicted_ids", "beam_search_decoder_output"))):
    """`predicted_ids` [batch, time, beam] traced back through the parents, and the raw
    per-step `BeamSearchDecoderOutput`."""
    __slots__ = ()


def _static(value):
    return tf.get_static_value(value) if tf.is_tensor(value) else value


def tile_batch(t, multiplier, name=None):
    """Repeat each batch entry `multiplier` times, entries kept together:
    [a, b] -> [a, a, b, b] (nests of tensors alike)."""
    flat = tf.nest.flatten(t)
    with tf.name_scope(name or "tile_batch"):
        return tf.nest.map_structure(lambda x: _tile_one(x, multiplier), t) if flat else t


def _tile_one(t, multiplier):
    t = tf.convert_to_tensor(t, name="t")
    if t.shape.rank is None or t.shape.rank < 1:
        raise ValueError("t must have statically known rank")
    shape = tf.shape(t)
    tiling = [1] * (t.shape.rank + 1)
    tiling[1] = multiplier
    static_batch = tf.compat.dimension_value(t.shape[0])
    tiled = tf.tile(tf.expand_dims(t, 1), tiling)
    tiled = tf.reshape(tiled, tf.concat(([shape[0] * multiplier], shape[1:]), 0))
    tiled.set_shape(tf.TensorShape([static_batch * multiplier if static_batch is not None
                                    else None]).concatenate(t.shape[1:]))
    return tiled


def gather_tree(step_ids, parent_ids, max_sequence_lengths, end_token, name=None):
    """Full beams from per-step ids and parent beams ([max_time, batch, beam] each): beam b's
    sequence read backwards from its last step; steps at or past an entry's
    `max_sequence_lengths`, and those after the first `end_token`, hold `end_token`."""
    with tf.name_scope(name or "GatherTree"):
        step_ids = tf.convert_to_tensor(step_ids, name="step_ids")
        parent_ids = tf.convert_to_tensor(parent_ids, tf.int32, name="parent_ids")
        lengths = tf.convert_to_tensor(max_sequence_lengths, tf.int32,
                                       name="max_sequence_lengths")
        end_token = tf.cast(tf.convert_to_tensor(end_token, name="end_token"), step_ids.dtype)
        shape = tf.shape(step_ids)
        max_time, batch, beam = shape[0], shape[1], shape[2]
        lengths = tf.minimum(lengths, max_time)
        start = tf.tile(tf.range(beam)[None, :], [batch, 1])

        def back(carried, elems):
            pointer, (t, ids, parents) = carried[0], elems
            live = (t < lengths)[:, None]
            out = tf.where(live, tf.gather(ids, pointer, batch_dims=1), end_token)
            return tf.where(live, tf.gather(parents, pointer, batch_dims=1), pointer), out
        _, beams = tf.scan(back, (tf.range(max_time), step_ids, parent_ids),
                           initializer=(start, tf.zeros_like(step_ids[0])), reverse=True)
        ended = tf.cumsum(tf.cast(tf.equal(beams, end_token), tf.int32), axis=0,
                          exclusive=True) > 0
        beams = tf.where(ended, end_token, beams)
        beams.set_shape(step_ids.shape)
        return beams


def _check_state_tensor(t):
    if isinstance(t, tf.TensorArray):
        raise TypeError("TensorArray state is not supported by BeamSearchDecoder: %s" % t)
    if t.shape.rank is None:
        raise ValueError("Expected tensor (%s) to have known rank, but ndims == None." % t)


def _gather(gather_indices, gather_from, batch_size, range_size, gather_shape, name=None):
    """gather_from[b, gather_indices[b, k]] for each batch entry b (the beams chosen)."""
    with tf.name_scope(name or "tensor_gather_helper"):
        offsets = tf.expand_dims(tf.range(batch_size) * range_size, 1)
        indices = tf.reshape(gather_indices + offsets, [-1])
        output = tf.gather(tf.reshape(gather_from, gather_shape), indices)
        final_shape = tf.shape(gather_from)[:1 + len(gather_shape)]
        output = tf.reshape(output, final_shape, name="output")
        output.set_shape(tf.TensorShape([_static(batch_size)]).concatenate(
            gather_from.shape[1:1 + len(gather_shape)]))
        return output


def _maybe_gather(gather_indices, gather_from, batch_size, range_size, gather_shape):
    if isinstance(gather_from, tf.TensorArray):
        return gather_from
    _check_state_tensor(gather_from)
    if gather_from.shape.rank >= len(gather_shape):
        return _gather(gather_indices, gather_from, batch_size, range_size, gather_shape)
    return gather_from


def _mask_probs(probs, eos_token, finished):
    """A finished beam can only extend with eos, at no cost."""
    vocab_size = tf.shape(probs)[2]
    finished_row = tf.one_hot(eos_token, vocab_size, dtype=probs.dtype,
                              on_value=tf.constant(0., probs.dtype), off_value=probs.dtype.min)
    finished_probs = tf.tile(tf.reshape(finished_row, [1, 1, -1]),
                             tf.concat([tf.shape(finished), [1]], 0))
    finished_mask = tf.tile(tf.expand_dims(finished, 2), [1, 1, vocab_size])
    return tf.where(finished_mask, finished_probs, probs)


def _length_penalty(sequence_lengths, penalty_factor):
    """((5 + length) / 6) ** penalty_factor (Wu et al., 2016); 1.0 when the factor is 0."""
    penalty_factor = tf.convert_to_tensor(penalty_factor, name="penalty_factor")
    penalty_factor.set_shape(())
    static = tf.get_static_value(penalty_factor)
    if static is not None and static == 0:
        return 1.0
    return tf.math.divide((5. + tf.cast(sequence_lengths, tf.float32)) ** penalty_factor,
                          (5. + 1.) ** penalty_factor)


def _attention_probs_of(state):
    probs = state.alignments
    if isinstance(probs, tuple):
        probs = tf.reduce_mean(tf.concat([tf.expand_dims(p, -1) for p in probs], -1), -1)
    return probs


def get_attention_probs(next_cell_state, coverage_penalty_weight):
    """The attention probabilities for the coverage penalty (None where it is off)."""
    if coverage_penalty_weight == 0.0:
        return None
    if isinstance(next_cell_state, AttentionWrapperState):
        found = [_attention_probs_of(next_cell_state)]
    elif isinstance(next_cell_state, tuple):
        found = [_attention_probs_of(s) for s in next_cell_state
                 if isinstance(s, AttentionWrapperState)]
    else:
        found = []
    if not found:
        raise ValueError("coverage_penalty_weight must be 0.0 if no cell is attentional.")
    if len(found) == 1:
        return found[0]
    return tf.reduce_mean(tf.concat([tf.expand_dims(p, -1) for p in found], -1), -1)


def _get_scores(log_probs, sequence_lengths, length_penalty_weight, coverage_penalty_weight,
                finished, accumulated_attention_probs):
    penalty = tf.cast(_length_penalty(sequence_lengths, length_penalty_weight), log_probs.dtype)
    scores = log_probs / penalty
    coverage_penalty_weight = tf.convert_to_tensor(coverage_penalty_weight,
                                                   name="coverage_penalty_weight")
    if coverage_penalty_weight.shape.rank != 0:
        raise ValueError("coverage_penalty_weight should be a scalar, but saw shape: %s"
                         % coverage_penalty_weight.shape)
    if tf.get_static_value(coverage_penalty_weight) == 0.0:
        return scores
    if accumulated_attention_probs is None:
        raise ValueError("accumulated_attention_probs can be None only if coverage penalty is "
                         "disabled.")
    probs = tf.where(tf.equal(accumulated_attention_probs, 0.0),
                     tf.ones_like(accumulated_attention_probs), accumulated_attention_probs)
    coverage = tf.reduce_sum(tf.math.log(tf.minimum(probs, 1.0)), 2)
    coverage *= tf.cast(finished, tf.float32)
    return scores + tf.expand_dims(coverage * coverage_penalty_weight, 2)


def _beam_search_step(time, logits, next_cell_state, beam_state, batch_size, beam_width,
                      end_token, length_penalty_weight, coverage_penalty_weight):
    """One step: extend every beam by every word, keep the `beam_width` best per entry."""
    static_batch = _static(batch_size)
    previously_finished = beam_state.finished
    not_finished = tf.logical_not(previously_finished)
    step_log_probs = _mask_probs(tf.nn.log_softmax(logits), end_token, previously_finished)
    total_probs = tf.expand_dims(beam_state.log_probs, 2) + step_log_probs
    vocab_size = tf.compat.dimension_value(logits.shape[-1]) or tf.shape(logits)[-1]
    lengths_to_add = tf.one_hot(tf.fill([batch_size, beam_width], end_token), depth=vocab_size,
                                on_value=np.int64(0), off_value=np.int64(1), dtype=tf.int64)
    lengths_to_add *= tf.expand_dims(tf.cast(not_finished, tf.int64), 2)
    new_lengths = lengths_to_add + tf.expand_dims(beam_state.lengths, 2)
    accumulated = None
    attention_probs = get_attention_probs(next_cell_state, coverage_penalty_weight)
    if attention_probs is not None:
        attention_probs *= tf.expand_dims(tf.cast(not_finished, tf.float32), 2)
        accumulated = beam_state.accumulated_attention_probs + attention_probs
    scores = _get_scores(total_probs, new_lengths, length_penalty_weight,
                         coverage_penalty_weight, previously_finished, accumulated)
    scores_flat = tf.reshape(scores, [batch_size, -1])
    next_scores, word_indices = tf.nn.top_k(scores_flat, k=beam_width)
    next_scores.set_shape([static_batch, beam_width])
    word_indices.set_shape([static_batch, beam_width])
    next_log_probs = _gather(word_indices, total_probs, batch_size, beam_width * vocab_size,
                             [-1], name="next_beam_probs")
    next_word_ids = tf.cast(tf.math.floormod(word_indices, vocab_size, name="next_beam_word_ids"),
                            tf.int32)
    next_beam_ids = tf.cast(tf.math.floordiv(word_indices, vocab_size), tf.int32,
                            name="next_beam_parent_ids")
    previously_finished = _gather(next_beam_ids, previously_finished, batch_size, beam_width,
                                  [-1])
    next_finished = tf.logical_or(previously_finished, tf.equal(next_word_ids, end_token),
                                  name="next_beam_finished")
    next_lengths = _gather(next_beam_ids, beam_state.lengths, batch_size, beam_width, [-1])
    next_lengths += tf.cast(tf.logical_not(previously_finished), tf.int64)
    next_accumulated = ()
    if accumulated is not None:
        next_accumulated = _gather(next_beam_ids, accumulated, batch_size, beam_width,
                                   [batch_size * beam_width, -1],
                                   name="next_accumulated_attention_probs")
    next_cell_state = tf.nest.map_structure(
        lambda s: _maybe_gather(next_beam_ids, s, batch_size, beam_width,
                                [batch_size * beam_width, -1]), next_cell_state)
    state = BeamSearchDecoderState(cell_state=next_cell_state, log_probs=next_log_probs,
                                   lengths=next_lengths, finished=next_finished,
                                   accumulated_attention_probs=next_accumulated)
    output = BeamSearchDecoderOutput(scores=next_scores, predicted_ids=next_word_ids,
                                     parent_ids=next_beam_ids)
    return output, state


def gather_tree_from_array(t, parent_ids, sequence_length):
    """Reorder a stacked [max_time, batch * beam, ...] array's beams as gather_tree would."""
    max_time = tf.compat.dimension_value(parent_ids.shape[0]) or tf.shape(parent_ids)[0]
    batch_size = tf.compat.dimension_value(parent_ids.shape[1]) or tf.shape(parent_ids)[1]
    beam_width = tf.compat.dimension_value(parent_ids.shape[2]) or tf.shape(parent_ids)[2]
    beam_ids = tf.tile(tf.range(beam_width)[None, None, :], [max_time, batch_size, 1])
    max_lengths = tf.cast(tf.reduce_max(sequence_length, axis=1), tf.int32)
    sorted_ids = gather_tree(beam_ids, parent_ids, max_lengths, end_token=beam_width + 1)
    in_bound = tf.transpose(tf.sequence_mask(sequence_length, maxlen=max_time), [2, 0, 1])
    sorted_ids = tf.where(in_bound, sorted_ids, beam_ids)
    time_ind = tf.tile(tf.reshape(tf.range(max_time), [-1, 1, 1]), [1, batch_size, beam_width])
    batch_ind = tf.transpose(tf.tile(tf.reshape(tf.range(batch_size), [-1, 1, 1]),
                                     [1, max_time, beam_width]), [1, 0, 2])
    indices = tf.stack([time_ind, batch_ind, sorted_ids], -1)
    final_shape = tf.shape(t)
    ordered = tf.gather_nd(tf.reshape(t, [max_time, batch_size, beam_width, -1]), indices)
    return tf.reshape(ordered, final_shape)


class BeamSearchDecoder(Decoder):
    """Beam search over `cell` (whose initial state and memory are already tiled to
    batch * beam_width): inputs are embeddings of the chosen ids, `output_layer` maps the cell
    output to logits."""

    def __init__(self, cell, embedding, start_tokens, end_token, initial_state, beam_width,
                 output_layer=None, length_penalty_weight=0.0, coverage_penalty_weight=0.0,
                 reorder_tensor_arrays=True):
        check_cell(cell)
        check_layer(output_layer)
        self._cell, self._output_layer = cell, output_layer
        self._reorder_tensor_arrays = reorder_tensor_arrays
        if callable(embedding):
            self._embedding_fn = embedding
        else:
            params = tf.convert_to_tensor(embedding, name="embedding")
            self._embedding_fn = lambda ids: tf.nn.embedding_lookup(params, ids)
        self._start_tokens = tf.convert_to_tensor(start_tokens, tf.int32, name="start_tokens")
        if self._start_tokens.shape.rank != 1:
            raise ValueError("start_tokens must be a vector")
        self._end_token = tf.convert_to_tensor(end_token, tf.int32, name="end_token")
        if self._end_token.shape.rank != 0:
            raise ValueError("end_token must be a scalar")
        self._batch_size = tf.size(start_tokens)
        self._beam_width = beam_width
        self._length_penalty_weight = length_penalty_weight
        self._coverage_penalty_weight = coverage_penalty_weight
        self._initial_cell_state = tf.nest.map_structure(self._maybe_split_batch_beams,
                                                         initial_state, self._cell.state_size)
        self._start_tokens = tf.tile(tf.expand_dims(self._start_tokens, 1), [1, beam_width])
        self._start_inputs = self._embedding_fn(self._start_tokens)
        self._finished = tf.one_hot(tf.zeros([self._batch_size], tf.int32), depth=beam_width,
                                    on_value=False, off_value=True, dtype=tf.bool)

    batch_size = property(lambda self: self._batch_size)
    tracks_own_finished = property(lambda self: True)

    def _rnn_output_size(self):
        size = self._cell.output_size
        return size if self._output_layer is None else layer_output_size(self._output_layer, size)

    @property
    def output_size(self):
        beams = tf.TensorShape([self._beam_width])
        return BeamSearchDecoderOutput(scores=beams, predicted_ids=beams, parent_ids=beams)

    @property
    def output_dtype(self):
        dtype = tf.nest.flatten(self._initial_cell_state)[0].dtype
        return BeamSearchDecoderOutput(
            scores=tf.nest.map_structure(lambda _: dtype, self._rnn_output_size()),
            predicted_ids=tf.int32, parent_ids=tf.int32)

    def _merge_batch_beams(self, t, s=None):
        """[batch, beam, ...] -> [batch * beam, ...]."""
        s = tf.TensorShape(tf.get_static_value(s) if tf.is_tensor(s) else s)
        static_batch = _static(self._batch_size)
        merged = tf.reshape(t, tf.concat(([self._batch_size * self._beam_width],
                                          tf.shape(t)[2:]), 0))
        merged.set_shape(tf.TensorShape([None if static_batch is None
                                         else static_batch * self._beam_width]).concatenate(s))
        return merged

    def _split_batch_beams(self, t, s=None):
        """[batch * beam, ...] -> [batch, beam, ...]."""
        s = tf.TensorShape(tf.get_static_value(s) if tf.is_tensor(s) else s)
        split = tf.reshape(t, tf.concat(([self._batch_size, self._beam_width],
                                         tf.shape(t)[1:]), 0))
        expected = tf.TensorShape([_static(self._batch_size), self._beam_width]).concatenate(s)
        if not split.shape.is_compatible_with(expected):
            raise ValueError("Unexpected behavior when reshaping between beam width and batch "
                             "size.  The reshaped tensor has shape: %s.  We expected it to have "
                             "shape (batch_size, beam_width, depth) == %s.  Perhaps you forgot "
                             "to create a zero_state with batch_size=encoder_batch_size * "
                             "beam_width?" % (split.shape, expected))
        split.set_shape(expected)
        return split

    def _maybe_split_batch_beams(self, t, s):
        if isinstance(t, tf.TensorArray):
            return t
        _check_state_tensor(t)
        return self._split_batch_beams(t, s) if t.shape.rank >= 1 else t

    def _maybe_merge_batch_beams(self, t, s):
        if isinstance(t, tf.TensorArray):
            return t
        _check_state_tensor(t)
        return self._merge_batch_beams(t, s) if t.shape.rank >= 2 else t

    def _maybe_sort_array_beams(self, t, parent_ids, sequence_length):
        """A TensorArray of per-beam values (alignment history) reordered along the beams,
        where its elements are [batch, beam, ...] (TF 1.15 left others as they were)."""
        if not isinstance(t, tf.TensorArray):
            return t
        shape = t.element_shape
        if shape.rank is None or shape.rank < 1:
            log.warning("The TensorArray %s in the cell state is not amenable to sorting based "
                        "on the beam search result. For a TensorArray to be sorted, its "
                        "elements shape must be defined and have at least a rank of 1, but "
                        "saw shape: %s", t.handle.name, shape)
            return t
        static_batch = _static(self._batch_size)
        dims = shape.as_list()
        if static_batch is not None and dims[0] is not None and (
                dims[0] != static_batch * self._beam_width or (
                    len(dims) >= 2 and dims[1] is not None and
                    (dims[0] != static_batch or dims[1] != self._beam_width))):
            log.warning("TensorArray reordering expects elements to be reshapable to %s which "
                        "is incompatible with the current shape %s. Consider setting "
                        "reorder_tensor_arrays to False to disable TensorArray reordering "
                        "during the beam search.", (static_batch, self._beam_width, None),
                        shape)
            return t
        return gather_tree_from_array(t.stack(), parent_ids, sequence_length)

    def initialize(self, name=None):
        dtype = tf.nest.flatten(self._initial_cell_state)[0].dtype
        log_probs = tf.one_hot(tf.zeros([self._batch_size], tf.int32), depth=self._beam_width,
                               on_value=tf.constant(0, dtype),
                               off_value=tf.constant(-np.inf, dtype),
                               dtype=dtype)
        attention_probs = get_attention_probs(self._initial_cell_state,
                                              self._coverage_penalty_weight)
        state = BeamSearchDecoderState(
            cell_state=self._initial_cell_state, log_probs=log_probs, finished=self._finished,
            lengths=tf.zeros([self._batch_size, self._beam_width], tf.int64),
            accumulated_attention_probs=() if attention_probs is None else attention_probs)
        return self._finished, self._start_inputs, state

    def finalize(self, outputs, final_state, sequence_lengths):
        max_lengths = tf.cast(tf.reduce_max(final_state.lengths, axis=1), tf.int32)
        predicted_ids = gather_tree(outputs.predicted_ids, outputs.parent_ids,
                                    max_sequence_lengths=max_lengths, end_token=self._end_token)
        if self._reorder_tensor_arrays:
            final_state = final_state._replace(cell_state=tf.nest.map_structure(
                lambda t: self._maybe_sort_array_beams(t, outputs.parent_ids,
                                                       final_state.lengths),
                final_state.cell_state))
        return FinalBeamSearchDecoderOutput(beam_search_decoder_output=outputs,
                                            predicted_ids=predicted_ids), final_state

    def step(self, time, inputs, state, name=None):
        with tf.name_scope(name or "BeamSearchDecoderStep"):
            inputs = tf.nest.map_structure(lambda x: self._merge_batch_beams(x, x.shape[2:]),
                                           inputs)
            cell_state = tf.nest.map_structure(self._maybe_merge_batch_beams, state.cell_state,
                                               self._cell.state_size)
            cell_outputs, next_cell_state = self._cell(inputs, cell_state)
            cell_outputs = tf.nest.map_structure(
                lambda out: self._split_batch_beams(out, out.shape[1:]), cell_outputs)
            next_cell_state = tf.nest.map_structure(self._maybe_split_batch_beams,
                                                    next_cell_state, self._cell.state_size)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            output, beam_state = _beam_search_step(
                time=time, logits=cell_outputs, next_cell_state=next_cell_state,
                beam_state=state, batch_size=self._batch_size, beam_width=self._beam_width,
                end_token=self._end_token, length_penalty_weight=self._length_penalty_weight,
                coverage_penalty_weight=self._coverage_penalty_weight)
            finished = beam_state.finished
            next_inputs = tf.cond(tf.reduce_all(finished), lambda: self._start_inputs,
                                  lambda: self._embedding_fn(output.predicted_ids))
        return output, beam_state, next_inputs, finished
