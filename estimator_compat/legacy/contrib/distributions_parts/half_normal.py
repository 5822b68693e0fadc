"""HalfNormal: |X| for X ~ Normal(0, scale), gone from TensorFlow 2 with tf.contrib."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops.distributions import special_math

from estimator_compat.legacy.contrib.distributions_parts import _common as c


class HalfNormal(c.Distribution):
    """The half-normal distribution: pdf sqrt(2 / pi) / scale exp(-x^2 / (2 scale^2)), x >= 0."""

    def __init__(self, scale, validate_args=False, allow_nan_stats=True, name="HalfNormal"):
        parameters = c.params(locals())
        with c.scope(name, [scale]) as name:
            self._scale, = c.named([scale], ["scale"], c.positive(scale, validate_args))
        super().__init__(dtype=self._scale.dtype,
                         reparameterization_type=c.FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=[self._scale], name=name)

    @staticmethod
    def _param_shapes(sample_shape):
        return c.shape_param(sample_shape, "scale")

    @property
    def scale(self):
        """Distribution parameter for the scale."""
        return self._scale

    def _batch_shape_tensor(self):
        return tf.shape(self.scale)

    def _batch_shape(self):
        return self.scale.shape

    def _event_shape_tensor(self):
        return c.scalar_event_tensor()

    def _event_shape(self):
        return tf.TensorShape([])

    def _sample_n(self, n, seed=None):
        shape = tf.concat([[n], self.batch_shape_tensor()], 0)
        return tf.abs(tf.random.normal(shape, dtype=self.dtype, seed=seed) * self.scale)

    def _prob(self, x):
        density = np.sqrt(2 / np.pi) / self.scale * tf.exp(-0.5 * tf.square(x / self.scale))
        return density * tf.cast(x >= 0, self.dtype)

    def _cdf(self, x):
        return tf.math.erf(tf.nn.relu(x) / self.scale / np.sqrt(2.0))

    def _entropy(self):
        return 0.5 * tf.math.log(np.pi * self.scale ** 2.0 / 2.0) + 0.5

    def _mean(self):
        return self.scale * np.sqrt(2.0) / np.sqrt(np.pi)

    def _quantile(self, p):
        return np.sqrt(2.0) * self.scale * special_math.erfinv(p)

    def _mode(self):
        return tf.zeros(self.batch_shape_tensor())

    def _variance(self):
        return self.scale ** 2.0 * (1.0 - 2.0 / np.pi)
