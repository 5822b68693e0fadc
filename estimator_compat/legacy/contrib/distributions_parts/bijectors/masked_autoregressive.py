"""`MaskedAutoregressiveFlow` (Papamakarios et al. 2017) and its MADE network: `masked_dense`
(a TF1 `tf.layers.Dense` with an autoregressive mask on its kernel) and
`masked_autoregressive_default_template` (a `tf.make_template` of masked layers)."""
import numpy as np
import tensorflow as tf

from ._checks import Bijector

_v1 = tf.compat.v1


class MaskedAutoregressiveFlow(Bijector):
    """Affine autoregressive flow: `y[i] = x[i] * exp(log_scale[i]) + shift[i]` where
    (shift, log_scale) = `shift_and_log_scale_fn(y)` depends on y[:i] only, so `forward` runs
    the network event-size times (a while loop, or unrolled) and `inverse` once."""

    def __init__(self, shift_and_log_scale_fn, is_constant_jacobian=False, validate_args=False,
                 unroll_loop=False, name=None):
        self._shift_and_log_scale_fn = shift_and_log_scale_fn
        self._unroll_loop = unroll_loop
        super().__init__(forward_min_event_ndims=1, is_constant_jacobian=is_constant_jacobian,
                         validate_args=validate_args,
                         name=name or "masked_autoregressive_flow")

    def _step(self, x, y):
        shift, log_scale = self._shift_and_log_scale_fn(y)
        out = x
        if log_scale is not None:
            out *= tf.exp(log_scale)
        if shift is not None:
            out += shift
        return out

    def _forward(self, x):
        event_size_ = tf.compat.dimension_value(x.shape.with_rank_at_least(1)[-1])
        if self._unroll_loop:
            if event_size_ is None:
                raise ValueError("The final dimension of `x` must be known at graph "
                                 "construction time if `unroll_loop=True`. `x.shape: %r`"
                                 % x.shape)
            y = tf.zeros_like(x, name="y0")
            for _ in range(event_size_):
                y = self._step(x, y)
            return y
        event_size = tf.shape(x)[-1]
        y0 = tf.zeros_like(x, name="y0")
        self._shift_and_log_scale_fn(y0)  # the network's variables, made outside the loop

        def body(index, y):
            with _v1.variable_scope(_v1.get_variable_scope()) as scope:
                if scope.caching_device is None:
                    scope.set_caching_device(lambda op: op.device)
                return index + 1, self._step(x, y)
        _, y = _v1.while_loop(lambda index, _: index < event_size, body, (0, y0),
                              maximum_iterations=event_size_)
        return y

    def _inverse(self, y):
        shift, log_scale = self._shift_and_log_scale_fn(y)
        x = y
        if shift is not None:
            x -= shift
        if log_scale is not None:
            x *= tf.exp(-log_scale)
        return x

    def _inverse_log_det_jacobian(self, y):
        _, log_scale = self._shift_and_log_scale_fn(y)
        if log_scale is None:
            return tf.constant(0., dtype=y.dtype, name="ildj")
        return -tf.reduce_sum(log_scale, axis=-1)


def _mask(num_blocks, n_in, n_out, exclusive):
    """[n_out, n_in] 0/1 mask: output block k sees input blocks < k (exclusive) or <= k."""
    d_in, d_out = n_in // num_blocks, n_out // num_blocks
    mask = np.zeros([n_out, n_in], np.float32)
    first_row = d_out if exclusive else 0
    for k in range(num_blocks):
        mask[first_row + k * d_out:, k * d_in:(k + 1) * d_in] = 1
    return mask


def masked_dense(inputs, units, num_blocks=None, exclusive=False, kernel_initializer=None,
                 reuse=None, name=None, *args, **kwargs):
    """A `tf.layers.dense` whose kernel is masked so that output block k depends on input
    blocks before k (`exclusive`) or up to k, for a MADE network."""
    from estimator_compat.legacy.layer_classes import Dense
    input_depth = tf.compat.dimension_value(inputs.shape.with_rank_at_least(1)[-1])
    if input_depth is None:
        raise NotImplementedError("Rightmost dimension must be known prior to graph execution.")
    mask = _mask(num_blocks, input_depth, units, exclusive).T
    if kernel_initializer is None:
        kernel_initializer = _v1.glorot_normal_initializer()

    def masked_initializer(shape, dtype=None, partition_info=None):
        return mask * kernel_initializer(shape, dtype, partition_info)
    with _v1.name_scope(name, "masked_dense", [inputs, units, num_blocks]):
        layer = Dense(units, *args, kernel_initializer=masked_initializer,
                      kernel_constraint=lambda x: mask * x, name=name,
                      dtype=inputs.dtype.base_dtype, _scope=name, _reuse=reuse, **kwargs)
        return layer.apply(inputs)


def _clip_by_value_preserve_grad(x, clip_value_min, clip_value_max, name=None):
    """Clipped values with the unclipped gradient."""
    with _v1.name_scope(name, "clip_by_value_preserve_grad",
                        [x, clip_value_min, clip_value_max]):
        clipped = tf.clip_by_value(x, clip_value_min, clip_value_max)
        return x + tf.stop_gradient(clipped - x)


def masked_autoregressive_default_template(hidden_layers, shift_only=False,
                                           activation=tf.nn.relu, log_scale_min_clip=-5.,
                                           log_scale_max_clip=3.,
                                           log_scale_clip_gradient=False, name=None, *args,
                                           **kwargs):
    """The MADE `shift_and_log_scale_fn` (Germain et al. 2015): masked dense layers of
    `hidden_layers` units, then 2 (or 1 when `shift_only`) outputs per input, log_scale
    clipped to [min, max]; a `tf.make_template`, so its variables are shared across calls."""
    name = name or "masked_autoregressive_default_template"
    with _v1.name_scope(name, values=[log_scale_min_clip, log_scale_max_clip]):
        def fn(x):
            input_depth = tf.compat.dimension_value(x.shape.with_rank_at_least(1)[-1])
            if input_depth is None:
                raise NotImplementedError(
                    "Rightmost dimension must be known prior to graph execution.")
            input_shape = (np.int32(x.shape.as_list()) if x.shape.is_fully_defined()
                           else tf.shape(x))
            for i, units in enumerate(hidden_layers):
                x = masked_dense(*args, inputs=x, units=units, num_blocks=input_depth,
                                 exclusive=i == 0, activation=activation, **kwargs)
            x = masked_dense(*args, inputs=x, units=(1 if shift_only else 2) * input_depth,
                             num_blocks=input_depth, activation=None, **kwargs)
            if shift_only:
                return tf.reshape(x, input_shape), None
            x = tf.reshape(x, tf.concat([input_shape, [2]], axis=0))
            shift, log_scale = tf.unstack(x, num=2, axis=-1)
            clip = tf.clip_by_value if log_scale_clip_gradient else _clip_by_value_preserve_grad
            return shift, clip(log_scale, log_scale_min_clip, log_scale_max_clip)
        return _v1.make_template(name, fn)
