"""tf.contrib.crf cases (TF 1.15 style, Python 3.7): scores, log-likelihood, decoding and the
`transitions` variable compare with TF 1.15.5's record."""
import numpy as np

TAGS = 4


def _potentials(batch, steps):
    n = batch * steps * TAGS
    return (np.sin(np.arange(n) * 1.3) * 2.0).reshape(batch, steps, TAGS).astype(np.float32)


def _transitions():
    return (np.cos(np.arange(TAGS * TAGS) * 0.9)).reshape(TAGS, TAGS).astype(np.float32)


TAG_INDICES = np.array([[0, 1, 3, 2, 2], [3, 3, 0, 1, 0], [1, 2, 0, 0, 3]], np.int32)
LENGTHS = np.array([5, 3, 0], np.int32)


def case_scores_and_log_norm(tf):
    crf = tf.contrib.crf
    x = tf.constant(_potentials(3, 5))
    trans = tf.constant(_transitions())
    tags = tf.constant(TAG_INDICES)
    lengths = tf.constant(LENGTHS)
    bitmap = tf.constant(np.arange(3 * 5 * TAGS).reshape(3, 5, TAGS) % 3 != 0)
    return {
        "sequence": crf.crf_sequence_score(x, tags, lengths, trans),
        "unary": crf.crf_unary_score(tags, lengths, x),
        "binary": crf.crf_binary_score(tags, lengths, trans),
        "log_norm": crf.crf_log_norm(x, lengths, trans),
        "multitag": crf.crf_multitag_sequence_score(x, bitmap, lengths, trans),
        "int64": crf.crf_sequence_score(x, tf.cast(tags, tf.int64), tf.cast(lengths, tf.int64),
                                        trans),
    }


def case_log_likelihood_makes_transitions(tf):
    x = tf.constant(_potentials(3, 5))
    with tf.variable_scope("crf_layer"):
        ll, trans = tf.contrib.crf.crf_log_likelihood(x, tf.constant(TAG_INDICES),
                                                      tf.constant(LENGTHS))
    loss = tf.reduce_mean(-ll)
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

    def run(sess):
        trans.load(_transitions(), sess)
        before = sess.run(ll)
        sess.run(train)
        return {"before": before, "after": sess.run(ll), "transitions": sess.run(trans)}
    return run


def case_single_step_sequences(tf):
    crf = tf.contrib.crf
    x = tf.constant(_potentials(3, 1))
    trans = tf.constant(_transitions())
    tags = tf.constant([[2], [0], [3]])
    lengths = tf.constant([1, 1, 0])
    decoded, best = crf.crf_decode(x, trans, lengths)
    dynamic = tf.placeholder_with_default(x, [None, None, TAGS])
    ddecoded, dbest = crf.crf_decode(dynamic, trans, lengths)
    return {"ll": crf.crf_log_likelihood(x, tags, lengths, trans)[0],
            "log_norm": crf.crf_log_norm(x, lengths, trans),
            "multitag": crf.crf_multitag_sequence_score(
                x, tf.constant(np.ones([3, 1, TAGS], bool)), lengths, trans),
            "decoded": decoded, "best": best, "ddecoded": ddecoded, "dbest": dbest,
            "dynamic_ll": crf.crf_log_likelihood(dynamic, tags, lengths, trans)[0]}


def case_crf_decode_matches_viterbi(tf):
    crf = tf.contrib.crf
    potentials = _potentials(3, 6)
    lengths = np.array([6, 4, 1], np.int32)
    decoded, best = crf.crf_decode(tf.constant(potentials), tf.constant(_transitions()),
                                   tf.constant(lengths))

    def run(sess):
        tags, scores = sess.run([decoded, best])
        viterbi = [crf.viterbi_decode(potentials[i, :lengths[i]], _transitions())
                   for i in range(3)]
        return {"tags": tags, "scores": scores,
                "viterbi_tags": [[int(t) for t in v[0]] + [-1] * (6 - len(v[0]))
                                 for v in viterbi],
                "viterbi_scores": [float(v[1]) for v in viterbi]}
    return run


def case_rnn_cells(tf):
    crf = tf.contrib.crf
    trans = tf.constant(_transitions())
    x = tf.constant(_potentials(2, 3))
    forward = crf.CrfForwardRnnCell(trans)
    alphas, state = forward(x[:, 1], x[:, 0])
    decode = crf.CrfDecodeForwardRnnCell(trans)
    pointers, dstate = decode(x[:, 1], x[:, 0])
    back = crf.CrfDecodeBackwardRnnCell(TAGS)
    tags, bstate = back(pointers, tf.constant([[1], [3]]))
    return {"alphas": alphas, "state": state, "pointers": pointers, "dstate": dstate,
            "tags": tags, "bstate": bstate,
            "sizes": tf.constant([forward.state_size, forward.output_size, decode.state_size,
                                  back.state_size, back.output_size])}
