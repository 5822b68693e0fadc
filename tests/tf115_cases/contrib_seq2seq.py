"""tf.contrib.seq2seq cases: decoders, helpers, attention, beam search and the loss.

Variables take a deterministic initializer from the enclosing variable scope (`_init`), so
values compare with TF 1.15's; random samplers are compared by names and shapes only.
"""
import numpy as np

BATCH, TIME, DEPTH, UNITS, VOCAB = 3, 4, 3, 5, 6


def _init(shape, dtype=None, partition_info=None, **kwargs):
    import tensorflow as tf
    size = int(np.prod(shape)) if len(shape) else 1
    values = (np.sin(np.arange(size, dtype=np.float64) * 0.7 + 0.3) * 0.4).reshape(shape)
    return tf.constant(values, dtype=dtype or tf.float32)


def _inputs(shape=(BATCH, TIME, DEPTH), scale=1.0):
    size = int(np.prod(shape))
    return (np.cos(np.arange(size) * 0.37) * scale).reshape(shape).astype(np.float32)


def _dense(tf, units, name=None):
    return tf.layers.Dense(units, use_bias=False, name=name, kernel_initializer=_init)


def _embedding(tf):
    return tf.get_variable("embedding", [VOCAB, DEPTH])


def _memory():
    return _inputs((BATCH, 5, 4), 0.8)


def _attention_decode(tf, mechanism, **wrapper_args):
    with tf.variable_scope("model", initializer=_init):
        cell = tf.nn.rnn_cell.LSTMCell(UNITS)
        attention = tf.contrib.seq2seq.AttentionWrapper(cell, mechanism(tf), **wrapper_args)
        helper = tf.contrib.seq2seq.TrainingHelper(_inputs(), [4, 2, 3])
        state = attention.zero_state(BATCH, tf.float32)
        decoder = tf.contrib.seq2seq.BasicDecoder(attention, helper, state, _dense(tf, VOCAB))
        out, final, lengths = tf.contrib.seq2seq.dynamic_decode(decoder, impute_finished=True)
    fetches = {"rnn_output": out.rnn_output, "sample_id": out.sample_id, "lengths": lengths,
               "attention": final.attention, "time": final.time, "alignments": final.alignments,
               "cell_h": final.cell_state.h}
    if wrapper_args.get("alignment_history"):
        history = final.alignment_history
        fetches["history"] = ([h.stack() for h in history] if isinstance(history, tuple)
                              else history.stack())
    return fetches


def case_training_helper_basic_decoder(tf):
    with tf.variable_scope("model", initializer=_init):
        cell = tf.nn.rnn_cell.LSTMCell(UNITS)
        helper = tf.contrib.seq2seq.TrainingHelper(_inputs(), [4, 2, 3])
        decoder = tf.contrib.seq2seq.BasicDecoder(
            cell, helper, cell.zero_state(BATCH, tf.float32), output_layer=_dense(tf, VOCAB))
        out, state, lengths = tf.contrib.seq2seq.dynamic_decode(decoder, impute_finished=True)
    return {"rnn_output": out.rnn_output, "sample_id": out.sample_id, "c": state.c,
            "h": state.h, "lengths": lengths,
            "output_size": [s.as_list() for s in decoder.output_size],
            "output_dtype": str(decoder.output_dtype), "batch_size": decoder.batch_size,
            "static_shape": out.rnn_output.shape.as_list()}


def case_dynamic_decode_options(tf):
    with tf.variable_scope("model", initializer=_init):
        cell = tf.nn.rnn_cell.GRUCell(UNITS)
        helper = tf.contrib.seq2seq.TrainingHelper(
            np.transpose(_inputs(), (1, 0, 2)), [4, 2, 3], time_major=True)
        decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32))
        out, state, lengths = tf.contrib.seq2seq.dynamic_decode(
            decoder, output_time_major=True, maximum_iterations=3, swap_memory=True,
            scope="my_decoder")
    return {"rnn_output": out.rnn_output, "sample_id": out.sample_id, "state": state,
            "lengths": lengths}


def case_greedy_embedding_helper(tf):
    with tf.variable_scope("model", initializer=_init):
        embedding = _embedding(tf)
        cell = tf.nn.rnn_cell.BasicLSTMCell(UNITS)
        helper = tf.contrib.seq2seq.GreedyEmbeddingHelper(embedding, [1, 2, 3], 0)
        decoder = tf.contrib.seq2seq.BasicDecoder(
            cell, helper, cell.zero_state(BATCH, tf.float32), _dense(tf, VOCAB, "projection"))
        out, state, lengths = tf.contrib.seq2seq.dynamic_decode(decoder, maximum_iterations=6)
    return {"rnn_output": out.rnn_output, "sample_id": out.sample_id, "lengths": lengths,
            "h": state.h}


def case_greedy_embedding_fn_stops(tf):
    with tf.variable_scope("model", initializer=_init):
        embedding = _embedding(tf)
        cell = tf.nn.rnn_cell.GRUCell(VOCAB)
        helper = tf.contrib.seq2seq.GreedyEmbeddingHelper(
            lambda ids: tf.nn.embedding_lookup(embedding, ids), tf.constant([1, 2, 3]), 2)
        decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32))
        out, state, lengths = tf.contrib.seq2seq.dynamic_decode(
            decoder, maximum_iterations=10, impute_finished=True)
    return {"rnn_output": out.rnn_output, "sample_id": out.sample_id, "lengths": lengths}


def case_sample_embedding_helper(tf):
    with tf.variable_scope("model", initializer=_init):
        embedding = _embedding(tf)
        cell = tf.nn.rnn_cell.GRUCell(UNITS)
        helper = tf.contrib.seq2seq.SampleEmbeddingHelper(
            embedding, [1, 2, 3], 0, softmax_temperature=0.5, seed=3)
        decoder = tf.contrib.seq2seq.BasicDecoder(
            cell, helper, cell.zero_state(BATCH, tf.float32), _dense(tf, VOCAB))
        out, _, lengths = tf.contrib.seq2seq.dynamic_decode(decoder, maximum_iterations=4)
    return {"shape": tf.shape(out.rnn_output)[2], "ids_dtype": str(out.sample_id.dtype)}


def case_scheduled_embedding_never_samples(tf):
    with tf.variable_scope("model", initializer=_init):
        embedding = _embedding(tf)
        cell = tf.nn.rnn_cell.GRUCell(UNITS)
        helper = tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper(
            _inputs(), [4, 2, 3], embedding, 0.0, seed=1, scheduling_seed=2)
        decoder = tf.contrib.seq2seq.BasicDecoder(
            cell, helper, cell.zero_state(BATCH, tf.float32), _dense(tf, VOCAB))
        out, state, lengths = tf.contrib.seq2seq.dynamic_decode(decoder)
    return {"rnn_output": out.rnn_output, "sample_id": out.sample_id, "state": state,
            "lengths": lengths}


def case_scheduled_embedding_always_samples(tf):
    with tf.variable_scope("model", initializer=_init):
        embedding = _embedding(tf)
        cell = tf.nn.rnn_cell.GRUCell(UNITS)
        helper = tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper(
            _inputs(), [4, 2, 3], embedding, 1.0)
        decoder = tf.contrib.seq2seq.BasicDecoder(
            cell, helper, cell.zero_state(BATCH, tf.float32), _dense(tf, VOCAB))
        out, state, lengths = tf.contrib.seq2seq.dynamic_decode(decoder)
    return {"sampled": tf.reduce_all(out.sample_id[:, :2] >= 0), "lengths": lengths}


def case_scheduled_output_helper(tf):
    with tf.variable_scope("model", initializer=_init):
        cell = tf.nn.rnn_cell.GRUCell(DEPTH + 2)
        helper = tf.contrib.seq2seq.ScheduledOutputTrainingHelper(
            _inputs(), [4, 2, 3], 1.0, next_inputs_fn=lambda x: x[:, :DEPTH] * 2.0,
            auxiliary_inputs=_inputs((BATCH, TIME, 2), 0.5))
        decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32))
        out, state, lengths = tf.contrib.seq2seq.dynamic_decode(decoder)
    return {"rnn_output": out.rnn_output, "sample_id": out.sample_id, "state": state,
            "lengths": lengths}


def case_scheduled_output_never_samples(tf):
    with tf.variable_scope("model", initializer=_init):
        cell = tf.nn.rnn_cell.GRUCell(DEPTH)
        helper = tf.contrib.seq2seq.ScheduledOutputTrainingHelper(_inputs(), [4, 2, 3], 0.0)
        decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32))
        out, state, lengths = tf.contrib.seq2seq.dynamic_decode(decoder, impute_finished=True)
    return {"rnn_output": out.rnn_output, "sample_id": out.sample_id, "lengths": lengths}


def case_inference_and_custom_helpers(tf):
    start = tf.constant(_inputs((BATCH, DEPTH)))
    with tf.variable_scope("model", initializer=_init):
        cell = tf.nn.rnn_cell.GRUCell(DEPTH)
        helper = tf.contrib.seq2seq.InferenceHelper(
            sample_fn=lambda outputs: outputs * 2.0, sample_shape=[DEPTH],
            sample_dtype=tf.float32, start_inputs=start,
            end_fn=lambda ids: ids[:, 0] > 0.2, next_inputs_fn=lambda ids: tf.tanh(ids))
        decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32))
        out, _, lengths = tf.contrib.seq2seq.dynamic_decode(decoder, maximum_iterations=5)
        custom = tf.contrib.seq2seq.CustomHelper(
            initialize_fn=lambda: (tf.constant([False] * BATCH), start),
            sample_fn=lambda time, outputs, state: tf.argmax(outputs, -1, output_type=tf.int32),
            next_inputs_fn=lambda time, outputs, state, sample_ids: (
                tf.fill([BATCH], time >= 2), outputs, state))
        decoder2 = tf.contrib.seq2seq.BasicDecoder(
            cell, custom, cell.zero_state(BATCH, tf.float32))
        out2, _, lengths2 = tf.contrib.seq2seq.dynamic_decode(decoder2, scope="custom")
    return {"rnn_output": out.rnn_output, "sample_id": out.sample_id, "lengths": lengths,
            "custom_output": out2.rnn_output, "custom_ids": out2.sample_id,
            "custom_lengths": lengths2, "custom_batch": custom.batch_size}


def case_bahdanau_attention_wrapper(tf):
    def mechanism(tf):
        return tf.contrib.seq2seq.BahdanauAttention(
            UNITS, _memory(), memory_sequence_length=[5, 3, 4], normalize=True)
    return _attention_decode(tf, mechanism, attention_layer_size=4, alignment_history=True)


def case_luong_attention_wrapper(tf):
    def mechanism(tf):
        return tf.contrib.seq2seq.LuongAttention(UNITS, _memory(), scale=True)
    return _attention_decode(tf, mechanism, output_attention=False)


def case_two_attention_mechanisms(tf):
    def mechanisms(tf):
        return [tf.contrib.seq2seq.BahdanauAttention(3, _memory(), [5, 5, 2]),
                tf.contrib.seq2seq.LuongAttention(UNITS, _memory(),
                                                  probability_fn=tf.contrib.seq2seq.hardmax)]
    return _attention_decode(tf, mechanisms, attention_layer_size=[2, 3], alignment_history=True,
                             cell_input_fn=lambda inputs, attention: inputs + attention[:, :3])


def case_monotonic_attention_wrappers(tf):
    def mechanisms(tf):
        return [tf.contrib.seq2seq.BahdanauMonotonicAttention(
                    4, _memory(), [5, 3, 4], normalize=True, score_bias_init=-1.0),
                tf.contrib.seq2seq.LuongMonotonicAttention(
                    UNITS, _memory(), scale=True, mode="hard")]
    return _attention_decode(tf, mechanisms)


def case_attention_layer_and_initial_state(tf):
    with tf.variable_scope("enc", initializer=_init):
        initial = tf.nn.rnn_cell.LSTMStateTuple(tf.constant(_inputs((BATCH, UNITS))),
                                                tf.constant(_inputs((BATCH, UNITS), 0.5)))

    def mechanism(tf):
        return tf.contrib.seq2seq.LuongAttention(UNITS, _memory(), [5, 1, 2])
    return _attention_decode(tf, mechanism, attention_layer=_dense(tf, 3, "my_attention"),
                             initial_cell_state=initial)


def case_attention_wrapper_state(tf):
    mechanism = tf.contrib.seq2seq.BahdanauAttention(UNITS, _memory(), dtype=tf.float32)
    cell = tf.contrib.seq2seq.AttentionWrapper(tf.nn.rnn_cell.GRUCell(UNITS), mechanism,
                                               alignment_history=True)
    state = cell.zero_state(BATCH, tf.float32)
    cloned = state.clone(cell_state=tf.ones([BATCH, UNITS]))
    return {"state_size": str(cell.state_size), "output_size": cell.output_size,
            "is_mechanism": isinstance(mechanism, tf.contrib.seq2seq.AttentionMechanism),
            "fields": list(tf.contrib.seq2seq.AttentionWrapperState._fields),
            "cloned": cloned.cell_state, "attention": state.attention, "time": state.time,
            "alignments": state.alignments, "keys_shape": mechanism.keys.shape.as_list(),
            "alignments_size": mechanism.alignments_size}


def case_attention_wrapper_bad_mechanism(tf):
    return {"x": tf.contrib.seq2seq.AttentionWrapper(tf.nn.rnn_cell.GRUCell(2), "luong")}


def case_attention_layer_sizes_mismatch(tf):
    mechanism = tf.contrib.seq2seq.LuongAttention(4, _memory())
    return {"x": tf.contrib.seq2seq.AttentionWrapper(tf.nn.rnn_cell.GRUCell(4), mechanism,
                                                     attention_layer_size=[2, 3])}


def _stacked(history):
    return history.stack() if hasattr(history, "stack") else history


def _beam_decode(tf, beam_width=3, length_penalty_weight=0.0, coverage_penalty_weight=0.0,
                 maximum_iterations=6):
    with tf.variable_scope("model", initializer=_init):
        embedding = _embedding(tf)
        memory = tf.contrib.seq2seq.tile_batch(_memory(), beam_width)
        lengths = tf.contrib.seq2seq.tile_batch(tf.constant([5, 3, 4]), beam_width)
        mechanism = tf.contrib.seq2seq.BahdanauAttention(UNITS, memory, lengths)
        cell = tf.contrib.seq2seq.AttentionWrapper(
            tf.nn.rnn_cell.LSTMCell(UNITS), mechanism, attention_layer_size=4,
            alignment_history=True)
        state = cell.zero_state(BATCH * beam_width, tf.float32)
        decoder = tf.contrib.seq2seq.BeamSearchDecoder(
            cell, embedding, tf.fill([BATCH], 1), 0, state, beam_width,
            output_layer=_dense(tf, VOCAB), length_penalty_weight=length_penalty_weight,
            coverage_penalty_weight=coverage_penalty_weight)
        out, final, lengths = tf.contrib.seq2seq.dynamic_decode(
            decoder, maximum_iterations=maximum_iterations)
    return {"predicted_ids": out.predicted_ids, "scores": out.beam_search_decoder_output.scores,
            "ids": out.beam_search_decoder_output.predicted_ids,
            "parent_ids": out.beam_search_decoder_output.parent_ids, "lengths": lengths,
            "final_lengths": final.lengths, "log_probs": final.log_probs,
            "finished": final.finished, "history": _stacked(final.cell_state.alignment_history),
            "output_size": [s.as_list() for s in decoder.output_size],
            "tracks": decoder.tracks_own_finished}


def case_beam_search_with_attention(tf):
    return _beam_decode(tf)


def case_beam_search_penalties(tf):
    return _beam_decode(tf, beam_width=2, length_penalty_weight=0.6,
                        coverage_penalty_weight=0.3, maximum_iterations=5)


def case_beam_search_plain_cell(tf):
    with tf.variable_scope("model", initializer=_init):
        embedding = _embedding(tf)
        cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(UNITS),
                                            tf.nn.rnn_cell.GRUCell(VOCAB)])
        initial = tf.contrib.seq2seq.tile_batch(
            (tf.constant(_inputs((BATCH, UNITS), 0.3)), tf.zeros([BATCH, VOCAB])), 4)
        decoder = tf.contrib.seq2seq.BeamSearchDecoder(
            cell, lambda ids: tf.nn.embedding_lookup(embedding, ids), [4, 2, 1], 5, initial, 4)
        out, final, lengths = tf.contrib.seq2seq.dynamic_decode(
            decoder, maximum_iterations=7, output_time_major=True)
    return {"predicted_ids": out.predicted_ids, "scores": out.beam_search_decoder_output.scores,
            "lengths": lengths, "state0": final.cell_state[0], "state1": final.cell_state[1]}


def case_beam_search_untiled_state_raises(tf):
    cell = tf.nn.rnn_cell.GRUCell(UNITS)
    return {"x": tf.contrib.seq2seq.BeamSearchDecoder(
        cell, tf.ones([VOCAB, DEPTH]), [1, 2, 3], 0, tf.zeros([BATCH + 1, UNITS]), 2)}


def case_gather_tree(tf):
    step_ids = np.array([[[2, 5, 3], [1, 4, 4]], [[3, 1, 0], [2, 2, 1]],
                         [[4, 0, 2], [0, 3, 1]], [[1, 2, 1], [3, 1, 2]]], np.int32)
    parents = np.array([[[0, 0, 0], [0, 0, 0]], [[1, 0, 2], [2, 0, 1]],
                        [[2, 1, 0], [1, 1, 0]], [[0, 2, 1], [2, 0, 0]]], np.int32)
    return {"tree": tf.contrib.seq2seq.gather_tree(step_ids, parents, [4, 3], 0),
            "short": tf.contrib.seq2seq.gather_tree(step_ids, parents, [2, 0], end_token=9)}


def case_tile_batch(tf):
    x = tf.constant(_inputs((2, 3)))
    nested = tf.contrib.seq2seq.tile_batch({"a": x, "b": tf.constant([1, 2])}, 3)
    dynamic = tf.placeholder_with_default(x, [None, 3])
    return {"nested": nested, "dynamic": tf.contrib.seq2seq.tile_batch(dynamic, 2),
            "static": nested["a"].shape.as_list(), "dyn_shape": (
                tf.contrib.seq2seq.tile_batch(dynamic, 2).shape.as_list())}


def case_tile_batch_scalar_raises(tf):
    return {"x": tf.contrib.seq2seq.tile_batch(tf.constant(1.0), 2)}


def case_functions(tf):
    logits = _inputs((BATCH, 5))
    p = 1.0 / (1.0 + np.exp(-logits))
    previous = np.eye(5, dtype=np.float32)[[0, 1, 3]]
    return {"hardmax": tf.contrib.seq2seq.hardmax(logits),
            "cumprod": tf.contrib.seq2seq.safe_cumprod(p, axis=1, exclusive=True),
            "cumprod_rev": tf.contrib.seq2seq.safe_cumprod(p, axis=1, reverse=True),
            "recursive": tf.contrib.seq2seq.monotonic_attention(p, previous, "recursive"),
            "parallel": tf.contrib.seq2seq.monotonic_attention(p, previous, "parallel"),
            "hard": tf.contrib.seq2seq.monotonic_attention(
                (p > 0.5).astype(np.float32), previous, "hard")}


def case_monotonic_attention_bad_mode(tf):
    return {"x": tf.contrib.seq2seq.monotonic_attention(np.ones((1, 2)), np.ones((1, 2)),
                                                       "soft")}


def case_sequence_loss(tf):
    logits = tf.constant(_inputs((BATCH, TIME, VOCAB), 2.0))
    targets = tf.constant(np.arange(BATCH * TIME).reshape(BATCH, TIME) % VOCAB, tf.int32)
    weights = tf.constant([[1, 1, 1, 1], [1, 1, 0, 0], [1, 1, 1, 0]], tf.float32)
    loss = tf.contrib.seq2seq.sequence_loss
    return {"mean": loss(logits, targets, weights),
            "per_step": loss(logits, targets, weights, average_across_timesteps=False),
            "per_example": loss(logits, targets, weights, average_across_batch=False),
            "none": loss(logits, targets, weights, False, False),
            "sums": loss(logits, targets, weights, False, False, True, True),
            "sum_time": loss(logits, targets, weights, False, True, sum_over_timesteps=True),
            "sum_batch": loss(logits, targets, weights, True, False, sum_over_batch=True),
            "zero": loss(logits, targets, tf.zeros([BATCH, TIME])),
            "custom": loss(logits, targets, weights, softmax_loss_function=lambda labels, logits:
                           tf.reduce_max(logits, -1) * tf.cast(labels, tf.float32))}


def case_sequence_loss_bad_rank(tf):
    return {"x": tf.contrib.seq2seq.sequence_loss(tf.ones([2, 3]), tf.ones([2, 3], tf.int32),
                                                  tf.ones([2, 3]))}


def case_sequence_loss_both_averages_and_sums(tf):
    return {"x": tf.contrib.seq2seq.sequence_loss(
        tf.ones([2, 3, 4]), tf.ones([2, 3], tf.int32), tf.ones([2, 3]), sum_over_batch=True)}


def case_decoder_subclass(tf):
    class Counter(tf.contrib.seq2seq.Decoder):
        """A decoder of its own: emits the step and stops at 3."""
        batch_size = 2
        output_size = tf.TensorShape([])
        output_dtype = tf.int32

        def initialize(self, name=None):
            return tf.constant([False, False]), tf.zeros([2]), tf.zeros([2])

        def step(self, time, inputs, state, name=None):
            return (tf.fill([2], time), state + inputs + 1.0, inputs,
                    tf.fill([2], time >= 2))

    out, state, lengths = tf.contrib.seq2seq.dynamic_decode(Counter(), impute_finished=True)
    return {"out": out, "state": state, "lengths": lengths,
            "basic_output": list(tf.contrib.seq2seq.BasicDecoderOutput._fields),
            "beam_output": list(tf.contrib.seq2seq.BeamSearchDecoderOutput._fields),
            "beam_state": list(tf.contrib.seq2seq.BeamSearchDecoderState._fields),
            "final": list(tf.contrib.seq2seq.FinalBeamSearchDecoderOutput._fields),
            "helper_is_base": issubclass(tf.contrib.seq2seq.TrainingHelper,
                                         tf.contrib.seq2seq.Helper)}


def case_training_then_inference_share_variables(tf):
    with tf.variable_scope("model", initializer=_init):
        embedding = _embedding(tf)
        mechanism = tf.contrib.seq2seq.LuongAttention(UNITS, _memory())
        cell = tf.contrib.seq2seq.AttentionWrapper(tf.nn.rnn_cell.GRUCell(UNITS), mechanism,
                                                   attention_layer_size=UNITS)
        projection = _dense(tf, VOCAB, "output_projection")
        helper = tf.contrib.seq2seq.TrainingHelper(
            tf.nn.embedding_lookup(embedding, [[1, 2, 3], [2, 3, 4], [3, 4, 5]]), [3, 3, 2])
        train = tf.contrib.seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32),
                                                projection)
        train_out, _, _ = tf.contrib.seq2seq.dynamic_decode(train)
    with tf.variable_scope("model", reuse=True):
        helper = tf.contrib.seq2seq.GreedyEmbeddingHelper(embedding, [1, 1, 1], 0)
        infer = tf.contrib.seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32),
                                                projection)
        infer_out, _, _ = tf.contrib.seq2seq.dynamic_decode(infer, maximum_iterations=4)
    return {"train": train_out.rnn_output, "infer": infer_out.sample_id}


def case_attention_wrapper_in_dynamic_rnn(tf):
    with tf.variable_scope("model", initializer=_init):
        mechanism = tf.contrib.seq2seq.LuongAttention(UNITS, _memory(), [5, 2, 4])
        cell = tf.contrib.seq2seq.AttentionWrapper(
            tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(UNITS),
                                         tf.nn.rnn_cell.GRUCell(UNITS)]),
            mechanism, attention_layer_size=3, output_attention=False)
        outputs, state = tf.nn.dynamic_rnn(cell, _inputs(), sequence_length=[4, 1, 3],
                                           initial_state=cell.zero_state(BATCH, tf.float32),
                                           dtype=tf.float32)
    return {"outputs": outputs, "attention": state.attention, "alignments": state.alignments,
            "time": state.time}
