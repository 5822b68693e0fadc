"""BatchReshape: a distribution with its batch dimensions reshaped (same number of batch
members, same event); gone from TensorFlow 2 with tf.contrib."""
import numpy as np
import tensorflow as tf
from tensorflow.python.framework import tensor_util

from estimator_compat.legacy.contrib.distributions_parts import _common as c


def _static_checks(distribution, batch_shape):
    if batch_shape.shape.ndims is not None and batch_shape.shape.ndims != 1:
        raise ValueError("`batch_shape` must be a vector "
                         "(saw rank: {}).".format(batch_shape.shape.ndims))
    static = tensor_util.constant_value_as_shape(batch_shape)
    size, dist_size = static.num_elements(), distribution.batch_shape.num_elements()
    if size is not None and dist_size is not None and size != dist_size:
        raise ValueError("`batch_shape` size ({}) must match `distribution.batch_shape` "
                         "size ({}).".format(size, dist_size))
    if static.dims is not None and any(d is not None and d < 1 for d in static.as_list()):
        raise ValueError("`batch_shape` elements must be >=-1.")


def _expand_reshape(original_shape, new_shape, validate):
    """The new batch shape with its one -1 filled in, its static shape, and the checks."""
    static = tensor_util.constant_value_as_shape(new_shape)
    if static.is_fully_defined():
        return np.int32(static.as_list()), static, []
    with tf.compat.v1.name_scope(None, "calculate_reshape", [original_shape, new_shape]):
        size = tf.reduce_prod(original_shape)
        implicit = tf.equal(new_shape, -1)
        implicit_size = size // tf.maximum(1, -tf.reduce_prod(new_shape))
        expanded = tf.where(implicit, tf.fill(tf.shape(new_shape), implicit_size), new_shape)
        checks = [] if not validate else [
            tf.debugging.assert_rank(original_shape, 1,
                                     message="Original shape must be a vector."),
            tf.debugging.assert_rank(new_shape, 1, message="New shape must be a vector."),
            tf.debugging.assert_less_equal(
                tf.math.count_nonzero(implicit, dtype=tf.int32), 1,
                message="At most one dimension can be unknown."),
            tf.debugging.assert_positive(expanded, message="Shape elements must be >=-1."),
            tf.debugging.assert_equal(tf.reduce_prod(expanded), size,
                                      message="Shape sizes do not match.")]
        return expanded, static, checks


class BatchReshape(c.Distribution):
    """`distribution` seen with batch shape `batch_shape` (which may hold one -1)."""

    def __init__(self, distribution, batch_shape, validate_args=False, allow_nan_stats=True,
                 name=None):
        parameters = c.params(locals())
        name = name or "BatchReshape" + (distribution.name or "")  # None eagerly
        with c.scope(name, [batch_shape]) as name:
            self._batch_shape_unexpanded = tf.convert_to_tensor(batch_shape, dtype=tf.int32,
                                                                name="batch_shape")
            _static_checks(distribution, self._batch_shape_unexpanded)
            (self._batch_shape_, self._batch_shape_static,
             self._runtime_assertions) = _expand_reshape(
                 distribution.batch_shape_tensor(), self._batch_shape_unexpanded,
                 validate_args)
            self._distribution = distribution
            super().__init__(dtype=distribution.dtype,
                             reparameterization_type=distribution.reparameterization_type,
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                             parameters=parameters,
                             graph_parents=([self._batch_shape_unexpanded]
                                            + distribution._graph_parents),
                             name=name)

    @property
    def distribution(self):
        return self._distribution

    def _batch_shape_tensor(self):
        with tf.control_dependencies(self._runtime_assertions):
            return tf.identity(self._batch_shape_)

    def _batch_shape(self):
        return self._batch_shape_static

    def _event_shape_tensor(self):
        with tf.control_dependencies(self._runtime_assertions):
            return tf.identity(self.distribution.event_shape_tensor())

    def _event_shape(self):
        return self.distribution.event_shape

    def _sample_n(self, n, seed=None):
        with tf.control_dependencies(self._runtime_assertions):
            x = self.distribution.sample(sample_shape=n, seed=seed)
            return tf.reshape(x, tf.concat([[n], self._batch_shape_unexpanded,
                                            self.event_shape_tensor()], axis=0))

    def _log_prob(self, x):
        return self._reshaped_call(self.distribution.log_prob, x)

    def _prob(self, x):
        return self._reshaped_call(self.distribution.prob, x)

    def _log_cdf(self, x):
        return self._reshaped_call(self.distribution.log_cdf, x)

    def _cdf(self, x):
        return self._reshaped_call(self.distribution.cdf, x)

    def _log_survival_function(self, x):
        return self._reshaped_call(self.distribution.log_survival_function, x)

    def _survival_function(self, x):
        return self._reshaped_call(self.distribution.survival_function, x)

    def _entropy(self):
        return self._reshaped_stat(self.distribution.entropy, [], [tf.TensorShape([])])

    def _mean(self):
        return self._reshaped_stat(self.distribution.mean)

    def _mode(self):
        return self._reshaped_stat(self.distribution.mode)

    def _stddev(self):
        return self._reshaped_stat(self.distribution.stddev)

    def _variance(self):
        return self._reshaped_stat(self.distribution.variance)

    def _covariance(self):
        return self._reshaped_stat(self.distribution.covariance,
                                   [self.event_shape_tensor()] * 2, [self.event_shape] * 2)

    def _ndims(self, x):
        """x's rank, the event rank and the batch rank: Python ints where known."""
        x_ndims = tf.rank(x) if x.shape.ndims is None else x.shape.ndims
        event_ndims = (tf.size(self.event_shape_tensor()) if self.event_shape.ndims is None
                       else self.event_shape.ndims)
        batch_ndims = (tf.size(self._batch_shape_unexpanded) if self.batch_shape.ndims is None
                       else self.batch_shape.ndims)
        return x_ndims, event_ndims, batch_ndims

    def _sample_shape(self, x):
        x_ndims, event_ndims, batch_ndims = self._ndims(x)
        sample_ndims = x_ndims - batch_ndims - event_ndims
        static = x.shape[:sample_ndims] if isinstance(sample_ndims, int) else tf.TensorShape(None)
        if static.is_fully_defined():
            return np.int32(static.as_list()), static
        return tf.shape(x)[:sample_ndims], static

    def _reshaped_call(self, fn, x):
        """fn of x read with the original batch shape, its result given the new one."""
        with tf.control_dependencies(self._runtime_assertions + self._check_sample(x)):
            sample_shape, static_sample_shape = self._sample_shape(x)
            old_shape = tf.concat([sample_shape, self.distribution.batch_shape_tensor(),
                                   self.event_shape_tensor()], axis=0)
            result = tf.reshape(fn(tf.reshape(x, old_shape)),
                                tf.concat([sample_shape, self._batch_shape_unexpanded], axis=0))
            if static_sample_shape.ndims is not None and self.batch_shape.ndims is not None:
                result.set_shape(result.shape.merge_with(
                    static_sample_shape.concatenate(self.batch_shape)))
            return result

    def _reshaped_stat(self, fn, event_shapes=None, static_event_shapes=None):
        with tf.control_dependencies(self._runtime_assertions):
            if event_shapes is None:
                event_shapes = [self._event_shape_tensor()]
            if static_event_shapes is None:
                static_event_shapes = [self.event_shape]
            result = tf.reshape(fn(), tf.concat([self._batch_shape_unexpanded] + event_shapes,
                                                axis=0))
            if self.batch_shape.ndims is not None and self.event_shape.ndims is not None:
                event_shape = tf.TensorShape([])
                for s in static_event_shapes:
                    event_shape = event_shape.concatenate(s)
                result.set_shape(result.shape.merge_with(
                    self.batch_shape.concatenate(event_shape)))
            return result

    def _check_sample(self, x):
        """x must end in exactly the (new) batch and event shape: no broadcasting. Raised
        statically where the shapes are known, else asserted when validate_args."""
        with tf.compat.v1.name_scope(name="validate_sample_arg", values=[x]):
            x_ndims, event_ndims, batch_ndims = self._ndims(x)
            expected_ndims = batch_ndims + event_ndims
            ndims_checks = []
            if isinstance(x_ndims, int) and isinstance(expected_ndims, int):
                if x_ndims < expected_ndims:
                    raise NotImplementedError(
                        "Broadcasting is not supported; too few batch and event dims "
                        "(expected at least {}, saw {}).".format(expected_ndims, x_ndims))
            elif self.validate_args:
                ndims_checks = [tf.debugging.assert_greater_equal(
                    x_ndims, expected_ndims,
                    message="Broadcasting is not supported; too few batch and event dims.",
                    name="assert_batch_and_event_ndims_large_enough")]
            if self.batch_shape.is_fully_defined() and self.event_shape.is_fully_defined():
                expected = np.int32(self.batch_shape.concatenate(self.event_shape).as_list())
            else:
                expected = tf.concat([self.batch_shape_tensor(), self.event_shape_tensor()],
                                     axis=0)
            sample_ndims = x_ndims - expected_ndims
            if isinstance(sample_ndims, int):
                sample_ndims = max(sample_ndims, 0)
            if isinstance(sample_ndims, int) and x.shape[sample_ndims:].is_fully_defined():
                actual = np.int32(x.shape[sample_ndims:].as_list())
            else:
                actual = tf.shape(x)[tf.maximum(sample_ndims, 0):]
            if isinstance(expected, np.ndarray) and isinstance(actual, np.ndarray):
                if expected.shape != actual.shape or np.any(expected != actual):
                    raise NotImplementedError(
                        "Broadcasting is not supported; unexpected batch and event shape "
                        "(expected {}, saw {}).".format(expected, actual))
                return ndims_checks
            if not self.validate_args:
                return []
            with tf.control_dependencies(ndims_checks):
                return [tf.debugging.assert_equal(
                    expected, actual,
                    message="Broadcasting is not supported; unexpected batch and event shape.",
                    name="assert_batch_and_event_shape_same")]
