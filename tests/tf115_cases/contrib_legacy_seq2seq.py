"""tf.contrib.legacy_seq2seq cases: the static-unrolled seq2seq models, decoders and losses.

Variables take a deterministic initializer from the enclosing variable scope (`_init`), so
values compare with TF 1.15's.
"""
import numpy as np

BATCH, STEPS, DEPTH, UNITS, SYMBOLS = 2, 3, 3, 4, 5


def _init(shape, dtype=None, partition_info=None, **kwargs):
    import tensorflow as tf
    size = int(np.prod(shape)) if len(shape) else 1
    values = (np.sin(np.arange(size, dtype=np.float64) * 0.7 + 0.3) * 0.4).reshape(shape)
    return tf.constant(values, dtype=dtype or tf.float32)


def _floats(tf, n=STEPS, depth=DEPTH, offset=0.0):
    return [tf.constant((np.cos(np.arange(BATCH * depth) * 0.37 + i + offset) * 0.9)
                        .reshape(BATCH, depth).astype(np.float32)) for i in range(n)]


def _ids(tf, n=STEPS, offset=0):
    return [tf.constant([(i + offset) % SYMBOLS, (2 * i + 1 + offset) % SYMBOLS], tf.int32)
            for i in range(n)]


def _values(outputs, state):
    return {"outputs": list(outputs), "state": state}


def case_basic_rnn_seq2seq(tf):
    with tf.variable_scope("root", initializer=_init):
        cell = tf.nn.rnn_cell.BasicLSTMCell(UNITS)
        outputs, state = tf.contrib.legacy_seq2seq.basic_rnn_seq2seq(
            _floats(tf), _floats(tf, offset=0.5), cell)
    return _values(outputs, state)


def case_tied_rnn_seq2seq(tf):
    with tf.variable_scope("root", initializer=_init):
        cell = tf.nn.rnn_cell.GRUCell(DEPTH)
        outputs, state = tf.contrib.legacy_seq2seq.tied_rnn_seq2seq(
            _floats(tf), _floats(tf, 4, offset=0.5), cell,
            loop_function=lambda prev, i: prev * 0.5)
    return _values(outputs, state)


def case_rnn_decoder(tf):
    with tf.variable_scope("root", initializer=_init):
        cell = tf.nn.rnn_cell.GRUCell(UNITS)
        outputs, state = tf.contrib.legacy_seq2seq.rnn_decoder(
            _floats(tf), tf.ones([BATCH, UNITS]) * 0.1, cell)
    return _values(outputs, state)


def case_embedding_rnn_seq2seq(tf):
    with tf.variable_scope("root", initializer=_init):
        cell = tf.nn.rnn_cell.BasicLSTMCell(UNITS)
        outputs, state = tf.contrib.legacy_seq2seq.embedding_rnn_seq2seq(
            _ids(tf), _ids(tf, offset=1), cell, SYMBOLS, SYMBOLS + 1, 3)
    return _values(outputs, state)


def case_embedding_rnn_seq2seq_feed_previous(tf):
    with tf.variable_scope("root", initializer=_init):
        cell = tf.nn.rnn_cell.GRUCell(UNITS)
        projection = (tf.get_variable("proj_w", [UNITS, SYMBOLS]),
                      tf.get_variable("proj_b", [SYMBOLS]))
        outputs, state = tf.contrib.legacy_seq2seq.embedding_rnn_seq2seq(
            _ids(tf), _ids(tf, 4, offset=1), cell, SYMBOLS, SYMBOLS, 3,
            output_projection=projection, feed_previous=True)
    return _values(outputs, state)


def case_embedding_rnn_seq2seq_feed_previous_tensor(tf):
    feed = tf.placeholder_with_default(True, [])
    with tf.variable_scope("root", initializer=_init):
        cell = tf.nn.rnn_cell.BasicLSTMCell(UNITS)
        outputs, state = tf.contrib.legacy_seq2seq.embedding_rnn_seq2seq(
            _ids(tf), _ids(tf, offset=2), cell, SYMBOLS, SYMBOLS, 3, feed_previous=feed)
    return _values(outputs, state)


def case_embedding_attention_seq2seq(tf):
    with tf.variable_scope("root", initializer=_init):
        cell = tf.nn.rnn_cell.BasicLSTMCell(UNITS)
        outputs, state = tf.contrib.legacy_seq2seq.embedding_attention_seq2seq(
            _ids(tf), _ids(tf, offset=1), cell, SYMBOLS, SYMBOLS + 1, 3)
    return _values(outputs, state)


def case_embedding_attention_seq2seq_heads(tf):
    with tf.variable_scope("root", initializer=_init):
        cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(UNITS),
                                            tf.nn.rnn_cell.GRUCell(UNITS)])
        projection = (tf.get_variable("proj_w", [UNITS, SYMBOLS]),
                      tf.get_variable("proj_b", [SYMBOLS]))
        outputs, state = tf.contrib.legacy_seq2seq.embedding_attention_seq2seq(
            _ids(tf), _ids(tf, 4, offset=1), cell, SYMBOLS, SYMBOLS, 3, num_heads=2,
            output_projection=projection, feed_previous=True, initial_state_attention=True)
    return _values(outputs, state)


def case_embedding_attention_seq2seq_feed_previous_tensor(tf):
    feed = tf.placeholder_with_default(False, [])
    with tf.variable_scope("root", initializer=_init):
        cell = tf.nn.rnn_cell.GRUCell(UNITS)
        outputs, state = tf.contrib.legacy_seq2seq.embedding_attention_seq2seq(
            _ids(tf), _ids(tf, offset=2), cell, SYMBOLS, SYMBOLS, 3, feed_previous=feed)
    return _values(outputs, state)


def case_attention_decoder(tf):
    with tf.variable_scope("root", initializer=_init):
        cell = tf.nn.rnn_cell.GRUCell(UNITS)
        attention_states = tf.constant(
            np.sin(np.arange(BATCH * 4 * 2) * 0.3).reshape(BATCH, 4, 2).astype(np.float32))
        outputs, state = tf.contrib.legacy_seq2seq.attention_decoder(
            _floats(tf), tf.ones([BATCH, UNITS]) * 0.2, attention_states, cell, output_size=3,
            num_heads=2, loop_function=lambda prev, i: tf.tanh(prev))
    return _values(outputs, state)


def case_attention_decoder_no_inputs(tf):
    cell = tf.nn.rnn_cell.GRUCell(UNITS)
    return {"x": tf.contrib.legacy_seq2seq.attention_decoder(
        [], tf.ones([BATCH, UNITS]), tf.ones([BATCH, 4, 2]), cell)}


def case_embedding_decoders(tf):
    with tf.variable_scope("root", initializer=_init):
        cell = tf.nn.rnn_cell.GRUCell(SYMBOLS)
        outputs, state = tf.contrib.legacy_seq2seq.embedding_rnn_decoder(
            _ids(tf), tf.ones([BATCH, SYMBOLS]) * 0.1, cell, SYMBOLS, 3, feed_previous=True)
        attn_outputs, attn_state = tf.contrib.legacy_seq2seq.embedding_attention_decoder(
            _ids(tf), tf.ones([BATCH, SYMBOLS]) * 0.1, tf.ones([BATCH, 2, 3]) * 0.3, cell,
            SYMBOLS, 3, feed_previous=False)
    return {"outputs": list(outputs), "state": state, "attn_outputs": list(attn_outputs),
            "attn_state": attn_state}


def case_embedding_tied_rnn_seq2seq(tf):
    with tf.variable_scope("root", initializer=_init):
        cell = tf.nn.rnn_cell.BasicLSTMCell(UNITS)
        outputs, state = tf.contrib.legacy_seq2seq.embedding_tied_rnn_seq2seq(
            _ids(tf), _ids(tf, offset=1), cell, SYMBOLS, 3, num_decoder_symbols=SYMBOLS + 2)
    return _values(outputs, state)


def case_embedding_tied_rnn_seq2seq_feed_previous_tensor(tf):
    feed = tf.placeholder_with_default(True, [])
    with tf.variable_scope("root", initializer=_init):
        cell = tf.nn.rnn_cell.BasicLSTMCell(UNITS)
        outputs, state = tf.contrib.legacy_seq2seq.embedding_tied_rnn_seq2seq(
            _ids(tf), _ids(tf, offset=1), cell, SYMBOLS, 3, feed_previous=feed)
    return _values(outputs, state)


def case_one2many_rnn_seq2seq(tf):
    with tf.variable_scope("root", initializer=_init):
        enc = tf.nn.rnn_cell.GRUCell(UNITS)
        decs = {"a": tf.nn.rnn_cell.GRUCell(UNITS), "b": tf.nn.rnn_cell.GRUCell(UNITS)}
        outputs, states = tf.contrib.legacy_seq2seq.one2many_rnn_seq2seq(
            _ids(tf), {"a": _ids(tf, 2), "b": _ids(tf, 3, offset=1)}, enc, decs, SYMBOLS,
            {"a": SYMBOLS, "b": SYMBOLS + 1}, 3, feed_previous=tf.constant(False))
    return {"a": list(outputs["a"]), "b": list(outputs["b"]), "states": states}


def case_losses(tf):
    logits = _floats(tf, depth=SYMBOLS)
    targets = _ids(tf, offset=2)
    weights = [tf.constant([1.0, 0.5]), tf.constant([1.0, 1.0]), tf.constant([0.0, 1.0])]
    custom = lambda labels, logits: tf.reduce_sum(logits, 1) * tf.cast(labels, tf.float32)
    return {
        "by_example": tf.contrib.legacy_seq2seq.sequence_loss_by_example(logits, targets,
                                                                         weights),
        "by_example_sum": tf.contrib.legacy_seq2seq.sequence_loss_by_example(
            logits, targets, weights, average_across_timesteps=False),
        "loss": tf.contrib.legacy_seq2seq.sequence_loss(logits, targets, weights),
        "loss_sum": tf.contrib.legacy_seq2seq.sequence_loss(
            logits, targets, weights, average_across_timesteps=False,
            average_across_batch=False, softmax_loss_function=custom)}


def case_losses_length_mismatch(tf):
    return {"x": tf.contrib.legacy_seq2seq.sequence_loss(
        _floats(tf, depth=SYMBOLS), _ids(tf, 2), [tf.ones([BATCH])] * 3)}


def case_model_with_buckets(tf):
    with tf.variable_scope("root", initializer=_init):
        def seq2seq(encoder_inputs, decoder_inputs):
            return tf.contrib.legacy_seq2seq.embedding_attention_seq2seq(
                encoder_inputs, decoder_inputs, tf.nn.rnn_cell.GRUCell(UNITS), SYMBOLS,
                SYMBOLS, 3)
        weights = [tf.ones([BATCH]) for _ in range(4)]
        outputs, losses = tf.contrib.legacy_seq2seq.model_with_buckets(
            _ids(tf, 4), _ids(tf, 4, offset=1), _ids(tf, 4, offset=2), weights,
            [(2, 3), (4, 4)], seq2seq)
    with tf.variable_scope("root", reuse=True):
        _, per_example = tf.contrib.legacy_seq2seq.model_with_buckets(
            _ids(tf, 4), _ids(tf, 4, offset=1), _ids(tf, 4, offset=2), weights,
            [(3, 2)], seq2seq, per_example_loss=True)
    return {"outputs0": list(outputs[0]), "outputs1": list(outputs[1]), "losses": losses,
            "per_example": per_example}


def case_model_with_buckets_short_inputs(tf):
    return {"x": tf.contrib.legacy_seq2seq.model_with_buckets(
        _ids(tf, 2), _ids(tf, 4), _ids(tf, 4), [tf.ones([BATCH])] * 4, [(3, 4)],
        lambda e, d: (d, None))}
