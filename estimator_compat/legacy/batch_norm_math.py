"""TF 1.15's batch normalization, shared by `tf.layers.batch_normalization` (layers.py) and
the layer slim's `batch_norm` builds (contrib/slim_batch_norm.py).

TF 1.15's `BatchNormalization` (its Keras V1 layer) is gone from TensorFlow 2.21's graph mode,
and with it batch renormalization (`renorm`, `renorm_clipping`, `renorm_momentum`), ghost
batches (`virtual_batch_size`) and `adjustment`. `BatchNorm` redoes that layer's arithmetic and
graph: its variables (renorm adds `moving_stddev`, `renorm_mean`, `renorm_stddev`; ghost
batches give every variable the shape [1, 1, ..., channels]), the fused kernel only where TF
1.15 took it, the update ops (`AssignMovingAvg` with its `decay`, renorm's `AssignNewValue` of
the moving variance from the moving stddev) and the ops' names. The caller creates the
variables (`get_variable` or `add_weight`) and puts the updates in UPDATE_OPS.
"""
import numpy as np
import tensorflow as tf
from tensorflow.python.framework import ops

v1 = tf.compat.v1
_CLIPPING_KEYS = ("rmax", "rmin", "dmax")


def _static(training):
    """`training` as a Python bool where it is known while building, else None (TF 1.15's
    smart_cond: a constant tensor counts as known)."""
    if training is None:
        return False
    if isinstance(training, (bool, int, np.bool_)):
        return bool(training)
    try:
        value = tf.get_static_value(training)
    except (TypeError, ValueError):
        return None
    return None if value is None else bool(value)


def _smart_cond(static, training, true_fn, false_fn):
    if static is None:
        return tf.cond(tf.cast(training, tf.bool), true_fn, false_fn)
    return true_fn() if static else false_fn()


def _compose(scale, offset, then_scale, then_offset):
    """(scale, offset) of `x * scale + offset`, then `* then_scale + then_offset`."""
    if then_scale is not None:
        scale = scale * then_scale
        offset = offset * then_scale
    if then_offset is not None:
        offset = offset + then_offset
    return scale, offset


def assign_moving_average(variable, value, momentum):
    """`variable -= (variable - value) * (1 - momentum)` as TF 1.15 named it: the op
    `<scope>/AssignMovingAvg`, its factor `AssignMovingAvg/decay` (a constant where `momentum`
    is a number, `AssignMovingAvg/sub` where it is a tensor)."""
    with tf.name_scope("AssignMovingAvg") as scope, ops.colocate_with(variable):
        dtype = variable.dtype.base_dtype
        decay = tf.convert_to_tensor(1.0 - momentum, name="decay")
        if decay.dtype != dtype:
            decay = tf.cast(decay, dtype)
        delta = (variable - tf.cast(value, dtype)) * decay
        return v1.assign_sub(variable, delta, name=scope)


def _assign_new_value(variable, value):
    with tf.name_scope("AssignNewValue") as scope, ops.colocate_with(variable):
        return v1.assign(variable, value, name=scope)


def _op(update):
    return getattr(update, "op", update)


class BatchNorm:
    """One TF 1.15 batch normalization layer's options, variables and arithmetic."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 renorm=False, renorm_clipping=None, renorm_momentum=0.99, fused=None,
                 virtual_batch_size=None, adjustment=None):
        if not isinstance(axis, (int, list)):
            raise TypeError("axis must be int or list, type given: %s" % type(axis))
        self.axis = axis if isinstance(axis, int) else list(axis)
        self.momentum, self.epsilon = momentum, epsilon
        self.center, self.scale = center, scale
        self.fused, self.adjustment = fused, adjustment
        self.virtual_batch_size = virtual_batch_size
        self.renorm = renorm
        if renorm:
            renorm_clipping = renorm_clipping or {}
            if set(renorm_clipping) - set(_CLIPPING_KEYS):
                raise ValueError("renorm_clipping %s contains keys not in %s"
                                 % (renorm_clipping, list(_CLIPPING_KEYS)))
            self.renorm_clipping, self.renorm_momentum = renorm_clipping, renorm_momentum
        self.gamma = self.beta = None

    def resolve(self, input_shape, dtype):
        """Checks the options against the input shape (TF 1.15's build) and sets `axes`,
        `param_shape` and `use_fused` (`dtype`: the variables')."""
        input_shape = tf.TensorShape(input_shape)
        if not input_shape.rank:
            raise ValueError("Input has undefined rank:", input_shape)
        ndims = input_shape.rank
        axes = [self.axis] if isinstance(self.axis, int) else list(self.axis)
        axes = [a + ndims if a < 0 else a for a in axes]
        for a in axes:
            if a < 0 or a >= ndims:
                raise ValueError("Invalid axis: %d" % a)
        if len(axes) != len(set(axes)):
            raise ValueError("Duplicate axis: %s" % axes)
        vbs = self.virtual_batch_size
        if vbs is not None:
            if vbs <= 0:
                raise ValueError("virtual_batch_size must be a positive integer that divides "
                                 "the true batch size of the input Tensor")
            if 0 in axes:
                raise ValueError("When using virtual_batch_size, the batch dimension must be 0 "
                                 "and thus axis cannot include 0")
            if self.adjustment is not None:
                raise ValueError("When using virtual_batch_size, adjustment cannot be "
                                 "specified")
        # TF 1.15's V1 layer: fused where it can be (fused=True included), else quietly not
        self.use_fused = (self.fused is not False and ndims == 4 and axes in ([1], [3])
                          and tf.as_dtype(dtype) == tf.float32 and not self.renorm
                          and vbs is None and self.adjustment is None)
        dims = {a: input_shape[a] for a in axes}
        if any(d is None for d in dims.values()):
            raise ValueError("Input has undefined `axis` dimension. Input shape: ", input_shape)
        if len(axes) == 1 and vbs is None:
            self.param_shape = [dims[axes[0]]]
        else:
            self.param_shape = [dims.get(i, 1) for i in range(ndims)]
            if vbs is not None:
                self.param_shape.insert(1, 1)
        self.axes = axes
        return self

    def create_variables(self, add, dtype, initializers):
        """The layer's variables, in TF 1.15's order, through `add(name, initializer,
        trainable)`; `initializers` maps gamma, beta, moving_mean, moving_variance to theirs.
        Where fused and without gamma / beta, the constants TF 1.15 made take their place."""
        shape = self.param_shape
        if self.scale:
            self.gamma = add("gamma", initializers["gamma"], True)
        elif self.use_fused:
            self._gamma_const = tf.constant(1.0, dtype, shape)
        if self.center:
            self.beta = add("beta", initializers["beta"], True)
        elif self.use_fused:
            self._beta_const = tf.constant(0.0, dtype, shape)
        self.moving_mean = add("moving_mean", initializers["moving_mean"], False)
        self.moving_variance = add("moving_variance", initializers["moving_variance"], False)
        if self.renorm:
            variance_init = initializers["moving_variance"]

            def stddev_init(*args, **kwargs):  # the stddev follows the variance's initializer
                return tf.sqrt(variance_init(*args, **kwargs))
            self.moving_stddev = add("moving_stddev", stddev_init, False)
            self.renorm_mean = add("renorm_mean", initializers["moving_mean"], False)
            self.renorm_stddev = add("renorm_stddev", stddev_init, False)

    def __call__(self, inputs, training):
        """(outputs, update ops) of the layer on `inputs` (`training`: bool or bool tensor)."""
        static = _static(training)
        if self.use_fused:
            return self._fused(inputs, training, static)
        return self._unfused(inputs, training, static)

    def _fused(self, x, training, static):
        """FusedBatchNormV3: the batch's moments in training (the variance with Bessel's
        correction, which the moving variance then moves toward), the moving ones otherwise."""
        data_format = "NCHW" if self.axes == [1] else "NHWC"
        x = tf.convert_to_tensor(x)
        gamma = self._gamma_const if self.gamma is None else self.gamma
        beta = self._beta_const if self.beta is None else self.beta

        def batch():
            return v1.nn.fused_batch_norm(x, gamma, beta, epsilon=self.epsilon,
                                          data_format=data_format)

        def moving():
            return v1.nn.fused_batch_norm(x, gamma, beta, mean=self.moving_mean,
                                          variance=self.moving_variance, epsilon=self.epsilon,
                                          is_training=False, data_format=data_format)
        outputs, mean, variance = _smart_cond(static, training, batch, moving)
        if static is None:  # 1.0 (no change) where a `training` tensor is false
            momentum = tf.cond(tf.cast(training, tf.bool), lambda: tf.constant(self.momentum),
                               lambda: tf.constant(1.0))
        else:
            momentum = tf.convert_to_tensor(self.momentum)
        updates = []
        if static is None or static:
            updates = [_op(assign_moving_average(self.moving_mean, mean, momentum)),
                       _op(assign_moving_average(self.moving_variance, variance, momentum))]
        return outputs, updates

    def _unfused(self, inputs, training, static):
        inputs = tf.convert_to_tensor(inputs)
        axes, vbs = self.axes, self.virtual_batch_size
        if vbs is not None:  # ghost batches: [vbs, batch / vbs, ...], normalized per [:, i]
            original_shape = [-1] + inputs.shape.as_list()[1:]
            inputs = tf.reshape(inputs, [vbs, -1] + original_shape[1:])
            axes = [a + 1 for a in axes]
        input_shape, ndims = inputs.shape, inputs.shape.rank
        reduction_axes = [i for i in range(ndims) if i not in axes]
        if vbs is not None:
            del reduction_axes[1]
        broadcast_shape = [1] * ndims
        broadcast_shape[axes[0]] = input_shape[axes[0]]

        def broadcast(v):
            if (v is not None and v.shape.rank != ndims
                    and reduction_axes != list(range(ndims - 1))):
                return tf.reshape(v, broadcast_shape)
            return v
        scale, offset = broadcast(self.gamma), broadcast(self.beta)
        updates = []
        if static is False:
            mean, variance = self.moving_mean, self.moving_variance
        else:
            if self.adjustment is not None:  # applied in training only
                adj_scale, adj_bias = self.adjustment(tf.shape(inputs))
                adj_scale = _smart_cond(static, training, lambda: adj_scale,
                                        lambda: tf.ones_like(adj_scale))
                adj_bias = _smart_cond(static, training, lambda: adj_bias,
                                       lambda: tf.zeros_like(adj_bias))
                scale, offset = _compose(adj_scale, adj_bias, scale, offset)
            dtype = self.moving_mean.dtype.base_dtype
            keepdims = vbs is not None or len(axes) > 1
            mean, variance = tf.nn.moments(tf.cast(inputs, dtype), reduction_axes,
                                           keepdims=keepdims)
            mean = _smart_cond(static, training, lambda: mean,
                               lambda: tf.convert_to_tensor(self.moving_mean))
            variance = _smart_cond(static, training, lambda: variance,
                                   lambda: tf.convert_to_tensor(self.moving_variance))
            if vbs is not None:  # the moving statistics take the ghost batches' average
                new_mean = tf.reduce_mean(mean, axis=1, keepdims=True)
                new_variance = tf.reduce_mean(variance, axis=1, keepdims=True)
            else:
                new_mean, new_variance = mean, variance
            if self.renorm:
                r, d, new_mean, new_variance = self._renorm_correction(
                    new_mean, new_variance, training, static)
                # (x * r + d) * gamma + beta = x * (r * gamma) + (d * gamma + beta)
                r = broadcast(tf.stop_gradient(r, name="renorm_r"))
                d = broadcast(tf.stop_gradient(d, name="renorm_d"))
                scale, offset = _compose(r, d, scale, offset)
            updates = self._moving_updates(new_mean, new_variance, training, static)
        mean, variance = tf.cast(mean, inputs.dtype), tf.cast(variance, inputs.dtype)
        offset = None if offset is None else tf.cast(offset, inputs.dtype)
        scale = None if scale is None else tf.cast(scale, inputs.dtype)
        outputs = tf.nn.batch_normalization(inputs, broadcast(mean), broadcast(variance),
                                            offset, scale, self.epsilon)
        outputs.set_shape(input_shape)
        if vbs is not None:
            outputs = tf.reshape(outputs, original_shape)
        return outputs, updates

    def _rate(self, momentum, training, static):
        """The update's momentum: 1.0 (no change) where a `training` tensor is false."""
        if static is None:
            return tf.cond(tf.cast(training, tf.bool), lambda: tf.constant(momentum),
                           lambda: tf.constant(1.0))
        return momentum

    def _renorm_correction(self, mean, variance, training, static):
        """Batch renormalization's (r, d) from the renorm moving averages before this batch's
        update, and the batch moments once those averages have taken it."""
        stddev = tf.sqrt(variance + self.epsilon)
        renorm_mean = self.renorm_mean
        renorm_stddev = tf.maximum(self.renorm_stddev, tf.sqrt(self.epsilon))
        r = stddev / renorm_stddev
        d = (mean - renorm_mean) / renorm_stddev
        with tf.control_dependencies([r, d]):
            mean, stddev = tf.identity(mean), tf.identity(stddev)
        clip = self.renorm_clipping
        if clip.get("rmin") is not None:
            r = tf.maximum(r, clip["rmin"])
        if clip.get("rmax") is not None:
            r = tf.minimum(r, clip["rmax"])
        if clip.get("dmax") is not None:
            d = tf.minimum(tf.maximum(d, -clip["dmax"]), clip["dmax"])
        r = _smart_cond(static, training, lambda: r, lambda: tf.ones_like(r))
        d = _smart_cond(static, training, lambda: d, lambda: tf.zeros_like(d))
        rate = self._rate(self.renorm_momentum, training, static)
        new_mean = assign_moving_average(self.renorm_mean, tf.identity(mean), rate)
        new_stddev = assign_moving_average(self.renorm_stddev, tf.identity(stddev), rate)
        with tf.control_dependencies([_op(new_mean), _op(new_stddev)]):
            return r, d, tf.identity(mean), tf.identity(variance)

    def _moving_updates(self, mean, variance, training, static):
        rate = self._rate(self.momentum, training, static)
        mean_update = assign_moving_average(self.moving_mean, mean, rate)
        if not self.renorm:
            return [_op(mean_update),
                    _op(assign_moving_average(self.moving_variance, variance, rate))]
        # renorm keeps the moving stddev (epsilon inside, as in training) and derives the
        # moving variance from it
        stddev = assign_moving_average(self.moving_stddev, tf.sqrt(variance + self.epsilon),
                                       rate)
        if not isinstance(stddev, tf.Tensor):  # a resource variable's update
            stddev = tf.convert_to_tensor(stddev)
        value = tf.nn.relu(stddev * stddev - self.epsilon)
        if static is None:
            value = tf.where(tf.cast(training, tf.bool), value,
                             tf.convert_to_tensor(self.moving_variance))
        return [_op(mean_update), _op(_assign_new_value(self.moving_variance, value))]
