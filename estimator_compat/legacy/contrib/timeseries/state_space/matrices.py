"""Matrix helpers of the state space models (TF 1.15's `math_utils` functions they use):
block-diagonal stacking, batched matrix powers and noise power sums, the covariance matrix
parameterization trained as variables (`<name>_pre_transform`, `_off_diagonal_scale`,
`_overall_scale`), covariance clipping, the Jeffreys covariance prior and the multivariate
normal log density from a Cholesky factor."""
import numpy as np
import tensorflow as tf

v1 = tf.compat.v1


def block_diagonal(matrices, dtype=tf.float32, name="block_diagonal"):
    """`[..., sum rows, sum columns]`: the (batched) matrices on the diagonal, zeros around."""
    matrices = [tf.convert_to_tensor(matrix, dtype=dtype) for matrix in matrices]
    rows, columns = 0, 0
    batch_shape = tf.TensorShape(None)
    for matrix in matrices:
        shape = matrix.shape.with_rank_at_least(2)
        batch_shape = batch_shape.merge_with(shape[:-2])
        rows = None if rows is None or shape[-2] is None else rows + shape[-2]
        columns = None if columns is None or shape[-1] is None else columns + shape[-1]
    total = tf.add_n([tf.shape(matrix)[-1] for matrix in matrices])
    blocks, before = [], 0
    for matrix in matrices:
        after_start = before + tf.shape(matrix)[-1]
        paddings = tf.concat([tf.zeros([tf.rank(matrix) - 1, 2], dtype=tf.int32),
                              [[before, total - after_start]]], axis=0)
        blocks.append(tf.pad(matrix, paddings))
        before = after_start
    blocked = tf.concat(blocks, axis=-2, name=name)
    blocked.set_shape(batch_shape.concatenate((rows, columns)))
    return blocked


def batch_times_matrix(batch, matrix, adj_x=False, adj_y=False):
    """`[b, n, m] x [m, k]` (either side adjointed) as one reshaped matmul."""
    batch = tf.convert_to_tensor(batch)
    matrix = tf.convert_to_tensor(matrix)
    if adj_x:
        batch = tf.transpose(batch, [0, 2, 1])
    shape = tf.shape(batch)
    flat = tf.reshape(batch, [-1, shape[2]])
    columns = tf.shape(matrix)[0] if adj_y else tf.shape(matrix)[1]
    return tf.reshape(tf.matmul(flat, matrix, adjoint_b=adj_y),
                      tf.stack([shape[0], shape[1], columns]))


def power_sums_tensor(array_size, power_matrix, multiplier):
    """`[array_size, n, n]`: entry i is sum_{j<i} A^j M (A^j)^T (entry 0 is zeros)."""
    array_size = tf.cast(array_size, tf.int32)
    power_matrix = tf.convert_to_tensor(power_matrix)
    identity = tf.eye(tf.shape(power_matrix)[0], dtype=power_matrix.dtype)
    identity.set_shape(power_matrix.shape)
    powers = tf.scan(lambda previous, _: tf.matmul(previous, power_matrix),
                     tf.range(array_size - 1), initializer=identity)
    summed = tf.cumsum(tf.concat([
        multiplier[None],
        tf.matmul(batch_times_matrix(powers, multiplier), powers, adjoint_b=True)], axis=0))
    return tf.concat([tf.zeros_like(multiplier)[None], summed], axis=0)


def batch_matrix_pow(matrices, powers):
    """Each `[n, n]` matrix of the batch raised to its integer power (by squaring)."""
    matrices = tf.convert_to_tensor(matrices)
    powers = tf.cast(powers, tf.int32)
    identity = tf.tile(tf.eye(tf.shape(matrices)[1], dtype=matrices.dtype)[None],
                       [tf.shape(matrices)[0], 1, 1])

    def _continue(argument, residual, accumulator):
        del argument, accumulator
        return tf.reduce_any(residual > 1)

    def _square(argument, residual, accumulator):
        odd = tf.equal(residual % 2, 1)
        new_accumulator = v1.where(odd, tf.matmul(accumulator, argument), accumulator)
        update = residual > 1
        return (v1.where(update, tf.matmul(argument, argument), argument),
                v1.where(update, (residual - residual % 2) // 2, residual),
                v1.where(update, new_accumulator, accumulator))

    argument, residual, accumulator = tf.while_loop(
        _continue, _square, [matrices, powers, identity])
    return v1.where(tf.equal(residual, 0), identity, tf.matmul(argument, accumulator))


def matrix_to_powers(matrix, powers):
    """`[len(powers), n, n]`: `matrix` to each power."""
    return batch_matrix_pow(tf.tile(matrix[None], [tf.size(powers), 1, 1]), powers)


def _pad_right_with_ones(tensor, rank, dtype):
    tensor = tf.convert_to_tensor(tensor, dtype=dtype)
    return tf.reshape(tensor, tf.concat(
        [tf.shape(tensor), tf.ones([rank - tf.rank(tensor)], dtype=tf.int32)], axis=0))


def sign_magnitude_positive_definite(raw, off_diagonal_scale=0., overall_scale=0.):
    """A positive definite matrix C^T C from an unconstrained square `raw`: C's diagonal is
    exp((diag + overall) / 2), its upper triangle raw's magnitudes with the transpose's signs."""
    raw = tf.convert_to_tensor(raw)
    rank = tf.rank(raw)
    diagonal = tf.linalg.diag_part(raw)
    magnitude = tf.exp((raw + _pad_right_with_ones(off_diagonal_scale, rank, raw.dtype)
                        + _pad_right_with_ones(overall_scale, rank, raw.dtype)) / 2.)
    sign_magnitude = magnitude * tf.nn.softsign(tf.linalg.matrix_transpose(raw))
    sign_magnitude.set_shape(raw.shape)
    cholesky = tf.linalg.set_diag(
        tf.linalg.band_part(sign_magnitude, 0, -1),
        tf.exp((diagonal + _pad_right_with_ones(overall_scale, tf.rank(diagonal),
                                                raw.dtype)) / 2.))
    return tf.matmul(cholesky, cholesky, transpose_a=True)


def variable_covariance_matrix(size, name, dtype, initial_diagonal_values=None,
                               initial_overall_scale_log=0.):
    """A trained `[size, size]` covariance: variables `<name>_pre_transform` (zeros),
    `<name>_off_diagonal_scale` (-5) and `<name>_overall_scale` (0) in the current scope."""
    raw = v1.get_variable(name + "_pre_transform", dtype=dtype, shape=[size, size],
                          initializer=v1.zeros_initializer())
    if initial_diagonal_values is not None:
        raw = raw + tf.linalg.diag(tf.math.log(initial_diagonal_values))
    off_diagonal = v1.get_variable(name + "_off_diagonal_scale", dtype=dtype,
                                   initializer=tf.constant(-5., dtype=dtype))
    overall = v1.get_variable(name + "_overall_scale", dtype=dtype, shape=[],
                              initializer=v1.zeros_initializer())
    return tf.identity(sign_magnitude_positive_definite(
        raw=raw, off_diagonal_scale=off_diagonal,
        overall_scale=tf.convert_to_tensor(initial_overall_scale_log, dtype=dtype) + overall),
        name=name)


def clip_covariance(covariance_matrix, maximum_variance_ratio, minimum_variance):
    """Diagonal entries raised to at least max(diagonal) / ratio and `minimum_variance`."""
    diagonal = tf.linalg.diag_part(covariance_matrix)
    maximum = tf.reduce_max(diagonal, axis=-1, keepdims=True)
    new_diagonal = tf.maximum(diagonal, maximum / maximum_variance_ratio)
    return tf.linalg.set_diag(covariance_matrix, tf.maximum(new_diagonal, minimum_variance))


def log_noninformative_covariance_prior(covariance):
    """The Jeffreys prior's log density, -(n + 1) / 2 log det(covariance), up to a constant."""
    covariance = covariance + tf.linalg.diag(1e-8 * tf.ones([tf.shape(covariance)[0]],
                                                dtype=covariance.dtype))
    power = -(tf.cast(tf.shape(covariance)[0] + 1, covariance.dtype) / 2.)
    return power * tf.math.log(tf.linalg.det(covariance))


def mvn_tril_log_prob(loc, scale_tril, x):
    """log N(x; loc, L L^T) with L = `scale_tril`."""
    z = tf.linalg.triangular_solve(scale_tril, (x - loc)[..., None])[..., 0]
    log_det = 2. * tf.reduce_sum(tf.math.log(tf.linalg.diag_part(scale_tril)), axis=-1)
    dimension = tf.cast(tf.shape(scale_tril)[-1], log_det.dtype)
    return -0.5 * (tf.reduce_sum(tf.square(z), axis=-1) + dimension * np.log(2. * np.pi)
                   + log_det)
