"""`tf.contrib.legacy_seq2seq` as TF 1.15 had it: the statically unrolled seq2seq models of
the 2016 translate tutorial, on the TF1 cells of `legacy/rnn_cells.py`.

- Decoders: `rnn_decoder`, `attention_decoder` (multi-head attention over the encoder outputs,
  variables `AttnW_i`, `AttnV_i`, `Attention_i/kernel`, `AttnOutputProjection/kernel`),
  `embedding_rnn_decoder`, `embedding_attention_decoder`.
- Models: `basic_rnn_seq2seq`, `tied_rnn_seq2seq`, `embedding_rnn_seq2seq`,
  `embedding_tied_rnn_seq2seq`, `embedding_attention_seq2seq`, `one2many_rnn_seq2seq`.
- Losses: `sequence_loss_by_example`, `sequence_loss`, and `model_with_buckets`.

Variable names and their creation order are TF 1.15's, so its checkpoints load. A
`feed_previous` given as a boolean tensor builds both decoders (the feeding one first, the
other reusing its variables) and selects with `tf.cond`, as TF 1.15 did.
"""
import copy

import numpy as np
import tensorflow as tf

from estimator_compat.legacy.namespaces import namespace
from estimator_compat.legacy.rnn_cells import RNNCell

v1 = tf.compat.v1


def _linear(args, output_size, bias=True):
    """TF1's `_Linear` in the current variable scope: `kernel` [sum of widths, output_size]
    and `bias` (zeros) on the concatenated args."""
    args = args if isinstance(args, (list, tuple)) else [args]
    dtype = args[0].dtype
    width = sum(tf.compat.dimension_value(a.shape[1]) for a in args)
    kernel = v1.get_variable("kernel", [width, output_size], dtype)
    out = tf.matmul(args[0] if len(args) == 1 else tf.concat(args, 1), kernel)
    if not bias:
        return out
    bias_var = v1.get_variable("bias", [output_size], dtype,
                               initializer=v1.constant_initializer(0.0, dtype=dtype))
    return tf.nn.bias_add(out, bias_var)


class _EmbeddingWrapper(RNNCell):
    """TF1's `EmbeddingWrapper`: ids -> `embedding` rows -> the wrapped cell."""
    _default_name = "embedding_wrapper"

    def __init__(self, cell, embedding_classes, embedding_size, initializer=None):
        super().__init__()
        self._cell = cell
        self._embedding_classes, self._embedding_size = embedding_classes, embedding_size
        self._initializer = initializer

    state_size = property(lambda self: self._cell.state_size)
    output_size = property(lambda self: self._cell.output_size)

    def zero_state(self, batch_size, dtype):
        return self._cell.zero_state(batch_size, dtype)

    def call(self, inputs, state):
        initializer = (self._initializer or v1.get_variable_scope().initializer or
                       v1.random_uniform_initializer(-np.sqrt(3), np.sqrt(3)))
        dtype = tf.nest.flatten(state)[0].dtype
        embedding = v1.get_variable("embedding", [self._embedding_classes,
                                                  self._embedding_size],
                                    initializer=initializer, dtype=dtype)
        embedded = tf.nn.embedding_lookup(embedding, tf.reshape(inputs, [-1]))
        return self._cell(embedded, state)


class _OutputProjectionWrapper(RNNCell):
    """TF1's `OutputProjectionWrapper`: the cell's output through `kernel` / `bias`."""
    _default_name = "output_projection_wrapper"

    def __init__(self, cell, output_size):
        super().__init__()
        if output_size < 1:
            raise ValueError("Parameter output_size must be > 0: %d." % output_size)
        self._cell, self._output_size = cell, output_size

    state_size = property(lambda self: self._cell.state_size)
    output_size = property(lambda self: self._output_size)

    def zero_state(self, batch_size, dtype):
        return self._cell.zero_state(batch_size, dtype)

    def call(self, inputs, state):
        output, new_state = self._cell(inputs, state)
        return _linear(output, self._output_size), new_state


def _check_cell(cell, what="cell"):
    if not (hasattr(cell, "output_size") and hasattr(cell, "state_size") and callable(cell)):
        raise TypeError("%s is not an RNNCell: %s" % (what, type(cell)))


def _extract_argmax_and_embed(embedding, output_projection=None, update_embedding=True):
    """The loop function feeding back the embedding of the previous output's argmax."""
    def loop_function(prev, _):
        if output_projection is not None:
            prev = tf.compat.v1.nn.xw_plus_b(prev, output_projection[0], output_projection[1])
        emb_prev = tf.nn.embedding_lookup(embedding, tf.argmax(prev, 1))
        return emb_prev if update_embedding else tf.stop_gradient(emb_prev)
    return loop_function


def rnn_decoder(decoder_inputs, initial_state, cell, loop_function=None, scope=None):
    """Run `cell` over `decoder_inputs` from `initial_state` (with `loop_function`, each input
    after the first is made from the previous output)."""
    with v1.variable_scope(scope or "rnn_decoder"):
        state, outputs, prev = initial_state, [], None
        for i, inp in enumerate(decoder_inputs):
            if loop_function is not None and prev is not None:
                with v1.variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, i)
            if i > 0:
                v1.get_variable_scope().reuse_variables()
            output, state = cell(inp, state)
            outputs.append(output)
            if loop_function is not None:
                prev = output
    return outputs, state


def basic_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, dtype=tf.float32, scope=None):
    """Encoder (a copy of `cell`, scope `rnn`) then `rnn_decoder` from its final state."""
    with v1.variable_scope(scope or "basic_rnn_seq2seq"):
        enc_cell = copy.deepcopy(cell)
        _, enc_state = v1.nn.static_rnn(enc_cell, encoder_inputs, dtype=dtype)
        return rnn_decoder(decoder_inputs, enc_state, cell)


def tied_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, loop_function=None,
                     dtype=tf.float32, scope=None):
    """Encoder and decoder share one cell and its variables."""
    with v1.variable_scope("combined_tied_rnn_seq2seq"):
        scope = scope or "tied_rnn_seq2seq"
        _, enc_state = v1.nn.static_rnn(cell, encoder_inputs, dtype=dtype, scope=scope)
        v1.get_variable_scope().reuse_variables()
        return rnn_decoder(decoder_inputs, enc_state, cell, loop_function=loop_function,
                           scope=scope)


def _check_projection(output_projection, num_symbols, dtype):
    if output_projection is None:
        return
    weights = tf.convert_to_tensor(output_projection[0], dtype=dtype)
    weights.shape.assert_is_compatible_with([None, num_symbols])
    biases = tf.convert_to_tensor(output_projection[1], dtype=dtype)
    biases.shape.assert_is_compatible_with([num_symbols])


def embedding_rnn_decoder(decoder_inputs, initial_state, cell, num_symbols, embedding_size,
                          output_projection=None, feed_previous=False,
                          update_embedding_for_previous=True, scope=None):
    """`rnn_decoder` on the embeddings (variable `embedding`) of symbol ids."""
    with v1.variable_scope(scope or "embedding_rnn_decoder") as scope:
        _check_projection(output_projection, num_symbols, scope.dtype)
        embedding = v1.get_variable("embedding", [num_symbols, embedding_size])
        loop_function = _extract_argmax_and_embed(
            embedding, output_projection, update_embedding_for_previous) if feed_previous \
            else None
        emb_inp = [tf.nn.embedding_lookup(embedding, i) for i in decoder_inputs]
        return rnn_decoder(emb_inp, initial_state, cell, loop_function=loop_function)


def _select(feed_previous, build, decoder_inputs, structure):
    """Both decoders built (feeding first), the outputs and state of one chosen by the
    boolean tensor `feed_previous`; `structure` packs the state."""
    def flat(feed):
        outputs, state = build(feed)
        return list(outputs) + tf.nest.flatten(state)
    on, off = flat(True), flat(False)
    chosen = tf.cond(feed_previous, lambda: [tf.identity(t) for t in on],
                     lambda: [tf.identity(t) for t in off])
    count = len(decoder_inputs)
    state_list = chosen[count:]
    state = state_list[0]
    if structure is not None and tf.nest.is_nested(structure):
        state = tf.nest.pack_sequence_as(structure, state_list)
    return chosen[:count], state


def _reusing(feed):
    return v1.variable_scope(v1.get_variable_scope(), reuse=None if feed else True)


def embedding_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, num_encoder_symbols,
                          num_decoder_symbols, embedding_size, output_projection=None,
                          feed_previous=False, dtype=None, scope=None):
    """Embedding encoder (`EmbeddingWrapper` over a copy of `cell`) and embedding decoder
    (with an `OutputProjectionWrapper` unless `output_projection` is given)."""
    with v1.variable_scope(scope or "embedding_rnn_seq2seq") as scope:
        if dtype is not None:
            scope.set_dtype(dtype)
        else:
            dtype = scope.dtype
        encoder_cell = _EmbeddingWrapper(copy.deepcopy(cell), num_encoder_symbols,
                                         embedding_size)
        _, encoder_state = v1.nn.static_rnn(encoder_cell, encoder_inputs, dtype=dtype)
        if output_projection is None:
            cell = _OutputProjectionWrapper(cell, num_decoder_symbols)
        if isinstance(feed_previous, bool):
            return embedding_rnn_decoder(decoder_inputs, encoder_state, cell,
                                         num_decoder_symbols, embedding_size,
                                         output_projection=output_projection,
                                         feed_previous=feed_previous)

        def build(feed):
            with _reusing(feed):
                return embedding_rnn_decoder(
                    decoder_inputs, encoder_state, cell, num_decoder_symbols, embedding_size,
                    output_projection=output_projection, feed_previous=feed,
                    update_embedding_for_previous=False)
        return _select(feed_previous, build, decoder_inputs, encoder_state)


def embedding_tied_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, num_symbols,
                               embedding_size, num_decoder_symbols=None, output_projection=None,
                               feed_previous=False, dtype=None, scope=None):
    """`tied_rnn_seq2seq` on embeddings from one shared `embedding` variable."""
    with v1.variable_scope(scope or "embedding_tied_rnn_seq2seq", dtype=dtype) as scope:
        dtype = scope.dtype
        _check_projection(output_projection, num_symbols, dtype)
        embedding = v1.get_variable("embedding", [num_symbols, embedding_size], dtype=dtype)
        emb_encoder_inputs = [tf.nn.embedding_lookup(embedding, x) for x in encoder_inputs]
        emb_decoder_inputs = [tf.nn.embedding_lookup(embedding, x) for x in decoder_inputs]
        output_symbols = num_decoder_symbols if num_decoder_symbols is not None else num_symbols
        if output_projection is None:
            cell = _OutputProjectionWrapper(cell, output_symbols)
        if isinstance(feed_previous, bool):
            loop_function = _extract_argmax_and_embed(embedding, output_projection, True) \
                if feed_previous else None
            return tied_rnn_seq2seq(emb_encoder_inputs, emb_decoder_inputs, cell,
                                    loop_function=loop_function, dtype=dtype)

        def build(feed):
            loop_function = _extract_argmax_and_embed(embedding, output_projection, False) \
                if feed else None
            with _reusing(feed):
                return tied_rnn_seq2seq(emb_encoder_inputs, emb_decoder_inputs, cell,
                                        loop_function=loop_function, dtype=dtype)
        batch = tf.compat.dimension_value(encoder_inputs[0].shape[0])
        zero_state = cell.zero_state(batch if batch is not None else
                                     tf.shape(encoder_inputs[0])[0], dtype)
        return _select(feed_previous, build, decoder_inputs, zero_state)


def attention_decoder(decoder_inputs, initial_state, attention_states, cell, output_size=None,
                      num_heads=1, loop_function=None, dtype=None, scope=None,
                      initial_state_attention=False):
    """RNN decoder with `num_heads` attention reads over `attention_states`
    [batch, attn_length, attn_size]; each step's input is projected together with the previous
    attention reads, and its output with the new ones (`AttnOutputProjection`)."""
    if not decoder_inputs:
        raise ValueError("Must provide at least 1 input to attention decoder.")
    if num_heads < 1:
        raise ValueError("With less than 1 heads, use a non-attention decoder.")
    if tf.compat.dimension_value(attention_states.shape[2]) is None:
        raise ValueError("Shape[2] of attention_states must be known: %s"
                         % attention_states.shape)
    if output_size is None:
        output_size = cell.output_size
    with v1.variable_scope(scope or "attention_decoder", dtype=dtype) as scope:
        dtype = scope.dtype
        batch_size = tf.shape(decoder_inputs[0])[0]
        attn_length = tf.compat.dimension_value(attention_states.shape[1])
        if attn_length is None:
            attn_length = tf.shape(attention_states)[1]
        attn_size = tf.compat.dimension_value(attention_states.shape[2])
        hidden = tf.reshape(attention_states, [-1, attn_length, 1, attn_size])
        hidden_features, v = [], []
        for a in range(num_heads):
            k = v1.get_variable("AttnW_%d" % a, [1, 1, attn_size, attn_size], dtype=dtype)
            hidden_features.append(tf.nn.conv2d(hidden, k, [1, 1, 1, 1], "SAME"))
            v.append(v1.get_variable("AttnV_%d" % a, [attn_size], dtype=dtype))

        def attention(query):
            if tf.nest.is_nested(query):
                query = tf.concat(tf.nest.flatten(query), 1)
            reads = []
            for a in range(num_heads):
                with v1.variable_scope("Attention_%d" % a):
                    y = tf.cast(tf.reshape(_linear(query, attn_size), [-1, 1, 1, attn_size]),
                                dtype)
                    s = tf.reduce_sum(v[a] * tf.tanh(hidden_features[a] + y), [2, 3])
                    weights = tf.cast(tf.nn.softmax(tf.cast(s, tf.float32)), dtype)
                    d = tf.reduce_sum(tf.reshape(weights, [-1, attn_length, 1, 1]) * hidden,
                                      [1, 2])
                    reads.append(tf.reshape(d, [-1, attn_size]))
            return reads

        state, outputs, prev = initial_state, [], None
        attns = [tf.zeros(tf.stack([batch_size, attn_size]), dtype=dtype)
                 for _ in range(num_heads)]
        for a in attns:
            a.set_shape([None, attn_size])
        if initial_state_attention:
            attns = attention(initial_state)
        for i, inp in enumerate(decoder_inputs):
            if i > 0:
                v1.get_variable_scope().reuse_variables()
            if loop_function is not None and prev is not None:
                with v1.variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, i)
            input_size = tf.compat.dimension_value(inp.shape.with_rank(2)[1])
            if input_size is None:
                raise ValueError("Could not infer input size from input: %s" % inp.name)
            x = _linear([tf.cast(e, dtype) for e in [inp] + attns], input_size)
            cell_output, state = cell(x, state)
            if i == 0 and initial_state_attention:
                with v1.variable_scope(v1.get_variable_scope(), reuse=True):
                    attns = attention(state)
            else:
                attns = attention(state)
            with v1.variable_scope("AttnOutputProjection"):
                output = _linear([tf.cast(cell_output, dtype)] + attns, output_size)
            if loop_function is not None:
                prev = output
            outputs.append(output)
    return outputs, state


def embedding_attention_decoder(decoder_inputs, initial_state, attention_states, cell,
                                num_symbols, embedding_size, num_heads=1, output_size=None,
                                output_projection=None, feed_previous=False,
                                update_embedding_for_previous=True, dtype=None, scope=None,
                                initial_state_attention=False):
    """`attention_decoder` on the embeddings (variable `embedding`) of symbol ids."""
    if output_size is None:
        output_size = cell.output_size
    if output_projection is not None:
        biases = tf.convert_to_tensor(output_projection[1], dtype=dtype)
        biases.shape.assert_is_compatible_with([num_symbols])
    with v1.variable_scope(scope or "embedding_attention_decoder", dtype=dtype):
        embedding = v1.get_variable("embedding", [num_symbols, embedding_size])
        loop_function = _extract_argmax_and_embed(
            embedding, output_projection, update_embedding_for_previous) if feed_previous \
            else None
        emb_inp = [tf.nn.embedding_lookup(embedding, i) for i in decoder_inputs]
        return attention_decoder(emb_inp, initial_state, attention_states, cell,
                                 output_size=output_size, num_heads=num_heads,
                                 loop_function=loop_function,
                                 initial_state_attention=initial_state_attention)


def embedding_attention_seq2seq(encoder_inputs, decoder_inputs, cell, num_encoder_symbols,
                                num_decoder_symbols, embedding_size, num_heads=1,
                                output_projection=None, feed_previous=False, dtype=None,
                                scope=None, initial_state_attention=False):
    """Embedding encoder, then an embedding attention decoder over its outputs."""
    with v1.variable_scope(scope or "embedding_attention_seq2seq", dtype=dtype) as scope:
        dtype = scope.dtype
        encoder_cell = _EmbeddingWrapper(copy.deepcopy(cell), num_encoder_symbols,
                                         embedding_size)
        encoder_outputs, encoder_state = v1.nn.static_rnn(encoder_cell, encoder_inputs,
                                                          dtype=dtype)
        attention_states = tf.concat(
            [tf.reshape(e, [-1, 1, cell.output_size]) for e in encoder_outputs], 1)
        output_size = None
        if output_projection is None:
            cell = _OutputProjectionWrapper(cell, num_decoder_symbols)
            output_size = num_decoder_symbols
        if isinstance(feed_previous, bool):
            return embedding_attention_decoder(
                decoder_inputs, encoder_state, attention_states, cell, num_decoder_symbols,
                embedding_size, num_heads=num_heads, output_size=output_size,
                output_projection=output_projection, feed_previous=feed_previous,
                initial_state_attention=initial_state_attention)

        def build(feed):
            with _reusing(feed):
                return embedding_attention_decoder(
                    decoder_inputs, encoder_state, attention_states, cell, num_decoder_symbols,
                    embedding_size, num_heads=num_heads, output_size=output_size,
                    output_projection=output_projection, feed_previous=feed,
                    update_embedding_for_previous=False,
                    initial_state_attention=initial_state_attention)
        return _select(feed_previous, build, decoder_inputs, encoder_state)


def one2many_rnn_seq2seq(encoder_inputs, decoder_inputs_dict, enc_cell, dec_cells_dict,
                         num_encoder_symbols, num_decoder_symbols_dict, embedding_size,
                         feed_previous=False, dtype=None, scope=None):
    """One embedding encoder, one embedding decoder per key of `decoder_inputs_dict` (scope
    `one2many_decoder_<key>`): ({key: outputs}, {key: state})."""
    _check_cell(enc_cell, "enc_cell")
    if set(dec_cells_dict) != set(decoder_inputs_dict):
        raise ValueError("keys of dec_cells_dict != keys of decodre_inputs_dict")
    for dec_cell in dec_cells_dict.values():
        _check_cell(dec_cell, "dec_cell")
    outputs_dict, state_dict = {}, {}
    with v1.variable_scope(scope or "one2many_rnn_seq2seq", dtype=dtype) as scope:
        dtype = scope.dtype
        enc_cell = _EmbeddingWrapper(enc_cell, num_encoder_symbols, embedding_size)
        _, encoder_state = v1.nn.static_rnn(enc_cell, encoder_inputs, dtype=dtype)
        for name, decoder_inputs in decoder_inputs_dict.items():
            num_decoder_symbols = num_decoder_symbols_dict[name]
            with v1.variable_scope("one2many_decoder_" + str(name)):
                dec_cell = _OutputProjectionWrapper(dec_cells_dict[name], num_decoder_symbols)
                if isinstance(feed_previous, bool):
                    outputs, state = embedding_rnn_decoder(
                        decoder_inputs, encoder_state, dec_cell, num_decoder_symbols,
                        embedding_size, feed_previous=feed_previous)
                else:
                    def build(feed, decoder_inputs=decoder_inputs, dec_cell=dec_cell,
                              num_decoder_symbols=num_decoder_symbols):
                        with _reusing(feed):
                            return embedding_rnn_decoder(
                                decoder_inputs, encoder_state, dec_cell, num_decoder_symbols,
                                embedding_size, feed_previous=feed)
                    outputs, state = _select(feed_previous, build, decoder_inputs,
                                             encoder_state)
            outputs_dict[name], state_dict[name] = outputs, state
    return outputs_dict, state_dict


def sequence_loss_by_example(logits, targets, weights, average_across_timesteps=True,
                             softmax_loss_function=None, name=None):
    """Per-example weighted cross-entropy summed over the step lists (divided by the summed
    weights, plus 1e-12, with `average_across_timesteps`)."""
    if len(targets) != len(logits) or len(weights) != len(logits):
        raise ValueError("Lengths of logits, weights, and targets must be the same %d, %d, %d."
                         % (len(logits), len(weights), len(targets)))
    with tf.name_scope(name or "sequence_loss_by_example"):
        terms = []
        for logit, target, weight in zip(logits, targets, weights):
            if softmax_loss_function is None:
                crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(
                    labels=tf.reshape(target, [-1]), logits=logit)
            else:
                crossent = softmax_loss_function(labels=target, logits=logit)
            terms.append(crossent * weight)
        log_perps = tf.add_n(terms)
        if average_across_timesteps:
            log_perps /= tf.add_n(weights) + 1e-12
    return log_perps


def sequence_loss(logits, targets, weights, average_across_timesteps=True,
                  average_across_batch=True, softmax_loss_function=None, name=None):
    """The summed `sequence_loss_by_example`, divided by the batch size with
    `average_across_batch`."""
    with tf.name_scope(name or "sequence_loss"):
        cost = tf.reduce_sum(sequence_loss_by_example(
            logits, targets, weights, average_across_timesteps=average_across_timesteps,
            softmax_loss_function=softmax_loss_function))
        if average_across_batch:
            return cost / tf.cast(tf.shape(targets[0])[0], cost.dtype)
        return cost


def model_with_buckets(encoder_inputs, decoder_inputs, targets, weights, buckets, seq2seq,
                       softmax_loss_function=None, per_example_loss=False, name=None):
    """`seq2seq` built once per (encoder length, decoder length) bucket, variables shared:
    (outputs per bucket, loss per bucket)."""
    if len(encoder_inputs) < buckets[-1][0]:
        raise ValueError("Length of encoder_inputs (%d) must be at least that of la st bucket "
                         "(%d)." % (len(encoder_inputs), buckets[-1][0]))
    if len(targets) < buckets[-1][1]:
        raise ValueError("Length of targets (%d) must be at least that of last bucket (%d)."
                         % (len(targets), buckets[-1][1]))
    if len(weights) < buckets[-1][1]:
        raise ValueError("Length of weights (%d) must be at least that of last bucket (%d)."
                         % (len(weights), buckets[-1][1]))
    losses, outputs = [], []
    loss_fn = sequence_loss_by_example if per_example_loss else sequence_loss
    with tf.name_scope(name or "model_with_buckets"):
        for j, bucket in enumerate(buckets):
            with v1.variable_scope(v1.get_variable_scope(), reuse=True if j > 0 else None):
                bucket_outputs, _ = seq2seq(encoder_inputs[:bucket[0]],
                                            decoder_inputs[:bucket[1]])
                outputs.append(bucket_outputs)
                losses.append(loss_fn(outputs[-1], targets[:bucket[1]], weights[:bucket[1]],
                                      softmax_loss_function=softmax_loss_function))
    return outputs, losses


_NAMES = ("attention_decoder", "basic_rnn_seq2seq", "embedding_attention_decoder",
          "embedding_attention_seq2seq", "embedding_rnn_decoder", "embedding_rnn_seq2seq",
          "embedding_tied_rnn_seq2seq", "model_with_buckets", "one2many_rnn_seq2seq",
          "rnn_decoder", "sequence_loss", "sequence_loss_by_example", "tied_rnn_seq2seq")


def build():
    attrs = {name: globals()[name] for name in _NAMES}
    deep = namespace("tensorflow.contrib.legacy_seq2seq.python.ops.seq2seq",
                     "tf.contrib.legacy_seq2seq's seq2seq module (TF 1.15 path)", **attrs)
    ops = namespace("tensorflow.contrib.legacy_seq2seq.python.ops",
                    "tf.contrib.legacy_seq2seq's ops (TF 1.15 path)", seq2seq=deep)
    python = namespace("tensorflow.contrib.legacy_seq2seq.python",
                       "tf.contrib.legacy_seq2seq (TF 1.15 path)", ops=ops)
    return namespace("tensorflow.contrib.legacy_seq2seq",
                     "tf.contrib.legacy_seq2seq (static seq2seq models), as TF 1.15 had it",
                     __served_whole__=True, python=python, **attrs)
