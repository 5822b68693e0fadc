"""TF 1.15's Wishart distributions over positive-definite matrices, parameterized by degrees
of freedom `df` and a scale matrix given as its Cholesky factor (`WishartCholesky`) or whole
(`WishartFull`, factored here). With `cholesky_input_output_matrices`, samples, log_prob's
argument, mean, mode and variance are Cholesky factors.

Sampling is Bartlett's: A lower triangular, N(0, 1) below the diagonal and sqrt(Chi2(df - i))
on it; X = (L A)(L A)^T for the scale's factor L.
"""
import math

import numpy as np
import tensorflow as tf
from tensorflow.python.ops.distributions import distribution
from tensorflow.python.ops.distributions import util as distribution_util

from estimator_compat.legacy.contrib.distributions_parts.bijectors._checks import checked
from estimator_compat.legacy.contrib.distributions_parts.scale_operators import (
    operator_parents)

_v1 = tf.compat.v1


class _WishartLinearOperator(distribution.Distribution):
    """Wishart(df, S), S = scale_operator @ scale_operator^T."""

    def __init__(self, df, scale_operator, cholesky_input_output_matrices=False,
                 validate_args=False, allow_nan_stats=True, name=None):
        parameters = dict(locals())
        self._cholesky_input_output_matrices = cholesky_input_output_matrices
        with _v1.name_scope(name) as name:
            with _v1.name_scope("init", values=[df]):
                if not scale_operator.dtype.is_floating:
                    raise TypeError(f"scale_operator.dtype={scale_operator.dtype} is not a "
                                    "floating-point type")
                if not scale_operator.is_square:
                    raise ValueError("scale_operator must be square.")
                self._scale_operator = scale_operator
                self._df = tf.convert_to_tensor(df, dtype=scale_operator.dtype, name="df")
                _v1.assert_same_float_dtype([self._df], dtype=scale_operator.dtype)
                size = (None if scale_operator.shape.ndims is None
                        else tf.compat.dimension_value(scale_operator.shape[-1]))
                if size is None:
                    self._dimension = tf.cast(scale_operator.domain_dimension_tensor(),
                                              scale_operator.dtype, name="dimension")
                else:
                    self._dimension = tf.convert_to_tensor(size, dtype=scale_operator.dtype,
                                                           name="dimension")
                df_, dim_ = tf.get_static_value(self._df), tf.get_static_value(self._dimension)
                if df_ is not None and dim_ is not None:
                    df_ = np.atleast_1d(np.asarray(df_))
                    if any(df_ < dim_):
                        raise ValueError(
                            f"Degrees of freedom (df = {df_}) cannot be less than dimension "
                            f"of scale matrix (scale.dimension = {dim_})")
                elif validate_args:
                    check = _v1.assert_less_equal(
                        self._dimension, self._df,
                        message=f"Degrees of freedom (df = {self._dimension}) cannot be less "
                                f"than dimension of scale matrix (scale.dimension = "
                                f"{self._df})")
                    with tf.control_dependencies([check]):
                        self._df = tf.identity(self._df)
        super().__init__(dtype=scale_operator.dtype, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats,
                         reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         parameters=parameters,
                         graph_parents=([self._df, self._dimension]
                                        + operator_parents(scale_operator)),
                         name=name)

    @property
    def df(self):
        """Degrees of freedom."""
        return self._df

    def _square_scale_operator(self):
        return self.scale_operator.matmul(self.scale_operator.to_dense(), adjoint_arg=True)

    def scale(self):
        """The scale matrix (its Cholesky factor with cholesky_input_output_matrices)."""
        if self._cholesky_input_output_matrices:
            return self.scale_operator.to_dense()
        return self._square_scale_operator()

    @property
    def scale_operator(self):
        return self._scale_operator

    @property
    def cholesky_input_output_matrices(self):
        return self._cholesky_input_output_matrices

    @property
    def dimension(self):
        """The dimension p of the p x p matrices, as a float tensor."""
        return self._dimension

    def _event_shape_tensor(self):
        p = self.scale_operator.domain_dimension_tensor()
        return tf.stack([p, p])

    def _event_shape(self):
        p = self.scale_operator.domain_dimension
        return tf.TensorShape([p, p])

    def _batch_shape_tensor(self):
        return self.scale_operator.batch_shape_tensor()

    def _batch_shape(self):
        return self.scale_operator.batch_shape

    def _sample_n(self, n, seed):
        batch_shape = self.batch_shape_tensor()
        event_shape = self.event_shape_tensor()
        ndims = tf.shape(batch_shape)[0] + 3
        x = tf.random.normal(tf.concat([[n], batch_shape, event_shape], 0), dtype=self.dtype,
                             seed=seed)
        df = self.df * tf.ones(self.scale_operator.batch_shape_tensor(),
                               dtype=self.df.dtype.base_dtype)
        # the diagonal: sqrt of Chi2(df - i) = Gamma((df - i) / 2, 1 / 2)
        g = tf.random.gamma([n], alpha=self._multi_gamma_sequence(0.5 * df, self.dimension),
                            beta=0.5, dtype=self.dtype,
                            seed=distribution_util.gen_new_seed(seed, "wishart"))
        x = tf.linalg.set_diag(tf.linalg.band_part(x, -1, 0), tf.sqrt(g))
        # one matmul by the scale's factor over all n: [batch, p, p * n]
        x = tf.transpose(x, tf.concat([tf.range(1, ndims), [0]], 0))
        x = tf.reshape(x, tf.concat([batch_shape, [event_shape[0]], [-1]], 0))
        x = self.scale_operator.matmul(x)
        x = tf.reshape(x, tf.concat([batch_shape, event_shape, [n]], 0))
        x = tf.transpose(x, tf.concat([[ndims - 1], tf.range(0, ndims - 1)], 0))
        if not self.cholesky_input_output_matrices:
            x = tf.matmul(x, x, adjoint_b=True)
        return x

    def _log_prob(self, x):
        x_sqrt = x if self.cholesky_input_output_matrices else tf.linalg.cholesky(x)
        batch_shape = self.batch_shape_tensor()
        event_shape = self.event_shape_tensor()
        ndims = tf.rank(x_sqrt)
        sample_ndims = ndims - tf.shape(batch_shape)[0] - 2
        sample_shape = tf.strided_slice(tf.shape(x_sqrt), [0], [sample_ndims])
        # tr(S^-1 X) = ||L^-1 X_sqrt||_F^2, solved for all samples at once
        y = tf.transpose(x_sqrt, tf.concat([tf.range(sample_ndims, ndims),
                                            tf.range(0, sample_ndims)], 0))
        y = tf.reshape(y, tf.concat((batch_shape, (tf.cast(self.dimension, tf.int32), -1)), 0))
        y = self.scale_operator.solve(y)
        y = tf.reshape(y, tf.concat([batch_shape, event_shape, sample_shape], 0))
        y = tf.transpose(y, tf.concat([tf.range(ndims - sample_ndims, ndims),
                                       tf.range(0, ndims - sample_ndims)], 0))
        trace_scale_inv_x = tf.reduce_sum(tf.square(y), axis=[-2, -1])
        half_log_det_x = tf.reduce_sum(tf.math.log(tf.linalg.diag_part(x_sqrt)), axis=[-1])
        log_prob = ((self.df - self.dimension - 1.) * half_log_det_x
                    - 0.5 * trace_scale_inv_x - self.log_normalization())
        if x.shape.ndims is not None:
            log_prob.set_shape(x.shape[:-2])
        return log_prob

    def _prob(self, x):
        return tf.exp(self._log_prob(x))

    def _entropy(self):
        half_dp1 = 0.5 * self.dimension + 0.5
        half_df = 0.5 * self.df
        return (self.dimension * (half_df + half_dp1 * math.log(2.))
                + 2 * half_dp1 * self.scale_operator.log_abs_determinant()
                + self._multi_lgamma(half_df, self.dimension)
                + (half_dp1 - half_df) * self._multi_digamma(half_df, self.dimension))

    def _mean(self):
        if self.cholesky_input_output_matrices:
            return tf.sqrt(self.df) * self.scale_operator.to_dense()
        return self.df * self._square_scale_operator()

    def _variance(self):
        x = tf.sqrt(self.df) * self._square_scale_operator()
        d = tf.expand_dims(tf.linalg.diag_part(x), -1)
        v = tf.square(x) + tf.matmul(d, d, adjoint_b=True)
        if self.cholesky_input_output_matrices:
            return tf.linalg.cholesky(v)
        return v

    def _stddev(self):
        if self.cholesky_input_output_matrices:
            raise ValueError("Computing std. dev. when is cholesky_input_output_matrices=True "
                             "does not make sense.")
        return tf.linalg.cholesky(self.variance())

    def _mode(self):
        s = self.df - self.dimension - 1.
        s = tf.where(tf.less(s, 0.), tf.constant(float("NaN"), self.dtype, name="nan"), s)
        if self.cholesky_input_output_matrices:
            return tf.sqrt(s) * self.scale_operator.to_dense()
        return s * self._square_scale_operator()

    def mean_log_det(self, name="mean_log_det"):
        """E[log det X] under this Wishart."""
        with self._name_scope(name):
            return (self._multi_digamma(0.5 * self.df, self.dimension)
                    + self.dimension * math.log(2.)
                    + 2 * self.scale_operator.log_abs_determinant())

    def log_normalization(self, name="log_normalization"):
        """log of the normalizing constant: df log|det L| + df p/2 log 2 + log Gamma_p(df/2)."""
        with self._name_scope(name):
            return (self.df * self.scale_operator.log_abs_determinant()
                    + 0.5 * self.df * self.dimension * math.log(2.)
                    + self._multi_lgamma(0.5 * self.df, self.dimension))

    def _multi_gamma_sequence(self, a, p, name="multi_gamma_sequence"):
        """a - [0, 1/2, ..., (p - 1)/2], along a new last axis."""
        with self._name_scope(name, values=[a, p]):
            seq = tf.linspace(tf.constant(0., self.dtype), 0.5 - 0.5 * p, tf.cast(p, tf.int32))
            return seq + tf.expand_dims(a, [-1])

    def _multi_lgamma(self, a, p, name="multi_lgamma"):
        """The log multivariate gamma function log Gamma_p(a)."""
        with self._name_scope(name, values=[a, p]):
            seq = self._multi_gamma_sequence(a, p)
            return (0.25 * p * (p - 1.) * math.log(math.pi)
                    + tf.reduce_sum(tf.math.lgamma(seq), axis=[-1]))

    def _multi_digamma(self, a, p, name="multi_digamma"):
        """The multivariate digamma function."""
        with self._name_scope(name, values=[a, p]):
            seq = self._multi_gamma_sequence(a, p)
            return tf.reduce_sum(tf.math.digamma(seq), axis=[-1])


class WishartCholesky(_WishartLinearOperator):
    """Wishart(df, scale @ scale^T), `scale` the lower-triangular Cholesky factor."""

    def __init__(self, df, scale, cholesky_input_output_matrices=False, validate_args=False,
                 allow_nan_stats=True, name="WishartCholesky"):
        parameters = dict(locals())
        with _v1.name_scope(name, values=[scale]) as name:
            with _v1.name_scope("init", values=[scale]):
                scale = tf.convert_to_tensor(scale)
                if validate_args:
                    checks = [_v1.assert_positive(tf.linalg.diag_part(scale),
                                                  message="scale must be positive definite"),
                              _v1.assert_equal(tf.shape(scale)[-1], tf.shape(scale)[-2],
                                               message="scale must be square")]
                    scale = checked(scale, *checks)
            super().__init__(
                df=df, scale_operator=tf.linalg.LinearOperatorLowerTriangular(
                    tril=scale, is_non_singular=True, is_positive_definite=True,
                    is_square=True),
                cholesky_input_output_matrices=cholesky_input_output_matrices,
                validate_args=validate_args, allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters


class WishartFull(_WishartLinearOperator):
    """Wishart(df, scale), `scale` a symmetric positive-definite matrix."""

    def __init__(self, df, scale, cholesky_input_output_matrices=False, validate_args=False,
                 allow_nan_stats=True, name="WishartFull"):
        parameters = dict(locals())
        with _v1.name_scope(name) as name:
            with _v1.name_scope("init", values=[scale]):
                scale = tf.convert_to_tensor(scale)
                if validate_args:
                    scale = distribution_util.assert_symmetric(scale)
                chol = tf.linalg.cholesky(scale)
                if validate_args:
                    with tf.control_dependencies([_v1.assert_positive(
                            tf.linalg.diag_part(chol))]):
                        chol = tf.identity(chol)
        super().__init__(
            df=df, scale_operator=tf.linalg.LinearOperatorLowerTriangular(
                tril=chol, is_non_singular=True, is_positive_definite=True, is_square=True),
            cholesky_input_output_matrices=cholesky_input_output_matrices,
            validate_args=validate_args, allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = parameters
