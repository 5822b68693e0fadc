"""The TF1 `BatchNormalization` layer class that `tf_slim.batch_norm` builds (TF 1.15's
`tensorflow.python.layers.normalization.BatchNormalization`).

TensorFlow 2.21 still ships the TF1 layer base class (`tensorflow.python.keras.legacy_tf_layers`)
that tf_slim's conv/pool/dense layers use, but its `tensorflow.python.layers.normalization` only
lazy-loads `tf_keras` (which would pull the full `tensorflow` wheel beside `tensorflow-cpu`).
This class takes its place with TF 1.15's behaviour (batch_norm_math.py): variables `gamma`,
`beta`, `moving_mean`, `moving_variance` (with renorm also `moving_stddev`, `renorm_mean`,
`renorm_stddev`) in the layer's scope; the fused kernel for 4-D inputs where TF 1.15 took it
and moments otherwise; `AssignMovingAvg` / `AssignMovingAvg_1` (renorm: `AssignMovingAvg_2` /
`AssignNewValue`) update ops in UPDATE_OPS, whose decay is 0 when a `training` tensor is false.
"""
import tensorflow as tf
from tensorflow.python.keras.legacy_tf_layers import base

from estimator_compat.legacy.batch_norm_math import BatchNorm

v1 = tf.compat.v1


class BatchNormalization(base.Layer):
    """TF 1.15's `tf.layers.BatchNormalization` (the subset tf_slim and TF1 code construct)."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer=None, gamma_initializer=None,
                 moving_mean_initializer=None, moving_variance_initializer=None,
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, renorm=False, renorm_clipping=None,
                 renorm_momentum=0.99, fused=None, trainable=True, virtual_batch_size=None,
                 adjustment=None, name=None, **kwargs):
        self._math = BatchNorm(axis, momentum, epsilon, center, scale, renorm, renorm_clipping,
                               renorm_momentum, fused, virtual_batch_size, adjustment)
        super().__init__(name=name, trainable=trainable, **kwargs)
        self.axis, self.momentum, self.epsilon = axis, momentum, epsilon
        self.center, self.scale, self.fused = center, scale, fused
        self.renorm, self.adjustment = renorm, adjustment
        self.virtual_batch_size = virtual_batch_size
        self.initializers = {
            "beta": beta_initializer or v1.zeros_initializer(),
            "gamma": gamma_initializer or v1.ones_initializer(),
            "moving_mean": moving_mean_initializer or v1.zeros_initializer(),
            "moving_variance": moving_variance_initializer or v1.ones_initializer()}
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint
        self.beta = self.gamma = None

    def build(self, input_shape):
        dtype = tf.float32 if self.dtype in (None, "float16", "bfloat16") else self.dtype
        math = self._math.resolve(input_shape, dtype)
        on_read = dict(synchronization=tf.VariableSynchronization.ON_READ,
                       aggregation=tf.VariableAggregation.MEAN)

        def add(name, initializer, trainable):
            return self.add_weight(name, math.param_shape, dtype, initializer,
                                   getattr(self, name + "_regularizer", None), trainable,
                                   getattr(self, name + "_constraint", None),
                                   **({} if trainable else on_read))
        math.create_variables(add, dtype, self.initializers)
        for name in ("gamma", "beta", "moving_mean", "moving_variance", "moving_stddev",
                     "renorm_mean", "renorm_stddev"):
            if hasattr(math, name):
                setattr(self, name, getattr(math, name))
        self.built = True

    def call(self, inputs, training=False):
        outputs, updates = self._math(inputs, False if training is None else training)
        for update in updates:
            v1.add_to_collection(v1.GraphKeys.UPDATE_OPS, update)
        return outputs


def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                        training=False, trainable=True, name=None, reuse=None, **kwargs):
    """The functional form, as `tensorflow.python.layers.normalization` had it."""
    layer = BatchNormalization(axis=axis, momentum=momentum, epsilon=epsilon, center=center,
                               scale=scale, trainable=trainable, name=name, _reuse=reuse,
                               _scope=name, **kwargs)
    return layer.apply(inputs, training=training)
