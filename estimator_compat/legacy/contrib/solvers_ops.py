"""Matrix-free Krylov solvers of `tf.contrib.solvers`, as TF 1.15 ran them (graph while loops).

An operator is any object with `shape` ([M, N], a list or a Tensor), `dtype`, `apply(x)` (A x)
and `apply_adjoint(x)` (A^H x) on column vectors; `create_operator` makes one of a matrix.
"""
import collections

import tensorflow as tf

_v1 = tf.compat.v1

LinearOperator = collections.namedtuple("LinearOperator",
                                        ["shape", "dtype", "apply", "apply_adjoint"])
LanczosBidiagState = collections.namedtuple("LanczosBidiagState", ["u", "v", "alpha", "beta"])
CGLSState = collections.namedtuple("CGLSState", ["i", "x", "r", "p", "gamma"])
CGState = collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])


def _shape(matrix):
    shape = matrix.get_shape()
    return shape.as_list() if shape.is_fully_defined() else tf.shape(matrix)


def create_operator(matrix):
    """The operator of a rank-2 tensor: matmul by it and by its adjoint."""
    return LinearOperator(shape=_shape(matrix), dtype=matrix.dtype,
                          apply=lambda v: tf.matmul(matrix, v, adjoint_a=False),
                          apply_adjoint=lambda v: tf.matmul(matrix, v, adjoint_a=True))


def identity_operator(matrix):
    """The identity operator with the shape and dtype of a rank-2 tensor."""
    return LinearOperator(shape=_shape(matrix), dtype=matrix.dtype, apply=lambda v: v,
                          apply_adjoint=lambda v: v)


def dot(x, y):
    return tf.reduce_sum(tf.math.conj(x) * y)


def l2norm_squared(v):
    return tf.constant(2, dtype=v.dtype.base_dtype) * tf.nn.l2_loss(v)


def l2norm(v):
    return tf.sqrt(l2norm_squared(v))


def l2normalize(v):
    norm = l2norm(v)
    return v / norm, norm


def _shaped(tensor, shape):
    tensor.set_shape(shape)
    return tensor


def _column(array, i):
    return tf.expand_dims(array.read(i), -1)


def _orthogonalized(count, basis, v):
    """v minus its projections on basis columns 0..count-1, normalized: (v, norm)."""
    def project_out(j, v):
        column = _column(basis, j)
        return j + 1, _shaped(v - tf.matmul(column, v, adjoint_a=True) * column, v.shape)
    _, v = _v1.while_loop(lambda j, v: j < count, project_out, [tf.constant(0), v])
    return l2normalize(v)


def _reorthogonalized(count, basis, v):
    """Gram-Schmidt against the basis, a second pass from the original v when the first
    lost more than 1/sqrt(2) of its norm (as TF 1.15 did)."""
    norm = l2norm(v)
    once, once_norm = _orthogonalized(count, basis, v)
    return _v1.cond(once_norm < 0.7071 * norm, lambda: _orthogonalized(count, basis, v),
                    lambda: (once, once_norm))


def lanczos_bidiag(operator, k, orthogonalize=True, starting_vector=None,
                   name="lanczos_bidiag"):
    """k steps of Golub-Kahan-Lanczos bidiagonalization A V = U B: (u [M, k+1], v [N, k],
    alpha [k], beta [k]), B lower bidiagonal with diagonal alpha and subdiagonal beta."""
    def array(size, dtype, array_name):
        return tf.TensorArray(dtype=dtype, size=size, tensor_array_name=array_name,
                              clear_after_read=False)

    def step(i, state):
        u = _column(state.u, i)
        r = operator.apply_adjoint(u)
        r = _shaped(_v1.cond(i > 0, lambda: r - state.beta.read(i - 1) *
                             _column(state.v, i - 1), lambda: r), r.shape)
        # TF 1.15 orthogonalized v against v[0..i-2] only (the recurrence handles v[i-1])
        v, alpha = (_reorthogonalized(i - 1, state.v, r) if orthogonalize
                    else l2normalize(r))
        p = operator.apply(v) - alpha * u
        u, beta = _reorthogonalized(i, state.u, p) if orthogonalize else l2normalize(p)
        return i + 1, LanczosBidiagState(state.u.write(i + 1, tf.squeeze(u)),
                                         state.v.write(i, tf.squeeze(v)),
                                         state.alpha.write(i, alpha), state.beta.write(i, beta))

    with tf.name_scope(name):
        dtype = operator.dtype
        if starting_vector is None:
            starting_vector = _v1.random_uniform(operator.shape[:1], -1, 1, dtype=dtype)
        u0, _ = l2normalize(starting_vector)
        state = LanczosBidiagState(u=array(k + 1, dtype, "u").write(0, tf.squeeze(u0)),
                                   v=array(k, dtype, "v"), alpha=array(k, dtype, "alpha"),
                                   beta=array(k, dtype, "beta"))
        _, state = _v1.while_loop(lambda i, _: i < k, step, [tf.constant(0), state])
        return LanczosBidiagState(tf.linalg.matrix_transpose(state.u.stack()),
                                  tf.linalg.matrix_transpose(state.v.stack()),
                                  state.alpha.stack(), state.beta.stack())


def bidiag_matmul(matrix, alpha, beta, adjoint_b=False, name="bidiag_matmul"):
    """A B for the (k+1) x k lower bidiagonal B of (alpha, beta); with `adjoint_b`,
    A B[:-1, :]^T (A then has k columns)."""
    with tf.name_scope(name):
        alpha = tf.expand_dims(alpha, 0)
        if adjoint_b is False:
            return matrix[:, :-1] * alpha + matrix[:, 1:] * tf.expand_dims(beta, 0)
        beta = tf.expand_dims(beta[:-1], 0)
        zero_column = tf.expand_dims(tf.zeros(tf.shape(matrix)[:1], dtype=matrix.dtype), 1)
        return matrix * alpha + tf.concat([zero_column, matrix[:, :-1] * beta], 1)


def cgls(operator, rhs, tol=1e-6, max_iter=20, name="cgls"):
    """Least squares min ||A x - rhs|| by conjugate gradients on the normal equations, until
    ||A^H r|| <= tol ||A^H rhs|| or `max_iter`: CGLSState(i, x, r, p, gamma = ||A^H r||^2)."""
    def step(i, state):
        q = operator.apply(state.p)
        alpha = state.gamma / l2norm_squared(q)
        x = state.x + alpha * state.p
        r = state.r - alpha * q
        s = operator.apply_adjoint(r)
        gamma = l2norm_squared(s)
        p = s + gamma / state.gamma * state.p
        return i + 1, CGLSState(i + 1, x, r, p, gamma)

    with tf.name_scope(name):
        rhs = tf.expand_dims(rhs, -1)
        s0 = operator.apply_adjoint(rhs)
        gamma0 = l2norm_squared(s0)
        tol = tol * tol * gamma0
        x = tf.expand_dims(tf.zeros(operator.shape[1:], dtype=rhs.dtype.base_dtype), -1)
        i = tf.constant(0, dtype=tf.int32)
        _, state = _v1.while_loop(
            lambda i, state: tf.logical_and(i < max_iter, state.gamma > tol), step,
            [i, CGLSState(i=i, x=x, r=rhs, p=s0, gamma=gamma0)])
        return CGLSState(state.i, x=tf.squeeze(state.x), r=tf.squeeze(state.r),
                         p=tf.squeeze(state.p), gamma=state.gamma)


def conjugate_gradient(operator, rhs, preconditioner=None, x=None, tol=1e-4, max_iter=20,
                       name="conjugate_gradient"):
    """A x = rhs for self-adjoint positive definite A (optionally preconditioned by M ~ A^-1),
    until ||r|| <= tol ||r0|| or `max_iter`: CGState(i, x, r, p, gamma = r . M r)."""
    def step(i, state):
        z = operator.apply(state.p)
        alpha = state.gamma / dot(state.p, z)
        x = state.x + alpha * state.p
        r = state.r - alpha * z
        q = r if preconditioner is None else preconditioner.apply(r)
        gamma = dot(r, q)
        p = q + gamma / state.gamma * state.p
        return i + 1, CGState(i + 1, x, r, p, gamma)

    with tf.name_scope(name):
        rhs = tf.expand_dims(rhs, -1)
        if x is None:
            x = tf.expand_dims(tf.zeros(operator.shape[1:], dtype=rhs.dtype.base_dtype), -1)
            r0 = rhs
        else:
            x = tf.expand_dims(x, -1)
            r0 = rhs - operator.apply(x)
        p0 = r0 if preconditioner is None else preconditioner.apply(r0)
        gamma0 = dot(r0, p0)
        tol = tol * tf.norm(r0)
        i = tf.constant(0, dtype=tf.int32)
        _, state = _v1.while_loop(
            lambda i, state: tf.logical_and(i < max_iter, tf.norm(state.r) > tol), step,
            [i, CGState(i=i, x=x, r=r0, p=p0, gamma=gamma0)])
        return CGState(state.i, x=tf.squeeze(state.x), r=tf.squeeze(state.r),
                       p=tf.squeeze(state.p), gamma=state.gamma)
