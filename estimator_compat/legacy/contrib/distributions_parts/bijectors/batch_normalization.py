"""`BatchNormalization`: a TF1 `tf.layers.BatchNormalization` layer as a bijector (Dinh et
al., RealNVP): `inverse` normalizes with the layer (batch statistics when training),
`forward` undoes it with the moving statistics."""
import numpy as np
import tensorflow as tf

from estimator_compat.legacy.contrib import slim_batch_norm

from ._checks import Bijector


def _undo_batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """x * sqrt(variance + eps) / scale + (mean - offset * sqrt(variance + eps) / scale)."""
    with tf.compat.v1.name_scope(name, "undo_batchnorm", [x, mean, variance, scale, offset]):
        rescale = tf.sqrt(variance + variance_epsilon)
        if scale is not None:
            rescale /= scale
        return x * rescale + (mean if offset is None else mean - offset * rescale)


def _layer_classes():
    from estimator_compat.legacy import layer_classes
    return (slim_batch_norm.BatchNormalization, layer_classes.BatchNormalization)


class BatchNormalization(Bijector):
    """Compute `Y = g(X) s.t. X = g^-1(Y) = (Y - mean(Y)) / std(Y)`, with a TF1
    `BatchNormalization` layer (by default one with gamma kept positive: relu(g) + 1e-6)."""

    def __init__(self, batchnorm_layer=None, training=True, validate_args=False,
                 name="batch_normalization"):
        self.batchnorm = batchnorm_layer or slim_batch_norm.BatchNormalization(
            gamma_constraint=lambda x: tf.nn.relu(x) + 1e-6)
        self._validate_bn_layer(self.batchnorm)
        self._training = training
        axis = self.batchnorm.axis
        super().__init__(forward_min_event_ndims=1 if isinstance(axis, int) else len(axis),
                         validate_args=validate_args, name=name)

    @staticmethod
    def _validate_bn_layer(layer):
        if not isinstance(layer, _layer_classes()):
            raise ValueError("batchnorm_layer must be an instance of BatchNormalization layer.")
        if getattr(layer, "renorm", False):
            raise ValueError("BatchNorm Bijector does not support renormalization.")
        if getattr(layer, "virtual_batch_size", None):
            raise ValueError("BatchNorm Bijector does not support virtual batch sizes.")

    def _axes(self, ndims):
        axis = self.batchnorm.axis
        axes = [axis] if isinstance(axis, int) else list(axis)
        return [a + ndims if a < 0 else a for a in axes]

    def _ensure_variables(self, shape):
        """The layer's variables, made now if it has not run yet (TF 1.15 built the layer;
        a functional `tf.layers` layer makes them on a first, non-training call)."""
        layer = self.batchnorm
        if isinstance(layer, slim_batch_norm.BatchNormalization):
            if not layer.built:
                layer.build(tf.TensorShape(shape))
            return
        try:
            layer.moving_mean
        except AttributeError:
            layer.apply(tf.zeros(shape), training=False)

    def _normalize(self, y):
        return self.batchnorm(y, training=self._training)

    def _de_normalize(self, x):
        if not x.shape.is_fully_defined():
            raise ValueError("Input must have shape known at graph construction.")
        shape = np.int32(x.shape.as_list())
        self._ensure_variables(shape)
        ndims = len(shape)
        axes = self._axes(ndims)
        reduction_axes = [i for i in range(ndims) if i not in axes]
        broadcast_shape = [1] * ndims
        broadcast_shape[axes[0]] = shape[axes[0]]

        def broadcast(v):
            if v is not None and len(v.shape) != ndims \
                    and reduction_axes != list(range(ndims - 1)):
                return tf.reshape(v, broadcast_shape)
            return v
        layer = self.batchnorm
        return _undo_batch_normalization(
            x, broadcast(layer.moving_mean), broadcast(layer.moving_variance),
            broadcast(layer.beta) if layer.center else None,
            broadcast(layer.gamma) if layer.scale else None, layer.epsilon)

    def _forward(self, x):
        return self._de_normalize(x)

    def _inverse(self, y):
        return self._normalize(y)

    def _forward_log_det_jacobian(self, x):
        return -self._inverse_log_det_jacobian(x, use_saved_statistics=True)

    def _inverse_log_det_jacobian(self, y, use_saved_statistics=False):
        if not y.shape.is_fully_defined():
            raise ValueError("Input must have shape known at graph construction.")
        shape = np.int32(y.shape.as_list())
        self._ensure_variables(shape)
        layer = self.batchnorm
        reduction_axes = [i for i in range(len(shape)) if i not in self._axes(len(shape))]
        if use_saved_statistics or not self._training:
            log_variance = tf.math.log(layer.moving_variance + layer.epsilon)
        else:
            _, variance = tf.nn.moments(y, axes=reduction_axes, keepdims=True)
            log_variance = tf.math.log(variance + layer.epsilon)
        # as TF 1.15: a layer with scale=False has no gamma, and this fails there too
        log_total_gamma = tf.reduce_sum(tf.math.log(layer.gamma))
        return log_total_gamma - 0.5 * tf.reduce_sum(log_variance)
