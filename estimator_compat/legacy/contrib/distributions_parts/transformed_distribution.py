"""TF 1.15's `TransformedDistribution`: Y = g(X) for a base distribution of X and a bijector g.

TensorFlow 2.21 dropped `tf.distributions.TransformedDistribution` but kept its base class and
`Bijector`, so it is written here on them. As TF 1.15's: `batch_shape` / `event_shape` may
override a scalar base's (the base is then sampled that much wider and its log-probability
summed over the overridden event dims, rotating a base batch to the right of the event when only
the event is overridden); cdf / quantile / survival are not defined with an event override or a
non-injective bijector; entropy only for a constant-Jacobian bijector.
"""
import numpy as np
import tensorflow as tf
from tensorflow.python.framework import tensor_util
from tensorflow.python.ops.distributions import distribution as distribution_lib
from tensorflow.python.ops.distributions import identity_bijector
from tensorflow.python.ops.distributions import util as distribution_util

from estimator_compat.legacy.contrib.distributions_parts.bijectors._checks import checked

_v1 = tf.compat.v1


def static_value(x):
    """`x`'s value when known while building the graph, else None."""
    return tf.get_static_value(tf.convert_to_tensor(x))


def _all_true(*preds):
    known = [static_value(p) for p in preds]
    if any(k is not None and not bool(k) for k in known):
        return tf.constant(False)
    if all(k is not None and bool(k) for k in known):
        return tf.constant(True)
    return tf.reduce_all(tf.stack(preds))


def _not(pred):
    known = static_value(pred)
    return tf.logical_not(pred) if known is None else tf.constant(not bool(known))


def _equal(x, y):
    x_, y_ = static_value(x), static_value(y)
    if x_ is None or y_ is None:
        return tf.equal(x, y)
    return tf.constant(bool(np.array_equal(x_, y_)))


def concat_vectors(*vectors):
    """The vectors end to end, as a constant where all are known."""
    known = [static_value(v) for v in vectors]
    if any(k is None for k in known):
        return tf.concat(vectors, 0)
    return tf.constant([int(x) for k in known for x in np.reshape(k, [-1])], tf.int32)


def _choose(pred, if_true, if_false):
    known = static_value(pred)
    if known is None:
        return tf.where(pred, if_true, if_false)
    return if_true if known else if_false


def _length(shape):
    """The number of entries of a shape vector (its implied rank)."""
    if shape.shape.ndims not in (None, 1):
        raise ValueError("input is not a valid shape: not 1D")
    if not shape.dtype.is_integer:
        raise TypeError("input is not a valid shape: wrong dtype")
    if shape.shape.is_fully_defined():
        return tf.constant(shape.shape.as_list()[0])
    return tf.shape(shape)[0]


class TransformedDistribution(distribution_lib.Distribution):
    """The distribution of `bijector.forward(X)`, X ~ `distribution` (see the module doc)."""

    def __init__(self, distribution, bijector=None, batch_shape=None, event_shape=None,
                 validate_args=False, name=None):
        parameters = dict(locals())
        # (eager names are None)
        name = name or ((bijector is not None and bijector.name or "")
                        + (distribution.name or ""))
        with _v1.name_scope(name, values=[event_shape, batch_shape]) as name:
            self._zero = tf.constant(0, tf.int32, name="zero")
            self._empty = tf.constant([], tf.int32, name="empty")
            if bijector is None:
                bijector = identity_bijector.Identity(validate_args=validate_args)
            self._override_batch_shape = self._checked_override(
                batch_shape, distribution.is_scalar_batch(), validate_args, "batch_shape")
            self._is_batch_override = _not(_equal(_length(self._override_batch_shape),
                                                  self._zero))
            self._is_maybe_batch_override = _may_override(self._override_batch_shape)
            self._override_event_shape = self._checked_override(
                event_shape, distribution.is_scalar_event(), validate_args, "event_shape")
            self._is_event_override = _not(_equal(_length(self._override_event_shape),
                                                  self._zero))
            self._is_maybe_event_override = _may_override(self._override_event_shape)
            # an overridden event over a base batch: the base batch moves right of the event
            self._needs_rotation = _all_true(self._is_event_override,
                                             _not(self._is_batch_override),
                                             _not(distribution.is_scalar_batch()))
            event_ndims = _length(self._override_event_shape)
            self._rotate_ndims = _choose(self._needs_rotation, event_ndims, 0)
            self._reduce_event_indices = tf.range(self._rotate_ndims - event_ndims,
                                                  self._rotate_ndims)
        self._distribution = distribution
        self._bijector = bijector
        super().__init__(
            dtype=distribution.dtype,
            reparameterization_type=distribution.reparameterization_type,
            validate_args=validate_args, allow_nan_stats=distribution.allow_nan_stats,
            parameters=parameters,
            graph_parents=list(distribution._graph_parents) + list(bijector.graph_parents),
            name=name)

    @property
    def distribution(self):
        """The base distribution, p(x)."""
        return self._distribution

    @property
    def bijector(self):
        """The transform x => y."""
        return self._bijector

    def _event_shape_tensor(self):
        return self.bijector.forward_event_shape_tensor(distribution_util.pick_vector(
            self._is_event_override, self._override_event_shape,
            self.distribution.event_shape_tensor()))

    def _event_shape(self):
        base = (_static_shape(self._override_event_shape)
                if self._is_maybe_event_override else self.distribution.event_shape)
        return self.bijector.forward_event_shape(base)

    def _batch_shape_tensor(self):
        return distribution_util.pick_vector(self._is_batch_override,
                                             self._override_batch_shape,
                                             self.distribution.batch_shape_tensor())

    def _batch_shape(self):
        if self._is_maybe_batch_override:
            return _static_shape(self._override_batch_shape)
        return self.distribution.batch_shape

    def _sample_n(self, n, seed=None, bijector_kwargs=None, distribution_kwargs=None):
        """n base draws, before the bijector (which `sample` applies)."""
        sample_shape = concat_vectors(
            distribution_util.pick_vector(self._needs_rotation, self._empty, [n]),
            self._override_batch_shape, self._override_event_shape,
            distribution_util.pick_vector(self._needs_rotation, [n], self._empty))
        x = self.distribution.sample(sample_shape=sample_shape, seed=seed,
                                     **(distribution_kwargs or {}))
        return self._maybe_rotate_dims(x)

    def _call_sample_n(self, sample_shape, seed, name, bijector_kwargs=None,
                       distribution_kwargs=None):
        with self._name_scope(name, values=[sample_shape]):
            sample_shape = tf.convert_to_tensor(sample_shape, tf.int32, name="sample_shape")
            sample_shape, n = self._expand_sample_shape_to_vector(sample_shape, "sample_shape")
            if bijector_kwargs is None and distribution_kwargs is None:
                x = self._sample_n(n, seed)  # as TF 1.15 called a subclass's
            else:
                x = self._sample_n(n, seed, bijector_kwargs, distribution_kwargs)
            x = tf.reshape(x, tf.concat([sample_shape, tf.shape(x)[1:]], 0))
            y = self.bijector.forward(x, **(bijector_kwargs or {}))
            return self._set_sample_static_shape(y, sample_shape)

    def _fibers(self, y, bijector_kwargs):
        """[(x, ildj)] of each point of the inverse image of y (one unless not injective)."""
        x = self.bijector.inverse(y, **bijector_kwargs)
        event_ndims = self._maybe_get_static_event_ndims()
        ildj = self.bijector.inverse_log_det_jacobian(y, event_ndims=event_ndims,
                                                      **bijector_kwargs)
        if self.bijector._is_injective:  # pylint: disable=protected-access
            return [(x, ildj)], event_ndims
        return list(zip(x, ildj)), event_ndims

    def _log_prob(self, y, bijector_kwargs=None, distribution_kwargs=None):
        fibers, event_ndims = self._fibers(y, bijector_kwargs or {})
        parts = [self._fiber_log_prob(y, x, ildj, event_ndims, distribution_kwargs or {})
                 for x, ildj in fibers]
        if self.bijector._is_injective:  # pylint: disable=protected-access
            return parts[0]
        return tf.reduce_logsumexp(tf.stack(parts), axis=0)

    def _fiber_log_prob(self, y, x, ildj, event_ndims, distribution_kwargs):
        x = self._maybe_rotate_dims(x, rotate_right=True)
        log_prob = self.distribution.log_prob(x, **distribution_kwargs)
        if self._is_maybe_event_override:
            log_prob = tf.reduce_sum(log_prob, self._reduce_event_indices)
        log_prob += tf.cast(ildj, log_prob.dtype)
        self._set_result_shape(log_prob, y, event_ndims)
        return log_prob

    def _prob(self, y, bijector_kwargs=None, distribution_kwargs=None):
        fibers, event_ndims = self._fibers(y, bijector_kwargs or {})
        parts = [self._fiber_prob(y, x, ildj, event_ndims, distribution_kwargs or {})
                 for x, ildj in fibers]
        return parts[0] if len(parts) == 1 else sum(parts)

    def _fiber_prob(self, y, x, ildj, event_ndims, distribution_kwargs):
        x = self._maybe_rotate_dims(x, rotate_right=True)
        prob = self.distribution.prob(x, **distribution_kwargs)
        if self._is_maybe_event_override:
            prob = tf.reduce_prod(prob, self._reduce_event_indices)
        prob *= tf.exp(tf.cast(ildj, prob.dtype))
        self._set_result_shape(prob, y, event_ndims)
        return prob

    def _set_result_shape(self, result, y, event_ndims):
        if self._is_maybe_event_override and isinstance(event_ndims, int):
            result.set_shape(tf.broadcast_static_shape(
                y.shape.with_rank_at_least(1)[:-event_ndims], self.batch_shape))

    def _check_elementwise(self, what):
        if self._is_maybe_event_override:
            raise NotImplementedError(f"{what} is not implemented when overriding event_shape")
        if not self.bijector._is_injective:  # pylint: disable=protected-access
            raise NotImplementedError(f"{what} is not implemented when bijector is not "
                                      "injective.")

    def _through_inverse(self, what, method, y, bijector_kwargs, distribution_kwargs):
        self._check_elementwise(what)
        x = self.bijector.inverse(y, **(bijector_kwargs or {}))
        return getattr(self.distribution, method)(x, **(distribution_kwargs or {}))

    def _log_cdf(self, y, bijector_kwargs=None, distribution_kwargs=None):
        return self._through_inverse("log_cdf", "log_cdf", y, bijector_kwargs,
                                     distribution_kwargs)

    def _cdf(self, y, bijector_kwargs=None, distribution_kwargs=None):
        return self._through_inverse("cdf", "cdf", y, bijector_kwargs, distribution_kwargs)

    def _log_survival_function(self, y, bijector_kwargs=None, distribution_kwargs=None):
        return self._through_inverse("log_survival_function", "log_survival_function", y,
                                     bijector_kwargs, distribution_kwargs)

    def _survival_function(self, y, bijector_kwargs=None, distribution_kwargs=None):
        return self._through_inverse("survival_function", "survival_function", y,
                                     bijector_kwargs, distribution_kwargs)

    def _quantile(self, value, bijector_kwargs=None, distribution_kwargs=None):
        self._check_elementwise("quantile")
        x = self.distribution.quantile(value, **(distribution_kwargs or {}))
        return self.bijector.forward(x, **(bijector_kwargs or {}))

    def _entropy(self):
        if not self.bijector.is_constant_jacobian:
            raise NotImplementedError("entropy is not implemented")
        if not self.bijector._is_injective:  # pylint: disable=protected-access
            raise NotImplementedError("entropy is not implemented when bijector is not "
                                      "injective.")
        # H[Y] = H[X] - E[ildj(Y)], the ildj being constant; one base entropy per overridden
        # event entry, tiled over an overridden batch
        entropy = self.distribution.entropy()
        if self._is_maybe_event_override:
            entropy *= tf.cast(tf.reduce_prod(self._override_event_shape),
                               entropy.dtype.base_dtype)
        if self._is_maybe_batch_override:
            base_batch = self.distribution.batch_shape_tensor()
            entropy = tf.reshape(entropy, tf.concat(
                [_ones_like(self._override_batch_shape), base_batch], 0))
            entropy = tf.tile(entropy, tf.concat(
                [self._override_batch_shape, _ones_like(base_batch)], 0))
        dummy = tf.zeros(tf.concat([self.batch_shape_tensor(), self.event_shape_tensor()], 0),
                         self.dtype)
        event_ndims = (self.event_shape.ndims if self.event_shape.ndims is not None
                       else tf.size(self.event_shape_tensor()))
        entropy -= tf.cast(self.bijector.inverse_log_det_jacobian(dummy,
                                                                  event_ndims=event_ndims),
                           entropy.dtype)
        entropy.set_shape(self.batch_shape)
        return entropy

    def _checked_override(self, shape, base_is_scalar, validate_args, name):
        """The override shape vector (empty for none), checked statically where it can be."""
        shape = tf.convert_to_tensor([] if shape is None else shape, tf.int32, name=name)
        if not shape.dtype.is_integer:
            raise TypeError("shape override must be an integer")
        override_is_scalar = _equal(_length(shape), 0)
        if static_value(override_is_scalar):
            return self._empty
        checks = []
        if shape.shape.ndims is not None:
            if shape.shape.ndims != 1:
                raise ValueError("shape override must be a vector")
        elif validate_args:
            checks.append(_v1.assert_rank(shape, 1, message="shape override must be a vector"))
        known = tf.get_static_value(shape)
        if known is not None:
            if any(s <= 0 for s in known):
                raise ValueError("shape override must have positive elements")
        elif validate_args:
            checks.append(_v1.assert_positive(
                shape, message="shape override must have positive elements"))
        both_nonscalar = _all_true(_not(base_is_scalar), _not(override_is_scalar))
        known = static_value(both_nonscalar)
        if known is not None:
            if known:
                raise ValueError("base distribution not scalar")
        elif validate_args:
            checks.append(_v1.assert_equal(both_nonscalar, False,
                                           message="base distribution not scalar"))
        return checked(shape, *checks)

    def _maybe_rotate_dims(self, x, rotate_right=False):
        """Rolls the leading event dims to the back (or, rotate_right, the trailing ones
        to the front)."""
        known = static_value(self._needs_rotation)
        if known is not None and not known:
            return x
        ndims = tf.rank(x)
        n = (ndims - self._rotate_ndims) if rotate_right else self._rotate_ndims
        return tf.transpose(x, concat_vectors(tf.range(n, ndims), tf.range(0, n)))

    def _maybe_get_static_event_ndims(self):
        if self.event_shape.ndims is not None:
            return self.event_shape.ndims
        event_ndims = tf.size(self.event_shape_tensor())
        known = distribution_util.maybe_get_static_value(event_ndims)
        return known if known is not None else event_ndims


def _may_override(shape):
    known = tf.get_static_value(shape)
    return bool(known is None or known.size != 0)


def _static_shape(shape):
    """A shape vector tensor as a static shape, unknown entries as None."""
    return tensor_util.constant_value_as_shape(shape)


def _ones_like(x):
    if x.shape.is_fully_defined():
        return tf.ones(x.shape.as_list(), x.dtype)
    return tf.ones_like(x)
