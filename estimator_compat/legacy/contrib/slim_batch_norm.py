"""The TF1 `BatchNormalization` layer class that `tf_slim.batch_norm` builds (TF 1.15's
`tensorflow.python.layers.normalization.BatchNormalization`).

TensorFlow 2.21 still ships the TF1 layer base class (`tensorflow.python.keras.legacy_tf_layers`)
that tf_slim's conv/pool/dense layers use, but its `tensorflow.python.layers.normalization` only
lazy-loads `tf_keras` (which would pull the full `tensorflow` wheel beside `tensorflow-cpu`).
This class takes its place with TF 1.15's behaviour: variables `gamma`, `beta`, `moving_mean`,
`moving_variance` in the layer's scope; the fused kernel for 4-D inputs (so the moving variance
gets the batch variance with Bessel's correction, as TF 1.15's did) and moments otherwise;
`AssignMovingAvg` / `AssignMovingAvg_1` update ops in UPDATE_OPS, whose decay is 0 when a
`training` tensor is false.
"""
import tensorflow as tf
from tensorflow.python.keras.legacy_tf_layers import base

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
        if renorm or virtual_batch_size or adjustment is not None:
            raise ValueError("batch normalization with renorm, virtual_batch_size or adjustment "
                             "is not supported by estimator_compat; use "
                             "tf.keras.layers.BatchNormalization(renorm=...) instead.")
        super().__init__(name=name, trainable=trainable, **kwargs)
        self.axis = axis
        self.momentum, self.epsilon = momentum, epsilon
        self.center, self.scale = center, scale
        self.initializers = {
            "beta": beta_initializer or v1.zeros_initializer(),
            "gamma": gamma_initializer or v1.ones_initializer(),
            "moving_mean": moving_mean_initializer or v1.zeros_initializer(),
            "moving_variance": moving_variance_initializer or v1.ones_initializer()}
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint
        self.fused = fused
        self.beta = self.gamma = None

    def build(self, input_shape):
        input_shape = tf.TensorShape(input_shape)
        rank = input_shape.rank
        if rank is None:
            raise ValueError(f"Input has undefined rank: {input_shape}.")
        axes = [self.axis] if isinstance(self.axis, int) else list(self.axis)
        self._axes = sorted(a % rank for a in axes)
        # fused when possible (as TF 1.15 resolved fused=None / True): 4-D, one channel axis
        self._use_fused = (self.fused is not False and rank == 4
                           and self._axes in ([1], [3]))
        param_shape = [input_shape[a] for a in self._axes]
        if any(d is None for d in param_shape):
            raise ValueError(f"Input has undefined channel dimension: {input_shape}.")
        dtype = tf.float32 if self.dtype in (None, "float16", "bfloat16") else self.dtype
        if self.scale:
            self.gamma = self.add_weight("gamma", param_shape, dtype, self.initializers["gamma"],
                                         self.gamma_regularizer, True, self.gamma_constraint)
        if self.center:
            self.beta = self.add_weight("beta", param_shape, dtype, self.initializers["beta"],
                                        self.beta_regularizer, True, self.beta_constraint)
        on_read = dict(synchronization=tf.VariableSynchronization.ON_READ,
                       aggregation=tf.VariableAggregation.MEAN)
        self.moving_mean = self.add_weight("moving_mean", param_shape, dtype,
                                           self.initializers["moving_mean"], trainable=False,
                                           **on_read)
        self.moving_variance = self.add_weight("moving_variance", param_shape, dtype,
                                               self.initializers["moving_variance"],
                                               trainable=False, **on_read)
        self.built = True

    def call(self, inputs, training=False):
        training = False if training is None else training
        static = training if isinstance(training, bool) else tf.get_static_value(training)
        x = tf.cast(inputs, self.moving_mean.dtype)
        if self._use_fused:
            outputs, mean, variance = self._fused(x, training, static)
        else:
            outputs, mean, variance = self._moments(x, training, static)
        if static is None or static:
            decay = 1.0 - self.momentum
            if static is None:
                decay = tf.where(tf.cast(training, tf.bool), decay, 0.0)
            for var, value in ((self.moving_mean, mean), (self.moving_variance, variance)):
                with tf.name_scope("AssignMovingAvg") as scope:
                    delta = (var - tf.cast(value, var.dtype)) * decay
                    update = v1.assign_sub(var, delta, name=scope)
                v1.add_to_collection(v1.GraphKeys.UPDATE_OPS, getattr(update, "op", update))
        return tf.cast(outputs, inputs.dtype)

    def _fused(self, x, training, static):
        data_format = "NCHW" if self._axes == [1] else "NHWC"
        channels = self.moving_mean.shape
        gamma = self.gamma if self.gamma is not None else tf.ones(channels, x.dtype)
        beta = self.beta if self.beta is not None else tf.zeros(channels, x.dtype)

        def train():
            return v1.nn.fused_batch_norm(x, gamma, beta, epsilon=self.epsilon,
                                          data_format=data_format, is_training=True)

        def infer():
            return v1.nn.fused_batch_norm(x, gamma, beta, mean=self.moving_mean,
                                          variance=self.moving_variance, epsilon=self.epsilon,
                                          data_format=data_format, is_training=False)
        if static is not None:
            return train() if static else infer()
        return tf.cond(tf.cast(training, tf.bool), train, infer)

    def _moments(self, x, training, static):
        rank = x.shape.rank
        reduce_axes = [i for i in range(rank) if i not in self._axes]
        shape = [x.shape[i] if i in self._axes else 1 for i in range(rank)]

        def batch():
            mean, variance = tf.nn.moments(x, reduce_axes)
            return mean, variance

        def moving():
            return tf.identity(self.moving_mean), tf.identity(self.moving_variance)
        if static is not None:
            mean, variance = batch() if static else moving()
        else:
            mean, variance = tf.cond(tf.cast(training, tf.bool), batch, moving)
        reshape = lambda t: None if t is None else tf.reshape(t, shape)  # noqa: E731
        outputs = tf.nn.batch_normalization(x, reshape(mean), reshape(variance),
                                            reshape(self.beta), reshape(self.gamma), self.epsilon)
        return outputs, mean, variance


def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                        training=False, trainable=True, name=None, reuse=None, **kwargs):
    """The functional form, as `tensorflow.python.layers.normalization` had it."""
    layer = BatchNormalization(axis=axis, momentum=momentum, epsilon=epsilon, center=center,
                               scale=scale, trainable=trainable, name=name, _reuse=reuse,
                               _scope=name, **kwargs)
    return layer.apply(inputs, training=training)
