"""tf.contrib.opt's GGTOptimizer and ShampooOptimizer cases: a few steps on a small quadratic
(constant initial values, numpy data); the record holds every variable (slots, non-slot
variables and their names) and its values after each step."""
import numpy as np

X = np.array([[1.0, 2.0, -1.0], [0.5, -1.5, 2.0], [-2.0, 0.3, 0.8], [1.2, 1.1, -0.4]],
             np.float32)
Y = np.array([[1.0, -1.0], [0.0, 2.0], [1.5, 0.5], [-0.5, 1.0]], np.float32)
W0 = np.array([[0.1, -0.2], [0.3, 0.05], [-0.15, 0.2]], np.float32)
E0 = np.arange(12, dtype=np.float32).reshape(6, 2) / 10.0 - 0.5
IDS = np.array([0, 4, 4, 1], np.int64)


def _loss(tf):
    w = tf.get_variable("w", initializer=tf.constant(W0))
    b = tf.get_variable("b", initializer=tf.constant([0.1, -0.1]))
    return tf.reduce_mean(tf.square(tf.matmul(tf.constant(X), w) + b - tf.constant(Y)))


def _sparse_loss(tf):
    """An embedding lookup (IndexedSlices gradients) feeding the quadratic."""
    emb = tf.get_variable("emb", initializer=tf.constant(E0))
    rows = tf.nn.embedding_lookup(emb, tf.constant(IDS))
    return tf.reduce_sum(tf.square(rows - tf.constant(Y[:, :2])))


def _train(tf, make_opt, loss_fn=_loss, steps=3, global_step=True):
    step = tf.train.get_or_create_global_step() if global_step else None
    loss = loss_fn(tf)
    opt = make_opt(tf, step)
    train_op = opt.minimize(loss, global_step=step)

    def run(sess):
        out = {}
        for i in range(steps):
            sess.run(train_op)
            out["step%d" % i] = sess.run({v.op.name: v for v in tf.global_variables()})
        out["loss"] = sess.run(loss)
        return out
    return run


def case_ggt_defaults(tf):
    return _train(tf, lambda tf, step: tf.contrib.opt.GGTOptimizer(learning_rate=0.1))


# Until the window fills, the Gram matrix has `svd_eps`-sized singular values, and the part of
# the moment outside the window's span (zero, up to rounding) is divided by their square root
# (1e-3): float32 rounding of the SVD, amplified a thousandfold, differs between TF 1.15's Eigen
# and TensorFlow 2's by a few 1e-4.
_GGT_TOLERANCE = {"rtol": 1e-3, "atol": 5e-4}
case_ggt_defaults.tolerance = _GGT_TOLERANCE


def case_ggt_window_two(tf):
    return _train(tf, lambda tf, step: tf.contrib.opt.GGTOptimizer(
        learning_rate=0.05, beta1=0.5, window=2, eps=1e-3, name="MyGGT"), steps=4)


case_ggt_window_two.tolerance = _GGT_TOLERANCE


def case_ggt_sparse(tf):
    return _train(tf, lambda tf, step: tf.contrib.opt.GGTOptimizer(learning_rate=0.1),
                  loss_fn=_sparse_loss)


def case_ggt_no_global_step(tf):
    return _train(tf, lambda tf, step: tf.contrib.opt.GGTOptimizer(learning_rate=0.1),
                  global_step=False, steps=2)


case_ggt_no_global_step.tolerance = _GGT_TOLERANCE


def case_shampoo_defaults(tf):
    return _train(tf, lambda tf, step: tf.contrib.opt.ShampooOptimizer(
        global_step=step, learning_rate=0.1))


def case_shampoo_int_global_step(tf):
    return _train(tf, lambda tf, step: tf.contrib.opt.ShampooOptimizer(learning_rate=0.1))


def case_shampoo_momentum_decay(tf):
    return _train(tf, lambda tf, step: tf.contrib.opt.ShampooOptimizer(
        global_step=step, learning_rate=0.05, gbar_decay=0.9, gbar_weight=0.1,
        mat_gbar_decay=0.5, mat_gbar_weight=0.5, alpha=0.25, epsilon=1e-3), steps=4)


def case_shampoo_intervals(tf):
    return _train(tf, lambda tf, step: tf.contrib.opt.ShampooOptimizer(
        global_step=step, learning_rate=0.1, svd_interval=2, precond_update_interval=2,
        name="Sh"), steps=4)


# H_i = (Gbar_i / d + epsilon I) ** (-1/2n) of a near-singular Gbar_i (rank 1 after one step):
# float32 SVDs of TF 1.15's Eigen and TensorFlow 2's agree to a few 1e-5, relatively.
case_shampoo_intervals.tolerance = {"rtol": 1e-4, "atol": 1e-5}


def case_shampoo_diagonal(tf):
    """max_matrix_size below a dimension: that dimension's preconditioner is diagonal."""
    return _train(tf, lambda tf, step: tf.contrib.opt.ShampooOptimizer(
        global_step=step, learning_rate=0.1, max_matrix_size=2))


def case_shampoo_callable_params(tf):
    return _train(tf, lambda tf, step: tf.contrib.opt.ShampooOptimizer(
        global_step=step, learning_rate=lambda t: 0.1 / tf.cast(t, tf.float32),
        gbar_decay=lambda t: 0.5 * tf.ones([], tf.float32),
        gbar_weight=lambda t: 1.0 - 0.5 * tf.ones([], tf.float32)))


def case_shampoo_iterative_root(tf):
    return _train(tf, lambda tf, step: tf.contrib.opt.ShampooOptimizer(
        global_step=step, learning_rate=0.1, use_iterative_root=True))


case_shampoo_iterative_root.tolerance = {"rtol": 2e-3, "atol": 2e-4}


def case_shampoo_sparse_dense_path(tf):
    return _train(tf, lambda tf, step: tf.contrib.opt.ShampooOptimizer(
        global_step=step, learning_rate=0.1), loss_fn=_sparse_loss)


def case_shampoo_sparse_large(tf):
    """The embedding's first dimension above max_matrix_size: the sparse, diagonal update."""
    return _train(tf, lambda tf, step: tf.contrib.opt.ShampooOptimizer(
        global_step=step, learning_rate=0.1, max_matrix_size=4), loss_fn=_sparse_loss)
