"""`Inline`: a bijector made of the functions passed in (a missing one raises
NotImplementedError when needed, as the base class's defaults do)."""
from ._checks import Bijector


def _call(fn, what, value, kwargs):
    if not callable(fn):
        raise NotImplementedError("%s is not a callable function." % what)
    return fn(value, **kwargs)


class Inline(Bijector):
    """A `Bijector` from `forward_fn`, `inverse_fn`, the log-det-Jacobian functions and,
    where the event shape changes, the event-shape functions (identity when None)."""

    def __init__(self, forward_fn=None, inverse_fn=None, inverse_log_det_jacobian_fn=None,
                 forward_log_det_jacobian_fn=None, forward_event_shape_fn=None,
                 forward_event_shape_tensor_fn=None, inverse_event_shape_fn=None,
                 inverse_event_shape_tensor_fn=None, is_constant_jacobian=False,
                 validate_args=False, forward_min_event_ndims=None,
                 inverse_min_event_ndims=None, name="inline"):
        super().__init__(forward_min_event_ndims=forward_min_event_ndims,
                         inverse_min_event_ndims=inverse_min_event_ndims,
                         is_constant_jacobian=is_constant_jacobian,
                         validate_args=validate_args, name=name)
        self._forward_fn = forward_fn
        self._inverse_fn = inverse_fn
        self._inverse_log_det_jacobian_fn = inverse_log_det_jacobian_fn
        self._forward_log_det_jacobian_fn = forward_log_det_jacobian_fn
        self._forward_event_shape_fn = forward_event_shape_fn
        self._forward_event_shape_tensor_fn = forward_event_shape_tensor_fn
        self._inverse_event_shape_fn = inverse_event_shape_fn
        self._inverse_event_shape_tensor_fn = inverse_event_shape_tensor_fn

    def _forward_event_shape(self, input_shape):
        fn = self._forward_event_shape_fn
        return input_shape if fn is None else fn(input_shape)

    def _forward_event_shape_tensor(self, input_shape):
        fn = self._forward_event_shape_tensor_fn
        return input_shape if fn is None else fn(input_shape)

    def _inverse_event_shape(self, output_shape):
        fn = self._inverse_event_shape_fn
        return output_shape if fn is None else fn(output_shape)

    def _inverse_event_shape_tensor(self, output_shape):
        fn = self._inverse_event_shape_tensor_fn
        return output_shape if fn is None else fn(output_shape)

    def _forward(self, x, **kwargs):
        return _call(self._forward_fn, "forward_fn", x, kwargs)

    def _inverse(self, y, **kwargs):
        return _call(self._inverse_fn, "inverse_fn", y, kwargs)

    def _inverse_log_det_jacobian(self, y, **kwargs):
        return _call(self._inverse_log_det_jacobian_fn, "inverse_log_det_jacobian_fn", y,
                     kwargs)

    def _forward_log_det_jacobian(self, x, **kwargs):
        return _call(self._forward_log_det_jacobian_fn, "forward_log_det_jacobian_fn", x,
                     kwargs)
