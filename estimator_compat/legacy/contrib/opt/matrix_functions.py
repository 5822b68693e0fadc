"""Roots of symmetric PSD matrices for the Shampoo preconditioners (TF 1.15's
`tensorflow.contrib.opt.python.training.matrix_functions`): `matrix_inverse_pth_root`, the
coupled Schur-Newton iteration of Guo & Higham (2006, eq. 3.2), which needs only matmuls (TF
1.15 used it on TPUs), and `matrix_square_root`, the coupled Newton-Schulz iteration."""
import tensorflow as tf


def _matrix_power(mat, p):
    """mat ** p for a positive integer p, by repeated squaring."""
    result, base = None, mat
    while p:
        if p & 1:
            result = base if result is None else tf.matmul(result, base)
        p >>= 1
        if p:
            base = tf.matmul(base, base)
    return result


def matrix_inverse_pth_root(mat_g, mat_g_size, alpha, iter_count=100, epsilon=1e-6,
                           ridge_epsilon=1e-6):
    """mat_g ** alpha for alpha = -1/p (p a positive integer), `ridge_epsilon * I` added first;
    iterates until the iterate M is within `epsilon` of the identity (max abs difference) or
    `iter_count` iterations."""
    p = -1.0 / alpha
    if abs(p - round(p)) > 1e-6 or p <= 0:
        raise ValueError(f"matrix_inverse_pth_root needs alpha = -1/p for a positive integer "
                         f"p, got alpha={alpha!r}")
    p = round(p)
    mat_g = tf.convert_to_tensor(mat_g)
    dtype = mat_g.dtype
    if mat_g_size == 1:
        return tf.pow(mat_g + ridge_epsilon, alpha)
    identity = tf.eye(mat_g_size, dtype=dtype)
    damped = mat_g + ridge_epsilon * identity
    z = (1.0 + p) / (2.0 * tf.norm(damped))
    mat_m0 = damped * z
    error0 = tf.reduce_max(tf.abs(mat_m0 - identity))
    mat_h0 = identity * tf.pow(z, 1.0 / p)

    def keep_going(i, mat_m, mat_h, error):
        return tf.logical_and(i < iter_count, error > epsilon)

    def step(i, mat_m, mat_h, error):
        mat_t = ((p + 1.0) * identity - mat_m) / p
        new_m = tf.matmul(_matrix_power(mat_t, p), mat_m)
        return (i + 1, new_m, tf.matmul(mat_h, mat_t),
                tf.reduce_max(tf.abs(new_m - identity)))

    _, _, mat_h, _ = tf.while_loop(keep_going, step, [tf.constant(0), mat_m0, mat_h0, error0])
    return mat_h


def matrix_square_root(mat_a, mat_a_size, iter_count=100, ridge_epsilon=1e-4):
    """The square root of the symmetric PSD `mat_a` (`ridge_epsilon * I` added first), by
    `iter_count` coupled Newton-Schulz iterations on the matrix scaled to norm 1."""
    mat_a = tf.convert_to_tensor(mat_a)
    identity = tf.eye(mat_a_size, dtype=mat_a.dtype)
    damped = mat_a + ridge_epsilon * identity
    norm = tf.norm(damped)
    mat_init_y = damped / norm

    def step(i, mat_y, mat_z):
        mat_t = 0.5 * (3.0 * identity - tf.matmul(mat_z, mat_y))
        return i + 1, tf.matmul(mat_y, mat_t), tf.matmul(mat_t, mat_z)

    _, mat_y, _ = tf.while_loop(lambda i, y, z: i < iter_count, step,
                                [tf.constant(0), mat_init_y, identity])
    return mat_y * tf.sqrt(norm)
