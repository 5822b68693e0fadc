"""TF 1.15's `Autoregressive`: the fixed point of `distribution_fn`, a function from a sample
to a distribution whose i-th event entry depends only on entries before i, reached by
resampling `num_steps` times (the event size by default) from `distribution_fn(sample0)`."""
import numpy as np
from tensorflow.python.ops.distributions import distribution as distribution_lib
from tensorflow.python.ops.distributions import util as distribution_util
import tensorflow as tf

_v1 = tf.compat.v1


class Autoregressive(distribution_lib.Distribution):
    """Samples by iterating `distribution_fn`; log_prob(x) = distribution_fn(x).log_prob(x)."""

    def __init__(self, distribution_fn, sample0=None, num_steps=None, validate_args=False,
                 allow_nan_stats=True, name="Autoregressive"):
        parameters = dict(locals())
        with _v1.name_scope(name) as name:
            self._distribution_fn = distribution_fn
            self._sample0 = sample0
            self._distribution0 = (distribution_fn() if sample0 is None
                                   else distribution_fn(sample0))
            if num_steps is None:
                num_steps = self._distribution0.event_shape.num_elements()
                if num_steps is None:
                    raise ValueError("distribution_fn must generate a distribution with fully "
                                     "known `event_shape`.")
            if num_steps < 1:
                raise ValueError(f"num_steps ({num_steps}) must be at least 1.")
            self._num_steps = num_steps
        super().__init__(dtype=self._distribution0.dtype,
                         reparameterization_type=self._distribution0.reparameterization_type,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=self._distribution0._graph_parents, name=name)

    @property
    def distribution_fn(self):
        return self._distribution_fn

    @property
    def sample0(self):
        return self._sample0

    @property
    def num_steps(self):
        return self._num_steps

    @property
    def distribution0(self):
        return self._distribution0

    def _batch_shape(self):
        return self.distribution0.batch_shape

    def _batch_shape_tensor(self):
        return self.distribution0.batch_shape_tensor()

    def _event_shape(self):
        return self.distribution0.event_shape

    def _event_shape_tensor(self):
        return self.distribution0.event_shape_tensor()

    def _sample_n(self, n, seed=None):
        if seed is None:
            seed = distribution_util.gen_new_seed(seed=np.random.randint(2**32 - 1),
                                                  salt="autoregressive")
        samples = self.distribution0.sample(n, seed=seed)
        for _ in range(self._num_steps):
            samples = self.distribution_fn(samples).sample(seed=seed)
        return samples

    def _log_prob(self, value):
        return self.distribution_fn(value).log_prob(value)

    def _prob(self, value):
        return self.distribution_fn(value).prob(value)
