"""Independent: a distribution whose rightmost batch dimensions are read as event dimensions
(log_prob and entropy summed over them); gone from TensorFlow 2 with tf.contrib. Its KL
divergence is registered in TF 2.21's KL registry, as TF 1.15 registered it."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.distributions import kullback_leibler
from tensorflow.python.util import deprecation

from estimator_compat.legacy.contrib.distributions_parts import _common as c


def _batch_ndims(dist):
    """The number of batch dimensions of `dist`: static where known, else a tensor."""
    shape = dist.batch_shape_tensor()
    dim0 = tf.compat.dimension_value(shape.shape.with_rank_at_least(1)[0])
    return (dim0 if dim0 is not None else tf.shape(shape)[0]), shape


class Independent(c.Distribution):
    """`distribution` with its last `reinterpreted_batch_ndims` batch dimensions made event
    dimensions (default: all but the first)."""

    def __init__(self, distribution, reinterpreted_batch_ndims=None, validate_args=False,
                 name=None):
        parameters = c.params(locals())
        name = name or "Independent" + (distribution.name or "")  # None eagerly
        self._distribution = distribution
        with tf.compat.v1.name_scope(name) as name:
            if reinterpreted_batch_ndims is None:
                ndims = distribution.batch_shape.ndims
                if ndims is None:
                    reinterpreted_batch_ndims = tf.maximum(
                        0, tf.shape(distribution.batch_shape_tensor())[0] - 1)
                else:
                    reinterpreted_batch_ndims = np.maximum(0, ndims - 1)
            ndims_tensor = tf.convert_to_tensor(reinterpreted_batch_ndims, dtype=tf.int32,
                                                name="reinterpreted_batch_ndims")
            self._static_reinterpreted_batch_ndims = tf.get_static_value(ndims_tensor)
            self._reinterpreted_batch_ndims = (
                ndims_tensor if self._static_reinterpreted_batch_ndims is None
                else self._static_reinterpreted_batch_ndims)
            super().__init__(dtype=distribution.dtype,
                             reparameterization_type=distribution.reparameterization_type,
                             validate_args=validate_args,
                             allow_nan_stats=distribution.allow_nan_stats,
                             parameters=parameters,
                             graph_parents=[ndims_tensor] + distribution._graph_parents,
                             name=name)
            self._runtime_assertions = self._assertions(distribution, ndims_tensor,
                                                        validate_args)

    @staticmethod
    def _assertions(distribution, ndims_tensor, validate_args):
        static = tf.get_static_value(ndims_tensor)
        batch_ndims = distribution.batch_shape.ndims
        if batch_ndims is not None and static is not None:
            if static > batch_ndims:
                raise ValueError("reinterpreted_batch_ndims({}) cannot exceed "
                                 "distribution.batch_ndims({})".format(static, batch_ndims))
            return []
        if not validate_args:
            return []
        batch_ndims, _ = _batch_ndims(distribution)
        return [tf.debugging.assert_less_equal(
            ndims_tensor, batch_ndims,
            message="reinterpreted_batch_ndims cannot exceed distribution.batch_ndims")]

    @property
    def distribution(self):
        return self._distribution

    @property
    def reinterpreted_batch_ndims(self):
        return self._reinterpreted_batch_ndims

    def _batch_shape_tensor(self):
        with tf.control_dependencies(self._runtime_assertions):
            ndims, shape = _batch_ndims(self.distribution)
            return shape[:ndims - self.reinterpreted_batch_ndims]

    def _split_static(self):
        shape = self.distribution.batch_shape
        if self._static_reinterpreted_batch_ndims is None or shape.ndims is None:
            return None, shape
        return shape.ndims - self._static_reinterpreted_batch_ndims, shape

    def _batch_shape(self):
        d, shape = self._split_static()
        return tf.TensorShape(None) if d is None else shape[:d]

    def _event_shape_tensor(self):
        with tf.control_dependencies(self._runtime_assertions):
            ndims, shape = _batch_ndims(self.distribution)
            return tf.concat([shape[ndims - self.reinterpreted_batch_ndims:],
                              self.distribution.event_shape_tensor()], axis=0)

    def _event_shape(self):
        d, shape = self._split_static()
        if d is None:
            return tf.TensorShape(None)
        return shape[d:].concatenate(self.distribution.event_shape)

    def _reduce_sum(self, stat):
        if self._static_reinterpreted_batch_ndims is None:
            axes = tf.range(self._reinterpreted_batch_ndims)
        else:
            axes = np.arange(self._static_reinterpreted_batch_ndims)
        return tf.reduce_sum(stat, axis=-1 - axes)

    def _sample_n(self, n, seed):
        with tf.control_dependencies(self._runtime_assertions):
            return self.distribution.sample(sample_shape=n, seed=seed)

    def _log_prob(self, x):
        with tf.control_dependencies(self._runtime_assertions):
            return self._reduce_sum(self.distribution.log_prob(x))

    def _entropy(self):
        with tf.control_dependencies(self._runtime_assertions):
            return self._reduce_sum(self.distribution.entropy())

    def _mean(self):
        with tf.control_dependencies(self._runtime_assertions):
            return self.distribution.mean()

    def _variance(self):
        with tf.control_dependencies(self._runtime_assertions):
            return self.distribution.variance()

    def _stddev(self):
        with tf.control_dependencies(self._runtime_assertions):
            return self.distribution.stddev()

    def _mode(self):
        with tf.control_dependencies(self._runtime_assertions):
            return self.distribution.mode()


def _kl_independent(a, b, name="kl_independent"):
    """KL of the underlying distributions, summed over the reinterpreted dimensions."""
    p, q = a.distribution, b.distribution
    if a.event_shape.is_fully_defined() and b.event_shape.is_fully_defined():
        if a.event_shape != b.event_shape:
            raise ValueError("Event shapes do not match.")
        if p.event_shape != q.event_shape:
            raise NotImplementedError("KL between Independents with different "
                                      "event shapes not supported.")
        count = a.event_shape.ndims - p.event_shape.ndims
        return tf.reduce_sum(kullback_leibler.kl_divergence(p, q, name=name),
                             axis=[-i - 1 for i in range(count)])
    with tf.control_dependencies([
            tf.debugging.assert_equal(a.event_shape_tensor(), b.event_shape_tensor()),
            tf.debugging.assert_equal(p.event_shape_tensor(), q.event_shape_tensor())]):
        count = tf.shape(a.event_shape_tensor()[0]) - tf.shape(p.event_shape_tensor()[0])
        return tf.reduce_sum(kullback_leibler.kl_divergence(p, q, name=name),
                             axis=tf.range(-count - 1, -1, 1))


with deprecation.silence():  # RegisterKL's deprecation notice, logged at import otherwise
    kullback_leibler.RegisterKL(Independent, Independent)(_kl_independent)
