"""Deterministic and VectorDeterministic: point masses at `loc` (scalar or vector events),
with an optional tolerance; gone from TensorFlow 2 with tf.contrib."""
import tensorflow as tf

from estimator_compat.legacy.contrib.distributions_parts import _common as c


class _PointMass(c.Distribution):
    """All mass at `loc`: x counts as loc where |x - loc| <= atol + rtol |loc|."""

    def __init__(self, loc, atol=None, rtol=None, is_vector=False, validate_args=False,
                 allow_nan_stats=True, name="_BaseDeterministic"):
        parameters = c.params(locals())
        with c.scope(name, [loc, atol, rtol]) as name:
            loc = tf.convert_to_tensor(loc, name="loc")
            if is_vector and validate_args:
                message = "Argument loc must be at least rank 1."
                if loc.shape.ndims is not None:
                    if loc.shape.ndims < 1:
                        raise ValueError(message)
                else:
                    loc = c.with_checks(
                        [tf.debugging.assert_rank_at_least(loc, 1, message=message)], loc)
            self._loc = loc
            super().__init__(dtype=loc.dtype, reparameterization_type=c.NOT_REPARAMETERIZED,
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             parameters=parameters, graph_parents=[loc], name=name)
            self._atol = self._tolerance(atol)
            self._rtol = self._tolerance(rtol)
            self._slack = self.atol if rtol is None else self.atol + self.rtol * tf.abs(loc)

    def _tolerance(self, tol):
        if tol is None:
            return tf.convert_to_tensor(0, dtype=self.loc.dtype)
        tol = tf.convert_to_tensor(tol, dtype=self.loc.dtype)
        if self.validate_args:
            tol = c.with_checks([tf.debugging.assert_non_negative(
                tol, message="Argument 'tol' must be non-negative")], tol)
        return tol

    @property
    def loc(self):
        """Point (or batch of points) at which this distribution is supported."""
        return self._loc

    @property
    def atol(self):
        """Absolute tolerance for comparing points to `self.loc`."""
        return self._atol

    @property
    def rtol(self):
        """Relative tolerance for comparing points to `self.loc`."""
        return self._rtol

    def _entropy(self):
        return tf.zeros(self.batch_shape_tensor(), dtype=self.dtype)

    def _mean(self):
        return tf.identity(self.loc)

    def _variance(self):
        return tf.zeros_like(self.loc)

    def _mode(self):
        return self.mean()

    def _sample_n(self, n, seed=None):
        n_static = tf.get_static_value(tf.convert_to_tensor(n))
        if n_static is not None and self.loc.shape.ndims is not None:
            multiples = [n_static] + [1] * self.loc.shape.ndims
        else:
            multiples = tf.concat(([n], tf.ones_like(tf.shape(self.loc))), axis=0)
        return tf.tile(self.loc[tf.newaxis, ...], multiples=multiples)


class Deterministic(_PointMass):
    """A point mass on the real line (scalar events, batch shape loc's shape)."""

    def __init__(self, loc, atol=None, rtol=None, validate_args=False, allow_nan_stats=True,
                 name="Deterministic"):
        super().__init__(loc, atol=atol, rtol=rtol, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, name=name)

    def _batch_shape_tensor(self):
        return tf.shape(self.loc)

    def _batch_shape(self):
        return self.loc.shape

    def _event_shape_tensor(self):
        return c.scalar_event_tensor()

    def _event_shape(self):
        return tf.TensorShape([])

    def _prob(self, x):
        return tf.cast(tf.abs(x - self.loc) <= self._slack, dtype=self.dtype)

    def _cdf(self, x):
        return tf.cast(x >= self.loc - self._slack, dtype=self.dtype)


class VectorDeterministic(_PointMass):
    """A point mass in R^k (the last axis of loc is the event)."""

    def __init__(self, loc, atol=None, rtol=None, validate_args=False, allow_nan_stats=True,
                 name="VectorDeterministic"):
        super().__init__(loc, atol=atol, rtol=rtol, is_vector=True,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         name=name)

    def _batch_shape_tensor(self):
        return tf.shape(self.loc)[:-1]

    def _batch_shape(self):
        return self.loc.shape[:-1]

    def _event_shape_tensor(self):
        return tf.shape(self.loc)[-1]

    def _event_shape(self):
        return self.loc.shape[-1:]

    def _prob(self, x):
        if self.validate_args:
            rank_check = tf.debugging.assert_rank_at_least(x, 1)
            space_check = tf.debugging.assert_equal(
                self.event_shape_tensor(), tf.gather(tf.shape(x), tf.rank(x) - 1),
                message="Argument 'x' not defined in the same space R^k as this distribution")
            with tf.control_dependencies([rank_check]):
                with tf.control_dependencies([space_check]):
                    x = tf.identity(x)
        return tf.cast(tf.reduce_all(tf.abs(x - self.loc) <= self._slack, axis=-1),
                       dtype=self.dtype)
