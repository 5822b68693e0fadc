"""tf.contrib.cudnn_rnn cases (TF 1.15 style, Python 3.7). TF 1.15's cuDNN layers need a GPU
to run, so what is recorded is what TF 1.15 does on CPU: the cuDNN-compatible cells (values
with fixed weights, under the layers' canonical scopes) and the canonical checkpoint names the
saveables give each layout. tests/test_contrib_cudnn_rnn.py checks our layers against both."""
from tf115_cases.fixed_values import fixed as _fixed, inputs as _inputs


def _filled(tf, fetches):
    def run(sess):
        sess.run([tf.assign(v, _fixed(v.shape.as_list(), i))
                  for i, v in enumerate(tf.global_variables())])
        return sess.run(fetches)
    return run


def case_compatible_lstm_stack(tf):
    """The graph TF 1.15 documented for running a CudnnLSTM(2, 4) checkpoint on CPU."""
    cudnn = tf.contrib.cudnn_rnn
    x = tf.constant(_inputs(5, 2, 3))
    with tf.variable_scope("cudnn_lstm"):
        cells = [cudnn.CudnnCompatibleLSTMCell(4) for _ in range(2)]
        out, states = tf.nn.dynamic_rnn(tf.nn.rnn_cell.MultiRNNCell(cells), x, time_major=True,
                                        sequence_length=[5, 3], dtype=tf.float32)
    return _filled(tf, {"out": out, "h0": states[0].h, "c1": states[1].c, "h1": states[1].h})


def case_compatible_gru_bidirectional(tf):
    """CudnnGRU(1, 3, direction='bidirectional')'s CPU graph."""
    cudnn = tf.contrib.cudnn_rnn
    x = tf.constant(_inputs(4, 2, 3))
    with tf.variable_scope("cudnn_gru"):
        out, fw, bw = tf.contrib.rnn.stack_bidirectional_dynamic_rnn(
            [cudnn.CudnnCompatibleGRUCell(3)], [cudnn.CudnnCompatibleGRUCell(3)], x,
            time_major=True, dtype=tf.float32)
    return _filled(tf, {"out": out, "fw": fw[0], "bw": bw[0]})


def case_saveable_canonical_names(tf):
    """The names each saveable writes (built in a graph of its own: TF 1.15's saveables hold
    GPU-only conversion ops, which make a CPU session refuse the whole graph)."""
    cudnn = tf.contrib.cudnn_rnn
    names = {}
    with tf.Graph().as_default():
        opaque = tf.get_variable("opaque", initializer=tf.zeros([2000]))
        for cls in ("CudnnLSTMSaveable", "CudnnGRUSaveable", "CudnnRNNTanhSaveable",
                    "CudnnRNNReluSaveable"):
            for direction in ("unidirectional", "bidirectional"):
                saveable = getattr(cudnn, cls)(opaque, 2, 4, 3, direction=direction,
                                               scope="layer")
                names["%s_%s" % (cls, direction)] = [spec.name for spec in saveable.specs]
    return names
