"""`tf.contrib.crf`: linear-chain conditional random fields, as TF 1.15 computed them.

`crf_log_likelihood` makes its `transitions` [num_tags, num_tags] variable with
`get_variable` in the caller's scope (TF 1.15's name); the forward algorithm and Viterbi
decoding run as `dynamic_rnn` over the RNN cells here (`CrfForwardRnnCell`,
`CrfDecodeForwardRnnCell`, `CrfDecodeBackwardRnnCell`); `viterbi_decode` is numpy, for use
outside the graph. Sequences of length 1 (static or dynamic) take the single-step formulas.
"""
import numpy as np
import tensorflow as tf

from estimator_compat.legacy.namespaces import namespace

v1 = tf.compat.v1


def _static_or_cond(inputs, single, multi):
    """`single()` where the time axis is 1 (statically, else decided at run time), else
    `multi()`."""
    steps = inputs.shape[1] if inputs.shape[1] is not None else tf.shape(inputs)[1]
    pred = tf.equal(steps, 1)
    static = tf.get_static_value(pred)
    if static is not None:
        return single() if static else multi()
    return tf.cond(pred, single, multi)


def _zero_where_empty(sequence_lengths, values):
    return tf.where(tf.less_equal(sequence_lengths, 0), tf.zeros_like(values), values)


def crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params):
    """Unnormalized score of each tag sequence: [batch]."""
    def single():
        batch = tf.shape(inputs, out_type=tag_indices.dtype)[0]
        examples = tf.reshape(tf.range(batch, dtype=tag_indices.dtype), [-1, 1])
        scores = tf.gather_nd(tf.squeeze(inputs, [1]), tf.concat([examples, tag_indices], 1))
        return _zero_where_empty(sequence_lengths, scores)

    def multi():
        return (crf_unary_score(tag_indices, sequence_lengths, inputs) +
                crf_binary_score(tag_indices, sequence_lengths, transition_params))
    return _static_or_cond(inputs, single, multi)


def crf_multitag_sequence_score(inputs, tag_bitmap, sequence_lengths, transition_params):
    """Log-sum of the scores of every tag sequence `tag_bitmap` [batch, time, tags] allows."""
    filtered = tf.where(tag_bitmap, inputs, tf.fill(tf.shape(inputs), float("-inf")))

    def single():
        return tf.reduce_logsumexp(filtered, axis=[1, 2], keepdims=False)

    def multi():
        return crf_log_norm(filtered, sequence_lengths, transition_params)
    return _static_or_cond(inputs, single, multi)


def crf_log_norm(inputs, sequence_lengths, transition_params):
    """The partition function's log, by the forward algorithm: [batch] (0 for empty sequences)."""
    first = tf.squeeze(inputs[:, :1, :], [1])

    def single():
        return _zero_where_empty(sequence_lengths, tf.reduce_logsumexp(first, [1]))

    def multi():
        rest = inputs[:, 1:, :]
        less_one = tf.maximum(tf.constant(0, dtype=sequence_lengths.dtype),
                              sequence_lengths - 1)
        _, alphas = v1.nn.dynamic_rnn(CrfForwardRnnCell(transition_params), rest,
                                      sequence_length=less_one, initial_state=first,
                                      dtype=tf.float32)
        return _zero_where_empty(sequence_lengths, tf.reduce_logsumexp(alphas, [1]))
    return _static_or_cond(inputs, single, multi)


def crf_log_likelihood(inputs, tag_indices, sequence_lengths, transition_params=None):
    """(log-likelihood [batch], transition_params): a `transitions` variable is made in the
    current variable scope when none is given."""
    num_tags = inputs.shape[2]
    if transition_params is None:
        if num_tags is None:
            raise ValueError("crf_log_likelihood: the number of tags (inputs.shape[2]) must be "
                             "known to create the transitions variable; pass "
                             "transition_params or give inputs a static last dimension.")
        transition_params = v1.get_variable("transitions", [num_tags, num_tags])
    scores = crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params)
    return scores - crf_log_norm(inputs, sequence_lengths, transition_params), transition_params


def crf_unary_score(tag_indices, sequence_lengths, inputs):
    """Sum of the tags' unary potentials within each sequence's length: [batch]."""
    batch, max_len, num_tags = (tf.shape(inputs)[i] for i in range(3))
    offsets = tf.expand_dims(tf.range(batch) * max_len * num_tags, 1)
    offsets += tf.expand_dims(tf.range(max_len) * num_tags, 0)
    if tag_indices.dtype == tf.int64:
        offsets = tf.cast(offsets, tf.int64)
    scores = tf.reshape(tf.gather(tf.reshape(inputs, [-1]),
                                  tf.reshape(offsets + tag_indices, [-1])), [batch, max_len])
    masks = tf.sequence_mask(sequence_lengths, maxlen=tf.shape(tag_indices)[1], dtype=tf.float32)
    return tf.reduce_sum(scores * masks, 1)


def crf_binary_score(tag_indices, sequence_lengths, transition_params):
    """Sum of the transition scores between consecutive tags within each length: [batch]."""
    num_tags = transition_params.shape[0]
    transitions = tf.shape(tag_indices)[1] - 1
    start = tag_indices[:, :transitions]
    end = tag_indices[:, 1:transitions + 1]
    scores = tf.gather(tf.reshape(transition_params, [-1]), start * num_tags + end)
    masks = tf.sequence_mask(sequence_lengths, maxlen=tf.shape(tag_indices)[1], dtype=tf.float32)
    return tf.reduce_sum(scores * masks[:, 1:], 1)


class _CrfCell:
    """A TF1 cell protocol object (state_size, output_size, zero_state, __call__)."""

    def zero_state(self, batch_size, dtype):
        return tf.zeros(tf.stack([batch_size, self.state_size]), dtype)

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        return self.zero_state(tf.shape(inputs)[0] if inputs is not None else batch_size,
                               dtype or inputs.dtype)


class _TransitionCell(_CrfCell):
    """A forward-algorithm or Viterbi step over `transition_params` ([tags, tags])."""

    def __init__(self, transition_params):
        self._transition_params = tf.expand_dims(transition_params, 0)
        self._num_tags = transition_params.shape[0]

    state_size = property(lambda self: self._num_tags)
    output_size = property(lambda self: self._num_tags)


class CrfForwardRnnCell(_TransitionCell):
    """One step of the forward algorithm: alphas' = inputs + logsumexp(alphas + transitions)."""

    def __call__(self, inputs, state, scope=None):
        scores = tf.expand_dims(state, 2) + self._transition_params
        alphas = inputs + tf.reduce_logsumexp(scores, [1])
        return alphas, alphas


class CrfDecodeForwardRnnCell(_TransitionCell):
    """One Viterbi step: outputs the backpointers (int32 [batch, tags]), state the best scores."""

    def __call__(self, inputs, state, scope=None):
        scores = tf.expand_dims(state, 2) + self._transition_params
        new_state = inputs + tf.reduce_max(scores, [1])
        return tf.cast(tf.argmax(scores, 1), tf.int32), new_state


class CrfDecodeBackwardRnnCell(_CrfCell):
    """One step back through the backpointers: state and output the previous tag [batch, 1]."""

    def __init__(self, num_tags):
        self._num_tags = num_tags

    state_size = property(lambda self: 1)
    output_size = property(lambda self: 1)

    def __call__(self, inputs, state, scope=None):
        state = tf.squeeze(state, axis=[1])
        indices = tf.stack([tf.range(tf.shape(inputs)[0]), state], axis=1)
        tags = tf.expand_dims(tf.gather_nd(inputs, indices), axis=-1)
        return tags, tags


def viterbi_decode(score, transition_params):
    """Numpy Viterbi over one sequence `score` [time, tags]: (tag list, best score)."""
    trellis = np.zeros_like(score)
    backpointers = np.zeros_like(score, dtype=np.int32)
    trellis[0] = score[0]
    for t in range(1, score.shape[0]):
        v = np.expand_dims(trellis[t - 1], 1) + transition_params
        trellis[t] = score[t] + np.max(v, 0)
        backpointers[t] = np.argmax(v, 0)
    path = [np.argmax(trellis[-1])]
    for bp in reversed(backpointers[1:]):
        path.append(bp[path[-1]])
    path.reverse()
    return path, np.max(trellis[-1])


def crf_decode(potentials, transition_params, sequence_length):
    """In-graph Viterbi: (decode_tags int32 [batch, time], best_score [batch])."""
    def single():
        squeezed = tf.squeeze(potentials, [1])
        tags = tf.expand_dims(tf.argmax(squeezed, axis=1), 1)
        return tf.cast(tags, tf.int32), tf.reduce_max(squeezed, axis=1)

    def multi():
        initial = tf.squeeze(potentials[:, :1, :], axis=[1])
        less_one = tf.maximum(tf.constant(0, dtype=sequence_length.dtype), sequence_length - 1)
        backpointers, last_score = v1.nn.dynamic_rnn(
            CrfDecodeForwardRnnCell(transition_params), potentials[:, 1:, :],
            sequence_length=less_one, initial_state=initial, time_major=False, dtype=tf.int32)
        backpointers = tf.reverse_sequence(backpointers, less_one, seq_axis=1)
        last = tf.expand_dims(tf.cast(tf.argmax(last_score, axis=1), tf.int32), axis=-1)
        tags, _ = v1.nn.dynamic_rnn(
            CrfDecodeBackwardRnnCell(potentials.shape[2]), backpointers,
            sequence_length=less_one, initial_state=last, time_major=False, dtype=tf.int32)
        tags = tf.concat([last, tf.squeeze(tags, axis=[2])], axis=1)
        tags = tf.reverse_sequence(tags, sequence_length, seq_axis=1)
        return tags, tf.reduce_max(last_score, axis=1)
    return _static_or_cond(potentials, single, multi)


_NAMES = dict(
    crf_sequence_score=crf_sequence_score, crf_multitag_sequence_score=crf_multitag_sequence_score,
    crf_log_norm=crf_log_norm, crf_log_likelihood=crf_log_likelihood,
    crf_unary_score=crf_unary_score, crf_binary_score=crf_binary_score,
    CrfForwardRnnCell=CrfForwardRnnCell, viterbi_decode=viterbi_decode,
    CrfDecodeForwardRnnCell=CrfDecodeForwardRnnCell,
    CrfDecodeBackwardRnnCell=CrfDecodeBackwardRnnCell, crf_decode=crf_decode)


def build():
    ops = namespace("tensorflow.contrib.crf.python.ops.crf", "contrib.crf's crf.py", **_NAMES)
    python_ops = namespace("tensorflow.contrib.crf.python.ops", "contrib.crf's ops", crf=ops)
    python = namespace("tensorflow.contrib.crf.python", "contrib.crf", ops=python_ops)
    return namespace("tensorflow.contrib.crf", "tf.contrib.crf (linear-chain CRF)",
                     __served_whole__=True, python=python, **_NAMES)
