"""tf.contrib.recurrent cases: `Recurrent` (accumulated and final states, gradients, a short
max length, end alignment, a custom cell_grad with extras, the one-step shortcut) and the
functional RNNs (LSTM / GRU / basic cells, lengths, time-major, reversed, bidirectional, one
training step), as TF 1.15 computed them."""
import numpy as np

X = np.array([[[0.5, -1.0], [1.0, 0.2]], [[0.3, 0.1], [-0.4, 0.6]], [[0.9, -0.2], [0.0, 0.0]],
              [[-0.7, 0.4], [0.2, -0.3]]], np.float32)  # [T=4, B=2, D=2]
H0 = np.array([[0.1, 0.2], [-0.3, 0.4]], np.float32)
W = np.array([[0.5, -0.2], [0.3, 0.8]], np.float32)
SEQ = np.array([[[0.5, -1.0, 0.2], [0.3, 0.1, -0.5], [0.9, -0.2, 0.4]],
                [[1.0, 0.2, 0.0], [-0.4, 0.6, 0.3], [0.0, 0.0, 0.0]]], np.float32)  # [B, T, 3]


def _cell_fn(tf):
    def cell_fn(theta, state0, inputs):
        pre = tf.matmul(state0["h"], theta["w"]) + inputs["x"]
        return {"h": tf.tanh(pre)}, {"pre": pre}
    return cell_fn


def _recurrent(tf, **kwargs):
    theta = {"w": tf.constant(W)}
    state0 = {"h": tf.constant(H0)}
    inputs = {"x": tf.constant(X)}
    acc, final = tf.contrib.recurrent.Recurrent(theta, state0, inputs, _cell_fn(tf), **kwargs)
    loss = tf.reduce_sum(acc["h"] * tf.range(1.0, 5.0)[:, None, None]) + tf.reduce_sum(
        final["h"] * 3.0)
    grads = tf.gradients(loss, [theta["w"], state0["h"], inputs["x"]])
    return {"acc": acc["h"], "final": final["h"], "d_w": grads[0], "d_h0": grads[1],
            "d_x": grads[2]}


def case_recurrent(tf):
    return _recurrent(tf)


def case_recurrent_max_length(tf):
    return _recurrent(tf, max_input_length=tf.constant(2))


def case_recurrent_aligned_end(tf):
    # forward values only: TF 1.15's derived gradient of a shortened end-aligned loop
    # re-differentiated its first step from a zero state (a bug; ours is the true gradient)
    out = _recurrent(tf, max_input_length=tf.constant(3), aligned_end=True)
    return {"acc": out["acc"], "final": out["final"]}


def case_recurrent_aligned_end_full_length(tf):
    return _recurrent(tf, max_input_length=tf.constant(4), aligned_end=True)


def case_recurrent_cell_grad_aligned_end(tf):
    return case_recurrent_cell_grad(tf, aligned_end=True)


def case_recurrent_cell_grad(tf, **kwargs):
    def cell_grad(theta, state0, inputs, extras, dstate1):
        # twice the true gradient, through the kept pre-activation: shows cell_grad is used
        d_pre = 2.0 * dstate1["h"] * (1.0 - tf.square(tf.tanh(extras["pre"])))
        return ({"w": tf.matmul(state0["h"], d_pre, transpose_a=True)},
                {"h": tf.matmul(d_pre, theta["w"], transpose_b=True)}, {"x": d_pre})
    return _recurrent(tf, cell_grad=cell_grad, max_input_length=tf.constant(3), **kwargs)


def case_recurrent_single_step(tf):
    theta = {"w": tf.constant(W)}
    acc, final = tf.contrib.recurrent.Recurrent(theta, {"h": tf.constant(H0)},
                                                {"x": tf.constant(X[:1])}, _cell_fn(tf),
                                                max_input_length=1)
    return {"acc": acc["h"], "final": final["h"]}


def _lstm(tf, name="lstm"):
    return tf.nn.rnn_cell.LSTMCell(3, initializer=tf.constant_initializer(0.1), name=name)


def case_functional_rnn_lstm_lengths(tf):
    lengths = tf.constant([3, 2])
    out, state = tf.contrib.recurrent.functional_rnn(_lstm(tf), tf.constant(SEQ),
                                                     sequence_length=lengths, dtype=tf.float32)
    w = tf.trainable_variables()[0]
    train = tf.train.GradientDescentOptimizer(0.5).minimize(tf.reduce_sum(out * out))

    def run(sess):
        before = sess.run({"out": out, "c": state.c, "h": state.h})
        sess.run(train)
        before["kernel_after_step"] = sess.run(w)
        before["shape"] = out.shape.as_list()
        return before
    return run


def case_functional_rnn_gru_time_major(tf):
    cell = tf.nn.rnn_cell.GRUCell(2, kernel_initializer=tf.constant_initializer(0.2))
    out, state = tf.contrib.recurrent.functional_rnn(
        cell, tf.constant(X), initial_state=tf.constant(H0), time_major=True, scope="gru")
    return {"out": out, "state": state, "shape": out.shape.as_list()}


def case_functional_rnn_reversed(tf):
    out, state = tf.contrib.recurrent.functional_rnn(
        _lstm(tf), tf.constant(SEQ), sequence_length=tf.constant([3, 2]), dtype=tf.float32,
        reverse=True)
    return {"out": out, "c": state.c, "h": state.h}


def case_functional_rnn_basic_cell_output_not_in_state(tf):
    cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicRNNCell(2) for _ in range(2)])
    out, state = tf.contrib.recurrent.functional_rnn(cell, tf.constant(SEQ), dtype=tf.float32)
    return {"shape": out.shape.as_list(), "layers": len(state)}


def case_bidirectional_functional_rnn(tf):
    (fw, bw), (sfw, sbw) = tf.contrib.recurrent.bidirectional_functional_rnn(
        _lstm(tf, "f"), _lstm(tf, "b"), tf.constant(SEQ), dtype=tf.float32,
        sequence_length=tf.constant([3, 2]))
    return {"fw": fw, "bw": bw, "c_fw": sfw.c, "h_bw": sbw.h}


def case_bidirectional_fast_reverse(tf):
    (fw, bw), (sfw, sbw) = tf.contrib.recurrent.bidirectional_functional_rnn(
        _lstm(tf, "f"), _lstm(tf, "b"), tf.constant(SEQ), dtype=tf.float32,
        fast_reverse=True, scope="bi")
    return {"fw": fw, "bw": bw, "h_fw": sfw.h, "c_bw": sbw.c}
