"""Mixture: a Categorical choosing among a list of distributions of one dtype and event shape;
gone from TensorFlow 2 with tf.contrib."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.distributions import categorical
from tensorflow.python.ops.distributions import util

from estimator_compat.legacy.contrib.distributions_parts import _common as c
from estimator_compat.legacy.contrib.distributions_parts.mixture_same_family import (
    pad_mixture_dimensions)


def mixture_stddev(weights, means, stddevs):
    """The stddev of a mixture of [batch, k] components: sqrt(E[var] + E[mean^2] - E[mean]^2)
    under the weights."""
    weights.shape.assert_has_rank(2)
    if not means.shape.is_compatible_with(weights.shape):
        raise ValueError("Expecting means to have same shape as mixture weights.")
    if not stddevs.shape.is_compatible_with(weights.shape):
        raise ValueError("Expecting stddevs to have same shape as mixture weights.")
    pi = weights[:, tf.newaxis, :]

    def average(v):
        return tf.reshape(tf.matmul(pi, v[:, :, tf.newaxis]), (-1,))
    mean = average(means)
    return tf.sqrt(average(tf.square(stddevs)) + average(tf.square(means)) - tf.square(mean))


class Mixture(c.Distribution):
    """p(x) = sum_i cat.probs[i] components[i](x), for a `Categorical` `cat` with as many
    classes as `components`."""

    def __init__(self, cat, components, validate_args=False, allow_nan_stats=True,
                 use_static_graph=False, name="Mixture"):
        parameters = c.params(locals())
        if not isinstance(cat, categorical.Categorical):
            raise TypeError("cat must be a Categorical distribution, but saw: %s" % cat)
        if not components:
            raise ValueError("components must be a non-empty list or tuple")
        if not isinstance(components, (list, tuple)):
            raise TypeError("components must be a list or tuple, but saw: %s" % components)
        if not all(isinstance(d, c.Distribution) for d in components):
            raise TypeError("all entries in components must be Distribution instances"
                            " but saw: %s" % components)
        dtype = components[0].dtype
        if not all(d.dtype == dtype for d in components):
            raise TypeError("All components must have the same dtype, but saw "
                            "dtypes: %s" % [(d.name, d.dtype) for d in components])
        event_shape, batch_shape = components[0].event_shape, cat.batch_shape
        for d in components:
            event_shape = event_shape.merge_with(d.event_shape)
            batch_shape = batch_shape.merge_with(d.batch_shape)
        if event_shape.ndims is None:
            raise ValueError("none of the components provide a static number of ndims")
        with c.scope(name, [cat.logits]) as name:
            count = tf.get_static_value(cat.event_size)
            if count is None:
                raise ValueError("Could not infer number of classes from cat and unable "
                                 "to compare this value to the number of components passed in.")
            count = int(count)
            if count != len(components):
                raise ValueError("cat.num_classes != len(components): %d vs. %d"
                                 % (count, len(components)))
            self._assertions = []
            if validate_args:
                cat_shape = cat.batch_shape_tensor()
                shapes = [d.batch_shape_tensor() for d in components]
                message = "components[%d] batch shape must match cat batch shape"
                self._assertions = [
                    tf.debugging.assert_equal(tf.size(cat_shape), tf.size(s), message=message % i)
                    for i, s in enumerate(shapes)]
                self._assertions += [
                    tf.debugging.assert_equal(cat_shape, s, message=message % i)
                    for i, s in enumerate(shapes)]
            self._cat = cat
            self._components = list(components)
            self._num_components = count
            self._static_event_shape = event_shape
            self._static_batch_shape = batch_shape
            self._use_static_graph = use_static_graph
        graph_parents = list(cat._graph_parents)
        for d in self._components:
            graph_parents += d._graph_parents
        super().__init__(dtype=dtype, reparameterization_type=c.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=graph_parents, name=name)

    @property
    def cat(self):
        return self._cat

    @property
    def components(self):
        return self._components

    @property
    def num_components(self):
        return self._num_components

    def _batch_shape_tensor(self):
        return self._cat.batch_shape_tensor()

    def _batch_shape(self):
        return self._static_batch_shape

    def _event_shape_tensor(self):
        return self._components[0].event_shape_tensor()

    def _event_shape(self):
        return self._static_event_shape

    def _cat_probs(self, log_probs):
        probs = (tf.nn.log_softmax if log_probs else tf.nn.softmax)(self.cat.logits)
        return tf.unstack(probs, num=self.num_components, axis=-1)

    def _to_event_rank(self, x):
        for _ in range(self.event_shape.ndims):
            x = tf.expand_dims(x, -1)
        return x

    def _mean(self):
        with tf.control_dependencies(self._assertions):
            probs = [self._to_event_rank(p) for p in self._cat_probs(log_probs=False)]
            return tf.add_n([p * d.mean() for p, d in zip(probs, self.components)])

    def _stddev(self):
        with tf.control_dependencies(self._assertions):
            k = len(self.components)
            means = tf.stack([d.mean() for d in self.components], axis=-1)
            devs = tf.stack([d.stddev() for d in self.components], axis=-1)
            probs = [self._to_event_rank(p) for p in self._cat_probs(log_probs=False)]
            probs = tf.stack(probs, axis=-1) * tf.ones_like(means)
            dev = mixture_stddev(tf.reshape(probs, [-1, k]), tf.reshape(means, [-1, k]),
                                 tf.reshape(devs, [-1, k]))
            return tf.reshape(dev, tf.shape(probs)[:-1])

    def _mixed(self, per_component):
        logs = [lp + v for lp, v in zip(self._cat_probs(log_probs=True), per_component)]
        return tf.reduce_logsumexp(tf.stack(logs, axis=0), [0])

    def _log_prob(self, x):
        with tf.control_dependencies(self._assertions):
            x = tf.convert_to_tensor(x, name="x")
            return self._mixed([d.log_prob(x) for d in self.components])

    def _log_cdf(self, x):
        with tf.control_dependencies(self._assertions):
            x = tf.convert_to_tensor(x, name="x")
            return self._mixed([d.log_cdf(x) for d in self.components])

    def _sample_n(self, n, seed=None):
        """Each component sampled n times, the categorical's draw picking one of them per
        sample (the same distribution as TF 1.15's partitioned sampling)."""
        with tf.control_dependencies(self._assertions):
            chosen = self.cat.sample(n, seed=seed)  # [n, B]
            samples = []
            for d in self.components:
                seed = util.gen_new_seed(seed, "mixture")
                samples.append(d.sample(n, seed=seed))
            ndims = self._static_event_shape.ndims
            x = tf.stack(samples, -ndims - 1)  # [n, B, k, E]
            npdt = x.dtype.as_numpy_dtype
            mask = tf.one_hot(chosen, self._num_components, on_value=np.ones([], dtype=npdt),
                              off_value=np.zeros([], dtype=npdt))  # [n, B, k]
            mask = pad_mixture_dimensions(mask, self, self._cat, ndims)
            return tf.reduce_sum(x * mask, axis=-1 - ndims)

    def entropy_lower_bound(self, name="entropy_lower_bound"):
        """A lower bound on the entropy: sum_i cat.probs[i] H(components[i]) (the mixture's
        entropy has no closed form)."""
        with self._name_scope(name, values=[self.cat.logits]):
            with tf.control_dependencies(self._assertions):
                probs = self._cat_probs(log_probs=False)
                return tf.add_n([p * d.entropy() for p, d in zip(probs, self.components)])
