"""tf.contrib.signal, .stateless, .sparsemax and .nn cases: values on fixed inputs (stateless
random ops with fixed seeds), as TF 1.15 computed them."""
import numpy as np

SIG = np.sin(np.arange(64, dtype=np.float32) / 3.0) + np.cos(np.arange(64, dtype=np.float32) / 7.0)
LOGITS = np.array([[0.5, 1.2, -0.3, 0.9], [2.0, -1.0, 0.1, 0.0], [0.3, 0.3, 0.3, 0.3]],
                  np.float32)
LABELS = np.array([[0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.5, 0.5]], np.float32)


def case_signal(tf):
    s = tf.contrib.signal
    x = tf.constant(SIG)
    stft = s.stft(x, frame_length=16, frame_step=8, fft_length=16)
    mel = s.linear_to_mel_weight_matrix(num_mel_bins=4, num_spectrogram_bins=9, sample_rate=800,
                                        lower_edge_hertz=20.0, upper_edge_hertz=380.0)
    log_mel = tf.log(tf.matmul(tf.abs(stft), mel) + 1e-3)
    return {"frame": s.frame(x[:10], 4, 3, pad_end=True),
            "hamming": s.hamming_window(5), "hann": s.hann_window(6, periodic=False),
            "stft_abs": tf.abs(stft),
            "istft": s.inverse_stft(stft, 16, 8, 16,
                                    window_fn=s.inverse_stft_window_fn(8)),
            "mel": mel, "mfcc": s.mfccs_from_log_mel_spectrograms(log_mel),
            "ola": s.overlap_and_add(tf.reshape(x[:12], [3, 4]), 2)}


case_signal.tolerance = {"rtol": 1e-4, "atol": 1e-4}


def case_stateless(tf):
    s = tf.contrib.stateless
    seed = tf.constant([7, 11], tf.int64)
    return {"normal": s.stateless_random_normal([2, 3], seed),
            "normal_shifted": s.stateless_random_normal([3], [1, 2], mean=2.0, stddev=0.5),
            "uniform": s.stateless_random_uniform([4], seed),
            "uniform_range": s.stateless_random_uniform([4], seed, minval=-2.0, maxval=3.0),
            "uniform_int": s.stateless_random_uniform([5], seed, minval=3, maxval=9,
                                                      dtype=tf.int32),
            "truncated": s.stateless_truncated_normal([2, 2], seed, stddev=2.0),
            "multinomial": s.stateless_multinomial(tf.constant(np.log(LOGITS[:2] ** 2 + 0.1)),
                                                   6, seed)}


def case_stateless_bad_seed(tf):
    return {"x": tf.contrib.stateless.stateless_random_normal([2], [1, 2, 3])}


def case_sparsemax(tf):
    logits = tf.constant(LOGITS)
    probs = tf.contrib.sparsemax.sparsemax(logits)
    loss = tf.contrib.sparsemax.sparsemax_loss(logits, probs, tf.constant(LABELS))
    grad = tf.gradients(tf.reduce_sum(probs * tf.constant(LABELS)), logits)[0]
    loss_grad = tf.gradients(tf.reduce_sum(loss), logits)[0]
    inf = tf.contrib.sparsemax.sparsemax(tf.constant([[1.0, -np.inf, 0.5]], tf.float32))
    return {"probs": probs, "loss": loss, "grad": grad, "loss_grad": loss_grad, "inf": inf,
            "name": probs.op.name, "loss_name": loss.op.name}


def case_nn(tf):
    n = tf.contrib.nn
    logits = tf.constant(LOGITS)
    x = tf.constant(SIG[:12].reshape(1, 6, 2))
    filters = tf.constant(np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(3, 2, 2))
    return {
        "sigmoid": n.deprecated_flipped_sigmoid_cross_entropy_with_logits(logits, LABELS),
        "softmax": n.deprecated_flipped_softmax_cross_entropy_with_logits(logits, LABELS),
        "softmax_dim0": n.deprecated_flipped_softmax_cross_entropy_with_logits(
            logits, LABELS, dim=0),
        "sparse": n.deprecated_flipped_sparse_softmax_cross_entropy_with_logits(
            logits, tf.constant([1, 0, 3])),
        "nth": n.nth_element(logits, 1), "nth_rev": n.nth_element(logits, 0, reverse=True),
        "softplus": n.scaled_softplus(logits, 0.5),
        "softplus_clip": n.scaled_softplus(logits, tf.constant([1.0, 2.0, 0.5, 1.0]), clip=0.8),
        "softplus_grad": tf.gradients(tf.reduce_sum(n.scaled_softplus(logits, 2.0, clip=0.9)),
                                      logits)[0],
        "conv1d_t": n.conv1d_transpose(x, filters, [1, 12, 2], 2, padding="SAME"),
        "alpha_dropout_keep": n.alpha_dropout(logits, 1.0),
    }


def case_alpha_dropout_stats(tf):
    x = tf.random_normal([20000], seed=3)
    y = tf.contrib.nn.alpha_dropout(x, 0.8, seed=5)
    mean, var = tf.nn.moments(y, [0])
    return {"mean": tf.round(mean * 10.0) / 10.0, "var": tf.round(var * 10.0) / 10.0,
            "dropped": tf.round(tf.reduce_mean(tf.cast(tf.equal(
                y, tf.reduce_min(y)), tf.float32)) * 10.0) / 10.0}


def case_sampled_sparse_softmax_loss(tf):
    weights = tf.constant(np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(6, 4))
    biases = tf.constant(np.linspace(0.0, 0.5, 6, dtype=np.float32))
    inputs = tf.constant(LOGITS)
    labels = tf.constant([[1], [4], [5]], tf.int64)
    sampled = (tf.constant([0, 2, 3], tf.int64), tf.constant([[0.3], [0.2], [0.1]]),
               tf.constant([0.3, 0.25, 0.2]))
    return {"loss": tf.contrib.nn.sampled_sparse_softmax_loss(
        weights, biases, labels, inputs, num_sampled=3, num_classes=6,
        sampled_values=sampled),
        "no_hits": tf.contrib.nn.sampled_sparse_softmax_loss(
            weights, biases, labels, inputs, 3, 6, sampled_values=sampled,
            remove_accidental_hits=False)}


def case_rank_sampled_softmax_loss(tf):
    weights = tf.constant(np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(6, 4))
    biases = tf.constant(np.linspace(0.0, 0.5, 6, dtype=np.float32))
    inputs = tf.constant(LOGITS)
    labels = tf.constant([[1], [4], [5]], tf.int64)
    out = {}
    for i, (sampled, expected, temperature, kept, hits) in enumerate([
            ([0, 2, 3, 5], [0.9, 0.01, 0.5, 0.05], 0.5, 2, True),
            ([1, 2, 4, 5], [0.2, 0.6, 0.01, 0.3], 2.0, 2, True),
            ([1, 2, 4, 5], [0.2, 0.6, 0.01, 0.3], 2.0, 3, False),
            ([0, 1, 3, 4, 5], [0.1, 0.2, 0.3, 0.4, 0.5], 0.3, 1, True)]):
        values = (tf.constant(sampled, tf.int64), tf.constant([[0.3], [0.2], [0.1]]),
                  tf.constant(expected))
        out["loss%d" % i] = tf.contrib.nn.rank_sampled_softmax_loss(
            weights, biases, labels, inputs, len(sampled), kept, 6, 1, values, temperature,
            hits, "div")
    return out
