"""tf.contrib.rnn cases (TF 1.15 style, Python 3.7): each cell under dynamic_rnn / static_rnn
with every variable loaded with fixed values after initialization, so outputs, final states,
variable names and shapes compare with TF 1.15.5's record."""
import numpy as np

from tf115_cases.fixed_values import fixed as _fixed, inputs as _inputs, flat as _flat


def _filled(tf, fetches, special=None):
    """run(sess): every global variable set to fixed values (`special(name)` may give one),
    then `fetches` (flattened)."""
    fetches = _flat(fetches)

    def run(sess):
        assigns = []
        for i, v in enumerate(tf.global_variables()):
            value = special(v.op.name, v.shape.as_list()) if special else None
            assigns.append(tf.assign(v, _fixed(v.shape.as_list(), i) if value is None
                                     else value))
        sess.run(assigns)
        return sess.run(fetches)
    return run


def _dynamic(tf, cell, inputs=None, lengths=None):
    x = tf.constant(_inputs(2, 4, 3)) if inputs is None else inputs
    out, state = tf.nn.dynamic_rnn(cell, x, sequence_length=lengths, dtype=tf.float32)
    return _filled(tf, {"out": out, "state": state})


def case_lstm_block_cell_peepholes_clip(tf):
    return _dynamic(tf, tf.contrib.rnn.LSTMBlockCell(5, use_peephole=True, cell_clip=0.4),
                    lengths=[4, 2])


def case_lstm_block_cell_reads_lstm_cell_names(tf):
    cell = tf.contrib.rnn.LSTMBlockCell(5, forget_bias=0.5)
    return _dynamic(tf, tf.contrib.rnn.MultiRNNCell([cell, tf.contrib.rnn.LSTMBlockCell(3)]))


def case_gru_block_cells(tf):
    x = tf.constant(_inputs(2, 4, 3))
    out1, s1 = tf.nn.dynamic_rnn(tf.contrib.rnn.GRUBlockCell(4), x, dtype=tf.float32,
                                 scope="v1")
    out2, s2 = tf.nn.dynamic_rnn(tf.contrib.rnn.GRUBlockCellV2(num_units=4), x,
                                 dtype=tf.float32, scope="v2")
    return _filled(tf, {"out1": out1, "s1": s1, "out2": out2, "s2": s2})


def case_lstm_block_fused_cell(tf):
    x = tf.constant(_inputs(4, 3, 3))
    cell = tf.contrib.rnn.LSTMBlockFusedCell(5, use_peephole=True, cell_clip=0.6)
    out, state = cell(x, dtype=tf.float32, sequence_length=[4, 2, 3])
    listed, lstate = tf.contrib.rnn.LSTMBlockFusedCell(2, name="listed")(
        x, initial_state=(tf.ones([3, 2]), tf.zeros([3, 2])))
    return _filled(tf, {"out": out, "state": state, "listed": listed, "lstate": lstate})


def case_block_cells_train(tf):
    x = tf.constant(_inputs(4, 2, 3))
    fused, _ = tf.contrib.rnn.LSTMBlockFusedCell(4)(x, dtype=tf.float32)
    step, _ = tf.nn.dynamic_rnn(tf.contrib.rnn.LSTMBlockCell(4), x, dtype=tf.float32,
                                time_major=True)
    gru, _ = tf.nn.dynamic_rnn(tf.contrib.rnn.GRUBlockCellV2(4), x, dtype=tf.float32,
                               time_major=True, scope="gru")
    loss = tf.reduce_sum(tf.square(fused - 0.3)) + tf.reduce_sum(tf.square(step + 0.2)) + \
        tf.reduce_sum(tf.square(gru - 0.1))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    fill = _filled(tf, loss)

    def run(sess):
        before = fill(sess)
        sess.run(train)
        return _flat({"before": before, "after": sess.run(loss),
                      "vars": sess.run(tf.trainable_variables())})
    return run


def case_layer_norm_basic_lstm(tf):
    x = tf.constant(_inputs(2, 4, 3))
    out, state = tf.nn.dynamic_rnn(tf.contrib.rnn.LayerNormBasicLSTMCell(4, norm_gain=0.9),
                                   x, dtype=tf.float32)
    out2, _ = tf.nn.dynamic_rnn(tf.contrib.rnn.LayerNormBasicLSTMCell(3, layer_norm=False), x,
                                dtype=tf.float32, scope="plain")
    return _filled(tf, {"out": out, "state": state, "out2": out2})


def case_coupled_input_forget_gate(tf):
    return _dynamic(tf, tf.contrib.rnn.CoupledInputForgetGateLSTMCell(
        4, use_peepholes=True, num_proj=3, proj_clip=0.5))


def case_time_freq_lstm(tf):
    return _dynamic(tf, tf.contrib.rnn.TimeFreqLSTMCell(
        4, use_peepholes=True, cell_clip=0.8, feature_size=3, frequency_skip=1))


def case_grid_lstm(tf):
    return _dynamic(tf, tf.contrib.rnn.GridLSTMCell(
        3, use_peepholes=True, feature_size=2, frequency_skip=1, num_frequency_blocks=[2]))


def case_grid_lstm_shared_coupled(tf):
    return _dynamic(tf, tf.contrib.rnn.GridLSTMCell(
        3, use_peepholes=True, share_time_frequency_weights=True,
        couple_input_forget_gates=True, feature_size=2, frequency_skip=1,
        num_frequency_blocks=[2], cell_clip=0.5))


def case_bidirectional_grid_lstm(tf):
    return _dynamic(tf, tf.contrib.rnn.BidirectionalGridLSTMCell(
        3, feature_size=2, frequency_skip=1, num_frequency_blocks=[2], backward_slice_offset=1))


def case_nas_cell(tf):
    return _dynamic(tf, tf.contrib.rnn.NASCell(4, num_proj=3, use_bias=True))


def case_ugrnn_and_intersection(tf):
    x = tf.constant(_inputs(2, 4, 3))
    out1, s1 = tf.nn.dynamic_rnn(tf.contrib.rnn.UGRNNCell(4), x, dtype=tf.float32)
    out2, s2 = tf.nn.dynamic_rnn(tf.contrib.rnn.IntersectionRNNCell(4, num_in_proj=4), x,
                                 dtype=tf.float32, scope="inter")
    return _filled(tf, {"out1": out1, "s1": s1, "out2": out2, "s2": s2})


def case_phased_lstm(tf):
    times = tf.constant(np.arange(8, dtype=np.float32).reshape(2, 4, 1) * 1.3)
    x = tf.constant(_inputs(2, 4, 3))
    out, state = tf.nn.dynamic_rnn(tf.contrib.rnn.PhasedLSTMCell(4, use_peepholes=True),
                                   (times, x), dtype=tf.float32)

    def special(name, shape):
        if name.endswith("period"):
            return np.array([2.0, 3.5, 5.0, 7.0], np.float32)
        if name.endswith("phase"):
            return np.array([0.25, 1.0, 0.5, 2.0], np.float32)
        if name.endswith("ratio_on"):
            return np.array([0.1, 0.3, 0.5, 0.7], np.float32)
        return None
    return _filled(tf, {"out": out, "state": state}, special)


def case_conv_lstm_cells(tf):
    x1 = tf.constant(_inputs(2, 3, 5, 2))
    out1, s1 = tf.nn.dynamic_rnn(tf.contrib.rnn.Conv1DLSTMCell(
        input_shape=[5, 2], output_channels=3, kernel_shape=[3]), x1, dtype=tf.float32)
    x2 = tf.constant(_inputs(2, 2, 4, 4, 2))
    out2, s2 = tf.nn.dynamic_rnn(tf.contrib.rnn.Conv2DLSTMCell(
        input_shape=[4, 4, 2], output_channels=2, kernel_shape=[3, 3]), x2, dtype=tf.float32,
        scope="two")
    skip = tf.contrib.rnn.Conv2DLSTMCell(input_shape=[4, 4, 2], output_channels=2,
                                         kernel_shape=[2, 2], skip_connection=True)
    zero = skip.zero_state(2, tf.float32)
    out3, s3 = skip(x2[:, 0], zero)
    return _filled(tf, {"out1": out1, "s1": s1, "out2": out2, "s2": s2, "out3": out3, "s3": s3,
                        "size": tf.constant(skip.output_size.as_list())})


def case_glstm_cell(tf):
    return _dynamic(tf, tf.contrib.rnn.GLSTMCell(4, num_proj=4, number_of_groups=2),
                    tf.constant(_inputs(2, 4, 4)))


def case_sru_and_ind_cells(tf):
    x = tf.constant(_inputs(2, 4, 3))
    fetches = {}
    for name, cell in (("sru", tf.contrib.rnn.SRUCell(4)), ("ind", tf.contrib.rnn.IndRNNCell(4)),
                       ("indy_gru", tf.contrib.rnn.IndyGRUCell(4)),
                       ("indy_lstm", tf.contrib.rnn.IndyLSTMCell(4))):
        fetches[name] = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32, scope=name)
    return _filled(tf, fetches)


def case_projection_embedding_highway_wrappers(tf):
    x = tf.constant(_inputs(2, 4, 3))
    rnn = tf.contrib.rnn
    fetches = {
        "highway": tf.nn.dynamic_rnn(rnn.HighwayWrapper(rnn.LSTMCell(3)), x, dtype=tf.float32,
                                     scope="hw"),
        "highway2": tf.nn.dynamic_rnn(rnn.HighwayWrapper(
            rnn.GRUCell(3), couple_carry_transform_gates=False), x, dtype=tf.float32,
            scope="hw2"),
        "in_proj": tf.nn.dynamic_rnn(rnn.InputProjectionWrapper(rnn.LSTMCell(4), 2,
                                                                activation=tf.tanh),
                                     x, dtype=tf.float32, scope="ip"),
        "out_proj": tf.nn.dynamic_rnn(rnn.OutputProjectionWrapper(rnn.GRUCell(4), 2), x,
                                      dtype=tf.float32, scope="op"),
        "embed": tf.nn.dynamic_rnn(rnn.EmbeddingWrapper(rnn.GRUCell(4), 10, 3),
                                   tf.constant([[[1], [3], [9], [0]], [[2], [2], [5], [7]]]),
                                   dtype=tf.float32, scope="emb"),
        "compiled": tf.nn.dynamic_rnn(rnn.CompiledWrapper(rnn.LSTMCell(4)), x,
                                      dtype=tf.float32, scope="cw"),
    }
    return _filled(tf, fetches)


def case_attention_cell_wrapper(tf):
    x = tf.constant(_inputs(2, 4, 3))
    rnn = tf.contrib.rnn
    out, state = tf.nn.dynamic_rnn(rnn.AttentionCellWrapper(rnn.LSTMCell(4), 3, attn_size=5,
                                                            attn_vec_size=6),
                                   x, dtype=tf.float32)
    out2, state2 = tf.nn.dynamic_rnn(rnn.AttentionCellWrapper(rnn.GRUCell(4), 2,
                                                              state_is_tuple=False),
                                     x, dtype=tf.float32, scope="flat")
    return _filled(tf, {"out": out, "state": state, "out2": out2, "state2": state2})


def case_fused_adaptor_and_reversal(tf):
    x = tf.constant(_inputs(4, 2, 3))
    rnn = tf.contrib.rnn
    dyn = rnn.FusedRNNCellAdaptor(rnn.LSTMCell(4), use_dynamic_rnn=True)(
        x, dtype=tf.float32, scope="dyn")
    static = rnn.FusedRNNCellAdaptor(rnn.GRUCell(3))(tf.unstack(x), dtype=tf.float32,
                                                     scope="static")
    rev = rnn.TimeReversedFusedRNN(rnn.LSTMBlockFusedCell(4))(
        x, dtype=tf.float32, sequence_length=[3, 4])
    rev2 = rnn.TimeReversedFusedRNN(rnn.FusedRNNCellAdaptor(rnn.GRUCell(2)))(
        tf.unstack(x), dtype=tf.float32, scope="rev2")
    return _filled(tf, {"dyn": dyn, "static": static, "rev": rev, "rev2": rev2})


def case_stack_bidirectional_dynamic_rnn(tf):
    rnn = tf.contrib.rnn
    x = tf.constant(_inputs(2, 4, 3))
    out, fw, bw = rnn.stack_bidirectional_dynamic_rnn(
        [rnn.LSTMCell(4), rnn.GRUCell(3)], [rnn.LSTMBlockCell(4), rnn.GRUCell(3)], x,
        sequence_length=[4, 3], dtype=tf.float32)
    return _filled(tf, {"out": out, "fw": fw, "bw": bw})


def case_stack_bidirectional_rnn(tf):
    rnn = tf.contrib.rnn
    x = tf.unstack(tf.constant(_inputs(2, 4, 3)), axis=1)
    out, fw, bw = rnn.stack_bidirectional_rnn(
        [rnn.LSTMCell(4), rnn.LSTMCell(2)], [rnn.GRUCell(4), rnn.GRUCell(2)], x,
        initial_states_fw=[rnn.LSTMStateTuple(tf.ones([2, 4]), tf.zeros([2, 4])), None],
        dtype=tf.float32, sequence_length=[4, 2], scope="stack")
    return _filled(tf, {"out": out, "fw": fw, "bw": bw})


def case_static_rnn_and_helpers(tf):
    rnn = tf.contrib.rnn
    x = tf.constant(_inputs(2, 4, 3))
    outs, state = rnn.static_rnn(rnn.BasicLSTMCell(3), tf.unstack(x, axis=1), dtype=tf.float32)
    bouts, bfw, bbw = rnn.static_bidirectional_rnn(rnn.GRUCell(2), rnn.GRUCell(2),
                                                   tf.unstack(x, axis=1), dtype=tf.float32)
    batch = rnn.best_effort_input_batch_size([tf.zeros([4, 2, 3])])
    dynamic_batch = rnn.best_effort_input_batch_size(
        [tf.placeholder_with_default(tf.zeros([4, 5, 3]), [None, None, 3])])
    transposed = rnn.transpose_batch_time(x)
    return _filled(tf, {"outs": outs, "state": state, "bouts": bouts, "bfw": bfw, "bbw": bbw,
                        "batch": tf.constant(batch), "dynamic_batch": dynamic_batch,
                        "transposed": transposed,
                        "shape": tf.constant(transposed.shape.as_list())})


def case_cells_named_alike_get_their_own_scopes(tf):
    rnn = tf.contrib.rnn
    x = tf.constant(_inputs(2, 3))
    h = tf.zeros([2, 4])
    a, _ = rnn.LSTMCell(4, name="foo")(x, rnn.LSTMStateTuple(h, h))
    b, _ = rnn.LSTMCell(4, name="foo")(x, rnn.LSTMStateTuple(h, h))
    c, _ = rnn.LSTMBlockCell(4)(x, rnn.LSTMStateTuple(h, h))
    return _filled(tf, {"a": a, "b": b, "c": c})


def case_gru_block_cell_needs_one_size(tf):
    return {"cell": tf.contrib.rnn.GRUBlockCell(num_units=3, cell_size=3).output_size}


def case_stack_needs_equal_depths(tf):
    rnn = tf.contrib.rnn
    return {"out": rnn.stack_bidirectional_dynamic_rnn(
        [rnn.GRUCell(2)], [rnn.GRUCell(2), rnn.GRUCell(2)], tf.zeros([1, 2, 3]),
        dtype=tf.float32)[0]}


def case_dropout_wrapper_state_filter(tf):
    """A visitor that keeps the whole state: the state is the unwrapped cell's."""
    rnn = tf.contrib.rnn
    x = tf.constant(_inputs(2, 3, 3))
    cells = [rnn.DropoutWrapper(rnn.LSTMCell(3), state_keep_prob=0.5,
                                dropout_state_filter_visitor=lambda s: False),
             rnn.DropoutWrapper(rnn.GRUCell(2), input_keep_prob=1.0, output_keep_prob=1.0)]
    out, state = tf.nn.dynamic_rnn(rnn.MultiRNNCell(cells), x, dtype=tf.float32)
    return _filled(tf, {"out": out, "state": state})


def case_dropout_wrapper_variational(tf):
    rnn = tf.contrib.rnn
    x = tf.constant(_inputs(2, 3, 3))
    cell = rnn.DropoutWrapper(rnn.LSTMCell(3), input_keep_prob=0.7, output_keep_prob=0.6,
                              state_keep_prob=0.8, variational_recurrent=True, input_size=3,
                              dtype=tf.float32, seed=5)
    out, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    return {"shapes": tf.constant([out.shape.as_list(), state.c.shape.as_list() + [0]])}


def case_dropout_wrapper_variational_needs_dtype(tf):
    return {"cell": tf.contrib.rnn.DropoutWrapper(
        tf.contrib.rnn.GRUCell(2), state_keep_prob=0.5, variational_recurrent=True).output_size}


def case_lstm_cell_sharded_kernels(tf):
    rnn = tf.contrib.rnn
    cell = rnn.LSTMCell(4, num_proj=3, num_unit_shards=2, num_proj_shards=2, use_peepholes=True)
    return _dynamic(tf, cell)


def case_core_rnn_cell_linear_deep_path(tf):
    """`_linear` through its deep import path, as old seq2seq code called it."""
    import importlib
    core = importlib.import_module("tensorflow.contrib.rnn.python.ops.core_rnn_cell")
    with tf.variable_scope("proj"):
        y = core._linear([tf.constant(_inputs(2, 3)), tf.constant(_inputs(2, 2))], 4, True,
                         bias_initializer=tf.constant_initializer(0.5))
    return _filled(tf, {"y": y})


class _StateSaver(object):
    """The state-saver protocol static_state_saving_rnn reads (a SequenceQueueingStateSaver's)."""

    def __init__(self, tf):
        self._tf = tf
        self.saved = {}

    def state(self, name):
        return self._tf.constant(_fixed([2, 3], len(name)))

    def save_state(self, name, value):
        self.saved[name] = value
        return self._tf.no_op()


def case_static_state_saving_rnn(tf):
    rnn = tf.contrib.rnn
    saver = _StateSaver(tf)
    outputs, state = rnn.static_state_saving_rnn(
        rnn.BasicLSTMCell(3), tf.unstack(tf.constant(_inputs(2, 3, 3)), axis=1), saver,
        ("c_state", "h"))
    return _filled(tf, {"outputs": outputs, "state": state, "saved": saver.saved["h"]})
