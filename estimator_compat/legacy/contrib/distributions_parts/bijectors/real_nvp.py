"""`RealNVP` (Dinh et al. 2017): an affine coupling layer; the first `num_masked` units pass
through and parameterize the shift / log-scale of the rest. `real_nvp_default_template` is
its default network (a `tf.make_template` of TF1 dense layers)."""
import tensorflow as tf

from ._checks import Bijector

_v1 = tf.compat.v1


class RealNVP(Bijector):
    """`y[:d] = x[:d]`, `y[d:] = x[d:] * exp(log_scale) + shift` with
    (shift, log_scale) = `shift_and_log_scale_fn(x[:d], D - d)`, d = `num_masked`."""

    def __init__(self, num_masked, shift_and_log_scale_fn, is_constant_jacobian=False,
                 validate_args=False, name=None):
        if num_masked <= 0:
            raise ValueError("num_masked must be a positive integer.")
        self._num_masked = num_masked
        self._input_depth = None
        self._shift_and_log_scale_fn = shift_and_log_scale_fn
        super().__init__(forward_min_event_ndims=1, is_constant_jacobian=is_constant_jacobian,
                         validate_args=validate_args, name=name or "real_nvp")

    def _cache_input_depth(self, x):
        if self._input_depth is None:
            self._input_depth = tf.compat.dimension_value(x.shape.with_rank_at_least(1)[-1])
            if self._input_depth is None:
                raise NotImplementedError(
                    "Rightmost dimension must be known prior to graph execution.")
            if self._num_masked >= self._input_depth:
                raise ValueError("Number of masked units must be smaller than the event size.")

    def _params(self, x):
        """(x[:, :d], x[:, d:], shift, log_scale) for the input or output `x`."""
        self._cache_input_depth(x)
        x0, x1 = x[:, :self._num_masked], x[:, self._num_masked:]
        shift, log_scale = self._shift_and_log_scale_fn(x0,
                                                        self._input_depth - self._num_masked)
        return x0, x1, shift, log_scale

    def _forward(self, x):
        x0, y1, shift, log_scale = self._params(x)
        if log_scale is not None:
            y1 *= tf.exp(log_scale)
        if shift is not None:
            y1 += shift
        return tf.concat([x0, y1], axis=-1)

    def _inverse(self, y):
        y0, x1, shift, log_scale = self._params(y)
        if shift is not None:
            x1 -= shift
        if log_scale is not None:
            x1 *= tf.exp(-log_scale)
        return tf.concat([y0, x1], axis=-1)

    def _inverse_log_det_jacobian(self, y):
        _, _, _, log_scale = self._params(y)
        if log_scale is None:
            return tf.constant(0., dtype=y.dtype, name="ildj")
        return -tf.reduce_sum(log_scale, axis=-1)

    def _forward_log_det_jacobian(self, x):
        _, _, _, log_scale = self._params(x)
        if log_scale is None:
            return tf.constant(0., dtype=x.dtype, name="fldj")
        return tf.reduce_sum(log_scale, axis=-1)


def real_nvp_default_template(hidden_layers, shift_only=False, activation=tf.nn.relu,
                              name=None, *args, **kwargs):
    """RealNVP's default `shift_and_log_scale_fn`: dense layers of `hidden_layers` units,
    then `output_units` shifts (and as many log-scales unless `shift_only`)."""
    from estimator_compat.legacy.layers import dense
    with _v1.name_scope(name, "real_nvp_default_template"):
        def fn(x, output_units):
            for units in hidden_layers:
                x = dense(*args, inputs=x, units=units, activation=activation, **kwargs)
            x = dense(*args, inputs=x, units=(1 if shift_only else 2) * output_units,
                      activation=None, **kwargs)
            if shift_only:
                return x, None
            shift, log_scale = tf.split(x, 2, axis=-1)
            return shift, log_scale
        return _v1.make_template("real_nvp_default_template", fn)
